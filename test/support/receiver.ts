// A real HTTP receiver on loopback standing in for a customer's endpoint: it records every
// request and answers as the test tells it to.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export type Responder = (request: ReceivedRequest, response: ServerResponse) => void;

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Changes how the receiver answers from now on (default: 200 "ok"). */
  respond(responder: Responder): void;
  /** Resolves once `count` requests (to `path` and of event type `event`, if given) have arrived; fails after `timeoutMs`. */
  waitForRequests(count: number, options?: { path?: string; event?: string; timeoutMs?: number }): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let responder: Responder = (_request, response) => response.end('ok');
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        receivedAt: Date.now(),
      };
      requests.push(received);
      responder(received, response);
      for (const waiter of waiters) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond(next) {
      responder = next;
    },
    waitForRequests(count, { path, event, timeoutMs = 30_000 } = {}) {
      const matching = () =>
        requests.filter(
          (request) =>
            (path === undefined || request.path === path) && (event === undefined || request.headers['x-service-event'] === event),
        );
      return new Promise((resolve, reject) => {
        const check = () => {
          if (matching().length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(matching().slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `expected ${count} requests${path ? ` to ${path}` : ''}${event ? ` of ${event}` : ''} within ${timeoutMs} ms, got ${matching().length}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * How much sooner than asked a timeout may end, measured with performance.now(): Node arms
 * timers from the event loop's cached millisecond clock, which lags while the loop is busy.
 */
export const TIMER_SLACK_MS = 50;

/** Polls `probe` until it returns a value other than undefined; fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
