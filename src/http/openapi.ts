// The OpenAPI 3.1 document of the REST routes, served at /api/openapi.json and committed as
// openapi.json (`npm run openapi:print`). Request bodies and headers are the JSON Schema of the
// very zod schemas that validate them; answers are described here, every error in the one REST
// error shape with the codes each status can carry.
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { changePayloadSchema } from '../domain/changes.ts';
import { deployPayloadSchema, idempotencyKeySchema } from '../domain/deploys.ts';
import type { DestinationPolicy } from '../domain/destinations.ts';
import { endpointInputSchema } from '../domain/endpoints.ts';
import { EVENT_TYPES } from '../domain/events.ts';
import { MAX_FIELD_ERRORS } from '../domain/input.ts';
import { INGEST_BODY_LIMIT_BYTES } from './ingest.ts';
import { BODY_LIMIT_BYTES } from './json-body.ts';

type JsonSchema = Record<string, unknown>;

/** `io`: what a client sends (input) or what the server answers (output, no other fields). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'What went wrong, in snake_case; one of the codes listed for the status' }),
      message: z.string().meta({ description: 'For people; may change' }),
      details: z
        .array(z.object({ field: z.string().meta({ description: 'Path of the field, e.g. commits[3].sha; body for the whole body' }), message: z.string() }))
        .max(MAX_FIELD_ERRORS)
        .optional()
        .meta({ description: `Only for validation_failed: every invalid field, at most ${MAX_FIELD_ERRORS}` }),
    }),
  })
  .meta({ description: 'The body of every REST error' });

const ingestAnswer = (idName: string) =>
  z.object({
    status: z.enum(['accepted', 'duplicate']).meta({ description: 'duplicate: the X-Idempotency-Key was used before with this token' }),
    [idName]: z.uuid().meta({ description: 'The stored one; for a duplicate, the first one' }),
  });

const deployTestAnswerSchema = z.object({
  status: z.literal('ok'),
  service: z.object({ id: z.uuid(), name: z.string() }).meta({ description: 'The service the deploy token belongs to' }),
});

const createdEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  name: z.string(),
  status: z.literal('ACTIVE'),
  eventTypes: z.array(z.enum(EVENT_TYPES)).meta({ description: 'Empty: every event type' }),
  signingSecret: z.string().regex(/^whsec_/).meta({ description: 'Shown here only; verifies the signatures of deliveries' }),
  createdAt: z.iso.datetime(),
});

/** The error shape with `code` one of `codes`. */
function errorSchema(codes: readonly string[]): JsonSchema {
  const codeIsOneOf = { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } };
  return { allOf: [ref('Error'), codeIsOneOf] };
}

function errorResponse(description: string, codes: readonly string[], headers: Record<string, unknown> = {}) {
  return jsonResponse(description, errorSchema(codes), headers);
}

function jsonResponse(description: string, schema: JsonSchema, headers: Record<string, unknown> = {}) {
  return { description, ...(Object.keys(headers).length > 0 ? { headers } : {}), content: { 'application/json': { schema } } };
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('RateLimit-Limit'),
  'RateLimit-Remaining': header('RateLimit-Remaining'),
  'RateLimit-Reset': header('RateLimit-Reset'),
};
const RETRY_AFTER = { 'Retry-After': header('Retry-After') };

/** Answers any route can give: they come from the HTTP layer, not from the route. */
const TRANSPORT_RESPONSES = {
  '408': { $ref: '#/components/responses/RequestTimeout' },
  '431': { $ref: '#/components/responses/HeadersTooLarge' },
  '500': { $ref: '#/components/responses/InternalError' },
  '503': { $ref: '#/components/responses/Unavailable' },
};

const payloadTooLarge = (limit: number) => errorResponse(`Body over ${limit} bytes, by Content-Length or counted while it streams in; checked first`, ['payload_too_large']);

/** The answers of an ingest route, in the order its checks run; `success` is its 200. */
function ingestResponses(success: ReturnType<typeof jsonResponse>, badRequestCodes: readonly string[]) {
  return {
    '200': success,
    '400': errorResponse('The body is not JSON, or a field or header is invalid', badRequestCodes, RATE_LIMIT_HEADERS),
    '401': errorResponse('X-Deploy-Token missing, malformed, unknown or revoked', ['invalid_deploy_token'], RATE_LIMIT_HEADERS),
    '413': payloadTooLarge(INGEST_BODY_LIMIT_BYTES),
    '415': errorResponse('Content-Type is not application/json, or declares a charset other than utf-8', ['unsupported_media_type'], RATE_LIMIT_HEADERS),
    '429': errorResponse('Over the per-IP rate limit', ['rate_limited'], { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER }),
    ...TRANSPORT_RESPONSES,
  };
}

const BODY_ERRORS = ['invalid_json', 'validation_failed', 'invalid_content_length', 'bad_request'] as const;
const IDEMPOTENCY_KEY = {
  name: 'X-Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes retries safe: one deploy (or change) per key and deploy token; a repeat answers 200 duplicate with the first id',
  schema: jsonSchema(idempotencyKeySchema.unwrap(), 'input'),
};

const INGEST_RULES =
  'Checks run in this order: body size (413), rate limit (429), token (401), media type and JSON (415, 400), fields (400). ' +
  'Unknown fields are ignored; null counts as absent. Strings must not contain NUL or unpaired surrogates; ' +
  'times are ISO 8601 with a time zone and at most 5 minutes in the future; url is an http(s) address.';

/** The document for a server whose webhook destinations follow `destination`. */
export function openApiDocument(destination: DestinationPolicy) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hookline REST API',
      version: packageJson.version,
      description:
        'Deploy and change ingest, webhook endpoint creation, and health. Everything else is the GraphQL API at /graphql. ' +
        'A known path asked with another method answers 405 method_not_allowed with Allow.',
    },
    paths: {
      '/api/ingest/deploy': {
        post: {
          operationId: 'ingestDeploy',
          summary: 'Record a deploy',
          description: INGEST_RULES,
          security: [{ deployToken: [] }],
          parameters: [IDEMPOTENCY_KEY],
          requestBody: { required: true, content: { 'application/json': { schema: ref('DeployPayload') } } },
          responses: ingestResponses(
            jsonResponse('Stored (accepted) or already stored under this idempotency key (duplicate)', ref('DeployAnswer'), RATE_LIMIT_HEADERS),
            [...BODY_ERRORS, 'invalid_idempotency_key'],
          ),
        },
      },
      '/api/ingest/deploy/test': {
        post: {
          operationId: 'testDeploy',
          summary: 'Check a deploy token and payload without storing anything',
          description: `${INGEST_RULES} Has its own rate limit; stores and sends nothing.`,
          security: [{ deployToken: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('DeployPayload') } } },
          responses: ingestResponses(jsonResponse('Token and payload are good', ref('DeployTestAnswer'), RATE_LIMIT_HEADERS), BODY_ERRORS),
        },
      },
      '/api/ingest/change': {
        post: {
          operationId: 'ingestChange',
          summary: 'Record a change that is not a deploy (a feature flag, a configuration)',
          description: `${INGEST_RULES} Shares the deploy route's rate limit.`,
          security: [{ deployToken: [] }],
          parameters: [IDEMPOTENCY_KEY],
          requestBody: { required: true, content: { 'application/json': { schema: ref('ChangePayload') } } },
          responses: ingestResponses(
            jsonResponse('Stored (accepted) or already stored under this idempotency key (duplicate)', ref('ChangeAnswer'), RATE_LIMIT_HEADERS),
            [...BODY_ERRORS, 'invalid_idempotency_key'],
          ),
        },
      },
      '/api/webhooks/endpoints': {
        post: {
          operationId: 'createWebhookEndpoint',
          summary: 'Create a webhook endpoint',
          description:
            'url: https only, at most 2048 characters, not a private, loopback or link-local destination ' +
            '(unless the server allows them for development). Other endpoint operations are in GraphQL.',
          security: [{ apiToken: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEndpointInput') } } },
          responses: {
            '201': jsonResponse('Created; the signing secret is shown only here', ref('WebhookEndpointCreated')),
            '400': errorResponse('The body is not JSON, or a field is invalid', BODY_ERRORS),
            '401': errorResponse('Authorization is not "Bearer <API token>" with a live API token', ['invalid_api_token']),
            '413': payloadTooLarge(BODY_LIMIT_BYTES),
            '415': errorResponse('Content-Type is not application/json, or declares a charset other than utf-8', ['unsupported_media_type']),
            ...TRANSPORT_RESPONSES,
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'health',
          summary: 'The process is up',
          responses: { '200': jsonResponse('Up', ref('Health')), ...TRANSPORT_RESPONSES },
        },
      },
      '/readyz': {
        get: {
          operationId: 'readiness',
          summary: 'The database is reachable and every migration is applied',
          responses: {
            '200': jsonResponse('Ready', ref('Ready')),
            '408': TRANSPORT_RESPONSES['408'],
            '431': TRANSPORT_RESPONSES['431'],
            '500': TRANSPORT_RESPONSES['500'],
            '503': jsonResponse('Not ready (database unreachable, migrations pending), or shutting down', {
              anyOf: [ref('NotReady'), errorSchema(['shutting_down'])],
            }),
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          summary: 'Prometheus metrics',
          responses: {
            '200': { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } },
            ...TRANSPORT_RESPONSES,
          },
        },
      },
      '/api/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This document',
          responses: { '200': jsonResponse('The OpenAPI document', { type: 'object' }), ...TRANSPORT_RESPONSES },
        },
      },
    },
    components: {
      securitySchemes: {
        deployToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Deploy-Token',
          description: "A service's deploy token (hld_ and 40 characters), made with the service",
        },
        apiToken: { type: 'http', scheme: 'bearer', description: "An organization's API token (hla_ and 40 characters)" },
      },
      headers: {
        'RateLimit-Limit': {
          description: 'Requests allowed per client IP per minute on this route; sent from the rate-limit check on, unless the limit is off',
          schema: { type: 'integer', minimum: 1 },
        },
        'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
        'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer', minimum: 1 } },
        'Retry-After': { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 1 } },
      },
      responses: {
        RequestTimeout: errorResponse('Headers and body not all received in time; the connection is closed', ['request_timeout']),
        HeadersTooLarge: errorResponse('Request headers over the server limit; the connection is closed', ['headers_too_large']),
        InternalError: errorResponse('A fault of the server', ['internal_error']),
        Unavailable: errorResponse('Shutting down, or the database is unavailable', ['shutting_down', 'database_unavailable'], RETRY_AFTER),
      },
      schemas: {
        Error: jsonSchema(errorBodySchema, 'output'),
        DeployPayload: jsonSchema(deployPayloadSchema, 'input'),
        ChangePayload: jsonSchema(changePayloadSchema, 'input'),
        WebhookEndpointInput: jsonSchema(endpointInputSchema(destination, true), 'input'),
        DeployAnswer: jsonSchema(ingestAnswer('deploy_id'), 'output'),
        ChangeAnswer: jsonSchema(ingestAnswer('change_id'), 'output'),
        DeployTestAnswer: jsonSchema(deployTestAnswerSchema, 'output'),
        WebhookEndpointCreated: jsonSchema(createdEndpointSchema, 'output'),
        Health: jsonSchema(z.object({ status: z.literal('ok') }), 'output'),
        Ready: jsonSchema(z.object({ status: z.literal('ready') }), 'output'),
        NotReady: jsonSchema(z.object({ status: z.literal('unavailable'), reason: z.string() }), 'output'),
      },
    },
  };
}

/** The document as committed: two-space JSON and a final newline. */
export function printOpenApiDocument(destination: DestinationPolicy): string {
  return `${JSON.stringify(openApiDocument(destination), null, 2)}\n`;
}
