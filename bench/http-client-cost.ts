// Where a webhook attempt's CPU goes, for bench/delivery.ts: the worker's HTTP path
// (attemptDelivery over the webhook transport: ofetch on undici's request()) against bare
// undici request() and against a WHATWG fetch (undici's fetch, what ofetch uses by default),
// each posting the same request to the receiver `requests` times, `concurrency` at a time, in a
// process of its own (forked by the bench), so only the client's CPU is counted. The clients
// take turns for ROUNDS rounds after a warm-up of each, and each figure is the median of its
// rounds: the first client measured would otherwise pay for the JIT's warming up.
import { performance } from 'node:perf_hooks';
import { Agent, fetch as whatwgFetch, request } from 'undici';
import { attemptDelivery } from '../src/delivery/attempt.ts';
import { createWebhookTransport, type AttemptResponse } from '../src/delivery/transport.ts';

export interface ClientCostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  requests: number;
  concurrency: number;
}

export interface ClientCost {
  client: string;
  cpuMicrosPerRequest: number;
  requestsPerSecond: number;
}

const ROUNDS = 5;
const WARM_UP_REQUESTS = 1000;

async function measure(client: string, options: ClientCostOptions, one: () => Promise<unknown>): Promise<ClientCost> {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next++ < options.requests) await one();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { client, cpuMicrosPerRequest: (cpu.user + cpu.system) / options.requests, requestsPerSecond: options.requests / seconds };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureClientCost(options: ClientCostOptions): Promise<ClientCost[]> {
  const { url, headers, body } = options;
  const transport = createWebhookTransport({ allowHttp: true, allowPrivate: true }, { timeoutMs: 15_000 });
  const agent = new Agent();
  const clients: [string, () => Promise<unknown>][] = [
    ['worker: attemptDelivery over ofetch + undici request()', () => attemptDelivery(transport, { url, body, headers, timeoutMs: 15_000 })],
    [
      'ofetch over the same transport, body read whole',
      async () => {
        const answer = (await transport.raw(url, { method: 'POST', headers, body, responseType: 'stream' })) as unknown as AttemptResponse;
        await answer.text();
      },
    ],
    [
      'bare undici request()',
      async () => {
        const answer = await request(url, { method: 'POST', headers, body, dispatcher: agent });
        await answer.body.text();
      },
    ],
    [
      'WHATWG fetch (undici fetch())',
      async () => {
        const answer = await whatwgFetch(url, { method: 'POST', headers, body, dispatcher: agent });
        await answer.text();
      },
    ],
  ];
  for (const [, one] of clients) for (let i = 0; i < WARM_UP_REQUESTS; i++) await one();
  const rounds: ClientCost[][] = clients.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [client, one]] of clients.entries()) rounds[index]!.push(await measure(client, options, one));
  }
  await agent.close();
  return rounds.map((measured) => ({
    client: measured[0]!.client,
    cpuMicrosPerRequest: median(measured.map((cost) => cost.cpuMicrosPerRequest)),
    requestsPerSecond: median(measured.map((cost) => cost.requestsPerSecond)),
  }));
}

if (process.send) {
  process.once('message', async (options: ClientCostOptions) => {
    const result = await measureClientCost(options);
    process.send!(result, () => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}
