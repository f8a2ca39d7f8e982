// GraphQL over WebSocket (graphql-ws protocol) on /graphql, beside Yoga's HTTP handler: the
// same schema and plugins (through Yoga's envelop), authenticated once per connection with
// `connectionParams.authorization`; a missing or bad token closes the socket with 4401.
//
// Limits, so that no client holds more of the process than its share: a message over
// `maxPayloadBytes` closes the socket (1009) before it is parsed, even before authentication; an
// organization has at most `maxConnectionsPerOrganization` sockets on this process (one more is
// closed with 4029); a socket runs at most `maxSubscriptionsPerConnection` operations at once (one
// more fails alone with TOO_MANY_SUBSCRIPTIONS); and a socket that does not read its messages is
// closed with 4008 once `maxBufferedBytes` wait for it (see shared-subscriptions.ts).
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer, type WebSocket } from 'ws';
import { isDatabaseUnavailable } from '../db/availability.ts';
import { isBulkheadFull } from '../db/bulkhead.ts';
import { authenticate, usesSessionCookie, type Credentials } from '../auth/caller.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Context } from '../graphql/context.ts';
import { forWebSocket } from '../graphql/errors.ts';
import { foreignCursorError } from '../graphql/cursors.ts';
import { SharedSubscriptions } from '../graphql/shared-subscriptions.ts';
import { errorBody, headerFieldsError } from './errors.ts';
import { credentialsOf } from './sessions.ts';
import { SHUTTING_DOWN } from './shutdown.ts';

/** What this needs of a Yoga server: its endpoint, its envelop (schema, parse, execute, ...) and its logger. */
// biome-ignore lint/suspicious/noExplicitAny: the server context is whatever Yoga's adapter passes; nothing here reads it
type YogaLike = Pick<YogaServerInstance<any, Context>, 'graphqlEndpoint' | 'getEnveloped' | 'logger'>;
type Enveloped = ReturnType<YogaLike['getEnveloped']>;
interface EnvelopedArgs extends ExecutionArgs {
  rootValue: { execute: Enveloped['execute']; subscribe: Enveloped['subscribe'] };
}

export interface WebSocketLimits {
  maxPayloadBytes: number;
  maxSubscriptionsPerConnection: number;
  /** Per api process: sockets are a process's resource (memory, file descriptors), and a count shared
   * through the database would outlive a process that dies with its sockets. */
  maxConnectionsPerOrganization: number;
  maxBufferedBytes: number;
  /** True once shutdown has begun: new sockets are then refused as HTTP requests are (503). */
  isClosing: () => boolean;
}

export interface WebSocketAuthentication {
  /** A session without a request for this long ends (SESSION_IDLE_TIMEOUT_MINUTES), in ms. */
  sessionIdleMs: number;
  /** Whether the upgrade's Origin may use its session cookie (the same rule as HTTP requests). */
  allowedOrigin: (request: IncomingMessage) => boolean;
  /**
   * How often a socket signed in by a session checks it is still live: a revoked or expired
   * session's socket is closed with 4401 within this time (each new operation is checked at once).
   */
  sessionCheckIntervalMs: number;
}

/** An HTTP answer on a socket that asked to upgrade, in the REST error shape. */
function refuseUpgrade(socket: Duplex, status: number, reason: string, body: object, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Connection: close',
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${json}`);
}

export const UNAUTHORIZED_CLOSE_CODE = 4401;
export const FORBIDDEN_CLOSE_CODE = 4403;
export const TOO_MANY_CONNECTIONS_CLOSE_CODE = 4029;
export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;

export function attachGraphqlWebSocket(
  server: Server,
  yoga: YogaLike,
  prisma: PrismaClient,
  limits: WebSocketLimits & WebSocketAuthentication,
): WebSocketServer {
  // Not attached with `server`: then the HTTP server's own errors (a port in use at start-up)
  // would be re-emitted on this one and reported as a WebSocket failure. Upgrades of the
  // GraphQL path are handed over here; others are refused.
  const webSocketServer = new WebSocketServer({ noServer: true, maxPayload: limits.maxPayloadBytes });
  // ws's own refusals of a malformed upgrade (a missing key, an unknown version, a method other
  // than GET) are text; these have the error shape too.
  webSocketServer.on('wsClientError', (error, socket, request) => {
    if (request.method === 'GET') refuseUpgrade(socket, 400, 'Bad Request', errorBody('bad_request', error.message));
    else
      refuseUpgrade(
        socket,
        405,
        'Method Not Allowed',
        errorBody('method_not_allowed', `${request.method} cannot open a WebSocket; allowed: GET`),
        { Allow: 'GET' },
      );
  });
  server.on('upgrade', (request, socket, head) => {
    const refused = headerFieldsError(request);
    if (refused) {
      refuseUpgrade(socket, refused.statusCode, STATUS_CODES[refused.statusCode]!, errorBody(refused.code, refused.message));
      return;
    }
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname !== yoga.graphqlEndpoint) {
      refuseUpgrade(socket, 404, 'Not Found', errorBody('not_found', `No route for ${request.method} ${pathname}`));
      return;
    }
    if (limits.isClosing()) {
      refuseUpgrade(socket, 503, 'Service Unavailable', errorBody(SHUTTING_DOWN.code, SHUTTING_DOWN.message), { 'Retry-After': '1' });
      return;
    }
    webSocketServer.handleUpgrade(request, socket, head, (webSocket) => webSocketServer.emit('connection', webSocket, request));
  });
  const shared = new SharedSubscriptions(limits.maxBufferedBytes, yoga.logger);
  /** Open, authenticated sockets by organization id. */
  const connections = new Map<string, number>();
  const organizationOf = new WeakMap<WebSocket, string>();
  /** Sockets signed in by a session: their subscriptions end (4401) once the session does. */
  const sessionWatches = new WeakMap<WebSocket, NodeJS.Timeout>();
  function watchSession(socket: WebSocket, credentials: Credentials): void {
    const timer = setInterval(async () => {
      const { viewer } = await authenticate(prisma, credentials, limits.sessionIdleMs).catch(() => ({ viewer: undefined }));
      // null: revoked, expired or removed; undefined: the database was away, and the next check decides.
      if (viewer === null && socket.readyState === socket.OPEN) socket.close(UNAUTHORIZED_CLOSE_CODE, 'Unauthorized: the session ended');
    }, limits.sessionCheckIntervalMs);
    timer.unref();
    sessionWatches.set(socket, timer);
  }

  useServer(
    {
      async onConnect(context) {
        const authorization = context.connectionParams?.authorization;
        const { socket, request } = context.extra;
        // The upgrade's cookie: a browser sends the session's with it.
        const credentials = credentialsOf(request.headers, authorization);
        if (usesSessionCookie(credentials) && !limits.allowedOrigin(request)) {
          socket.close(FORBIDDEN_CLOSE_CODE, 'Forbidden: cross-origin use of the session cookie');
          return false;
        }
        let organization: Awaited<ReturnType<typeof authenticate>>['viewer'];
        try {
          ({ viewer: organization } = await authenticate(prisma, credentials, limits.sessionIdleMs));
        } catch (error) {
          // The database away, or the token's share of its connections busy for the whole wait: both pass.
          if (!isDatabaseUnavailable(error) && !isBulkheadFull(error)) throw error;
          // Try Again Later: graphql-ws clients retry it (an internal error, 4500, they would not).
          if (socket.readyState === socket.OPEN) socket.close(TRY_AGAIN_LATER_CLOSE_CODE, 'Database unavailable: try again later');
          return false;
        }
        // Closed while its token was checked: graphql-ws has already said goodbye to it, and it must not be counted.
        if (socket.readyState !== socket.OPEN) return false;
        if (!organization) {
          socket.close(UNAUTHORIZED_CLOSE_CODE, 'Unauthorized');
          return false;
        }
        const open = connections.get(organization.id) ?? 0;
        if (open >= limits.maxConnectionsPerOrganization) {
          socket.close(
            TOO_MANY_CONNECTIONS_CLOSE_CODE,
            `Too many connections: at most ${limits.maxConnectionsPerOrganization} per organization`,
          );
          return false;
        }
        connections.set(organization.id, open + 1);
        organizationOf.set(socket, organization.id);
        if (organization.actor.kind === 'person') watchSession(socket, credentials);
        return true;
      },
      onClose(context) {
        clearInterval(sessionWatches.get(context.extra.socket));
        sessionWatches.delete(context.extra.socket);
        const organizationId = organizationOf.get(context.extra.socket);
        if (organizationId === undefined) return;
        organizationOf.delete(context.extra.socket);
        const open = connections.get(organizationId)! - 1;
        if (open === 0) connections.delete(organizationId);
        else connections.set(organizationId, open);
      },
      // Every error sent over the socket, in results and in `error` messages, without what only
      // HTTP answers use (their status and headers).
      onNext: (_context, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((error) => forWebSocket(error).toJSON()) } : undefined,
      onError: (_context, _id, _payload, errors) => errors.map((error) => forWebSocket(error).toJSON()),
      execute: (args) => (args as EnvelopedArgs).rootValue.execute(args),
      subscribe: (args) => (args as EnvelopedArgs).rootValue.subscribe(args),
      async onSubscribe(context, id, params) {
        // graphql-ws has registered this operation already: it counts.
        if (Object.keys(context.subscriptions).length > limits.maxSubscriptionsPerConnection) {
          const message = `Too many operations on this connection: at most ${limits.maxSubscriptionsPerConnection} at once`;
          return [new GraphQLError(message, { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', max: limits.maxSubscriptionsPerConnection } })];
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...context,
          req: context.extra.request,
          socket: context.extra.socket,
          params,
        });
        let document: DocumentNode;
        try {
          document = parse(params.query);
        } catch (error) {
          // One malformed operation fails alone, as an `error` message for its id; thrown, it
          // would close the socket (4500) and every other subscription on it.
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const errors = validate(schema, document);
        if (errors.length > 0) return errors;
        const contextValue = await contextFactory();
        const args: EnvelopedArgs = {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
        if (getOperationAST(document, params.operationName)?.operation !== 'subscription' || !contextValue.organization) return args;
        // A subscription: shared with every subscriber of the organization that sent the same
        // operation, executed without Yoga's envelop, so its cursors are checked here.
        const refused = await foreignCursorError(args);
        if (refused) return [refused];
        const key = JSON.stringify([contextValue.organization.id, params.operationName ?? null, params.query, params.variables ?? {}]);
        const subscription = shared.subscribe({ args: { ...args, rootValue: undefined }, key, socket: context.extra.socket, id });
        return { ...args, rootValue: { execute, subscribe: () => subscription } };
      },
    },
    webSocketServer,
  );
  return webSocketServer;
}
