// The webhook endpoints over REST, with an API token: create (the signing secret shown once),
// list, read, change and delete. The same domain functions as the GraphQL mutations; rotation,
// pausing, tests and deliveries are in GraphQL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PrismaClient, WebhookEndpoint } from '../generated/prisma/client.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import { authenticate } from '../auth/bearer.ts';
import { createEndpoint, deleteEndpoint, findEndpoint, listEndpoints, updateEndpoint } from '../domain/webhooks/endpoints.ts';
import { InputError, NotFoundError } from '../domain/shared/errors.ts';
import { parseInput } from '../domain/shared/input.ts';
import { HttpError } from './errors.ts';
import { takeJsonBodies } from './json-body.ts';

export interface EndpointRouteDependencies {
  prisma: PrismaClient;
  destination: DestinationPolicy;
  /** Live webhook endpoints one organization may have. */
  maxEndpointsPerOrganization: number;
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

  const organizationOf = async (request: FastifyRequest) => {
    const organization = await authenticate(deps.prisma, request.headers.authorization);
    if (!organization) throw new HttpError(401, 'invalid_api_token', 'Authorization must be "Bearer <API token>" with a valid API token');
    return organization.id;
  };
  const objectBody = (body: unknown) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new InputError([{ field: 'body', message: 'must be a JSON object' }]);
    return body;
  };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.post('/api/webhooks/endpoints', { config: { invalidInput: 'The endpoint is invalid' } }, async (request, reply) => {
    const organizationId = await organizationOf(request);
    const { endpoint, signingSecret } = await createEndpoint(
      deps.prisma,
      organizationId,
      objectBody(request.body),
      deps.destination,
      deps.maxEndpointsPerOrganization,
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
  });

  app.get('/api/webhooks/endpoints', { config: { invalidInput: 'The page asked for is invalid' } }, async (request) => {
    const organizationId = await organizationOf(request);
    const query = parseInput(endpointPageQuerySchema, request.query);
    const page = await listEndpoints(deps.prisma, organizationId, query.limit ?? ENDPOINT_PAGE_SIZE.default, query.after);
    if (!page) throw new InputError([{ field: 'after', message: AFTER_MESSAGE }]);
    return { data: page.endpoints.map(endpointResource), nextCursor: page.nextCursor };
  });

  app.get('/api/webhooks/endpoints/:id', async (request) => {
    const organizationId = await organizationOf(request);
    const endpoint = await findEndpoint(deps.prisma, organizationId, idOf(request));
    if (!endpoint) throw new NotFoundError('Webhook endpoint', idOf(request));
    return endpointResource(endpoint);
  });

  app.patch('/api/webhooks/endpoints/:id', { config: { invalidInput: 'The change is invalid' } }, async (request) => {
    const organizationId = await organizationOf(request);
    return endpointResource(await updateEndpoint(deps.prisma, organizationId, idOf(request), objectBody(request.body), deps.destination));
  });

  app.delete('/api/webhooks/endpoints/:id', async (request, reply) => {
    const organizationId = await organizationOf(request);
    await deleteEndpoint(deps.prisma, organizationId, idOf(request));
    return reply.status(204).send();
  });
}
