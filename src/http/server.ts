// The HTTP server of every role: health, readiness and metrics; the APIs (api.ts) where the role serves them.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Migration } from '../db/migrate.ts';
import { createThrottledWarnings } from '../db/throttled-warnings.ts';
import type { Metrics } from '../metrics.ts';
import type { ApiServices } from './api.ts';
import { applyBrowserPolicy } from './browser-policy.ts';
import { createClientErrorHandler, createErrorHandler, createNotFoundHandler, headerFieldsError, MAX_HEADER_FIELDS } from './errors.ts';
import { BODY_LIMIT_BYTES } from './json-body.ts';
import { requestLogsAtDebug } from './logging.ts';
import { probeRoutes } from './probes.ts';
import { collectRouteMethods } from './route-methods.ts';
import { describeRoutesOnly } from './route-schemas.ts';
import { answerWhileClosing } from './shutdown.ts';

/** How often repeated database warnings are summed up in one line. */
const UNAVAILABILITY_LOG_INTERVAL_MS = 10_000;

export interface ServerDependencies {
  config: Config;
  /** The process's logger (logging.ts createLogger); the server logs through a child of it. */
  logger: FastifyBaseLogger;
  database: Database;
  metrics: Metrics;
  migrations: Migration[];
  /** What the APIs need; absent in worker processes, which serve none. */
  api?: ApiServices;
}

/** Every role serves health and metrics; `api` and `all` also serve the REST and GraphQL APIs. */
export async function buildServer({ config, logger, database, metrics, migrations, api }: ServerDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    logController: requestLogsAtDebug(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
    // Requests arriving during shutdown get our own 503, in the REST error shape (shutdown.ts).
    return503OnClosing: false,
    // Without these a client that sends headers and part of a body holds its connection forever.
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionTimeout: config.HTTP_CONNECTION_TIMEOUT_MS,
    http: {
      // The headers count against the same deadline as the rest of the request.
      headersTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      // Node looks for late requests this often (default 30 s): a fraction of the deadline,
      // so that a 408 comes at most a quarter of the timeout late.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(config.HTTP_REQUEST_TIMEOUT_MS / 4))),
      // Checked by headerFieldsError instead, so that the answer has the error shape.
      requireHostHeader: false,
    },
    clientErrorHandler: createClientErrorHandler(config.HTTP_REQUEST_TIMEOUT_MS),
  });
  app.decorateRequest('outcome', undefined);
  app.server.maxHeadersCount = MAX_HEADER_FIELDS + 1;
  app.addHook('onRequest', async (request) => {
    const refused = headerFieldsError(request.raw);
    if (refused) throw refused;
  });

  const isClosing = answerWhileClosing(app, config.HTTP_REQUEST_TIMEOUT_MS);
  // A lost database fails every request alike: one warning per cause and interval is what a person can read.
  const warnings = createThrottledWarnings(app.log, UNAVAILABILITY_LOG_INTERVAL_MS);
  app.setErrorHandler(createErrorHandler(warnings));
  const methodsOf = collectRouteMethods(app);
  describeRoutesOnly(app);
  // The document is collected from the routes as they are registered: from here on.
  const openApiDocument = api ? (await import('./openapi.ts')).collectOpenApiDocument(app) : undefined;
  applyBrowserPolicy(app, { corsOrigins: config.CORS_ORIGINS, methodsOf });
  const handleNotFound = createNotFoundHandler(methodsOf);
  app.setNotFoundHandler(handleNotFound);
  // A path or method without a route is known from the request line: answered before any body
  // is read or waited for, whatever that body is (bad JSON, any media type, over the limit).
  app.addHook('onRequest', async (request, reply) => (request.is404 ? handleNotFound(request, reply) : undefined));

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: reply.statusCode });
    metrics.httpRequestDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  probeRoutes(app, { database, migrations, metrics, warnings });

  if (api && openApiDocument) {
    // Loaded by the processes that serve the APIs only: a worker starts without GraphQL, Yoga
    // and the REST routes, about half of the modules a process would load.
    const { registerApi } = await import('./api.ts');
    registerApi(app, { config, database, metrics, api, isClosing, warnings, openApiDocument });
  }
  return app;
}
