// The OpenAPI 3.1 document of the REST routes, served at /api/openapi.json and committed as
// openapi.json (`npm run openapi:print`). Request bodies and headers are the JSON Schema of the
// very zod schemas that validate them; answers are described here, every error in the one REST
// error shape with the codes each status can carry.
import { maxHeaderSize } from 'node:http';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import { alertmanagerBodySchema, pagerDutyEventSchema } from '../domain/ingest/alert-payloads.ts';
import { changePayloadSchema } from '../domain/ingest/changes.ts';
import { deployPayloadSchema, idempotencyKeySchema, latestDeployQuerySchema } from '../domain/ingest/deploys.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import { deploymentStatusEventSchema } from '../domain/ingest/github-deployments.ts';
import { endpointInputSchema } from '../domain/webhooks/endpoints.ts';
import { endpointPageQuerySchema } from './endpoints.ts';
import { EVENT_TYPES } from '../domain/webhooks/events.ts';
import { MAX_FIELD_ERRORS } from '../domain/shared/input.ts';
import { MAX_HEADER_FIELDS } from './errors.ts';
import { INGEST_BODY_LIMIT_BYTES } from './json-body.ts';
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
        .array(
          z.object({
            field: z.string().meta({ description: 'Path of the field, e.g. commits[3].sha; body for the whole body' }),
            message: z.string(),
          }),
        )
        .max(MAX_FIELD_ERRORS)
        .optional()
        .meta({ description: `Only for validation_failed: every invalid field, at most ${MAX_FIELD_ERRORS}` }),
    }),
  })
  .meta({ description: 'The body of every REST error' });

const ingestAnswer = (idName: string, statuses: readonly [string, ...string[]] = ['accepted', 'duplicate']) =>
  z.object({
    status: z.enum(statuses).meta({
      description:
        'duplicate: the X-Idempotency-Key was used before with this token' +
        (statuses.includes('updated') ? '; updated: a later stage (rollout_percentage) of the same staged rollout moved it on' : ''),
    }),
    [idName]: z.uuid().meta({ description: 'The stored one; for a duplicate, the first one' }),
  });

const deployTestAnswerSchema = z.object({
  status: z.literal('ok'),
  service: z.object({ id: z.uuid(), name: z.string() }).meta({ description: 'The service the deploy token belongs to' }),
});

const latestDeployAnswerSchema = z.object({
  service: z.object({ id: z.uuid(), name: z.string() }).meta({ description: 'The service the deploy token belongs to' }),
  deploy: z
    .object({
      deploy_id: z.uuid(),
      commit_sha: z.string(),
      environment: z.string().nullable(),
      deployed_at: z.iso.datetime(),
    })
    .nullable()
    .meta({ description: 'Its latest deploy (by deployed_at) to the environment; null before the first one' }),
});

const gitHubAnswerSchema = z.union([
  ingestAnswer('deploy_id').meta({
    description: 'A successful deployment_status: the deploy recorded (or already recorded for this status)',
  }),
  z.object({ status: z.literal('ok') }).meta({ description: 'ping' }),
  z.object({ status: z.literal('ignored'), reason: z.string() }).meta({ description: 'Another state or event: nothing recorded' }),
]);

const createdEndpointSchema = z.object({
  id: z.uuid(),
  url: z.url(),
  name: z.string(),
  status: z.literal('ACTIVE'),
  eventTypes: z.array(z.enum(EVENT_TYPES)).meta({ description: 'Empty: every event type' }),
  signingSecret: z
    .string()
    .regex(/^whsec_/)
    .meta({ description: 'Shown here only; verifies the signatures of deliveries' }),
  createdAt: z.iso.datetime(),
});

const endpointSchema = z.object({
  id: z.uuid(),
  url: z.url(),
  name: z.string(),
  status: z
    .enum(['ACTIVE', 'INACTIVE', 'DISABLED'])
    .meta({ description: 'INACTIVE: paused by a person; DISABLED: stopped after failing deliveries' }),
  eventTypes: z.array(z.enum(EVENT_TYPES)).meta({ description: 'Empty: every event type' }),
  headers: z.array(z.object({ name: z.string(), value: z.string() })).meta({ description: 'Sent with every attempt, in order' }),
  timeoutMs: z.int().nullable().meta({ description: "null: the server's DELIVERY_TIMEOUT_MS" }),
  rateLimitPerSecond: z.int().nullable().meta({ description: 'null: no limit' }),
  consecutiveFailures: z.int().min(0),
  disabledAt: z.iso.datetime().nullable(),
  disabledReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

const endpointPageSchema = z.object({
  data: z.array(endpointSchema).meta({ description: 'Newest first' }),
  nextCursor: z.uuid().nullable().meta({ description: "The next page's `after`; null on the last page" }),
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

const ENDPOINT_ID = { name: 'id', in: 'path', required: true, description: "The endpoint's id", schema: { type: 'string' } };
const API_TOKEN_REFUSED = errorResponse('Authorization is not "Bearer <API token>" with a live API token', ['invalid_api_token']);
const NOT_FOUND = { $ref: '#/components/responses/NotFound' };

const payloadTooLarge = (limit: number) =>
  errorResponse(`Body over ${limit} bytes, by Content-Length or counted while it streams in; checked first`, ['payload_too_large']);

const INVALID_DEPLOY_TOKEN = errorResponse(
  'X-Deploy-Token missing, malformed, unknown or revoked',
  ['invalid_deploy_token'],
  RATE_LIMIT_HEADERS,
);

/** The answers of an ingest route, in the order its checks run; `success` is its 200 (or `successStatus`). */
function ingestResponses(
  success: ReturnType<typeof jsonResponse>,
  badRequestCodes: readonly string[],
  {
    unauthorized = INVALID_DEPLOY_TOKEN,
    successStatus = '200',
    badRequest = errorResponse('The body is not JSON, or a field or header is invalid', badRequestCodes, RATE_LIMIT_HEADERS),
  } = {},
) {
  return {
    [successStatus]: success,
    '400': badRequest,
    '401': unauthorized,
    '413': payloadTooLarge(INGEST_BODY_LIMIT_BYTES),
    '415': errorResponse(
      'Content-Type is not application/json, or declares a charset other than utf-8',
      ['unsupported_media_type'],
      RATE_LIMIT_HEADERS,
    ),
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

const ALERT_RULES =
  "Body size (413) and a per-IP rate limit of its own (429, the deploy route's number) come first. Unknown fields are ignored; " +
  'times in the future are read as now.';

const alertsAnswerSchema = z.object({
  status: z.literal('accepted'),
  incidents: z.array(
    z.object({
      incident_id: z.uuid(),
      action: z.enum(['opened', 'updated', 'resolved', 'unchanged']).meta({ description: 'What this notification did to the incident' }),
    }),
  ),
  unrouted: z.array(
    z.object({ fingerprint: z.string(), reason: z.string().meta({ description: 'Why no service matched, and what to change' }) }),
  ),
});

const pagerDutyInvalidEventSchema = z.object({
  status: z.literal('invalid event'),
  message: z.literal('Event object is invalid'),
  errors: z
    .array(z.string())
    .min(1)
    .meta({ description: 'One "<field> <what is wrong>" per field at fault, e.g. "payload.severity must be one of …"' }),
});

const pagerDutyAnswerSchema = z.object({
  status: z.literal('success'),
  message: z.literal('Event processed'),
  dedup_key: z.string().meta({ description: 'The dedup_key sent, or the one made for a trigger without one' }),
});

/** The document for a server whose webhook destinations follow `destination`. */
export function openApiDocument(destination: DestinationPolicy) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hookline REST API',
      version: packageJson.version,
      description:
        'Deploy, change and alert ingest, webhook endpoints, and health. Everything else is the GraphQL API at /graphql. ' +
        'A known path asked with another method answers 405 method_not_allowed (the Error schema) with Allow, the methods it serves; ' +
        'a path without a route answers 404 not_found (components.responses.NotFound).',
    },
    servers: [{ url: '/', description: 'The Hookline server that serves this document' }],
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
            jsonResponse(
              'Stored (accepted) or already stored under this idempotency key (duplicate)',
              ref('DeployAnswer'),
              RATE_LIMIT_HEADERS,
            ),
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
      '/api/ingest/deploy/latest': {
        get: {
          operationId: 'latestDeploy',
          summary: "The deploy token's service's latest deploy to an environment",
          description:
            'Where a pipeline starts its list of commits (what `hookline deploy` asks before it sends). ' +
            'Without environment: the latest deploy without one. Checks run in this order: rate limit (429, shared with ' +
            'the deploy route), token (401), query (400). A token reads only its own service.',
          security: [{ deployToken: [] }],
          parameters: [
            {
              name: 'environment',
              in: 'query',
              required: false,
              schema: jsonSchema(latestDeployQuerySchema.shape.environment.unwrap(), 'input'),
            },
          ],
          responses: {
            '200': jsonResponse(
              'The service, and its latest deploy to the environment or null',
              ref('LatestDeployAnswer'),
              RATE_LIMIT_HEADERS,
            ),
            '400': errorResponse('A query parameter is invalid (environment given twice)', ['validation_failed'], RATE_LIMIT_HEADERS),
            '401': errorResponse('X-Deploy-Token missing, malformed, unknown or revoked', ['invalid_deploy_token'], RATE_LIMIT_HEADERS),
            '429': errorResponse('Over the per-IP rate limit', ['rate_limited'], { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER }),
            ...TRANSPORT_RESPONSES,
          },
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
            jsonResponse(
              'Stored (accepted) or already stored under this idempotency key (duplicate)',
              ref('ChangeAnswer'),
              RATE_LIMIT_HEADERS,
            ),
            [...BODY_ERRORS, 'invalid_idempotency_key'],
          ),
        },
      },
      '/api/ingest/alerts/alertmanager': {
        post: {
          operationId: 'ingestAlertmanagerAlerts',
          summary: "Receive an Alertmanager webhook notification (version 4) or a Grafana webhook contact point's",
          description:
            `${ALERT_RULES} Each alert routes to the service named by its label service, else app, else job (case-insensitively); ` +
            'one incident per (source, service, groupKey) until every alert of it is resolved. Alerts that name no service are ' +
            'answered in unrouted, with what to change, and kept for the dashboard. A repeat of a notification changes nothing.',
          security: [{ alertSourceToken: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('AlertmanagerNotification') } } },
          responses: ingestResponses(
            jsonResponse(
              'Applied: what became of each incident, and the alerts that routed nowhere',
              ref('AlertsAnswer'),
              RATE_LIMIT_HEADERS,
            ),
            BODY_ERRORS,
            {
              unauthorized: errorResponse(
                'Authorization is not "Bearer <token>" with the token of a live ALERTMANAGER alert source',
                ['invalid_alert_token'],
                RATE_LIMIT_HEADERS,
              ),
            },
          ),
        },
      },
      '/api/ingest/alerts/pagerduty/v2/enqueue': {
        post: {
          operationId: 'ingestPagerDutyEvent',
          summary: 'Receive a PagerDuty Events API v2 event, answering as PagerDuty does',
          description:
            `${ALERT_RULES} The routing_key is the token of a PAGERDUTY_EVENTS alert source, so a body that is not JSON is a 415 or 400 ` +
            'before the 401. trigger opens (or joins) the incident of its dedup_key (one is made when absent) on the service named by ' +
            'payload.component, else payload.source; acknowledge and resolve move it on; for a dedup_key without an incident they do nothing.',
          requestBody: { required: true, content: { 'application/json': { schema: ref('PagerDutyEvent') } } },
          responses: ingestResponses(
            jsonResponse("Processed, in PagerDuty's own answer", ref('PagerDutyAnswer'), RATE_LIMIT_HEADERS),
            BODY_ERRORS,
            {
              unauthorized: errorResponse(
                'routing_key is not the token of a live PAGERDUTY_EVENTS alert source',
                ['invalid_alert_token'],
                RATE_LIMIT_HEADERS,
              ),
              successStatus: '202',
              badRequest: jsonResponse(
                "The event is invalid (PagerDuty's own answer), or the body is not JSON (Hookline's error shape)",
                { oneOf: [ref('PagerDutyInvalidEvent'), errorSchema(BODY_ERRORS.filter((code) => code !== 'validation_failed'))] },
                RATE_LIMIT_HEADERS,
              ),
            },
          ),
        },
      },
      '/api/ingest/github': {
        post: {
          operationId: 'ingestGitHubWebhook',
          summary: "A service's GitHub webhook: deployment_status events record deploys",
          description:
            'On GitHub: Payload URL <this Hookline>/api/ingest/github?service=<service id>, Content type application/json, ' +
            'Secret from the rotateGitHubWebhookSecret mutation, event Deployment statuses. A deployment_status with state ' +
            'success records a deploy (deployment.sha, .environment, .creator, deployment_status.target_url, its created_at); ' +
            'other states, ping and other events answer 200 and record nothing. A redelivery is a duplicate. Checks run in this ' +
            'order: body size (413), rate limit (429, shared with the deploy route), service (400), X-Hub-Signature-256 (401), ' +
            'X-GitHub-Event (400), media type and JSON (415, 400), fields (400).',
          parameters: [
            {
              name: 'service',
              in: 'query',
              required: true,
              description: 'The id of the service the webhook records deploys of',
              schema: { type: 'string', format: 'uuid' },
            },
            {
              name: 'X-Hub-Signature-256',
              in: 'header',
              required: true,
              description: "sha256= and the hex HMAC-SHA256 of the body with the service's GitHub webhook secret",
              schema: { type: 'string' },
            },
            {
              name: 'X-GitHub-Event',
              in: 'header',
              required: true,
              description: 'deployment_status or ping; others are ignored',
              schema: { type: 'string' },
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref('GitHubDeploymentStatusEvent') } } },
          responses: {
            '200': jsonResponse('Recorded, duplicate, pong, or ignored', ref('GitHubAnswer'), RATE_LIMIT_HEADERS),
            '400': errorResponse(
              'No service in the URL, no X-GitHub-Event, the body is not JSON, or a field is invalid',
              ['validation_failed', 'missing_event', 'invalid_json', 'invalid_content_length', 'bad_request'],
              RATE_LIMIT_HEADERS,
            ),
            '401': errorResponse(
              "The signature is missing or not made with the service's secret (or the service has none, or does not exist)",
              ['invalid_signature'],
              RATE_LIMIT_HEADERS,
            ),
            '413': payloadTooLarge(INGEST_BODY_LIMIT_BYTES),
            '415': errorResponse(
              "Content-Type is not application/json (GitHub's form encoding is not taken)",
              ['unsupported_media_type'],
              RATE_LIMIT_HEADERS,
            ),
            '429': errorResponse('Over the per-IP rate limit', ['rate_limited'], { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER }),
            ...TRANSPORT_RESPONSES,
          },
        },
      },
      '/api/webhooks/endpoints': {
        get: {
          operationId: 'listWebhookEndpoints',
          summary: "The organization's webhook endpoints, newest first, a page at a time",
          security: [{ apiToken: [] }],
          parameters: Object.entries(jsonSchema(endpointPageQuerySchema, 'input').properties as Record<string, JsonSchema>).map(
            ([name, schema]) => ({
              name,
              in: 'query',
              required: false,
              description: schema.description,
              schema,
            }),
          ),
          responses: {
            '200': jsonResponse('A page of endpoints', ref('WebhookEndpointPage')),
            '400': errorResponse('limit is not 1 to 100, or after is not a cursor this route answered', ['validation_failed']),
            '401': API_TOKEN_REFUSED,
            ...TRANSPORT_RESPONSES,
          },
        },
        post: {
          operationId: 'createWebhookEndpoint',
          summary: 'Create a webhook endpoint',
          description:
            'url: https only, at most 2048 characters, not a private, loopback or link-local destination ' +
            '(unless the server allows them for development). Rotation, pausing, tests and deliveries are in GraphQL.',
          security: [{ apiToken: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEndpointInput') } } },
          responses: {
            '201': jsonResponse('Created; the signing secret is shown only here', ref('WebhookEndpointCreated')),
            '400': errorResponse('The body is not JSON, or a field is invalid', BODY_ERRORS),
            '401': API_TOKEN_REFUSED,
            '409': errorResponse(
              'The organization has as many endpoints as it may have (WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION); delete one first',
              ['limit_reached'],
            ),
            '413': payloadTooLarge(BODY_LIMIT_BYTES),
            '415': errorResponse('Content-Type is not application/json, or declares a charset other than utf-8', [
              'unsupported_media_type',
            ]),
            ...TRANSPORT_RESPONSES,
          },
        },
      },
      '/ci/hookline-deploy.mjs': {
        get: {
          operationId: 'deployScript',
          summary: '`hookline deploy` as one dependency-free Node script, for pipelines without Hookline installed',
          description: 'Run it with `node hookline-deploy.mjs --environment production`; `--help` lists its flags.',
          responses: {
            '200': { description: 'The script (an ES module)', content: { 'text/javascript': { schema: { type: 'string' } } } },
            ...TRANSPORT_RESPONSES,
          },
        },
      },
      '/ci/hookline-deploy.gitlab-ci.yml': {
        get: {
          operationId: 'gitLabTemplate',
          summary: 'The GitLab CI template that downloads and runs /ci/hookline-deploy.mjs (include it with include:remote)',
          responses: {
            '200': { description: 'The template', content: { 'application/yaml': { schema: { type: 'string' } } } },
            ...TRANSPORT_RESPONSES,
          },
        },
      },
      '/api/webhooks/endpoints/{id}': {
        parameters: [ENDPOINT_ID],
        get: {
          operationId: 'getWebhookEndpoint',
          summary: 'Read a webhook endpoint (never its signing secret)',
          security: [{ apiToken: [] }],
          responses: {
            '200': jsonResponse('The endpoint', ref('WebhookEndpoint')),
            '401': API_TOKEN_REFUSED,
            '404': NOT_FOUND,
            ...TRANSPORT_RESPONSES,
          },
        },
        patch: {
          operationId: 'updateWebhookEndpoint',
          summary: 'Change the fields given; null clears headers, timeoutMs or rateLimitPerSecond',
          security: [{ apiToken: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEndpointChange') } } },
          responses: {
            '200': jsonResponse('The endpoint as changed', ref('WebhookEndpoint')),
            '400': errorResponse('The body is not JSON, or a field is invalid', BODY_ERRORS),
            '401': API_TOKEN_REFUSED,
            '404': NOT_FOUND,
            '413': payloadTooLarge(BODY_LIMIT_BYTES),
            '415': errorResponse('Content-Type is not application/json, or declares a charset other than utf-8', [
              'unsupported_media_type',
            ]),
            ...TRANSPORT_RESPONSES,
          },
        },
        delete: {
          operationId: 'deleteWebhookEndpoint',
          summary: 'Delete a webhook endpoint for good; its pending deliveries are cancelled',
          security: [{ apiToken: [] }],
          responses: {
            '204': { description: 'Deleted' },
            '401': API_TOKEN_REFUSED,
            '404': NOT_FOUND,
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
        alertSourceToken: {
          type: 'http',
          scheme: 'bearer',
          description: "An alert source's token (hlk_ and 40 characters), made with the source",
        },
      },
      headers: {
        'RateLimit-Limit': {
          description:
            'Requests allowed per client IP per minute on this route; sent from the rate-limit check on, unless the limit is off',
          schema: { type: 'integer', minimum: 1 },
        },
        'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
        'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer', minimum: 1 } },
        'Retry-After': { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 1 } },
      },
      responses: {
        RequestTimeout: errorResponse('Headers and body not all received in time; the connection is closed', ['request_timeout']),
        HeadersTooLarge: errorResponse(
          `Request headers over ${maxHeaderSize} bytes (the connection is then closed) or more than ${MAX_HEADER_FIELDS} fields`,
          ['headers_too_large'],
        ),
        InternalError: errorResponse('A fault of the server', ['internal_error']),
        NotFound: errorResponse('No such resource of your organization, or no route for this path', ['not_found']),
        Unavailable: errorResponse(
          'Shutting down, the database is unavailable, or a statement ran past the statement timeout',
          ['shutting_down', 'database_unavailable', 'statement_timeout'],
          RETRY_AFTER,
        ),
      },
      schemas: {
        Error: jsonSchema(errorBodySchema, 'output'),
        DeployPayload: jsonSchema(deployPayloadSchema, 'input'),
        // Unknown fields are refused (validateChangePayload).
        ChangePayload: { ...jsonSchema(changePayloadSchema, 'input'), additionalProperties: false },
        WebhookEndpointInput: jsonSchema(endpointInputSchema(destination, true), 'input'),
        DeployAnswer: jsonSchema(ingestAnswer('deploy_id', ['accepted', 'duplicate', 'updated']), 'output'),
        ChangeAnswer: jsonSchema(ingestAnswer('change_id'), 'output'),
        DeployTestAnswer: jsonSchema(deployTestAnswerSchema, 'output'),
        LatestDeployAnswer: jsonSchema(latestDeployAnswerSchema, 'output'),
        GitHubDeploymentStatusEvent: {
          ...jsonSchema(deploymentStatusEventSchema, 'input'),
          description: "The fields of GitHub's deployment_status event that Hookline reads; ping and other events are any JSON",
        },
        GitHubAnswer: jsonSchema(gitHubAnswerSchema, 'output'),
        WebhookEndpointCreated: jsonSchema(createdEndpointSchema, 'output'),
        AlertmanagerNotification: jsonSchema(alertmanagerBodySchema, 'input'),
        PagerDutyEvent: jsonSchema(pagerDutyEventSchema, 'input'),
        AlertsAnswer: jsonSchema(alertsAnswerSchema, 'output'),
        PagerDutyAnswer: jsonSchema(pagerDutyAnswerSchema, 'output'),
        PagerDutyInvalidEvent: jsonSchema(pagerDutyInvalidEventSchema, 'output'),
        WebhookEndpointChange: jsonSchema(endpointInputSchema(destination, false), 'input'),
        WebhookEndpoint: jsonSchema(endpointSchema, 'output'),
        WebhookEndpointPage: jsonSchema(endpointPageSchema, 'output'),
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
