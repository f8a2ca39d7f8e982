// Where a webhook attempt's CPU goes, for bench/delivery.ts: the worker's HTTP path
// (attemptDelivery over the webhook transport: ofetch on undici's request()) against bare
// undici request() and against a WHATWG fetch (undici's fetch, what ofetch uses by default),
// each posting the same request to the receiver `requests` times, `concurrency` at a time, in a
// process of its own (forked by the bench), so only the client's CPU is counted.
import { performance } from 'node:perf_hooks';
import { Agent, fetch as whatwgFetch, request } from 'undici';
import { attemptDelivery } from '../src/delivery/attempt.ts';
import { createWebhookTransport } from '../src/delivery/transport.ts';

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

async function measure(client: string, options: ClientCostOptions, one: () => Promise<unknown>): Promise<ClientCost> {
  // Warm-up: connections, JIT.
  for (let i = 0; i < 200; i++) await one();
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

export async function measureClientCost(options: ClientCostOptions): Promise<ClientCost[]> {
  const { url, headers, body } = options;
  const transport = createWebhookTransport({ allowHttp: true, allowPrivate: true }, { timeoutMs: 15_000 });
  const agent = new Agent();
  const results: ClientCost[] = [];
  results.push(
    await measure('worker: attemptDelivery over ofetch + undici request()', options, () =>
      attemptDelivery(transport, { url, body, headers, timeoutMs: 15_000 }),
    ),
  );
  results.push(
    await measure('bare undici request()', options, async () => {
      const answer = await request(url, { method: 'POST', headers, body, dispatcher: agent });
      await answer.body.text();
    }),
  );
  results.push(
    await measure('WHATWG fetch (undici fetch())', options, async () => {
      const answer = await whatwgFetch(url, { method: 'POST', headers, body, dispatcher: agent });
      await answer.text();
    }),
  );
  await agent.close();
  return results;
}

if (process.send) {
  process.once('message', async (options: ClientCostOptions) => {
    const result = await measureClientCost(options);
    process.send!(result, () => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}
