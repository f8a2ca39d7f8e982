// At-least-once delivery across a worker crash: an api-only app takes 500 deploys (one
// delivery each), a worker in a separate process (`npm start` with ROLE=worker) starts sending
// them and is SIGKILLed mid-run, a second worker process finishes. Every delivery must arrive;
// the only ones allowed to arrive twice are those whose job the killed worker held.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant, startApp, type RunningApp, type Tenant } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { post, postDeploy } from './support/http.ts';
import { eventually, startReceiver, type Receiver } from './support/receiver.ts';
import { MAX_ATTEMPTS_IN_FLIGHT } from '../src/delivery/worker.ts';

const DELIVERIES = 500;
const INGEST_CONCURRENCY = 20;
/** Arrivals after which the first worker is killed: well inside the run. */
const KILL_AFTER = 100;
/** The receiver answers this late, so that the kill finds attempts in flight. */
const RECEIVER_DELAY_MS = 30;
/**
 * Jobs expire after ceil(timeout / 1000) + 10 s = 20 s: when a killed worker's attempts come back.
 * Shorter would be faster, but on a busy machine a worker starting up can stall its event loop
 * for seconds, and an attempt timed out by that stall is a retry: a second arrival not caused by
 * the kill, which would make this test flaky.
 */
const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * How long the second worker may take to finish. Expired jobs are found by pg-boss's queue
 * monitor, which runs every `monitorIntervalSeconds` (60 s by default; src/delivery/queue.ts only
 * shortens the supervise tick), so the killed worker's jobs can come back up to ~90 s later.
 */
const RECOVERY_TIMEOUT_MS = 120_000;

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the health address once the worker listens (it is consuming by then). */
  ready: Promise<string>;
  exited: Promise<void>;
  /** The process's recent output, for failure messages. */
  output(): string;
}

const workers: WorkerProcess[] = [];

/** A worker-only Hookline process, exactly as `npm start` runs one. */
function startWorkerProcess(databaseUrl: string, name: string): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS),
      // Also sets how often an idle worker polls for due jobs: 0.5 s (see src/app.ts).
      DELIVERY_BACKOFF_BASE_MS: '2000',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Hookline listening on (\S+)/.exec(output);
      if (match) {
        child.stdout!.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then(() => reject(new Error(`${name} exited before it was ready (code ${child.exitCode}):\n${output}`)));
  });
  ready.catch(() => {}); // awaited where it matters; an early exit must not be an unhandled rejection
  const worker = { child, ready, exited, output: () => output };
  workers.push(worker);
  return worker;
}

async function stopWorkerProcess(worker: WorkerProcess, signal: NodeJS.Signals): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill(signal);
  const killed = await Promise.race([worker.exited.then(() => true), new Promise((resolve) => setTimeout(resolve, 10_000, false))]);
  if (!killed) {
    worker.child.kill('SIGKILL');
    await worker.exited;
  }
}

let database: TestDatabase;
let api: RunningApp;
let tenant: Tenant;
let receiver: Receiver;

// Even when the test runner itself is torn down, no worker process outlives it.
const killWorkersOnExit = () => workers.forEach((worker) => worker.child.kill('SIGKILL'));
process.once('exit', killWorkersOnExit);

beforeAll(async () => {
  database = await createTestDatabase();
  api = await startApp(database.url, {
    ROLE: 'api',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
  });
  tenant = await createTenant(api.app);
  receiver = await startReceiver();
  receiver.respond((_request, response) => setTimeout(() => response.end('ok'), RECEIVER_DELAY_MS));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => stopWorkerProcess(worker, 'SIGKILL')));
  process.off('exit', killWorkersOnExit);
  await api?.close();
  await receiver?.close();
  await database?.drop();
});

async function ingestDeploys(count: number): Promise<void> {
  let next = 0;
  const ingestOne = async () => {
    while (next < count) {
      const index = next++;
      const response = await postDeploy(api.baseUrl, tenant.deployToken, { commit_sha: `sha-${index}`, environment: 'production' });
      expect(response.body.status).toBe('accepted');
    }
  };
  await Promise.all(Array.from({ length: INGEST_CONCURRENCY }, ingestOne));
}

/** Failed attempts by error (there should be none: the receiver always answers 200). */
async function failedAttempts(): Promise<{ error: string; count: number }[]> {
  const { rows } = await api.app.database.pool.query<{ error: string; count: number }>(
    'SELECT error, count(*)::int AS count FROM delivery_attempts WHERE NOT succeeded GROUP BY error',
  );
  return rows;
}

function arrivalsByDeliveryId(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of receiver.requests) {
    const id = request.headers['x-service-delivery'] as string;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

it(
  'delivers every webhook when a worker is SIGKILLed mid-run; only its in-flight attempts repeat',
  async () => {
    const started = Date.now();
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const { pool } = api.app.database;

    const endpoint = await post(`${api.baseUrl}/api/webhooks/endpoints`, {
      body: JSON.stringify({ url: `${receiver.url}/hooks`, name: 'Durability', eventTypes: ['deploy.ingested'] }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
    });
    expect(endpoint.status).toBe(201);
    await ingestDeploys(DELIVERIES);
    const { rows: deliveryRows } = await pool.query<{ id: string }>('SELECT id FROM deliveries');
    expect(deliveryRows).toHaveLength(DELIVERIES);
    const deliveryIds = new Set(deliveryRows.map((row) => row.id));
    console.log(`[durability] ${DELIVERIES} deploys ingested, ${DELIVERIES} deliveries queued (${elapsed()})`);

    // The first worker: killed without warning once KILL_AFTER attempts have arrived.
    const first = startWorkerProcess(database.url, 'first worker');
    await Promise.race([first.ready, first.exited]);
    await receiver.waitForRequests(KILL_AFTER, { timeoutMs: 30_000 }).catch((error: Error) => {
      throw new Error(`${error.message}\nfirst worker output:\n${first.output()}`);
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const arrivedAtKill = receiver.requests.length;
    // The jobs it held are still `active` (they expire later): exactly the attempts in flight.
    const { rows: inFlightRows } = await pool.query<{ deliveryId: string }>(
      `SELECT data->>'deliveryId' AS "deliveryId" FROM pgboss.job WHERE name = 'deliver' AND state = 'active'`,
    );
    const inFlight = new Set(inFlightRows.map((row) => row.deliveryId));
    console.log(`[durability] first worker SIGKILLed after ${arrivedAtKill} arrivals, holding ${inFlight.size} jobs (${elapsed()})`);
    expect(await failedAttempts()).toEqual([]);
    expect(arrivedAtKill).toBeLessThan(DELIVERIES);
    expect(inFlight.size).toBeGreaterThan(0);
    expect(inFlight.size).toBeLessThanOrEqual(MAX_ATTEMPTS_IN_FLIGHT);

    // The second worker sends what was never taken at once, and the killed worker's jobs once
    // they expire and pg-boss hands them out again.
    const second = startWorkerProcess(database.url, 'second worker');
    await Promise.race([second.ready, second.exited]);
    let announced = false;
    const statuses = await eventually(
      async () => {
        if (arrivalsByDeliveryId().size < DELIVERIES) return undefined;
        if (!announced) {
          announced = true;
          console.log(`[durability] all ${DELIVERIES} delivery ids have arrived at least once (${elapsed()})`);
        }
        // Every delivery is SUCCEEDED only once the killed worker's jobs have expired and been redone.
        const { rows } = await pool.query<{ status: string; count: number }>(
          'SELECT status, count(*)::int AS count FROM deliveries GROUP BY status',
        );
        return rows.length === 1 && rows[0]!.status === 'SUCCEEDED' ? rows : undefined;
      },
      RECOVERY_TIMEOUT_MS,
      `all ${DELIVERIES} deliveries arriving and SUCCEEDED`,
    ).catch(async (error: Error) => {
      const { rows } = await pool.query('SELECT status, count(*)::int AS count FROM deliveries GROUP BY status');
      console.log(`[durability] failed attempts: ${JSON.stringify(await failedAttempts())}`);
      throw new Error(
        `${error.message}: ${arrivalsByDeliveryId().size} distinct arrived, statuses ${JSON.stringify(rows)}\n` +
          `second worker output:\n${second.output()}`,
      );
    });
    console.log(`[durability] all ${DELIVERIES} deliveries SUCCEEDED (${elapsed()})`);

    const arrivals = arrivalsByDeliveryId();
    const duplicated = [...arrivals].filter(([, count]) => count > 1).map(([id]) => id);
    const duplicateArrivals = receiver.requests.length - arrivals.size;
    console.log(
      `[durability] duplicates: ${duplicated.length} deliveries arrived twice (${duplicateArrivals} extra requests); ` +
        `the killed worker held ${inFlight.size} jobs, ${arrivedAtKill} attempts had arrived at the kill; total ${elapsed()}`,
    );

    expect(new Set(arrivals.keys())).toEqual(deliveryIds);
    expect(statuses).toEqual([{ status: 'SUCCEEDED', count: DELIVERIES }]);
    // At most twice, and only those the killed worker was holding.
    expect(Math.max(...arrivals.values())).toBeLessThanOrEqual(2);
    expect(duplicated.filter((id) => !inFlight.has(id))).toEqual([]);
    expect(duplicated.length).toBeLessThanOrEqual(inFlight.size);
    expect(duplicated.length).toBeLessThanOrEqual(MAX_ATTEMPTS_IN_FLIGHT);
    // One attempt is recorded per delivery, however many times it was sent.
    expect(await failedAttempts()).toEqual([]);
    const { rows: attempts } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM delivery_attempts');
    expect(attempts[0]!.count).toBe(DELIVERIES);

    await stopWorkerProcess(second, 'SIGTERM');
  },
  RECOVERY_TIMEOUT_MS + 60_000,
);
