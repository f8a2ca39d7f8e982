// At-least-once delivery across a worker crash: an api-only app takes 500 deploys (one
// delivery each), a worker in a separate process (`npm start` with ROLE=worker) starts sending
// them and is SIGKILLed mid-run, a second worker process finishes. Every delivery must arrive;
// the only ones allowed to arrive twice are those whose job the killed worker held.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { post, postDeploy } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import type { WorkerProcess } from './support/worker-process.ts';
import { useHookline } from './support/fixture.ts';

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
 * monitor, every 10 s here (src/delivery/queue.ts), so the killed worker's jobs come back about
 * 20 to 30 s after the kill; the rest is room for a busy machine.
 */
const RECOVERY_TIMEOUT_MS = 120_000;
/**
 * Attempts a worker holds at most: small, so that the kill lands mid-run (with the default, a
 * worker would take all 500 at once). Duplicates are bounded by it.
 */
const DELIVERY_CONCURRENCY = 20;

const workers: WorkerProcess[] = [];
/** A worker process with this test's delivery settings, stopped (if still running) after the test. */
function startWorker(name: string): WorkerProcess {
  const worker = hookline.startProcess(
    'worker',
    {
      DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS),
      DELIVERY_CONCURRENCY: String(DELIVERY_CONCURRENCY),
      // Also sets how often an idle worker polls for due jobs: 0.5 s (see src/app.ts).
      DELIVERY_BACKOFF_BASE_MS: '2000',
      ...LOCAL_RECEIVERS,
    },
    name,
  );
  workers.push(worker);
  return worker;
}

const hookline = useHookline({
  environment: {
    ROLE: 'api',
    ...LOCAL_RECEIVERS,
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
  },
  receiver: true,
});

beforeAll(async () => {
  hookline.receiver.respond((_request, response) => setTimeout(() => response.end('ok'), RECEIVER_DELAY_MS));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
});

async function ingestDeploys(count: number): Promise<void> {
  let next = 0;
  const ingestOne = async () => {
    while (next < count) {
      const index = next++;
      const response = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
        commit_sha: `sha-${index}`,
        environment: 'production',
      });
      expect(response.body.status).toBe('accepted');
    }
  };
  await Promise.all(Array.from({ length: INGEST_CONCURRENCY }, ingestOne));
}

/** Failed attempts by error (there should be none: the receiver always answers 200). */
async function failedAttempts(): Promise<{ error: string; count: number }[]> {
  const { rows } = await hookline.app.database.pool.query<{ error: string; count: number }>(
    'SELECT error, count(*)::int AS count FROM delivery_attempts WHERE NOT succeeded GROUP BY error',
  );
  return rows;
}

function arrivalsByDeliveryId(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of hookline.receiver.requests) {
    const id = request.headers['x-service-delivery'] as string;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

it(
  'delivers every webhook when a worker is SIGKILLed mid-run; only its attempts in flight or not yet recorded repeat',
  async () => {
    const started = Date.now();
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const { pool } = hookline.app.database;

    const endpoint = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      body: JSON.stringify({ url: `${hookline.receiver.url}/hooks`, name: 'Durability', eventTypes: ['deploy.ingested'] }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    });
    expect(endpoint.status).toBe(201);
    await ingestDeploys(DELIVERIES);
    const { rows: deliveryRows } = await pool.query<{ id: string }>('SELECT id FROM deliveries');
    expect(deliveryRows).toHaveLength(DELIVERIES);
    const deliveryIds = new Set(deliveryRows.map((row) => row.id));
    console.log(`[durability] ${DELIVERIES} deploys ingested, ${DELIVERIES} deliveries queued (${elapsed()})`);

    // The first worker: killed without warning once KILL_AFTER attempts have arrived.
    const first = startWorker('first worker');
    await Promise.race([first.ready, first.exited]);
    await hookline.receiver.waitForRequests(KILL_AFTER, { timeoutMs: 30_000 }).catch((error: Error) => {
      throw new Error(`${error.message}\nfirst worker output:\n${first.output()}`);
    });
    first.child.kill('SIGKILL');
    await first.exited;
    const arrivedAtKill = hookline.receiver.requests.length;
    // The jobs it held are still `active` (they expire later): exactly the attempts in flight and
    // those answered whose outcome was not yet committed. A slot is freed when its HTTP exchange
    // ends and outcomes wait for a group commit, at most DELIVERY_CONCURRENCY of them before
    // slots wait too: so at most twice DELIVERY_CONCURRENCY.
    const { rows: inFlightRows } = await pool.query<{ deliveryId: string }>(
      `SELECT data->>'deliveryId' AS "deliveryId" FROM pgboss.job WHERE name = 'deliver' AND state = 'active'`,
    );
    const inFlight = new Set(inFlightRows.map((row) => row.deliveryId));
    console.log(`[durability] first worker SIGKILLed after ${arrivedAtKill} arrivals, holding ${inFlight.size} jobs (${elapsed()})`);
    expect(await failedAttempts()).toEqual([]);
    expect(arrivedAtKill).toBeLessThan(DELIVERIES);
    expect(inFlight.size).toBeGreaterThan(0);
    expect(inFlight.size).toBeLessThanOrEqual(2 * DELIVERY_CONCURRENCY);

    // The second worker sends what was never taken at once, and the killed worker's jobs once
    // they expire and pg-boss hands them out again.
    const second = startWorker('second worker');
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
    const duplicateArrivals = hookline.receiver.requests.length - arrivals.size;
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
    expect(duplicated.length).toBeLessThanOrEqual(2 * DELIVERY_CONCURRENCY);
    // One attempt is recorded per delivery, however many times it was sent.
    expect(await failedAttempts()).toEqual([]);
    const { rows: attempts } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM delivery_attempts');
    expect(attempts[0]!.count).toBe(DELIVERIES);

    await second.stop('SIGTERM');
  },
  RECOVERY_TIMEOUT_MS + 60_000,
);
