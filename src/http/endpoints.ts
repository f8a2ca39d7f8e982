// The webhook endpoints over REST, with an API token: create (the signing secret shown once),
// list, read, change and delete. The same domain functions as the GraphQL mutations; rotation,
// pausing, tests and deliveries are in GraphQL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PrismaClient, WebhookEndpoint } from '../generated/prisma/client.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import { authenticate, changeOriginOf, type Viewer } from '../auth/caller.ts';
import { requireRole, type Role } from '../domain/shared/roles.ts';
import { auditedChange, type ChangeOrigin } from '../domain/shared/audit.ts';
import { endpointChanged, endpointCreated, endpointDeleted } from '../domain/webhooks/endpoint-audit.ts';
import { credentialsOf, requestSource } from './sessions.ts';
import {
  createEndpoint,
  deleteEndpoint,
  endpointInputSchema,
  findEndpoint,
  listEndpoints,
  updateEndpoint,
} from '../domain/webhooks/endpoints.ts';
import { EVENT_TYPES } from '../domain/webhooks/events.ts';
import { InputError, NotFoundError } from '../domain/shared/errors.ts';
import { parseInput } from '../domain/shared/input.ts';
import { HttpError } from './errors.ts';
import { BODY_LIMIT_BYTES, takeJsonBodies } from './json-body.ts';
import {
  BODY_ERRORS,
  errorResponse,
  jsonResponse,
  NOT_FOUND,
  payloadTooLarge,
  TRANSPORT_RESPONSES,
  UNSUPPORTED_MEDIA_TYPE,
} from './route-schemas.ts';

export interface EndpointRouteDependencies {
  prisma: PrismaClient;
  destination: DestinationPolicy;
  /** Live webhook endpoints one organization may have. */
  maxEndpointsPerOrganization: number;
  /** A session without a request for this long ends, in ms. */
  sessionIdleMs: number;
}

export const ENDPOINT_PAGE_SIZE = { default: 25, max: 100 } as const;

const AFTER_MESSAGE = 'must be a nextCursor this route answered';
const pageLimitMessage = `must be a whole number from 1 to ${ENDPOINT_PAGE_SIZE.max}`;
export const endpointPageQuerySchema = z.object({
  // A query string's digits as the integer they write (so the document types it as one); any
  // other text (1.5, 0x10, 1e2) stays text and is refused.
  limit: z
    .preprocess(
      (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
      z.int(pageLimitMessage).min(1, pageLimitMessage).max(ENDPOINT_PAGE_SIZE.max, pageLimitMessage),
    )
    .optional()
    .meta({ description: `Endpoints per page, 1 to ${ENDPOINT_PAGE_SIZE.max} (default ${ENDPOINT_PAGE_SIZE.default})` }),
  after: z.uuid({ error: AFTER_MESSAGE }).optional().meta({ description: 'The nextCursor of the previous page' }),
});

const eventTypesSchema = () => z.array(z.enum(EVENT_TYPES)).meta({ description: 'Empty: every event type' });

const createdEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.url(),
    name: z.string(),
    status: z.literal('ACTIVE'),
    eventTypes: eventTypesSchema(),
    signingSecret: z
      .string()
      .regex(/^whsec_/)
      .meta({ description: 'Shown here only; verifies the signatures of deliveries' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpointCreated' });

const endpointSchema = z
  .object({
    id: z.uuid(),
    url: z.url(),
    name: z.string(),
    status: z
      .enum(['ACTIVE', 'INACTIVE', 'DISABLED'])
      .meta({ description: 'INACTIVE: paused by a person; DISABLED: stopped after failing deliveries' }),
    eventTypes: eventTypesSchema(),
    headers: z.array(z.object({ name: z.string(), value: z.string() })).meta({ description: 'Sent with every attempt, in order' }),
    timeoutMs: z.int().nullable().meta({ description: "null: the server's DELIVERY_TIMEOUT_MS" }),
    rateLimitPerSecond: z.int().nullable().meta({ description: 'null: no limit' }),
    consecutiveFailures: z.int().min(0),
    disabledAt: z.iso.datetime().nullable(),
    disabledReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint' });

const endpointPageSchema = z
  .object({
    data: z.array(endpointSchema).meta({ description: 'Newest first' }),
    nextCursor: z.uuid().nullable().meta({ description: "The next page's `after`; null on the last page" }),
  })
  .meta({ id: 'WebhookEndpointPage' });

const ENDPOINT_ID = z.object({ id: z.string().meta({ description: "The endpoint's id" }) });
const API_TOKEN_REFUSED = errorResponse('Neither "Authorization: Bearer <API token>" with a live API token nor a signed-in session', [
  'invalid_api_token',
]);
/** An API token, or a person's session cookie. */
const API_CREDENTIALS: Record<string, string[]>[] = [{ apiToken: [] }, { sessionCookie: [] }];
const ROLE_REFUSED = errorResponse("The caller's role (or token scope) is below ADMIN", ['forbidden']);
const BODY_REFUSED = {
  '403': ROLE_REFUSED,
  '400': errorResponse('The body is not JSON, or a field is invalid', BODY_ERRORS),
  '401': API_TOKEN_REFUSED,
};
const MEDIA_REFUSED = {
  '413': payloadTooLarge(BODY_LIMIT_BYTES),
  '415': errorResponse(UNSUPPORTED_MEDIA_TYPE, ['unsupported_media_type']),
};

/** An endpoint as every route but creation answers it: everything but its signing secret. */
export function endpointResource(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    name: endpoint.name,
    status: endpoint.status,
    eventTypes: endpoint.eventTypes,
    headers: endpoint.customHeaders,
    timeoutMs: endpoint.timeoutMs,
    rateLimitPerSecond: endpoint.rateLimitPerSecond,
    consecutiveFailures: endpoint.consecutiveFailures,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    disabledReason: endpoint.disabledReason,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export async function endpointRoutes(app: FastifyInstance, deps: EndpointRouteDependencies) {
  takeJsonBodies(app);

  /** The caller, who must have at least `minimum` (403 forbidden otherwise). */
  const viewerOf = async (request: FastifyRequest, minimum: Role): Promise<Viewer> => {
    const { viewer } = await authenticate(deps.prisma, credentialsOf(request.headers), deps.sessionIdleMs);
    if (!viewer)
      throw new HttpError(401, 'invalid_api_token', 'Send "Authorization: Bearer <API token>" with a valid API token, or sign in');
    requireRole(viewer.role, minimum, `${request.method} ${request.routeOptions.url}`);
    return viewer;
  };
  const organizationOf = async (request: FastifyRequest, minimum: Role = 'VIEWER') => (await viewerOf(request, minimum)).id;
  /** Who changes what through a writing route (an ADMIN's), for its audit entry. */
  const adminChangeOf = async (request: FastifyRequest): Promise<ChangeOrigin> =>
    changeOriginOf(await viewerOf(request, 'ADMIN'), requestSource(request));
  const objectBody = (body: unknown) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new InputError([{ field: 'body', message: 'must be a JSON object' }]);
    return body;
  };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  const listSchema = {
    operationId: 'listWebhookEndpoints',
    summary: "The organization's webhook endpoints, newest first, a page at a time",
    security: API_CREDENTIALS,
    querystring: endpointPageQuerySchema,
    response: {
      '200': jsonResponse('A page of endpoints', endpointPageSchema),
      '400': errorResponse('limit is not 1 to 100, or after is not a cursor this route answered', ['validation_failed']),
      '401': API_TOKEN_REFUSED,
      ...TRANSPORT_RESPONSES,
    },
  };
  app.get('/api/webhooks/endpoints', { config: { invalidInput: 'The page asked for is invalid' }, schema: listSchema }, async (request) => {
    const organizationId = await organizationOf(request);
    const query = parseInput(endpointPageQuerySchema, request.query);
    const page = await listEndpoints(deps.prisma, organizationId, query.limit ?? ENDPOINT_PAGE_SIZE.default, query.after);
    if (!page) throw new InputError([{ field: 'after', message: AFTER_MESSAGE }]);
    return { data: page.endpoints.map(endpointResource), nextCursor: page.nextCursor };
  });

  const createSchema = {
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description:
      'url: https only, at most 2048 characters, not a private, loopback or link-local destination ' +
      '(unless the server allows them for development). Rotation, pausing, tests and deliveries are in GraphQL.',
    security: API_CREDENTIALS,
    body: endpointInputSchema(deps.destination, true).meta({ id: 'WebhookEndpointInput' }),
    response: {
      '201': jsonResponse('Created; the signing secret is shown only here', createdEndpointSchema),
      ...BODY_REFUSED,
      '409': errorResponse(
        'The organization has as many endpoints as it may have (WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION); delete one first',
        ['limit_reached'],
      ),
      ...MEDIA_REFUSED,
      ...TRANSPORT_RESPONSES,
    },
  };
  app.post(
    '/api/webhooks/endpoints',
    { config: { invalidInput: 'The endpoint is invalid' }, schema: createSchema },
    async (request, reply) => {
      const origin = await adminChangeOf(request);
      const { endpoint, signingSecret } = await auditedChange(
        deps.prisma,
        origin,
        'webhookEndpoint.create',
        (prisma) =>
          createEndpoint(prisma, origin.organizationId, objectBody(request.body), deps.destination, deps.maxEndpointsPerOrganization),
        (created) => endpointCreated(created.endpoint),
      );
      return reply.status(201).send({
        id: endpoint.id,
        url: endpoint.url,
        name: endpoint.name,
        status: endpoint.status,
        eventTypes: endpoint.eventTypes,
        signingSecret,
        createdAt: endpoint.createdAt.toISOString(),
      });
    },
  );

  const readSchema = {
    operationId: 'getWebhookEndpoint',
    summary: 'Read a webhook endpoint (never its signing secret)',
    security: API_CREDENTIALS,
    params: ENDPOINT_ID,
    response: {
      '200': jsonResponse('The endpoint', endpointSchema),
      '401': API_TOKEN_REFUSED,
      '404': NOT_FOUND,
      ...TRANSPORT_RESPONSES,
    },
  };
  app.get('/api/webhooks/endpoints/:id', { schema: readSchema }, async (request) => {
    const organizationId = await organizationOf(request);
    const endpoint = await findEndpoint(deps.prisma, organizationId, idOf(request));
    if (!endpoint) throw new NotFoundError('Webhook endpoint', idOf(request));
    return endpointResource(endpoint);
  });

  const changeSchema = {
    operationId: 'updateWebhookEndpoint',
    summary: 'Change the fields given; null clears headers, timeoutMs or rateLimitPerSecond',
    security: API_CREDENTIALS,
    params: ENDPOINT_ID,
    body: endpointInputSchema(deps.destination, false).meta({ id: 'WebhookEndpointChange' }),
    response: {
      '200': jsonResponse('The endpoint as changed', endpointSchema),
      ...BODY_REFUSED,
      '404': NOT_FOUND,
      ...MEDIA_REFUSED,
      ...TRANSPORT_RESPONSES,
    },
  };
  app.patch('/api/webhooks/endpoints/:id', { config: { invalidInput: 'The change is invalid' }, schema: changeSchema }, async (request) => {
    const origin = await adminChangeOf(request);
    const input = objectBody(request.body);
    const endpoint = await auditedChange(
      deps.prisma,
      origin,
      'webhookEndpoint.update',
      (prisma) => updateEndpoint(prisma, origin.organizationId, idOf(request), input, deps.destination),
      (changed) => endpointChanged(changed, input),
    );
    return endpointResource(endpoint);
  });

  const deleteSchema = {
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint for good; its pending deliveries are cancelled',
    security: API_CREDENTIALS,
    params: ENDPOINT_ID,
    response: {
      '204': { description: 'Deleted' },
      '401': API_TOKEN_REFUSED,
      '403': ROLE_REFUSED,
      '404': NOT_FOUND,
      ...TRANSPORT_RESPONSES,
    },
  };
  app.delete('/api/webhooks/endpoints/:id', { schema: deleteSchema }, async (request, reply) => {
    const origin = await adminChangeOf(request);
    await auditedChange(
      deps.prisma,
      origin,
      'webhookEndpoint.delete',
      (prisma) => deleteEndpoint(prisma, origin.organizationId, idOf(request)),
      endpointDeleted,
    );
    return reply.status(204).send();
  });
}
