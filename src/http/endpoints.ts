// POST /api/webhooks/endpoints: create a webhook endpoint with an API token (the source
// document's management API). Other operations are in GraphQL.
import type { FastifyInstance } from 'fastify';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DestinationPolicy } from '../delivery/destination.ts';
import { createEndpoint, EndpointInputError } from '../domain/endpoints.ts';
import { authenticateApiToken } from '../domain/organizations.ts';
import { bearerToken } from '../graphql/context.ts';
import { HttpError } from './errors.ts';
import { readJsonBody } from './json-body.ts';

export interface EndpointRouteDependencies {
  prisma: PrismaClient;
  destination: DestinationPolicy;
}

export async function endpointRoutes(app: FastifyInstance, deps: EndpointRouteDependencies) {
  // Fastify's own JSON parser would decode any charset as UTF-8 and replace bad bytes silently.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const json = readJsonBody(request.headers['content-type'], body as Buffer);
    if (json.ok) done(null, json.value);
    else done(json.error);
  });
  app.post('/api/webhooks/endpoints', async (request, reply) => {
    const organization = await authenticateApiToken(deps.prisma, bearerToken(request.headers.authorization));
    if (!organization) throw new HttpError(401, 'invalid_api_token', 'Authorization must be "Bearer <API token>" with a valid API token');
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, 'validation_failed', 'The endpoint is invalid', [{ field: 'body', message: 'must be a JSON object' }]);
    }
    try {
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
    } catch (error) {
      if (error instanceof EndpointInputError) throw new HttpError(400, 'validation_failed', 'The endpoint is invalid', error.details);
      throw error;
    }
  });
}
