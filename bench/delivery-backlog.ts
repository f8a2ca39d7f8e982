// The backlog sweep of bench/delivery.ts: how fast ONE worker process drains a backlog of queued
// deliveries as the backlog grows, and what its fetch costs beside pg-boss's own on the same
// backlog. Each (backlog, layout) is measured alone, in a scratch database of its own dropped
// right after, with the api (ROLE=api) in this process:
//   1. a year of monthly history partitions (empty but for this month's), and tenants and
//      endpoints as a user makes them (the REST api), on the bench's receiver;
//   2. the backlog seeded in SQL, with the worker not running: ingesting 250k deploys over HTTP
//      would take longer than draining them. Each chunk is one transaction, as ingest's: the
//      deploy.ingested events and their deliveries by the outbox's own SQL, their jobs by
//      attemptQueue().enqueue. No deploys rows: no delivery reads them. Then VACUUM ANALYZE, as
//      autovacuum would have done on a backlog that built up over time;
//   3. the fetch timed: Hookline's (fetchAttempts, as an idle worker calls it) and pg-boss's bare
//      fetch of as many jobs, each in a transaction rolled back, so the backlog stays as it is;
//   4. a worker started: deliveries/s from the first to the last receipt. At the largest
//      backlog with one endpoint, deploys to idle endpoints of fresh organizations are ingested
//      meanwhile: commit → receipt is how long a new tenant waits behind the backlog;
//   5. up to RUNNING_WORKER_MAX_BACKLOG, the same backlog again, committed in one transaction
//      while that worker runs: how a running worker drains a backlog that appears at once (an
//      endpoint's circuit closing, a replay). A worker just started spends most of a small
//      drain in V8's first, unoptimized tiers and opening connections; by 100k that is noise.
import sql, { raw } from 'sql-template-tag';
import type { App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { transaction } from '../src/db/transaction.ts';
import { attemptQueue, DELIVER_QUEUE, fetchAttempts } from '../src/delivery/queue.ts';
import { INITIAL_IN_FLIGHT_PER_ENDPOINT, MAX_FETCH, organizationShare } from '../src/delivery/worker.ts';
import { subscribedEndpointCondition } from '../src/domain/webhooks/events.ts';
import { eventWithDeliveries, firstAttempts, type EmittedEvent } from '../src/domain/webhooks/outbox.ts';
import { makeHistoryMonths } from '../src/domain/webhooks/retention.ts';
import { createTenant, startApi, startWorker, waitForDeliveries, type Tenant } from './delivery-setup.ts';
import { now, type ReceiptRecord } from './delivery-receiver.ts';
import { percentile } from './percentile.ts';
import { Ingest, type Receiver } from './processes.ts';
import { cpuSeconds, droppableScratchDatabase } from './support.ts';
import { fixed, percent, printTable, verdict } from './table.ts';

const { DELIVERY_CONCURRENCY } = loadConfig({});

export const TARGET_DELIVERIES_PER_SECOND = 2000;
/** Fetch p95 and a new tenant's wait are judged at this backlog. */
const TARGET_BACKLOG = 250_000;
const TARGET_FETCH_P95_MS = 10;
const TARGET_IDLE_ENDPOINT_MS = 1000;

/** Deliveries seeded per transaction. */
const SEED_CHUNK = 5000;
/** Backlogs up to this are also drained a second time by the running worker (step 5). */
const RUNNING_WORKER_MAX_BACKLOG = 10_000;
const FETCH_WARMUP = 3;
const FETCH_SAMPLES = 30;
const PROBES = 5;
/** Probes start once this share of the backlog is delivered (~200k queued of 250k), or after PROBE_AFTER_MS. */
const PROBE_AFTER_SHARE = 0.2;
const PROBE_AFTER_MS = 30_000;
const PROBE_TIMEOUT_MS = 10_000;

interface Layout {
  name: string;
  organizations: number;
  endpointsPerOrganization: number;
}

/** (i) one endpoint, (ii) 50 endpoints spread over 10 organizations (each deploy goes to its organization's 5). */
const LAYOUTS: Layout[] = [
  { name: '1 endpoint', organizations: 1, endpointsPerOrganization: 1 },
  { name: '50 endpoints, 10 orgs', organizations: 10, endpointsPerOrganization: 5 },
];

type FetchOptions = Parameters<typeof fetchAttempts>[1];

/**
 * What a worker with default settings passes to fetchAttempts when idle (worker.ts fetch()): a
 * full batch, nothing held or being recorded, no endpoint with a cap of its own (nothing learned,
 * no circuit open) and, with no organization holding slots, one organization's share of all but
 * the headroom. Follows worker.ts when that changes.
 */
function idleWorkerFetch(): FetchOptions {
  return {
    limit: Math.min(MAX_FETCH, DELIVERY_CONCURRENCY),
    defaultEndpointCap: INITIAL_IN_FLIGHT_PER_ENDPOINT,
    endpointCaps: new Map(),
    finishedJobIds: [],
    heldByOrganization: new Map(),
    organizationShare: organizationShare(DELIVERY_CONCURRENCY, 0),
  };
}

interface FetchTiming {
  p50: number;
  p95: number;
  /** Jobs the last sample took. */
  jobs: number;
}

interface Probe {
  /** Deliveries of the backlog not yet received when the deploy was ingested. */
  queued: number;
  /** Commit (the ingest answer) → receipt; Infinity when it did not arrive within PROBE_TIMEOUT_MS. */
  latencyMs: number;
}

export interface BacklogResult {
  backlog: number;
  layout: Layout;
  expected: number;
  delivered: number;
  duplicates: number;
  complete: boolean;
  seedSeconds: number;
  vacuumSeconds: number;
  deliveriesPerSecond: number;
  /** Step 5's drain rate: the same backlog committed at once while the worker runs. */
  runningWorkerDeliveriesPerSecond?: number;
  /** Worker CPU as a share of one core, from its start to the end of the drain. */
  workerCpu: number;
  workerMicrosPerDelivery: number;
  hooklineFetch: FetchTiming;
  pgBossFetch: FetchTiming;
  statuses: Record<string, number>;
  probes: Probe[];
}

export interface SweepContext {
  adminUrl: string;
  /** The backlog's endpoints' receiver. */
  receiver: Receiver;
  /** The probes' endpoints' receiver: their receipts are told apart from the backlog's. */
  probeReceiver: Receiver;
}

/** At twice the target's time (plus a start-up allowance) a drain has missed it: stop there. */
function drainTimeoutSeconds(backlog: number): number {
  return 30 + Math.ceil((2 * backlog) / TARGET_DELIVERIES_PER_SECOND);
}

/**
 * `count` deploy.ingested events, taken in turn by the tenants, each with a delivery per
 * subscribed endpoint of its organization: the outbox's statement, with what ingest puts in an
 * event's data (`data`: a deploy with five commits; its id and service added here).
 */
function seedEvents(tenants: Tenant[], count: number, data: string) {
  const organizations = tenants.map((tenant) => tenant.organizationId);
  return sql`WITH ${eventWithDeliveries(
    sql`SELECT t.organization_id, 'deploy.ingested',
     jsonb_build_object('deploy', ${data}::jsonb || jsonb_build_object('id', gen_random_uuid(), 'service', jsonb_build_object('id', t.service_id, 'name', 'checkout')))
   FROM generate_series(0, ${count}::int - 1) AS g
   JOIN unnest(${organizations}::uuid[], ${tenants.map((tenant) => tenant.serviceId)}::uuid[]) WITH ORDINALITY AS t(organization_id, service_id, n) ON t.n = 1 + g % cardinality(${organizations}::uuid[])`,
    subscribedEndpointCondition(raw("'deploy.ingested'")),
  )}
SELECT coalesce(array_agg(id), '{}') AS "deliveryIds", min(created_at) AS "createdAt" FROM delivery`;
}

function deployEventData(): object {
  const at = new Date().toISOString();
  const sha = (n: number) => n.toString(16).padStart(40, 'a');
  return {
    commitSha: sha(0),
    commitMessage: null,
    branch: 'main',
    deployedBy: null,
    environment: 'production',
    version: 'v1.42.0',
    description: null,
    url: 'https://ci.example.com/acme/checkout/builds/4242',
    deployedAt: at,
    receivedAt: at,
    commits: Array.from({ length: 5 }, (_, i) => ({
      sha: sha(i + 1),
      message: `Fix flaky checkout retry on payment timeout (#${4200 + i})`,
      author: 'Ada Lovelace <ada@example.com>',
      timestamp: at,
    })),
  };
}

/** Seeds about `backlog` deliveries over `tenants`' endpoints, `chunk` per transaction; returns how many. */
async function seedBacklog(
  app: App,
  tenants: Tenant[],
  endpointsPerOrganization: number,
  backlog: number,
  chunk = SEED_CHUNK,
): Promise<number> {
  const queue = attemptQueue(app.boss);
  const eventsPerChunk = Math.max(1, Math.floor(chunk / endpointsPerOrganization));
  const events = Math.ceil(backlog / endpointsPerOrganization);
  const data = JSON.stringify(deployEventData());
  let seeded = 0;
  for (let done = 0; done < events; done += eventsPerChunk) {
    seeded += await transaction(app.database.pool, async (client) => {
      // One statement's events and deliveries share its one created_at.
      const { rows } = await client.query<Pick<EmittedEvent, 'createdAt' | 'deliveryIds'>>(
        seedEvents(tenants, Math.min(eventsPerChunk, events - done), data),
      );
      await queue.enqueue(client, firstAttempts(rows[0]!));
      return rows[0]!.deliveryIds.length;
    });
  }
  return seeded;
}

/** Hookline's fetch and pg-boss's bare one, taken in turn, each in a transaction rolled back. */
async function timeFetches(app: App): Promise<{ hookline: FetchTiming; pgBoss: FetchTiming }> {
  const client = await app.database.pool.connect();
  try {
    const onClient = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
    const fetches = {
      hookline: async () => (await fetchAttempts(client, idleWorkerFetch())).jobs.length,
      pgBoss: async () => (await app.boss.fetch(DELIVER_QUEUE, { batchSize: MAX_FETCH, db: onClient })).length,
    };
    const samples = { hookline: [] as number[], pgBoss: [] as number[] };
    const jobs = { hookline: 0, pgBoss: 0 };
    // The first rounds prepare the statements and warm the caches, as a running worker's have.
    for (let round = -FETCH_WARMUP; round < FETCH_SAMPLES; round++) {
      for (const kind of ['hookline', 'pgBoss'] as const) {
        await client.query('BEGIN');
        const started = now();
        jobs[kind] = await fetches[kind]();
        const elapsed = now() - started;
        await client.query('ROLLBACK');
        if (round >= 0) samples[kind].push(elapsed);
      }
    }
    const timing = (kind: 'hookline' | 'pgBoss'): FetchTiming => {
      const sorted = samples[kind].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), jobs: jobs[kind] };
    };
    return { hookline: timing('hookline'), pgBoss: timing('pgBoss') };
  } finally {
    client.release();
  }
}

/**
 * Once the drain is under way, ingests one deploy at a time to the idle endpoint of a fresh
 * organization (one per probe) and waits for its receipt.
 */
async function probeIdleEndpoints(context: SweepContext, probes: Ingest[], backlog: number): Promise<Probe[]> {
  await context.receiver.call('waitFor', { distinct: Math.ceil(backlog * PROBE_AFTER_SHARE), timeoutMs: PROBE_AFTER_MS });
  await context.probeReceiver.call('reset');
  const sent: { deployId: string; committedAt: number; queued: number }[] = [];
  for (const ingest of probes) {
    const { distinct } = await context.receiver.call('count');
    const commit = await ingest.one();
    sent.push({ ...commit, queued: backlog - distinct });
    await context.probeReceiver.call('waitFor', { distinct: sent.length, timeoutMs: PROBE_TIMEOUT_MS });
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const { records } = await context.probeReceiver.call('collect');
  const receivedAt = new Map(records.map(([, deployId, at]) => [deployId, at]));
  return sent.map(({ deployId, committedAt, queued }) => ({
    queued,
    latencyMs: (receivedAt.get(deployId) ?? Number.POSITIVE_INFINITY) - committedAt,
  }));
}

const probeLatency = (ms: number) => (Number.isFinite(ms) ? `${fixed(ms)} ms` : `none within ${PROBE_TIMEOUT_MS / 1000} s`);

async function deliveryStatuses(app: App, tenants: Tenant[]): Promise<Record<string, number>> {
  const { rows } = await app.database.pool.query<{ status: string; count: number }>(
    'SELECT status, count(*)::int AS count FROM deliveries WHERE organization_id = ANY ($1::uuid[]) GROUP BY status',
    [tenants.map((tenant) => tenant.organizationId)],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

/** Receipts per second from the first receipt to the last. */
function receiptRate(records: ReceiptRecord[]): { deliveriesPerSecond: number; lastReceipt: number } {
  // A loop, not Math.min(...receipts): 250k arguments overflow the stack.
  let firstReceipt = Number.POSITIVE_INFINITY;
  let lastReceipt = Number.NEGATIVE_INFINITY;
  for (const [, , receivedAt] of records) {
    firstReceipt = Math.min(firstReceipt, receivedAt);
    lastReceipt = Math.max(lastReceipt, receivedAt);
  }
  return { deliveriesPerSecond: records.length / ((lastReceipt - firstReceipt) / 1000), lastReceipt };
}

/** Step 5: the backlog again, in one transaction, for the worker that drained the first; its rate, or 0 when it timed out. */
async function drainAgainWhileRunning(
  context: SweepContext,
  app: App,
  tenants: Tenant[],
  layout: Layout,
  backlog: number,
  timeoutSeconds: number,
): Promise<number> {
  await context.receiver.call('reset');
  const expected = await seedBacklog(app, tenants, layout.endpointsPerOrganization, backlog, backlog);
  const committedAt = now();
  const complete = await waitForDeliveries(context.receiver, expected, committedAt, committedAt + timeoutSeconds * 1000);
  const { records } = await context.receiver.call('collect');
  const { deliveriesPerSecond } = receiptRate(records);
  console.log(
    `  the same backlog committed at once, the worker running: ${complete ? 'drained' : 'TIMED OUT:'} ${records.length}/${expected}, ` +
      `${fixed(deliveriesPerSecond, 0)}/s first → last receipt`,
  );
  return complete ? deliveriesPerSecond : 0;
}

async function measureBacklog(context: SweepContext, backlog: number, layout: Layout, probing: boolean): Promise<BacklogResult> {
  const timeoutSeconds = drainTimeoutSeconds(backlog);
  console.log(
    `\nbacklog ${backlog}, ${layout.name}${probing ? `, ${PROBES} deploys to idle endpoints of fresh organizations during the drain` : ''}`,
  );
  const database = await droppableScratchDatabase(context.adminUrl);
  await applyMigrations(database.url);
  const api = await startApi(database.url);
  // A year of months, as a database keeping a year of history (RETENTION_DAYS=365) has them:
  // each statement naming deliveries or events is planned against every month it may read.
  const yearAgo = new Date();
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  await makeHistoryMonths(api.app.database.pool, yearAgo, new Date());
  const tenants: Tenant[] = [];
  for (let i = 0; i < layout.organizations; i++) {
    tenants.push(await createTenant(api.app, api.apiUrl, context.receiver.url, `backlog-${i}`, layout.endpointsPerOrganization));
  }
  const probes: Ingest[] = [];
  for (let i = 0; probing && i < PROBES; i++) {
    const tenant = await createTenant(api.app, api.apiUrl, context.probeReceiver.url, `probe-${i}`, 1);
    probes.push(new Ingest(api.apiUrl, tenant.deployToken));
  }

  const seedStart = now();
  const expected = await seedBacklog(api.app, tenants, layout.endpointsPerOrganization, backlog);
  const seedSeconds = (now() - seedStart) / 1000;
  const vacuumStart = now();
  await api.app.database.pool.query('VACUUM ANALYZE pgboss.job, deliveries');
  const vacuumSeconds = (now() - vacuumStart) / 1000;
  console.log(
    `  seeded ${expected} deliveries in SQL in ${seedSeconds.toFixed(1)} s (${(expected / seedSeconds).toFixed(0)}/s), VACUUM ANALYZE ${vacuumSeconds.toFixed(1)} s`,
  );

  const fetches = await timeFetches(api.app);
  // The rolled-back fetches left dead row versions behind: gone before the drain, as before the timing.
  await api.app.database.pool.query('VACUUM pgboss.job');
  console.log(
    `  fetch (${FETCH_SAMPLES} each, rolled back): Hookline p50 ${fixed(fetches.hookline.p50)} / p95 ${fixed(fetches.hookline.p95)} ms (${fetches.hookline.jobs} jobs), ` +
      `pg-boss bare p50 ${fixed(fetches.pgBoss.p50)} / p95 ${fixed(fetches.pgBoss.p95)} ms (${fetches.pgBoss.jobs} jobs), ` +
      `p95 ratio ${fixed(fetches.hookline.p95 / fetches.pgBoss.p95)}`,
  );

  await context.receiver.call('reset');
  const worker = await startWorker(database.url);
  const cpuBefore = cpuSeconds(worker.child.pid);
  const deadline = worker.readyAt + timeoutSeconds * 1000;
  console.log(`  worker started: draining (timeout ${timeoutSeconds} s)`);
  const probeResults = probing ? await probeIdleEndpoints(context, probes, expected) : [];
  const complete = await waitForDeliveries(context.receiver, expected, worker.readyAt, deadline);
  const drainSeconds = (now() - worker.readyAt) / 1000;
  const workerCpu = cpuSeconds(worker.child.pid) - cpuBefore;
  const { records } = await context.receiver.call('collect');
  const { deliveriesPerSecond, lastReceipt } = receiptRate(records);
  const duplicates = records.reduce((sum, [, , , count]) => sum + count - 1, 0);
  console.log(
    `  ${complete ? 'drained' : `TIMED OUT after ${timeoutSeconds} s:`} ${records.length}/${expected} delivered, ${fixed(deliveriesPerSecond, 0)}/s first → last receipt ` +
      `(${fixed(records.length / ((lastReceipt - worker.readyAt) / 1000), 0)}/s from the worker's start)`,
  );
  for (const probe of probeResults) {
    console.log(`  idle endpoint of a fresh organization, ${probe.queued} queued: commit → receipt ${probeLatency(probe.latencyMs)}`);
  }
  const runningWorkerDeliveriesPerSecond =
    complete && backlog <= RUNNING_WORKER_MAX_BACKLOG
      ? await drainAgainWhileRunning(context, api.app, tenants, layout, backlog, timeoutSeconds)
      : undefined;

  await worker.stop();
  // Once the worker has stopped, every outcome is written.
  const statuses = await deliveryStatuses(api.app, tenants);
  console.log(`  deliveries by status: ${JSON.stringify(statuses)}`);
  for (const ingest of probes) ingest.close();
  await api.close();
  await database.drop();
  return {
    backlog,
    layout,
    expected,
    delivered: records.length,
    duplicates,
    complete,
    seedSeconds,
    vacuumSeconds,
    deliveriesPerSecond,
    runningWorkerDeliveriesPerSecond,
    workerCpu: workerCpu / drainSeconds,
    workerMicrosPerDelivery: (workerCpu / records.length) * 1e6,
    hooklineFetch: fetches.hookline,
    pgBossFetch: fetches.pgBoss,
    statuses,
    probes: probeResults,
  };
}

/** Every backlog, smallest first, in each layout. */
export async function runBacklogSweep(context: SweepContext, backlogs: number[]): Promise<BacklogResult[]> {
  const sorted = [...backlogs].sort((a, b) => a - b);
  const largest = sorted.at(-1);
  const results: BacklogResult[] = [];
  for (const backlog of sorted) {
    for (const layout of LAYOUTS) {
      results.push(await measureBacklog(context, backlog, layout, backlog === largest && layout === LAYOUTS[0]));
    }
  }
  return results;
}

/** A worker's rate: the running worker's where measured (step 5), else the drain's, whose start-up is amortized. */
const workerRate = (result: BacklogResult) => result.runningWorkerDeliveriesPerSecond ?? result.deliveriesPerSecond;
const meetsRate = (result: BacklogResult) => result.complete && workerRate(result) >= TARGET_DELIVERIES_PER_SECOND;
const meetsFetch = (result: BacklogResult) => result.hooklineFetch.p95 <= TARGET_FETCH_P95_MS;

/** A result's verdicts, for the table. */
function verdicts(result: BacklogResult): string {
  const judged: string[] = [];
  if (result.layout === LAYOUTS[0]) judged.push(`rate ${verdict(meetsRate(result))}`);
  if (result.backlog === TARGET_BACKLOG) judged.push(`fetch p95 ${verdict(meetsFetch(result))}`);
  return judged.join(', ') || '-';
}

/** The sweep's table, then each target once with its figures and verdict. */
export function printBacklogSummary(results: BacklogResult[]): void {
  printTable(
    [
      'backlog',
      'layout',
      'seeded in s',
      'deliveries',
      'dup',
      'deliveries/s',
      'running worker',
      'Hookline fetch p50/p95 ms',
      'pg-boss bare p50/p95 ms',
      'p95 ratio',
      'worker CPU',
      'µs/delivery',
      'verdicts',
    ],
    results.map((result) => [
      String(result.backlog),
      result.layout.name,
      `${fixed(result.seedSeconds)} + ${fixed(result.vacuumSeconds)}`,
      `${result.delivered}/${result.expected}`,
      String(result.duplicates),
      `${fixed(result.deliveriesPerSecond, 0)}${result.complete ? '' : ' (timeout)'}`,
      result.runningWorkerDeliveriesPerSecond === undefined ? '-' : fixed(result.runningWorkerDeliveriesPerSecond, 0),
      `${fixed(result.hooklineFetch.p50)} / ${fixed(result.hooklineFetch.p95)}`,
      `${fixed(result.pgBossFetch.p50)} / ${fixed(result.pgBossFetch.p95)}`,
      fixed(result.hooklineFetch.p95 / result.pgBossFetch.p95),
      percent(result.workerCpu),
      fixed(result.workerMicrosPerDelivery, 0),
      verdicts(result),
    ]),
  );
  console.log(
    `seeded in s: SQL inserts + VACUUM ANALYZE. deliveries/s: first → last receipt of a worker just started; a drain stops at twice the ${TARGET_DELIVERIES_PER_SECOND}/s target's time + 30 s. ` +
      `running worker: up to ${RUNNING_WORKER_MAX_BACKLOG}, the same backlog committed at once while that worker runs, first → last receipt. ` +
      `fetch: Hookline's fetchAttempts as an idle worker calls it, ${FETCH_SAMPLES} samples in rolled-back transactions before the worker started; ` +
      `pg-boss bare: boss.fetch of ${MAX_FETCH} jobs of the same queue, the same way; p95 ratio: Hookline's ÷ pg-boss's. ` +
      'Worker CPU: share of one core while draining; µs/delivery: its CPU per delivery.',
  );
  console.log('');

  const oneEndpoint = results.filter((result) => result.layout === LAYOUTS[0]);
  const rates = oneEndpoint.map((result) => {
    const justStarted =
      result.runningWorkerDeliveriesPerSecond === undefined ? '' : ` (just started: ${fixed(result.deliveriesPerSecond, 0)})`;
    return `${result.backlog}: ${fixed(workerRate(result), 0)}${justStarted}${result.complete ? '' : ' (timed out)'}`;
  });
  console.log(
    `>= ${TARGET_DELIVERIES_PER_SECOND} deliveries/s per worker to one endpoint at every backlog (${rates.join(', ')}): ${verdict(oneEndpoint.every(meetsRate))}`,
  );

  const atTarget = results.filter((result) => result.backlog === TARGET_BACKLOG);
  const fetchTarget = `fetch p95 <= ${TARGET_FETCH_P95_MS} ms at ${TARGET_BACKLOG}`;
  if (atTarget.length === 0) console.log(`${fetchTarget}: not measured (no ${TARGET_BACKLOG} in --backlogs)`);
  else {
    const p95s = atTarget.map((result) => `${result.layout.name} ${fixed(result.hooklineFetch.p95)} ms`);
    console.log(`${fetchTarget} (${p95s.join(', ')}): ${verdict(atTarget.every(meetsFetch))}`);
  }

  const probed = results.find((result) => result.probes.length > 0);
  if (probed) {
    const worst = Math.max(...probed.probes.map((probe) => probe.latencyMs));
    const queued = probed.probes.map((probe) => probe.queued);
    const line =
      `first attempt of a new delivery to an idle endpoint of another organization within ${TARGET_IDLE_ENDPOINT_MS} ms ` +
      `(${probed.probes.length} deploys, ${Math.min(...queued)}-${Math.max(...queued)} of ${probed.backlog} queued to ${probed.layout.name}; commit → receipt max ${probeLatency(worst)})`;
    if (probed.backlog === TARGET_BACKLOG) console.log(`${line}: ${verdict(worst <= TARGET_IDLE_ENDPOINT_MS)}`);
    else console.log(`${line}: not judged (the target is for a ${TARGET_BACKLOG} backlog)`);
  }
}
