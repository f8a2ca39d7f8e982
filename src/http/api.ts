// The REST and GraphQL APIs (ingest, endpoints, the dashboard, Yoga at /graphql, graphql-ws),
// registered on the server of a process whose role serves them (api or all).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createYoga } from 'graphql-yoga';
import type { IncomingMessage } from 'node:http';
import { createOidcClient } from '../auth/oidc.ts';
import { sessionLifetime, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createBulkhead } from '../db/bulkhead.ts';
import { inRequestScope } from '../db/request-scope.ts';
import type { ThrottledWarnings } from '../db/throttled-warnings.ts';
import { createContext } from '../graphql/context.ts';
import { OPERATION_RETRY_AFTER_SECONDS, toClientError, yogaLogger } from '../graphql/errors.ts';
import { graphqlPlugins } from '../graphql/plugins.ts';
import { schema } from '../graphql/schema.ts';
import type { AttemptQueue } from '../domain/webhooks/attempt-queue.ts';
import type { DeliveryChangeFeed } from '../domain/webhooks/delivery-changes.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import type { EventFeed } from '../domain/webhooks/listeners.ts';
import type { IncidentChangeFeed } from '../domain/correlation/incident-changes.ts';
import type { Metrics } from '../metrics.ts';
import type { RequestSource } from '../domain/shared/audit.ts';
import { bodilessAnswerError } from './errors.ts';
import { createGraphqlAdmission } from './graphql-admission.ts';
import { takeJsonBodies } from './json-body.ts';
import { createPageCompressor } from './graphiql-page.ts';
import { restRoutes } from './rest.ts';
import { attachGraphqlWebSocket } from './websocket.ts';
import { createFailureLimiter, createRateLimiter } from './rate-limit.ts';
import {
  credentialsOf,
  isAllowedOrigin,
  ownOrigin,
  refuseCrossOriginCookie,
  requestSource,
  upgradeRequestReader,
  type UpgradeRequestReader,
} from './sessions.ts';

// GraphiQL's page carries its scripts and styles inline and starts its editors' workers from
// blobs; it talks to this origin alone (GraphQL over HTTP and WebSocket) and may not be framed.
const GRAPHIQL_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/** How often a WebSocket signed in by a session re-checks it (a revoked session's socket closes within this). */
const SESSION_CHECK_INTERVAL_MS = 5000;

/**
 * Where a GraphQL request came from, TRUST_PROXY applied: Fastify's reading of an HTTP request,
 * the same reading of a WebSocket's upgrade; through yoga.fetch (no socket), its user agent only.
 */
function graphqlRequestSource(
  req: FastifyRequest | IncomingMessage | undefined,
  request: Request | undefined,
  upgrades: UpgradeRequestReader,
): RequestSource {
  if (!req) return { ip: null, userAgent: request?.headers.get('user-agent') ?? null };
  return 'routeOptions' in req ? requestSource(req) : { ip: upgrades.ip(req), userAgent: req.headers['user-agent'] ?? null };
}

/** What the APIs need besides the database: the queue, the live feeds, the destination rules. */
export interface ApiServices {
  queue: AttemptQueue;
  deliveryChanges: DeliveryChangeFeed;
  events: EventFeed;
  incidentChanges: IncidentChangeFeed;
  destination: DestinationPolicy;
}

export interface ApiDependencies {
  config: Config;
  database: Database;
  metrics: Metrics;
  api: ApiServices;
  /** Whether the server is stopping (new WebSockets are refused then). */
  isClosing: () => boolean;
  /** Where database warnings go, once per cause and interval. */
  warnings: ThrottledWarnings;
  /** The OpenAPI document of the server's REST routes. */
  openApiDocument: () => object;
}

export function registerApi(
  app: FastifyInstance,
  { config, database, metrics, api, isClosing, warnings, openApiDocument }: ApiDependencies,
): void {
  const incidentLookbackMs = config.INCIDENT_LOOKBACK_HOURS * 3600_000;
  const statementTimeoutMs = config.API_STATEMENT_TIMEOUT_MS || undefined;
  // Every statement a request runs (its token check, ingest, REST) is cancelled past the timeout;
  // the handler runs inside this callback, so its asynchronous work carries the scope.
  app.addHook('preHandler', (_request, _reply, done) => inRequestScope({ statementTimeoutMs }, done));
  // A session's cookie is honoured only from Hookline's own pages (and CORS_ORIGINS): against cross-site requests.
  app.addHook('onRequest', refuseCrossOriginCookie(config.CORS_ORIGINS));
  const maxEndpointsPerOrganization = config.WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION;
  // One count for sign-ins and password changes: a wrong current password is a guess like a wrong sign-in.
  const signInFailures = createFailureLimiter(database.pool, { name: 'sign-in-failures', maxFailures: 10, windowSeconds: 15 * 60 });
  restRoutes(app, {
    ingest: {
      pool: database.pool,
      prisma: database.prisma,
      queue: api.queue,
      metrics,
      deployRateLimiter: createRateLimiter(database.pool, { name: 'ingest', perMinute: config.INGEST_RATE_LIMIT_PER_MINUTE }),
      testRateLimiter: createRateLimiter(database.pool, { name: 'ingest-test', perMinute: config.INGEST_TEST_RATE_LIMIT_PER_MINUTE }),
      alertRateLimiter: createRateLimiter(database.pool, { name: 'ingest-alerts', perMinute: config.INGEST_RATE_LIMIT_PER_MINUTE }),
      incidentLookbackMs,
    },
    endpoints: {
      prisma: database.prisma,
      destination: api.destination,
      maxEndpointsPerOrganization,
      sessionIdleMs: sessionLifetime(config).idleMs,
    },
    auth: {
      prisma: database.prisma,
      lifetime: sessionLifetime(config),
      corsOrigins: config.CORS_ORIGINS,
      signInFailures,
    },
    oidc: { prisma: database.prisma, oidc: config.oidc && createOidcClient(config.oidc), lifetime: sessionLifetime(config) },
    openApiDocument,
  });
  app.register(import('./dashboard.ts')); // the dashboard (web/dist) at /, with its client routes

  const compressGraphiqlPage = createPageCompressor();
  // One bulkhead for both: a token's requests (before its check) and an organization's operations.
  // One refused runs one operation at a time, and regains one more slot for each Retry-After it
  // goes without a refusal: a flood's operations then take turns on the event loop with everyone
  // else's instead of filling it (bulkhead.ts).
  const operations = createBulkhead({
    slotsPerKey: config.GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION,
    maxWaitMs: config.GRAPHQL_OPERATION_WAIT_MS,
    afterRefusal: { slots: 1, regainEveryMs: OPERATION_RETRY_AFTER_SECONDS * 1000 },
  });
  const admission = createGraphqlAdmission(operations, config.GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION);
  const services = {
    ...api,
    prisma: database.prisma,
    lookbackMs: incidentLookbackMs,
    retentionDays: config.RETENTION_DAYS,
    maxEndpointsPerOrganization,
    sessionIdleMs: sessionLifetime(config).idleMs,
    signInFailures,
  };
  const upgrades = upgradeRequestReader(config.TRUST_PROXY);
  // req: Fastify's request over HTTP, the upgrade request over WebSocket, none through yoga.fetch.
  const yoga = createYoga<{ req?: FastifyRequest | IncomingMessage; reply?: FastifyReply; connectionParams?: Record<string, unknown> }>({
    schema,
    graphqlEndpoint: '/graphql',
    // Cross-origin access is decided for every route alike (browser-policy.ts); Yoga's own
    // default would allow any origin, with credentials.
    cors: false,
    plugins: graphqlPlugins({
      mutationRateLimiter: createRateLimiter(database.pool, { name: 'mutations', perMinute: config.MUTATION_RATE_LIMIT_PER_MINUTE }),
      operationLimits: {
        operations,
        maxOperations: config.GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION,
        statementTimeoutMs,
      },
    }),
    logging: yogaLogger(app.log, warnings),
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
    // HTTP requests carry the token in a header; WebSocket connections in connectionParams. A
    // session's cookie comes with the request (HTTP) or with the WebSocket's upgrade.
    context: ({ request, req, connectionParams }) => {
      const upgrade = req && !('routeOptions' in req) ? req : undefined;
      return createContext(
        services,
        upgrade ? credentialsOf(upgrade.headers, connectionParams?.authorization) : credentialsOf(Object.fromEntries(request.headers)),
        upgrade ? upgrades.origin(upgrade) : req ? ownOrigin(req as FastifyRequest) : new URL(request.url).origin,
        graphqlRequestSource(req, request, upgrades),
      );
    },
  });
  const webSockets = attachGraphqlWebSocket(app.server, yoga, database.prisma, {
    sessionIdleMs: services.sessionIdleMs,
    sessionCheckIntervalMs: SESSION_CHECK_INTERVAL_MS,
    allowedOrigin: (request) => isAllowedOrigin(request.headers.origin, upgrades.origin(request), config.CORS_ORIGINS),
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
  app.register(async (graphqlScope) => {
    takeJsonBodies(graphqlScope);
    graphqlScope.route({
      url: yoga.graphqlEndpoint,
      // GraphQL over HTTP is GET and POST: HEAD and OPTIONS (a preflight is answered by the
      // browser policy before routing) get the 405 every other path gives, with its Allow.
      method: ['GET', 'POST'],
      exposeHeadRoute: false,
      onRequest: admission.admit,
      handler: async (request, reply) => {
        try {
          return await serveGraphql(request, reply);
        } finally {
          admission.release(request);
        }
      },
    });
  });

  async function serveGraphql(request: FastifyRequest, reply: FastifyReply) {
    const response = await yoga.handleNodeRequestAndResponse(request, reply, { req: request, reply });
    if (response.body === null && response.status >= 400) throw bodilessAnswerError(response.status);
    response.headers.forEach((value, key) => reply.header(key, value));
    reply.status(response.status);
    if (response.headers.get('content-type')?.startsWith('text/html')) {
      // GraphiQL's page: compressed where the browser accepts it (GraphQL answers, small or
      // streamed, are sent as they are: a compressor would hold back a stream's events).
      const page = await response.text();
      reply.header('content-security-policy', GRAPHIQL_CONTENT_SECURITY_POLICY).header('vary', 'accept-encoding');
      const compressed = compressGraphiqlPage(page, request.headers['accept-encoding']);
      if (!compressed) return reply.send(page);
      reply.removeHeader('content-length').header('content-encoding', compressed.encoding);
      return reply.send(await compressed.body);
    }
    reply.send(response.body);
    return reply;
  }
}
