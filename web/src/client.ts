// The GraphQL client: urql over HTTP (POST /graphql) for queries and mutations, and graphql-ws on
// the same path for subscriptions. Both are signed in by the session cookie, which the browser
// sends with every request to this origin (the WebSocket's upgrade too): no token is held here.
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from 'urql';

/** graphql-ws close code for a missing, revoked or expired session (the server closes with it). */
const UNAUTHORIZED_CLOSE_CODE = 4401;

export interface HooklineClient {
  client: Client;
  live: LiveConnection;
  dispose(): void;
}

/** The WebSocket's state, for pages that show live data (and re-read what they show after a reconnection). */
export interface LiveSnapshot {
  state: 'idle' | 'connecting' | 'live';
  /** Counts the connections made: a change while a page is open means it may have missed changes. */
  connections: number;
}

export class LiveConnection {
  private snapshot: LiveSnapshot = { state: 'idle', connections: 0 };
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  readonly get = () => this.snapshot;

  set(state: LiveSnapshot['state']) {
    const connections = this.snapshot.connections + (state === 'live' ? 1 : 0);
    this.snapshot = { state, connections };
    for (const listener of this.listeners) listener();
  }
}

export function createHooklineClient(onUnauthorized: () => void): HooklineClient {
  const live = new LiveConnection();
  const refused = () => onUnauthorized();
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws: WsClient = createWsClient({
    url: `${scheme}://${window.location.host}/graphql`,
    lazy: true,
    // Kept a while after the last subscription ends, so that a page changing its subscription
    // (a filter chosen, the next page opened) goes on on the same socket rather than closing it
    // and opening another (filters chosen quickly on a slow machine left the page with no socket).
    lazyCloseTimeout: 10_000,
    // Reconnect after a lost connection (a restart, a network blip), never after a refused session.
    retryAttempts: 20,
    shouldRetry: (event) => !(event instanceof CloseEvent && event.code === UNAUTHORIZED_CLOSE_CODE),
    on: {
      connecting: () => live.set('connecting'),
      connected: () => live.set('live'),
      closed: (event) => {
        live.set('idle');
        if (event instanceof CloseEvent && event.code === UNAUTHORIZED_CLOSE_CODE) refused();
      },
    },
  });

  const client = new Client({
    url: '/graphql',
    requestPolicy: 'cache-and-network',
    fetchOptions: { credentials: 'same-origin' },
    exchanges: [
      cacheExchange,
      mapExchange({
        onError(error) {
          const unauthenticated =
            error.response?.status === 401 || error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED');
          if (unauthenticated) refused();
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? '' };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });

  return {
    client,
    live,
    dispose: () => void ws.dispose(),
  };
}
