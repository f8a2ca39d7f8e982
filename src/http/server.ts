// The HTTP server: REST routes, GraphQL (Yoga) at /graphql, health and metrics.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createYoga } from 'graphql-yoga';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { pendingMigrations, type Migration } from '../db/migrate.ts';
import { createContext } from '../graphql/context.ts';
import { toClientError } from '../graphql/errors.ts';
import { graphqlPlugins } from '../graphql/plugins.ts';
import { schema } from '../graphql/schema.ts';
import type { AttemptQueue } from '../domain/attempt-queue.ts';
import type { DeliveryChangeFeed } from '../domain/delivery-changes.ts';
import type { DestinationPolicy } from '../domain/destinations.ts';
import type { EventFeed } from '../domain/listeners.ts';
import type { Metrics } from '../metrics.ts';
import { endpointRoutes } from './endpoints.ts';
import { createClientErrorHandler, createNotFoundHandler, handleError } from './errors.ts';
import { ingestRoutes } from './ingest.ts';
import { BODY_LIMIT_BYTES } from './json-body.ts';
import { createPageCompressor } from './graphiql-page.ts';
import { loggingOptions } from './logging.ts';
import { openApiDocument } from './openapi.ts';
import { attachGraphqlWebSocket } from './websocket.ts';
import { createRateLimiter } from './rate-limit.ts';
import { collectRouteMethods } from './route-methods.ts';
import { answerWhileClosing } from './shutdown.ts';

export interface ServerDependencies {
  config: Config;
  database: Database;
  metrics: Metrics;
  migrations: Migration[];
  /** What the APIs need; absent in worker processes, which serve none. */
  api?: {
    queue: AttemptQueue;
    deliveryChanges: DeliveryChangeFeed;
    events: EventFeed;
    destination: DestinationPolicy;
  };
}

/** Every role serves health and metrics; `api` and `all` also serve the REST and GraphQL APIs. */
export function buildServer({ config, database, metrics, migrations, api }: ServerDependencies): FastifyInstance {
  const app = Fastify({
    ...loggingOptions(config),
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
    },
    clientErrorHandler: createClientErrorHandler(config.HTTP_REQUEST_TIMEOUT_MS),
  });
  app.decorateRequest('outcome', undefined);

  const isClosing = answerWhileClosing(app, config.HTTP_REQUEST_TIMEOUT_MS);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(createNotFoundHandler(collectRouteMethods(app)));

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: request.method, route, status: reply.statusCode });
    metrics.httpRequestDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    try {
      const pending = await pendingMigrations(database.pool, migrations);
      if (pending.length > 0) return reply.status(503).send({ status: 'unavailable', reason: `migrations pending: ${pending.join(', ')}` });
      return { status: 'ready' };
    } catch (error) {
      // The cause (often the database's address) is for the operator's log, not for anonymous callers.
      request.log.warn({ err: error }, 'readiness check: database unavailable');
      return reply.status(503).send({ status: 'unavailable', reason: 'database unavailable' });
    }
  });

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  if (!api) return app;

  const incidentLookbackMs = config.INCIDENT_LOOKBACK_HOURS * 3600_000;
  app.register(ingestRoutes, {
    pool: database.pool,
    prisma: database.prisma,
    queue: api.queue,
    metrics,
    deployRateLimiter: createRateLimiter(database.pool, { name: 'ingest', perMinute: config.INGEST_RATE_LIMIT_PER_MINUTE }),
    testRateLimiter: createRateLimiter(database.pool, { name: 'ingest-test', perMinute: config.INGEST_TEST_RATE_LIMIT_PER_MINUTE }),
    incidentLookbackMs,
  });

  app.register(endpointRoutes, { prisma: database.prisma, destination: api.destination });
  const restApiDocument = openApiDocument(api.destination);
  app.get('/api/openapi.json', async () => restApiDocument);
  app.register(import('./dashboard.ts')); // the dashboard (web/dist) at /, with its client routes

  const compressGraphiqlPage = createPageCompressor();
  const services = { ...api, prisma: database.prisma, lookbackMs: incidentLookbackMs };
  const yoga = createYoga<{ req?: FastifyRequest; reply?: FastifyReply; connectionParams?: Record<string, unknown> }>({
    schema,
    graphqlEndpoint: '/graphql',
    plugins: graphqlPlugins,
    logging: app.log,
    // GraphiQL for a browser's GET /graphql (Accept: text/html), its scripts and styles inside the
    // page so that nothing is fetched from elsewhere (it works offline). The page holds no data:
    // every query it runs needs an API token, like any other request.
    graphiql: {
      title: 'Hookline GraphQL',
      headers: JSON.stringify({ Authorization: 'Bearer hla_...' }),
    },
    // Loaded at the first visit: the module holds the whole 9 MB page, which costs a process about
    // 65 MB of memory, and most api processes never serve GraphiQL.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    // Errors that are not GraphQLErrors (bugs, database failures) reach clients as "Unexpected
    // error." with code INTERNAL_SERVER_ERROR and are logged; isDev false: Yoga would otherwise
    // add the original message and stack to responses whenever NODE_ENV=development.
    maskedErrors: { isDev: false, maskError: toClientError },
    // HTTP requests carry the token in a header; WebSocket connections in connectionParams.
    context: ({ request, connectionParams }) =>
      createContext(services, connectionParams ? String(connectionParams.authorization ?? '') : request.headers.get('authorization')),
  });
  const webSockets = attachGraphqlWebSocket(app.server, yoga, database.prisma, {
    maxPayloadBytes: config.WS_MAX_PAYLOAD_BYTES,
    maxSubscriptionsPerConnection: config.WS_MAX_SUBSCRIPTIONS_PER_CONNECTION,
    maxConnectionsPerOrganization: config.WS_MAX_CONNECTIONS_PER_ORGANIZATION,
    maxBufferedBytes: config.WS_MAX_BUFFERED_BYTES,
    isClosing,
  });
  app.addHook('preClose', async () => {
    // Upgraded sockets would hold the server open: say goodbye to subscribers first.
    for (const socket of webSockets.clients) socket.close(1001, 'Server shutting down');
    await new Promise((resolve) => webSockets.close(resolve));
  });
  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    handler: async (request, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(request, reply, { req: request, reply });
      response.headers.forEach((value, key) => reply.header(key, value));
      reply.status(response.status);
      if (response.headers.get('content-type')?.startsWith('text/html')) {
        // GraphiQL's page: compressed where the browser accepts it (GraphQL answers, small or
        // streamed, are sent as they are: a compressor would hold back a stream's events).
        const page = await response.text();
        reply.header('vary', 'accept-encoding');
        const compressed = compressGraphiqlPage(page, request.headers['accept-encoding']);
        if (!compressed) return reply.send(page);
        reply.removeHeader('content-length').header('content-encoding', compressed.encoding);
        return reply.send(await compressed.body);
      }
      reply.send(response.body);
      return reply;
    },
  });

  return app;
}
