// The subscribers of bench/subscriptions.ts: one process (forked by the bench) holding `count`
// graphql-ws clients, each on its own WebSocket with one `deliveryUpdated` subscription, as
// that many dashboards would. It records when each change reached each subscriber and checks
// that every subscriber got each delivery's changes in order.
//
// The bench drives it over IPC: `{ id, method, params }` in, `{ id, result }` out.
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface ClientOptions {
  /** ws://host:port/graphql */
  url: string;
  apiToken: string;
  count: number;
  query: string;
  /** Connections opened at once while starting (the api authenticates each). */
  connectConcurrency: number;
}

/** `${deliveryId}|${status}|${attemptCount}`: one change of one delivery. */
export type ChangeKey = string;

export interface Progress {
  connected: number;
  /** Subscribers that have received at least one change. */
  live: number;
  /** Changes received, over all subscribers, since the last collect(). */
  received: number;
  /** Subscription errors and refused or lost connections. */
  errors: string[];
}

export interface Collected {
  /** For each change, when each subscriber received it (epoch ms, sub-ms precision). */
  receipts: Record<ChangeKey, number[]>;
  /** Changes that reached a subscriber out of order for their delivery, or twice. */
  outOfOrder: number;
}

export interface ClientMethods {
  /** Opens the connections and subscribes; resolves once every connection is acknowledged. */
  start(params: ClientOptions): Promise<Progress>;
  progress(): Progress;
  /** Every receipt so far, and forgets them; changes of `ignore`d deliveries are not recorded from now on. */
  collect(params?: { ignore: string[] }): Collected;
  stop(): Promise<void>;
}

export type ClientRequest = {
  [M in keyof ClientMethods]: { id: number; method: M; params: Parameters<ClientMethods[M]>[0] };
}[keyof ClientMethods];

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
const now = () => performance.timeOrigin + performance.now();

interface Change {
  id: string;
  status: string;
  attemptCount: number;
}

/** Where a change sits in its delivery's life: each later change is strictly greater. */
const rank = (change: Change) => change.attemptCount * 2 + (change.status === 'PENDING' ? 0 : 1);

const clients: Client[] = [];
let connected = 0;
let live = 0;
let received = 0;
let outOfOrder = 0;
const errors: string[] = [];
let receipts = new Map<ChangeKey, number[]>();
/** Deliveries not measured (the warm-up's). */
const ignored = new Set<string>();

function subscribeOne(options: ClientOptions): Promise<void> {
  return new Promise((resolve) => {
    let acknowledged = false;
    const client = createClient({
      url: options.url,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${options.apiToken}` },
      retryAttempts: 0,
      on: {
        connected: () => {
          acknowledged = true;
          connected++;
          resolve();
        },
        closed: (event) => {
          if (!acknowledged) {
            errors.push(`connection refused: ${(event as { code?: number }).code}`);
            resolve();
          }
        },
      },
    });
    clients.push(client);
    const last = new Map<string, number>();
    let seen = false;
    client.subscribe<{ deliveryUpdated: Change }>(
      { query: options.query },
      {
        next: (result) => {
          const at = now();
          if (result.errors) {
            errors.push(JSON.stringify(result.errors));
            return;
          }
          const change = result.data!.deliveryUpdated;
          if (ignored.has(change.id)) return;
          const key = `${change.id}|${change.status}|${change.attemptCount}`;
          let times = receipts.get(key);
          if (!times) receipts.set(key, (times = []));
          times.push(at);
          received++;
          if (!seen) {
            seen = true;
            live++;
          }
          const previous = last.get(change.id);
          if (previous !== undefined && rank(change) <= previous) outOfOrder++;
          last.set(change.id, rank(change));
        },
        error: (error) => errors.push(error instanceof Error ? error.message : `socket closed: ${(error as { code?: number }).code}`),
        complete: () => errors.push('subscription completed by the server'),
      },
    );
  });
}

const methods: ClientMethods = {
  async start(options) {
    let next = 0;
    const opener = async () => {
      while (next < options.count) {
        next++;
        await subscribeOne(options);
      }
    };
    await Promise.all(Array.from({ length: options.connectConcurrency }, opener));
    return methods.progress();
  },
  progress: () => ({ connected, live, received, errors: errors.slice(0, 20) }),
  collect(params) {
    for (const id of params?.ignore ?? []) ignored.add(id);
    const collected = { receipts: Object.fromEntries(receipts), outOfOrder };
    receipts = new Map();
    received = 0;
    return collected;
  },
  async stop() {
    await Promise.all(clients.map((client) => client.dispose()));
  },
};

// As a forked child: requests arrive over IPC; the process ends when the bench disconnects.
if (process.send) {
  process.on('message', async ({ id, method, params }: ClientRequest) => {
    const result = await (methods[method] as (params: unknown) => unknown)(params);
    process.send!({ id, result });
  });
  process.on('disconnect', () => process.exit(0));
}
