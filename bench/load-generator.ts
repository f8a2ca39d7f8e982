// The load generator of bench/ingest.ts. It runs in its own process (forked by the bench),
// so that building requests and parsing responses never competes with the server under test
// for the same event loop.
//
// `connections` workers each keep one request in flight over a keep-alive node:http Agent
// capped at `connections` sockets (undici is not installed; node:http is lighter than
// fetch and gives an exact connection count). Requests finishing during the warm-up are
// discarded; only those finishing inside the measured window count.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './percentile.ts';

export interface LoadOptions {
  url: string;
  deployToken: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadResult {
  /** Requests that finished in the measured window (whatever their outcome). */
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 200, by status ("error" = no answer at all), measured window only. */
  non200: Record<string, number>;
  /** 200 answers whose body was not {"status":"accepted", ...}. */
  notAccepted: number;
  /** First few unexpected answers, to make a failing run diagnosable. */
  samples: string[];
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A deploy as a CI job would send it: the usual fields and five commits. */
function deployBody(): string {
  const now = Date.now();
  return JSON.stringify({
    commit_sha: hex(20),
    environment: 'production',
    branch: 'main',
    version: `v1.${now % 1000}.0`,
    url: `https://ci.example.com/acme/checkout/builds/${now}`,
    commits: Array.from({ length: 5 }, (_, i) => ({
      sha: hex(20),
      message: `Fix flaky checkout retry on payment timeout (#${4200 + i})`,
      author: 'Ada Lovelace <ada@example.com>',
      timestamp: new Date(now - i * 60_000).toISOString(),
    })),
  });
}

interface Answer {
  status: number | 'error';
  body: string;
}

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => resolve({ status: 'error', body: String(error) }));
      },
    );
    request.on('error', (error) => resolve({ status: 'error', body: String(error) }));
    request.end(body);
  });
}

function isAccepted(body: string): boolean {
  try {
    return (JSON.parse(body) as { status?: unknown }).status === 'accepted';
  } catch {
    return false;
  }
}

/** Nearest-rank percentile of an ascending array. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const runId = hex(4);
  let sequence = 0;

  const measureStart = performance.now() + options.warmupSeconds * 1000;
  const measureEnd = measureStart + options.durationSeconds * 1000;
  const latencies: number[] = [];
  const non200: Record<string, number> = {};
  const samples: string[] = [];
  let notAccepted = 0;

  const worker = async () => {
    while (performance.now() < measureEnd) {
      const headers = {
        'content-type': 'application/json',
        'x-deploy-token': options.deployToken,
        // Unique per request, so that every deploy is a new one (accepted, not duplicate).
        'x-idempotency-key': `bench-${runId}-${++sequence}`,
      };
      const body = deployBody();
      const started = performance.now();
      const answer = await post(agent, url, headers, body);
      const finished = performance.now();
      if (finished < measureStart || finished > measureEnd) continue;

      latencies.push(finished - started);
      if (answer.status !== 200) {
        non200[answer.status] = (non200[answer.status] ?? 0) + 1;
      } else if (!isAccepted(answer.body)) {
        notAccepted++;
      } else {
        continue;
      }
      if (samples.length < 3) samples.push(`${answer.status} ${answer.body.slice(0, 300)}`);
    }
  };

  await Promise.all(Array.from({ length: options.connections }, worker));
  agent.destroy();

  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / options.durationSeconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    non200,
    notAccepted,
    samples,
  };
}

// As a forked child: options arrive as the first IPC message, the result goes back the same way.
if (process.send) {
  process.once('message', async (options: LoadOptions) => {
    const result = await runLoad(options);
    process.send!(result, () => process.exit(0));
  });
}
