// The clients of bench/api-fairness.ts, each organization's in a process of its own (forked by
// it), so that building requests and reading answers never competes with the server under test
// for its event loop. Told an order over IPC, it sends back what it got: the flood keeps
// `concurrency` GraphQL requests in flight for `seconds` (each answered one sent again at once);
// the trickle sends `perSecond` calls a second, alternately a deploy and a query, each on its own.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface FloodOrder {
  kind: 'flood';
  url: string;
  apiToken: string;
  concurrency: number;
  seconds: number;
  query: string;
  /**
   * Flood a stub in this process instead of `url`: it answers every request 429 with Retry-After
   * after this many ms, doing nothing else. What is left of the flood's cost to others is then
   * this process's own (its sockets, requests and answers) on the machine's cores.
   */
  stubRefusalMs?: number;
}

export interface TrickleOrder {
  kind: 'trickle';
  apiUrl: string;
  apiToken: string;
  deployToken: string;
  perSecond: number;
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
  /** Connections the flood opened: its concurrency when the server keeps them alive. */
  connectionsOpened: number;
}

export interface Call {
  kind: 'ingest' | 'graphql';
  /** The HTTP status; a GraphQL 200 whose body has errors is 'partial'. */
  status: number | 'partial' | 'error';
  latencyMs: number;
}

export interface TrickleResult {
  calls: Call[];
  /** The first few errors the queries were answered with, to make a failing run diagnosable. */
  samples: string[];
}

let connectionsOpened = 0;

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
    request.once('socket', () => {
      if (!request.reusedSocket) connectionsOpened++;
    });
    request.end(body);
  });
}

/** A server answering every request 429 after `delayMs`, on a port of its own; resolves with its /graphql URL. */
async function refusingStub(delayMs: number): Promise<{ url: string; close(): void }> {
  const server = http.createServer((request, response) => {
    request.resume();
    setTimeout(() => response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"errors":[]}'), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/graphql`, close: () => server.close() };
}

async function flood(order: FloodOrder): Promise<FloodResult> {
  const stub = order.stubRefusalMs === undefined ? undefined : await refusingStub(order.stubRefusalMs);
  if (stub) order = { ...order, url: stub.url };
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
  stub?.close();
  return { answers, connectionsOpened };
}

async function trickle(order: TrickleOrder): Promise<TrickleResult> {
  const started = performance.now();
  const samples: string[] = [];
  const calls: Promise<Call>[] = [];
  for (let index = 0; index < order.perSecond * order.seconds; index++) {
    const dueAt = started + (index * 1000) / order.perSecond;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - performance.now())));
    const kind = index % 2 === 0 ? 'ingest' : 'graphql';
    const sentAt = performance.now();
    const request =
      kind === 'ingest'
        ? fetch(`${order.apiUrl}/api/ingest/deploy`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-deploy-token': order.deployToken },
            body: JSON.stringify({ commit_sha: `${Date.now()}-${index}`, environment: 'production' }),
          })
        : fetch(`${order.apiUrl}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${order.apiToken}` },
            body: JSON.stringify({ query: order.query }),
          });
    calls.push(
      request.then(
        async (response) => {
          const body = await response.text();
          // A GraphQL answer with errors is not a success, whatever its status.
          const errors = kind === 'graphql' && response.status === 200 ? JSON.parse(body).errors : undefined;
          if (errors && samples.length < 3) samples.push(JSON.stringify(errors[0]));
          return { kind, status: errors ? ('partial' as const) : response.status, latencyMs: performance.now() - sentAt };
        },
        () => ({ kind, status: 'error' as const, latencyMs: performance.now() - sentAt }),
      ),
    );
  }
  return { calls: await Promise.all(calls), samples };
}

process.once('message', (order: FloodOrder | TrickleOrder) => {
  void (order.kind === 'flood' ? flood(order) : trickle(order)).then((result) => process.send!(result, () => process.exit(0)));
});
