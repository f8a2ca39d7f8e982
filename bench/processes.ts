// Processes and clients the delivery benchmarks share: stopping a child process, the webhook
// receiver in a process of its own (delivery-receiver.ts, driven over IPC), and an ingest client
// posting realistic deploys to an api.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { now, type ReceiverMethods } from './delivery-receiver.ts';
import { cleanups } from './support.ts';

export function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await waitForExit(child);
  clearTimeout(timer);
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * A Hookline process exactly as `npm start` runs one (dist/main.js), on loopback, logging
 * warnings and worse, with no ingest limit and loopback receivers allowed. `listening` resolves
 * with its address, or rejects with the end of its output if it stops first; a caller attaches
 * its own output handling to `child` before awaiting it.
 */
export function spawnHookline(
  role: 'api' | 'worker',
  databaseUrl: string,
  { env = {}, nodeArgs = [] }: { env?: Record<string, string>; nodeArgs?: string[] } = {},
): { child: ChildProcess; listening: Promise<string> } {
  const child = spawn(process.execPath, [...nodeArgs, 'dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ROLE: role,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INGEST_RATE_LIMIT_PER_MINUTE: 'off',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stopChild(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const listening = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Hookline listening on (\S+)/.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`${role} stopped (${signal ?? `exit code ${code}`}):\n${output}`)));
  });
  return { child, listening };
}

export interface Receiver {
  url: string;
  pid: number;
  call<M extends keyof ReceiverMethods>(
    method: M,
    params?: Parameters<ReceiverMethods[M]>[0],
  ): Promise<Awaited<ReturnType<ReceiverMethods[M]>>>;
}

export async function startReceiver(): Promise<Receiver> {
  const child = fork(new URL('./delivery-receiver.ts', import.meta.url), {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: 'inherit',
  });
  cleanups.push(() => stopChild(child));
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { ready?: string; id?: number; result?: unknown }) => {
      if (message.ready) resolve(message.ready);
      else pending.get(message.id!)?.(message.result);
    });
    child.once('exit', (code, signal) => reject(new Error(`receiver stopped (${signal ?? `exit code ${code}`})`)));
  });
  return {
    url,
    pid: child.pid!,
    call(method, params) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, (result) => {
          pending.delete(id);
          resolve(result as never);
        });
        child.send({ id, method, params });
      });
    },
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A deploy as a CI job sends it: the usual fields and five commits (as bench/load-generator.ts). */
function deployBody(): string {
  const time = Date.now();
  return JSON.stringify({
    commit_sha: hex(20),
    environment: 'production',
    branch: 'main',
    version: `v1.${time % 1000}.0`,
    url: `https://ci.example.com/acme/checkout/builds/${time}`,
    commits: Array.from({ length: 5 }, (_, i) => ({
      sha: hex(20),
      message: `Fix flaky checkout retry on payment timeout (#${4200 + i})`,
      author: 'Ada Lovelace <ada@example.com>',
      timestamp: new Date(time - i * 60_000).toISOString(),
    })),
  });
}

export interface Commit {
  deployId: string;
  /** When the ingest answer arrived: the deploy, its event and its deliveries are committed. */
  committedAt: number;
  /** How long the ingest request took. */
  ingestMs: number;
}

export class Ingest {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly url: URL;

  constructor(
    baseUrl: string,
    private readonly deployToken: string,
  ) {
    this.url = new URL('/api/ingest/deploy', baseUrl);
  }

  one(): Promise<Commit> {
    const body = deployBody();
    const started = now();
    return new Promise((resolve, reject) => {
      const request = http.request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { 'content-type': 'application/json', 'x-deploy-token': this.deployToken, 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const committedAt = now();
            const text = Buffer.concat(chunks).toString('utf8');
            const answer = response.statusCode === 200 ? (JSON.parse(text) as { status: string; deploy_id: string }) : undefined;
            if (answer?.status !== 'accepted') reject(new Error(`ingest answered ${response.statusCode}: ${text.slice(0, 300)}`));
            else resolve({ deployId: answer.deploy_id, committedAt, ingestMs: committedAt - started });
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /** `count` deploys, `concurrency` at a time, as fast as the api takes them. */
  async many(count: number, concurrency: number): Promise<Commit[]> {
    const commits: Commit[] = [];
    let next = 0;
    const loop = async () => {
      while (next < count) {
        next++;
        commits.push(await this.one());
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, loop));
    return commits;
  }

  /** Open loop: one deploy every 1000/rate ms for `seconds`, whatever the answers take. */
  async steady(rate: number, seconds: number): Promise<{ commits: Commit[]; sentAt: number[] }> {
    const total = rate * seconds;
    const interval = 1000 / rate;
    const start = now();
    const pending: Promise<Commit>[] = [];
    const sentAt: number[] = [];
    while (pending.length < total) {
      const due = start + pending.length * interval;
      const wait = due - now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 0.5));
      while (pending.length < total && start + pending.length * interval <= now()) {
        sentAt.push(now());
        pending.push(this.one());
      }
    }
    return { commits: await Promise.all(pending), sentAt };
  }

  close(): void {
    this.agent.destroy();
  }
}
