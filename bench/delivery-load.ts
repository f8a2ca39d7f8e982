// The receiver-capacity load generator of bench/delivery.ts: posts one webhook request (body and
// headers as the worker sent them) to the receiver over and over, `connections` at a time, in
// its own process (forked by the bench) so that it competes with the receiver only for CPU, as
// the worker does. Requests finishing during the warm-up are not counted.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './percentile.ts';

export interface CapacityOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface CapacityResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 200 ("error" = no answer at all). */
  non200: Record<string, number>;
}

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: Buffer): Promise<number | 'error'> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve('error'));
      },
    );
    request.on('error', () => resolve('error'));
    request.end(body);
  });
}

export async function measureCapacity(options: CapacityOptions): Promise<CapacityResult> {
  const url = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const body = Buffer.from(options.body);
  const measureStart = performance.now() + options.warmupSeconds * 1000;
  const measureEnd = measureStart + options.durationSeconds * 1000;
  const latencies: number[] = [];
  const non200: Record<string, number> = {};

  const loop = async () => {
    while (performance.now() < measureEnd) {
      const started = performance.now();
      const status = await post(agent, url, options.headers, body);
      const finished = performance.now();
      if (finished < measureStart || finished > measureEnd) continue;
      latencies.push(finished - started);
      if (status !== 200) non200[status] = (non200[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  agent.destroy();

  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / options.durationSeconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    non200,
  };
}

// As a forked child: options arrive as the first IPC message, the result goes back the same way.
if (process.send) {
  process.once('message', async (options: CapacityOptions) => {
    const result = await measureCapacity(options);
    process.send!(result, () => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}
