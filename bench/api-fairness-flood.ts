// The flooding organization of bench/api-fairness.ts, in a process of its own (forked by it), so
// that building its requests and reading its answers never competes with the server under test
// for one event loop. Told {url, apiToken, concurrency, seconds, query} over IPC, it keeps
// `concurrency` GraphQL requests in flight for `seconds` (each answered one is sent again at once)
// and sends back what it got.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface FloodOrder {
  url: string;
  apiToken: string;
  concurrency: number;
  seconds: number;
  query: string;
}

export interface FloodAnswer {
  /** The HTTP status; a 200 whose body has errors (a field failed) is 'partial'. */
  status: number | 'partial' | 'error';
  /** From sending to the whole answer read, ms. */
  latencyMs: number;
  /** Whether a refusal (429/503) carried Retry-After. */
  retryAfter: boolean;
}

export interface FloodResult {
  answers: FloodAnswer[];
}

function post(agent: http.Agent, order: FloodOrder, body: string): Promise<FloodAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      order.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${order.apiToken}`,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode === 200 && Buffer.concat(chunks).includes('"errors"') ? 'partial' : (response.statusCode ?? 0),
            latencyMs: performance.now() - started,
            retryAfter: response.headers['retry-after'] !== undefined,
          }),
        );
      },
    );
    request.on('error', () => resolve({ status: 'error', latencyMs: performance.now() - started, retryAfter: false }));
    request.end(body);
  });
}

async function flood(order: FloodOrder): Promise<FloodResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: order.concurrency });
  const body = JSON.stringify({ query: order.query });
  const endsAt = performance.now() + order.seconds * 1000;
  const answers: FloodAnswer[] = [];
  await Promise.all(
    Array.from({ length: order.concurrency }, async () => {
      while (performance.now() < endsAt) answers.push(await post(agent, order, body));
    }),
  );
  agent.destroy();
  return { answers };
}

process.once('message', (order: FloodOrder) => {
  void flood(order).then((result) => process.send!(result, () => process.exit(0)));
});
