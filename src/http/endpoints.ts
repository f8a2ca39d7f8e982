// POST /api/webhooks/endpoints: create a webhook endpoint with an API token (the source
// document's management API). Other operations are in GraphQL.
import type { FastifyInstance } from 'fastify';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DestinationPolicy } from '../domain/destinations.ts';
import { authenticate } from '../auth/bearer.ts';
import { createEndpoint } from '../domain/endpoints.ts';
import { InputError } from '../domain/errors.ts';
import { HttpError } from './errors.ts';
import { readJsonBody } from './json-body.ts';

export interface EndpointRouteDependencies {
  prisma: PrismaClient;
  destination: DestinationPolicy;
}

export async function endpointRoutes(app: FastifyInstance, deps: EndpointRouteDependencies) {
  // JSON only: Fastify's default text/plain parser would hand the handler a string (a 400, not a
  // 415), and its JSON parser would decode any charset as UTF-8 and replace bad bytes silently.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const json = readJsonBody(request.headers['content-type'], body as Buffer);
    if (json.ok) done(null, json.value);
    else done(json.error);
  });
  app.post('/api/webhooks/endpoints', { config: { invalidInput: 'The endpoint is invalid' } }, async (request, reply) => {
    const organization = await authenticate(deps.prisma, request.headers.authorization);
    if (!organization) throw new HttpError(401, 'invalid_api_token', 'Authorization must be "Bearer <API token>" with a valid API token');
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InputError([{ field: 'body', message: 'must be a JSON object' }]);
    const { endpoint, signingSecret } = await createEndpoint(deps.prisma, organization.id, body, deps.destination);
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
}
