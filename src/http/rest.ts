// The REST routes of the APIs: deploy, change and alert ingest, webhook endpoints, signing in, the CI files and
// the OpenAPI document of them all.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authRoutes, type AuthRouteDependencies } from './auth.ts';
import { ciFileRoutes } from './ci-files.ts';
import { endpointRoutes, type EndpointRouteDependencies } from './endpoints.ts';
import { ingestRoutes, type IngestDependencies } from './ingest.ts';
import { jsonResponse, TRANSPORT_RESPONSES } from './route-schemas.ts';

export interface RestDependencies {
  ingest: IngestDependencies;
  endpoints: EndpointRouteDependencies;
  auth: AuthRouteDependencies;
  /** The OpenAPI document, served at /api/openapi.json. */
  openApiDocument: () => object;
}

const openApiDocumentSchema = {
  operationId: 'openApiDocument',
  summary: 'This document',
  response: { '200': jsonResponse('The OpenAPI document', z.unknown().meta({ override: { type: 'object' } })), ...TRANSPORT_RESPONSES },
};

export function restRoutes(app: FastifyInstance, deps: RestDependencies): void {
  app.register(ingestRoutes, deps.ingest);
  app.register(endpointRoutes, deps.endpoints);
  app.register(authRoutes, deps.auth);
  app.register(ciFileRoutes);
  app.get('/api/openapi.json', { schema: openApiDocumentSchema }, async () => deps.openApiDocument());
}
