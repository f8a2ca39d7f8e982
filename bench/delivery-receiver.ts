// The webhook receiver of bench/delivery.ts: a bare node:http server in its own process (forked
// by the bench), so that it never shares an event loop with the worker under test. It answers
// every POST with 200 "ok" at once and records, per delivery (X-Service-Delivery), the deploy in
// the body (data.deploy.id), when it first arrived and how many times.
//
// The bench drives it over IPC: `{ id, method, params }` in, `{ id, result }` out.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** [delivery id, deploy id, first receipt (epoch ms, sub-ms precision), times received] */
export type ReceiptRecord = [deliveryId: string, deployId: string, receivedAt: number, count: number];

export interface ReceiverSample {
  headers: Record<string, string>;
  body: string;
}

export interface ReceiverMethods {
  /** Forgets everything received so far. */
  reset(): void;
  /** Requests and distinct deliveries received so far. */
  count(): { total: number; distinct: number };
  /** Resolves once `distinct` deliveries have arrived, or after `timeoutMs` with what there is. */
  waitFor(params: { distinct: number; timeoutMs: number }): Promise<{ total: number; distinct: number; reached: boolean }>;
  /** Every record, and one request as it arrived (for the capacity run to replay). */
  collect(): { records: ReceiptRecord[]; total: number; sample: ReceiverSample | null };
}

export type ReceiverRequest = {
  [M in keyof ReceiverMethods]: { id: number; method: M; params: Parameters<ReceiverMethods[M]>[0] };
}[keyof ReceiverMethods];

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export const now = () => performance.timeOrigin + performance.now();

const HEADERS_TO_KEEP = [
  'content-type',
  'user-agent',
  'x-service-event',
  'x-service-delivery',
  'x-service-timestamp',
  'x-service-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
];

function deployIdOf(body: string): string {
  try {
    return (JSON.parse(body) as { data?: { deploy?: { id?: string } } }).data?.deploy?.id ?? '';
  } catch {
    return '';
  }
}

if (process.send) {
  const records = new Map<string, ReceiptRecord>();
  let total = 0;
  let sample: ReceiverSample | null = null;
  const waiters = new Set<() => void>();

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const receivedAt = now();
      const body = Buffer.concat(chunks).toString('utf8');
      const deliveryId = String(request.headers['x-service-delivery'] ?? '');
      total++;
      const record = records.get(deliveryId);
      if (record) record[3]++;
      else records.set(deliveryId, [deliveryId, deployIdOf(body), receivedAt, 1]);
      if (!sample) {
        const headers = Object.fromEntries(
          HEADERS_TO_KEEP.flatMap((name) => (request.headers[name] ? [[name, String(request.headers[name])]] : [])),
        );
        sample = { headers, body };
      }
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
      response.end('ok');
      if (!record) for (const waiter of waiters) waiter();
    });
  });
  // Longer than any client's idle keep-alive, so connections are closed by the clients only.
  server.keepAliveTimeout = 72_000;

  const methods: ReceiverMethods = {
    reset() {
      records.clear();
      total = 0;
      sample = null;
    },
    count() {
      return { total, distinct: records.size };
    },
    waitFor({ distinct, timeoutMs }) {
      return new Promise((resolve) => {
        const finish = (reached: boolean) => {
          waiters.delete(check);
          clearTimeout(timer);
          resolve({ total, distinct: records.size, reached });
        };
        const check = () => {
          if (records.size >= distinct) finish(true);
        };
        const timer = setTimeout(() => finish(false), timeoutMs);
        waiters.add(check);
        check();
      });
    },
    collect() {
      return { records: [...records.values()], total, sample };
    },
  };

  process.on('message', async (message: ReceiverRequest) => {
    const result = await (methods[message.method] as (params: unknown) => unknown)(message.params);
    process.send!({ id: message.id, result });
  });
  // The bench going away (even killed) closes the IPC channel: do not outlive it.
  process.on('disconnect', () => process.exit(0));

  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send!({ ready: `http://127.0.0.1:${port}` });
  });
}
