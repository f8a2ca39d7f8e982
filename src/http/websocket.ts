// GraphQL over WebSocket (graphql-ws protocol) on /graphql, beside Yoga's HTTP handler: the
// same schema and plugins (through Yoga's envelop), authenticated once per connection with
// `connectionParams.authorization`; a missing or bad token closes the socket with 4401.
import type { Server } from 'node:http';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { authenticateApiToken } from '../domain/organizations.ts';
import { bearerToken } from '../graphql/context.ts';

/** What this needs of a Yoga server: its endpoint and its envelop (schema, parse, execute, ...). */
type YogaLike = Pick<YogaServerInstance<any, any>, 'graphqlEndpoint' | 'getEnveloped'>;
type Enveloped = ReturnType<YogaLike['getEnveloped']>;
interface EnvelopedArgs extends ExecutionArgs {
  rootValue: { execute: Enveloped['execute']; subscribe: Enveloped['subscribe'] };
}

export const UNAUTHORIZED_CLOSE_CODE = 4401;

/** The error as a graphql-ws client gets it: without the HTTP status Yoga keeps for its own responses. */
function forWebSocket(error: GraphQLError): GraphQLError {
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, { source: error.source, positions: error.positions, extensions });
}

export function attachGraphqlWebSocket(
  server: Server,
  yoga: YogaLike,
  prisma: PrismaClient,
): WebSocketServer {
  // Not attached with `server`: then the HTTP server's own errors (a port in use at start-up)
  // would be re-emitted on this one and reported as a WebSocket failure. Upgrades of the
  // GraphQL path are handed over here; others are refused.
  const webSocketServer = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== yoga.graphqlEndpoint) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    webSocketServer.handleUpgrade(request, socket, head, (webSocket) => webSocketServer.emit('connection', webSocket, request));
  });
  useServer(
    {
      async onConnect(context) {
        const authorization = context.connectionParams?.authorization;
        const organization = await authenticateApiToken(prisma, bearerToken(typeof authorization === 'string' ? authorization : undefined));
        if (!organization) {
          context.extra.socket.close(UNAUTHORIZED_CLOSE_CODE, 'Unauthorized');
          return false;
        }
        return true;
      },
      execute: (args) => (args as EnvelopedArgs).rootValue.execute(args),
      subscribe: (args) => (args as EnvelopedArgs).rootValue.subscribe(args),
      async onSubscribe(context, _id, params) {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...context,
          req: context.extra.request,
          socket: context.extra.socket,
          params,
        });
        let document;
        try {
          document = parse(params.query);
        } catch (error) {
          // One malformed operation fails alone, as an `error` message for its id; thrown, it
          // would close the socket (4500) and every other subscription on it.
          if (error instanceof GraphQLError) return [forWebSocket(error)];
          throw error;
        }
        const args: EnvelopedArgs = {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length > 0) return errors;
        return args;
      },
    },
    webSocketServer,
  );
  return webSocketServer;
}
