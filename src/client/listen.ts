// `hookline listen`: receives the organization's events live over the GraphQL WebSocket, as a
// listener of their types, and forwards each to a local URL signed as Hookline signs webhooks
// (Standard Webhooks), with the developer's own secret, printing each result.
//
// A lost connection is retried until it is back (1, 2, 4, 8 s apart, then every 10 s: a server
// restart or a laptop's sleep takes what it takes, and the user is there to stop it), re-subscribing
// the same listener; events stored while it was down are not replayed. Only a refusal (the token
// revoked, 4401/4403) or the listener gone ends listen with a ClientError (the CLI exits 1).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ofetch } from 'ofetch';
import packageJson from '../../package.json' with { type: 'json' };
import { webhookHeaders } from '../delivery/signing.ts';
import { webhookBody } from '../domain/webhooks/events.ts';
import type { ResultOf } from '@graphql-typed-document-node/core';
import { ClientError, connectWebSocket, describeGraphqlError, requestGraphql, type HooklineApi } from './api.ts';
import { graphql } from './gql/index.ts';

/** Waits before reconnection attempts 1, 2, …; the last repeats for as long as it takes. */
const RECONNECT_DELAYS_S = [1, 2, 4, 8, 10];
/** How long the local app may take to answer one event, as a webhook receiver would be given. */
const FORWARD_TIMEOUT_MS = 15_000;
/** How long the listener may take to be served once subscribed. */
const READY_TIMEOUT_MS = 10_000;

export interface ListenOptions {
  api: HooklineApi;
  /** Absent: events are only printed. */
  forwardTo?: string;
  /** Empty: every type. */
  eventTypes: string[];
  printJson: boolean;
  signingSecret: string;
  /** Where results go (one line each); `status` gets progress and problems. */
  print(line: string): void;
  status(line: string): void;
}

export interface Listening {
  /** Resolves when stopped; rejects with a ClientError when the connection is lost for good. */
  done: Promise<void>;
  stop(): void;
}

// `example`: sent by sendExample, forwarded with `"example": true`, as deliveries carry it.
const EVENT_CREATED = graphql(
  `subscription ListenEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data example } }`,
);
type ReceivedEvent = ResultOf<typeof EVENT_CREATED>['eventCreated'];

interface ForwardResult {
  status?: number;
  durationMs: number;
  error?: string;
}

export async function listen(options: ListenOptions): Promise<Listening> {
  const { api } = options;
  const { viewer } = await requestGraphql(api, graphql(`query ListenViewer { viewer { id } }`));
  const { createListener: listener } = await requestGraphql(
    api,
    graphql(`mutation ListenCreateListener($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes } }`),
    { eventTypes: options.eventTypes },
  );

  let stopping = false;
  // Ends a wait between attempts when the user stops listen, which would otherwise last up to 10 s.
  const stopped = new AbortController();
  const client = connectWebSocket(api, {
    retryAttempts: Number.POSITIVE_INFINITY,
    retryWait: async (retries) => {
      const seconds = RECONNECT_DELAYS_S[Math.min(retries, RECONNECT_DELAYS_S.length - 1)]!;
      options.status(`Reconnecting in ${seconds} s (attempt ${retries + 1}; Ctrl-C to stop)...`);
      // Stopped while waiting: no attempt follows (one after dispose() fails unheard), and a promise
      // that never settles holds nothing open, so the process ends.
      await sleep(seconds * 1000, undefined, { signal: stopped.signal }).catch(() => new Promise<never>(() => {}));
    },
    // A refused or failed connection is retried as a closed one is (the server may be restarting);
    // Forbidden is not (a token that lost its rights keeps them lost). graphql-ws itself gives up
    // on 4401 Unauthorized and the protocol's own errors.
    shouldRetry: (event) => (event as { code?: unknown } | undefined)?.code !== 4403,
    // Pings find a dead connection (a remote server gone without a close) within seconds.
    keepAlive: 10_000,
    on: {
      // Said once the re-subscribed listener is served again, so what is triggered after it arrives.
      connected: (_socket, _payload, wasRetry) => {
        if (!wasRetry) return;
        untilServed(api, listener.id).then(
          () => options.status(`Reconnected to ${api.baseUrl}: listening again.`),
          (error: unknown) => options.status(`error: ${(error as Error).message}`),
        );
      },
      closed: (event) => {
        if (!stopping) options.status(`Connection to ${api.baseUrl} closed: ${describeConnectionError(event)}.`);
      },
    },
  });

  // Events are forwarded one at a time, in the order they came, so the printed lines follow it.
  let forwarding = Promise.resolve();
  let finish = () => {};
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    client.subscribe<ResultOf<typeof EVENT_CREATED>>(
      {
        query: EVENT_CREATED.toString(),
        variables: { listenerId: listener.id },
      },
      {
        next: (result) => {
          if (result.errors?.[0]) {
            options.status(`error: ${describeGraphqlError(result.errors[0])}`);
            return;
          }
          const event = result.data!.eventCreated;
          forwarding = forwarding.then(() => handle(options, viewer.id, event));
        },
        error: (error) => {
          void client.dispose();
          reject(new ClientError(`lost the connection to ${api.baseUrl}: ${describeConnectionError(error)}`));
        },
        complete: () => {
          void client.dispose();
          if (stopping) resolve();
          else reject(new ClientError(`${api.baseUrl} ended the subscription`));
        },
      },
    );
  });
  done.catch(() => {}); // the caller awaits it; until then a rejection is not unhandled

  // Disposing the client ends no subscription on its own: stopping is said here.
  const stop = () => {
    stopping = true;
    stopped.abort();
    void client.dispose();
    finish();
  };
  try {
    await Promise.race([untilServed(api, listener.id), done]);
  } catch (error) {
    stop();
    throw error;
  }
  const types = listener.eventTypes.length > 0 ? listener.eventTypes.join(', ') : 'every event type';
  options.status(
    `Ready: listener ${listener.id} receives ${types}${options.forwardTo ? `, forwarded to ${options.forwardTo}` : ''}. Ctrl-C to stop.`,
  );
  return { done, stop };
}

/** The event types the Hookline at `api` knows, so that a wrong --events is said before anything is made. */
export async function knownEventTypes(api: HooklineApi): Promise<string[]> {
  const { eventTypes } = await requestGraphql(api, graphql(`query ListenEventTypes { eventTypes { name } }`));
  return eventTypes.map((type) => type.name);
}

/** A subscription has no acknowledgement in graphql-ws: the listener says when it is served. */
async function untilServed(api: HooklineApi, listenerId: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { listener } = await requestGraphql(api, graphql(`query ListenListenerLive($id: ID!) { listener(id: $id) { live } }`), {
      id: listenerId,
    });
    if (listener?.live) return;
    await sleep(100);
  }
  throw new ClientError(`the listener was not served within ${READY_TIMEOUT_MS / 1000} s`);
}

async function handle(options: ListenOptions, organizationId: string, event: ReceivedEvent): Promise<void> {
  const body = webhookBody({ ...event, organizationId, createdAt: new Date(event.createdAt) });
  const result = options.forwardTo ? await forward(options.forwardTo, options.signingSecret, event, body) : undefined;
  if (options.printJson) {
    options.print(JSON.stringify({ event: JSON.parse(body) as unknown, ...result }));
  } else if (result) {
    const outcome = result.status === undefined ? `ERR ${result.durationMs}ms` : `${result.status} ${result.durationMs}ms`;
    options.print(`${outcome} ${event.type} ${event.id}${result.error ? ` (${result.error})` : ''}`);
  } else {
    options.print(`${event.type} ${event.id}`);
  }
}

/** POSTs the signed body as one webhook attempt would be sent: the same headers, no redirects. */
async function forward(url: string, signingSecret: string, event: ReceivedEvent, body: string): Promise<ForwardResult> {
  const headers = webhookHeaders({
    deliveryId: event.id,
    eventType: event.type,
    timestamp: Math.floor(Date.now() / 1000),
    body,
    secrets: [signingSecret],
    version: packageJson.version,
  });
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await ofetch.raw(url, {
      method: 'POST',
      body,
      headers,
      redirect: 'manual',
      retry: 0,
      timeout: FORWARD_TIMEOUT_MS,
      ignoreResponseError: true,
      responseType: 'text',
    });
    return { status: response.status, durationMs: elapsed() };
  } catch (error) {
    const cause = (error as { cause?: Error }).cause;
    return { durationMs: elapsed(), error: cause?.message ?? (error as Error).message };
  }
}

/** A close event, a connection error (an Error or a WebSocket ErrorEvent), or GraphQL errors, in words. */
function describeConnectionError(error: unknown): string {
  if (Array.isArray(error) && error[0]) return describeGraphqlError(error[0] as { message: string });
  const problem = error as { code?: unknown; reason?: string; message?: unknown };
  if (typeof problem?.code === 'number') return `code ${problem.code}${problem.reason ? ` (${problem.reason})` : ''}`;
  if (typeof problem?.message === 'string' && problem.message) return problem.message;
  return String(error);
}
