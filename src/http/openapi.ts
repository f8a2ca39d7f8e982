// The OpenAPI 3.1 document of the REST routes, served at /api/openapi.json and committed as
// openapi.json (`npm run openapi:print`). Each route describes itself in its own `schema`: the zod
// schemas of what it reads, and its answers as zod-openapi response objects (route-schemas.ts has
// the parts they share). The document is collected from the routes as they are registered; this
// file holds only what no route owns: the document's head, the credentials, and the components
// the routes refer to (the error body, the rate-limit headers, the transport's answers).
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyInstance, type FastifySchema, type HTTPMethods } from 'fastify';
import { z } from 'zod';
import { createDocument, type ZodOpenApiObject, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import { MAX_FIELD_ERRORS } from '../domain/shared/input.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import { MAX_HEADER_FIELDS } from './errors.ts';
import { probeRoutes } from './probes.ts';
import { restRoutes, type RestDependencies } from './rest.ts';
import { describeRoutesOnly, errorResponse, RETRY_AFTER, type RouteResponses } from './route-schemas.ts';

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

const DOCUMENT_HEAD = {
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
} satisfies Omit<ZodOpenApiObject, 'paths'>;

const COMPONENTS = {
  securitySchemes: {
    deployToken: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Deploy-Token',
      description: "A service's deploy token (hld_ and 40 characters), made with the service",
    },
    apiToken: { type: 'http', scheme: 'bearer', description: "An organization's API token (hla_ and 40 characters)" },
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: 'hookline_session',
      description:
        "A person's session, set by POST /api/auth/sign-in (and set-up and invites); from Hookline's own origin or CORS_ORIGINS only",
    },
    alertSourceToken: {
      type: 'http',
      scheme: 'bearer',
      description: "An alert source's token (hlk_ and 40 characters), made with the source",
    },
  },
  headers: {
    'RateLimit-Limit': {
      description: 'Requests allowed per client IP per minute on this route; sent from the rate-limit check on, unless the limit is off',
      schema: { type: 'integer', minimum: 1 },
    },
    'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
    'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer', minimum: 1 } },
    'Retry-After': { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 1 } },
    'Set-Cookie': {
      description: 'hookline_session=…; HttpOnly; SameSite=Lax; Path=/; Expires=… (and Secure over https)',
      required: true,
      schema: { type: 'string' },
    },
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
  schemas: { Error: errorBodySchema },
} satisfies ZodOpenApiObject['components'];

/** A Fastify URL as an OpenAPI path: `/a/:id` → `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

function operationOf({ body, querystring, headers, response, params: _onThePath, ...described }: FastifySchema): ZodOpenApiOperationObject {
  const requestParams = { ...(querystring ? { query: querystring } : {}), ...(headers ? { header: headers } : {}) };
  return {
    ...described,
    ...(Object.keys(requestParams).length > 0 ? { requestParams } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body as z.ZodType } } } } : {}),
    responses: response as RouteResponses,
  } as ZodOpenApiOperationObject;
}

/**
 * Collects the routes registered on `app` from now on that describe their answers (`schema.response`),
 * HEAD aside (Fastify's copy of each GET); returns the document they make, built at its first call.
 * A route's path parameters describe its path: they go on the path, shared by its methods.
 */
export function collectOpenApiDocument(app: FastifyInstance): () => object {
  const paths: ZodOpenApiPathsObject = {};
  app.addHook('onRoute', ({ method, url, schema }) => {
    if (!schema?.response) return;
    const path = (paths[openApiPath(url)] ??= {});
    if (schema.params) {
      path.parameters = Object.entries((schema.params as z.ZodObject).shape).map(([name, parameter]) =>
        parameter.meta({ param: { name, in: 'path' } }),
      );
    }
    for (const each of [method].flat() as HTTPMethods[]) {
      if (each !== 'HEAD') path[each.toLowerCase() as 'get'] = operationOf(schema);
    }
  });
  let document: object | undefined;
  return () => (document ??= createDocument({ ...DOCUMENT_HEAD, paths, components: COMPONENTS }));
}

/**
 * The document of the REST routes of a server whose webhook destinations follow `destination`,
 * as committed: two-space JSON and a final newline. The routes are registered as the server
 * registers them, on a server that never listens.
 */
export async function printOpenApiDocument(destination: DestinationPolicy): Promise<string> {
  const app = Fastify();
  describeRoutesOnly(app);
  const document = collectOpenApiDocument(app);
  // Registering a route calls none of its dependencies (its handler does): the document needs
  // only the one that shapes a request, the destination rules of webhook endpoints.
  const unused = {} as never;
  probeRoutes(app, unused);
  const endpoints = { destination } as RestDependencies['endpoints'];
  restRoutes(app, { ingest: unused, endpoints, auth: unused, openApiDocument: document });
  await app.ready();
  await app.close();
  return `${JSON.stringify(document(), null, 2)}\n`;
}
