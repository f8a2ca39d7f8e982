// `npm run bench:delivery [-- --backlogs 1000,10000,100000,250000]`
// `npm run bench:delivery -- --scenarios [--events 10000 --fanout-events 1000 --endpoints 10 --rate 200
//                             --steady-seconds 10 --mode drain|live --timeout 300 --profile]`
//
// Webhook delivery throughput and latency of ONE worker process (`npm start` with ROLE=worker,
// default delivery settings) against a fast local receiver, on one PostgreSQL server:
// DATABASE_URL (an admin connection, used to create and drop scratch databases), or an
// embedded PostgreSQL in a temp dir when it is unset.
//
// Processes: this one (the api app, ROLE=api, in-process, and the ingest client), the worker,
// the receiver (bench/delivery-receiver.ts: node:http answering 200 at once) and, for the
// receiver's own capacity, a load generator (bench/delivery-load.ts).
//
// By default, the backlog sweep (delivery-backlog.ts): the worker's drain rate at each of
// `--backlogs` queued deliveries, to one endpoint and to 50 endpoints of 10 organizations, with
// Hookline's fetch time beside pg-boss's bare fetch on the same backlog, and how long a new
// organization's delivery waits behind the largest one; then bench:isolation (isolation.ts) in
// a process of its own. About 13 minutes on 2 cores when the worker drains 2,000/s.
//
// With --scenarios, instead:
//   (a) `--events` deploys to one endpoint, (b) `--fanout-events` deploys to `--endpoints`
//   endpoints. `--mode drain` (default) ingests them all over HTTP first, then starts the
//   worker: deliveries/s is its drain rate (first → last receipt), and commit → receipt
//   latency includes the wait in the backlog. `--mode live` starts the worker first and ingests
//   as fast as the api takes it: deliveries/s is first commit → last receipt.
//   (c) a steady `--rate` deploys/s for `--steady-seconds` with the worker running:
//   commit → receipt latency (commit = the ingest answer arriving).
//   (d) the receiver's capacity for the same request at the worker's concurrency (DELIVERY_CONCURRENCY).
//   (e) bare pg-boss: no-op jobs handed out and completed on the same PostgreSQL (the queue's limit).
//   (f) the HTTP client's CPU per attempt: the worker's path, ofetch alone on the same transport,
//   bare undici request() and a WHATWG fetch, same request, same receiver.
//   --profile: the (a) worker runs with --cpu-prof, and where its CPU went is printed.
import { fork } from 'node:child_process';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadavg, cpus } from 'node:os';
import { summarizeProfile } from './cpu-profile.ts';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import type { App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import type { CapacityOptions, CapacityResult } from './delivery-load.ts';
import type { ClientCost, ClientCostOptions } from './http-client-cost.ts';
import type { NoopOptions, NoopResult } from './pgboss-noop.ts';
import { now, type ReceiverSample } from './delivery-receiver.ts';
import { printBacklogSummary, runBacklogSweep, TARGET_DELIVERIES_PER_SECOND } from './delivery-backlog.ts';
import {
  createTenant as createTenantWithEndpoints,
  startApi,
  startWorker,
  waitForDeliveries,
  type WorkerProcess,
} from './delivery-setup.ts';
import { runIsolation } from './isolation-child.ts';
import { Ingest, startReceiver, stopChild, type Commit, type Receiver } from './processes.ts';
import {
  cleanUpOnInterrupt,
  cpuSeconds,
  runBench,
  cleanups,
  postgresServer,
  scratchDatabase,
  undoNow,
  positiveInteger,
} from './support.ts';
import { percentile } from './percentile.ts';
import { fixed, percent, printTable, verdict } from './table.ts';

/** The worker's default attempts in flight. */
const { DELIVERY_CONCURRENCY } = loadConfig({});
/** (a) against bare pg-boss handing out and completing no-op jobs on the same PostgreSQL. */
const TARGET_SHARE_OF_BARE_QUEUE = 0.8;
const TARGET_STEADY_P50_MS = 20;
const TARGET_STEADY_P95_MS = 50;
/** The baseline's pg-boss work() settings: the worker's fetch size, two fetch loops. */
const NOOP_BATCH_SIZE = 100;
const NOOP_LOOPS = 2;
const INGEST_CONCURRENCY = 64;
/** bench:isolation's phases in this run: shorter than its own defaults, long enough for its p95. */
const ISOLATION_BASELINE_SECONDS = 10;
const ISOLATION_FLOOD_SECONDS = 30;

const { values: args } = parseArgs({
  options: {
    backlogs: { type: 'string', default: '1000,10000,100000,250000' },
    scenarios: { type: 'boolean', default: false },
    events: { type: 'string', default: '10000' },
    'fanout-events': { type: 'string', default: '1000' },
    endpoints: { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    'steady-seconds': { type: 'string', default: '10' },
    profile: { type: 'boolean', default: false },
    mode: { type: 'string', default: 'drain' },
    timeout: { type: 'string', default: '300' },
  },
});
const options = {
  backlogs: args.backlogs.split(',').map((backlog) => positiveInteger('backlogs', backlog.trim())),
  scenarios: args.scenarios,
  events: positiveInteger('events', args.events),
  fanoutEvents: positiveInteger('fanout-events', args['fanout-events']),
  endpoints: positiveInteger('endpoints', args.endpoints),
  rate: positiveInteger('rate', args.rate),
  steadySeconds: positiveInteger('steady-seconds', args['steady-seconds']),
  timeoutSeconds: positiveInteger('timeout', args.timeout),
  mode: args.mode,
  profile: args.profile,
};
if (options.mode !== 'drain' && options.mode !== 'live') throw new Error(`--mode must be drain or live, got "${options.mode}"`);

// ---------------------------------------------------------------------------------------
// Clean-up: undone in reverse order at the end, on failure and on Ctrl-C.

cleanUpOnInterrupt('stopping the worker, receiver and api, dropping the scratch database');

// ---------------------------------------------------------------------------------------
// Child processes

/** With --profile, workers write V8 CPU profiles here (one per worker process). */
const profileDir = options.profile ? await mkdtemp(path.join(tmpdir(), 'hookline-profile-')) : undefined;

/** Runs a measurement module (delivery-load.ts, pgboss-noop.ts, http-client-cost.ts) in a process of its own. */
function measureInChild<Options, Result>(module: string, options: Options): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(module, import.meta.url), {
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: 'inherit',
    });
    const stop = () => stopChild(child, 'SIGKILL');
    cleanups.push(stop);
    let result: Result | undefined;
    child.once('message', (message) => (result = message as Result));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      void undoNow(stop);
      if (result) resolve(result);
      else reject(new Error(`${module} stopped without a result (${signal ?? `exit code ${code}`})`));
    });
    child.send(options as object);
  });
}

// ---------------------------------------------------------------------------------------
// Figures

interface ScenarioResult {
  name: string;
  /** How the events were made and what the rate is measured from. */
  method: string;
  expected: number;
  delivered: number;
  duplicates: number;
  deliveriesPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Worker and receiver CPU, as a share of one core over the measured span. */
  workerCpu: number;
  /** Worker CPU per delivery (µs): everything it does, from fetching the job to recording the outcome. */
  workerMicrosPerDelivery: number;
  receiverCpu: number;
  /** Database transactions committed per delivery while the worker ran (pg_stat_database). */
  commitsPerDelivery: number;
  statuses: Record<string, number>;
  notes: string[];
}

async function transactionsCommitted(pool: pg.Pool): Promise<number> {
  // Statistics are flushed by each backend at most once a second: force ours and read.
  await pool.query('SELECT pg_stat_force_next_flush()').catch(() => {});
  const { rows } = await pool.query<{ commits: string }>(
    'SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0]!.commits);
}

async function deliveryStatuses(pool: pg.Pool, organizationId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ status: string; count: number }>(
    'SELECT status, count(*)::int AS count FROM deliveries WHERE organization_id = $1 GROUP BY status',
    [organizationId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

// ---------------------------------------------------------------------------------------
// Scenarios

interface Context {
  app: App;
  apiUrl: string;
  databaseUrl: string;
  receiver: Receiver;
}

interface Tenant {
  organizationId: string;
  ingest: Ingest;
}

let tenantNumber = 0;
async function createTenant(context: Context, endpoints: number): Promise<Tenant> {
  const { organizationId, deployToken } = await createTenantWithEndpoints(
    context.app,
    context.apiUrl,
    context.receiver.url,
    `bench-${++tenantNumber}`,
    endpoints,
  );
  return { organizationId, ingest: new Ingest(context.apiUrl, deployToken) };
}

/** Waits for `expected` distinct deliveries at the receiver, at most --timeout. */
function waitForAll(context: Context, expected: number, since: number): Promise<boolean> {
  return waitForDeliveries(context.receiver, expected, since, now() + options.timeoutSeconds * 1000);
}

/** Figures for the deliveries of `commits` that the receiver has seen. */
async function summarize(
  context: Context,
  commits: Commit[],
  spanStart: (firstReceipt: number) => number,
): Promise<{
  delivered: number;
  duplicates: number;
  rate: number;
  latencies: number[];
  lastReceipt: number;
  sample: ReceiverSample | null;
}> {
  const commitByDeploy = new Map(commits.map((commit) => [commit.deployId, commit]));
  const { records, sample } = await context.receiver.call('collect');
  const mine = records.filter(([, deployId]) => commitByDeploy.has(deployId));
  const latencies = mine.map(([, deployId, receivedAt]) => receivedAt - commitByDeploy.get(deployId)!.committedAt).sort((a, b) => a - b);
  const receipts = mine.map(([, , receivedAt]) => receivedAt);
  const firstReceipt = Math.min(...receipts);
  const lastReceipt = Math.max(...receipts);
  const duplicates = mine.reduce((sum, [, , , count]) => sum + count - 1, 0);
  const span = (lastReceipt - spanStart(firstReceipt)) / 1000;
  return { delivered: mine.length, duplicates, rate: mine.length / span, latencies, lastReceipt, sample };
}

/** (a) and (b): `events` deploys to `endpoints` endpoints. */
async function throughputScenario(
  context: Context,
  name: string,
  events: number,
  endpoints: number,
): Promise<{ result: ScenarioResult; sample: ReceiverSample | null }> {
  const expected = events * endpoints;
  console.log(`\n${name}: ${events} events × ${endpoints} endpoint(s) = ${expected} deliveries, mode ${options.mode}`);
  const tenant = await createTenant(context, endpoints);
  await context.receiver.call('reset');
  const { pool } = context.app.database;
  const notes: string[] = [];

  let worker: WorkerProcess;
  let commits: Commit[];
  let commitsBefore: number;
  let method: string;
  let workerCpuBefore: number;
  let receiverCpuBefore: number;
  if (options.mode === 'drain') {
    const ingestStart = now();
    commits = await tenant.ingest.many(events, INGEST_CONCURRENCY);
    const ingestSeconds = (now() - ingestStart) / 1000;
    console.log(
      `  ingested ${events} deploys over HTTP (${INGEST_CONCURRENCY} concurrent) in ${ingestSeconds.toFixed(1)} s (${(events / ingestSeconds).toFixed(0)}/s), worker not running`,
    );
    commitsBefore = await transactionsCommitted(pool);
    worker = await startWorker(context.databaseUrl, profileDir);
    workerCpuBefore = cpuSeconds(worker.child.pid);
    receiverCpuBefore = cpuSeconds(context.receiver.pid);
    console.log('  worker started: draining the backlog');
    method = `backlog of ${expected} pre-ingested (HTTP, ${INGEST_CONCURRENCY} concurrent), then the worker started; rate = first → last receipt`;
  } else {
    worker = await startWorker(context.databaseUrl, profileDir);
    workerCpuBefore = cpuSeconds(worker.child.pid);
    receiverCpuBefore = cpuSeconds(context.receiver.pid);
    commitsBefore = await transactionsCommitted(pool);
    const ingestStart = now();
    commits = await tenant.ingest.many(events, INGEST_CONCURRENCY);
    const ingestSeconds = (now() - ingestStart) / 1000;
    console.log(
      `  ingested ${events} deploys over HTTP (${INGEST_CONCURRENCY} concurrent) in ${ingestSeconds.toFixed(1)} s (${(events / ingestSeconds).toFixed(0)}/s) while the worker ran`,
    );
    method = `ingest over HTTP (${INGEST_CONCURRENCY} concurrent) with the worker running; rate = first commit → last receipt`;
  }
  const waitStart = options.mode === 'drain' ? worker.readyAt : Math.min(...commits.map((commit) => commit.committedAt));
  const complete = await waitForAll(context, expected, waitStart);
  const workerCpu = cpuSeconds(worker.child.pid) - workerCpuBefore;
  const receiverCpu = cpuSeconds(context.receiver.pid) - receiverCpuBefore;
  const commitsAfter = await transactionsCommitted(pool);
  await worker.stop();
  if (!complete) {
    notes.push(`stopped after ${options.timeoutSeconds} s (--timeout) before every delivery arrived`);
    // Leftovers must not feed the next scenario's worker.
    await pool.query(`DELETE FROM pgboss.job WHERE name = 'deliver' AND state IN ('created', 'retry')`);
  }

  const firstCommit = Math.min(...commits.map((commit) => commit.committedAt));
  const summary = await summarize(context, commits, (firstReceipt) => (options.mode === 'drain' ? firstReceipt : firstCommit));
  const measuredSeconds = (summary.lastReceipt - waitStart) / 1000;
  const statuses = await deliveryStatuses(pool, tenant.organizationId);
  if (options.mode === 'drain') {
    notes.push(`from the worker being ready: ${(summary.delivered / measuredSeconds).toFixed(0)} deliveries/s`);
  }
  tenant.ingest.close();
  return {
    sample: summary.sample,
    result: {
      name,
      method,
      expected,
      delivered: summary.delivered,
      duplicates: summary.duplicates,
      deliveriesPerSecond: summary.rate,
      p50: percentile(summary.latencies, 50),
      p95: percentile(summary.latencies, 95),
      p99: percentile(summary.latencies, 99),
      workerCpu: workerCpu / measuredSeconds,
      workerMicrosPerDelivery: (workerCpu / Math.max(1, summary.delivered)) * 1e6,
      receiverCpu: receiverCpu / measuredSeconds,
      commitsPerDelivery: (commitsAfter - commitsBefore) / Math.max(1, summary.delivered),
      statuses,
      notes,
    },
  };
}

/** (c): a steady `rate` deploys/s to one endpoint with the worker running. */
async function steadyScenario(context: Context, name: string): Promise<ScenarioResult> {
  const { rate, steadySeconds } = options;
  const warmupSeconds = 1;
  const expected = rate * (steadySeconds + warmupSeconds);
  console.log(`\n${name}: ${rate} events/s for ${warmupSeconds} s warm-up + ${steadySeconds} s measured, one endpoint, worker running`);
  const tenant = await createTenant(context, 1);
  await context.receiver.call('reset');
  const { pool } = context.app.database;
  const worker = await startWorker(context.databaseUrl, profileDir);
  const workerCpuBefore = cpuSeconds(worker.child.pid);
  const receiverCpuBefore = cpuSeconds(context.receiver.pid);
  const commitsBefore = await transactionsCommitted(pool);
  const start = now();
  const { commits } = await tenant.ingest.steady(rate, steadySeconds + warmupSeconds);
  const sendSeconds = (now() - start) / 1000;
  const complete = await waitForAll(context, expected, start);
  const elapsedSeconds = (now() - start) / 1000;
  const workerCpu = cpuSeconds(worker.child.pid) - workerCpuBefore;
  const receiverCpu = cpuSeconds(context.receiver.pid) - receiverCpuBefore;
  const commitsAfter = await transactionsCommitted(pool);
  await worker.stop();

  // The first second warms up the JIT, the pools and the connections: not counted.
  const measured = commits.filter((commit) => commit.committedAt >= start + warmupSeconds * 1000);
  const summary = await summarize(context, measured, () => start + warmupSeconds * 1000);
  const ingestLatencies = commits.map((commit) => commit.ingestMs).sort((a, b) => a - b);
  const statuses = await deliveryStatuses(pool, tenant.organizationId);
  tenant.ingest.close();
  const achievedRate = commits.length / sendSeconds;
  const notes = [
    `ingest answered ${commits.length} deploys in ${sendSeconds.toFixed(1)} s (${(commits.length / sendSeconds).toFixed(0)}/s offered ${rate}/s); ingest p50/p99 ${percentile(ingestLatencies, 50).toFixed(1)}/${percentile(ingestLatencies, 99).toFixed(1)} ms`,
    `latency of the ${measured.length} deploys committed after the warm-up; commit = the ingest answer arriving, so a delivery can beat it (negative)`,
  ];
  if (achievedRate < rate * 0.95)
    notes.push(`WARNING: the api took only ${achievedRate.toFixed(0)} of the ${rate} deploys/s offered: the worker saw a lower rate`);
  if (!complete) notes.push(`stopped after ${options.timeoutSeconds} s (--timeout) before every delivery arrived`);
  return {
    name,
    method: `open loop, ${rate}/s over HTTP, worker running`,
    expected: measured.length,
    delivered: summary.delivered,
    duplicates: summary.duplicates,
    deliveriesPerSecond: Number.NaN,
    p50: percentile(summary.latencies, 50),
    p95: percentile(summary.latencies, 95),
    p99: percentile(summary.latencies, 99),
    workerCpu: workerCpu / elapsedSeconds,
    workerMicrosPerDelivery: (workerCpu / Math.max(1, summary.delivered)) * 1e6,
    receiverCpu: receiverCpu / elapsedSeconds,
    commitsPerDelivery: (commitsAfter - commitsBefore) / Math.max(1, commits.length),
    statuses,
    notes,
  };
}

// ---------------------------------------------------------------------------------------

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** The backlog sweep, then bench:isolation, each scenario in databases of its own on the server. */
async function runSweep(adminUrl: string): Promise<void> {
  const receiver = await startReceiver();
  const probeReceiver = await startReceiver();
  const loadAtStart = load();
  console.log(
    `Backlog sweep: one worker process (ROLE=worker, default delivery settings, up to ${DELIVERY_CONCURRENCY} attempts in flight), ` +
      `node:http receivers in their own processes, backlogs ${options.backlogs.join(', ')}`,
  );
  console.log(`${cpus().length} CPUs, load average ${loadAtStart} (other processes on this machine skew every figure)`);
  const results = await runBacklogSweep({ adminUrl, receiver, probeReceiver }, options.backlogs);

  console.log(
    `\nbench:isolation (--baseline-seconds ${ISOLATION_BASELINE_SECONDS} --flood-seconds ${ISOLATION_FLOOD_SECONDS}), own process`,
  );
  const isolation = await runIsolation(adminUrl, ISOLATION_BASELINE_SECONDS, ISOLATION_FLOOD_SECONDS);

  console.log('');
  printBacklogSummary(results);
  console.log(
    "isolation (bench:isolation, this run): the healthy tenant's event → receipt, alone and while another floods hanging endpoints",
  );
  for (const line of isolation.figures) console.log(`  ${line}`);
  console.log(`isolation: ${isolation.verdict} (flood p95 <= 2 × baseline p95 and <= 250 ms: ${verdict(isolation.met)})`);
  console.log(`load average: ${loadAtStart} at the start, ${load()} at the end`);
  if (results.some((result) => result.duplicates > 0 || result.delivered === 0)) process.exitCode = 1;
}

/** (a) to (f), in one scratch database. */
async function runScenarios(adminUrl: string): Promise<void> {
  const databaseUrl = await scratchDatabase(adminUrl);
  await applyMigrations(databaseUrl);

  const { app, apiUrl, close: closeApp } = await startApi(databaseUrl);
  const receiver = await startReceiver();
  const context: Context = { app, apiUrl, databaseUrl, receiver };
  console.log(
    `Webhook delivery: one worker process (ROLE=worker, default delivery settings, up to ${DELIVERY_CONCURRENCY} attempts in flight), ` +
      `a node:http receiver in its own process, database ${new URL(databaseUrl).pathname.slice(1)}`,
  );

  console.log(`${cpus().length} CPUs, load average ${load()} (other processes on this machine skew every figure)`);
  const a = await throughputScenario(context, `(a) ${options.events} events → 1 endpoint`, options.events, 1);
  const b = await throughputScenario(
    context,
    `(b) ${options.fanoutEvents} events → ${options.endpoints} endpoints`,
    options.fanoutEvents,
    options.endpoints,
  );
  const c = await steadyScenario(context, `(c) steady ${options.rate} events/s`);

  // (d) The receiver's own capacity for the same request, at the worker's concurrency.
  const sample = a.sample ?? b.sample;
  if (!sample) throw new Error('no delivery arrived: nothing to replay for the receiver capacity');
  console.log(
    `\n(d) receiver capacity: the same request (${Buffer.byteLength(sample.body)} bytes body), ${DELIVERY_CONCURRENCY} concurrent, 1 s warm-up + 5 s`,
  );
  await receiver.call('reset');
  const receiverCpuBefore = cpuSeconds(receiver.pid);
  const capacity = await measureInChild<CapacityOptions, CapacityResult>('./delivery-load.ts', {
    url: `${receiver.url}/capacity`,
    headers: sample.headers,
    body: sample.body,
    connections: DELIVERY_CONCURRENCY,
    warmupSeconds: 1,
    durationSeconds: 5,
  });
  const receiverCpuCapacity = (cpuSeconds(receiver.pid) - receiverCpuBefore) / 6;

  // (e) The queue's own limit: bare pg-boss with a no-op handler, as many jobs as (a) delivers.
  console.log(
    `\n(e) bare pg-boss: ${options.events} no-op jobs, work() with batchSize ${NOOP_BATCH_SIZE} × ${NOOP_LOOPS} loops, own process`,
  );
  const noop = await measureInChild<NoopOptions, NoopResult>('./pgboss-noop.ts', {
    databaseUrl,
    jobs: options.events,
    batchSize: NOOP_BATCH_SIZE,
    loops: NOOP_LOOPS,
  });

  // (f) Where an attempt's CPU goes: the worker's HTTP path against bare clients, same request.
  console.log(
    `\n(f) HTTP client CPU per attempt: the same request, 4 clients taking turns, 5 rounds of 2000, ${Math.min(DELIVERY_CONCURRENCY, 100)} concurrent, own process`,
  );
  const clientCosts = await measureInChild<ClientCostOptions, ClientCost[]>('./http-client-cost.ts', {
    url: `${receiver.url}/client-cost`,
    headers: sample.headers,
    body: sample.body,
    requests: 2000,
    concurrency: Math.min(DELIVERY_CONCURRENCY, 100),
  });

  await closeApp();

  // ------------------------------------------------------------------ report
  const results = [a.result, b.result, c];
  console.log(`\nload average at the end: ${load()}`);
  console.log('');
  printTable(
    ['', 'deliveries', 'dup', 'deliveries/s', 'p50 ms', 'p95 ms', 'p99 ms', 'worker CPU', 'receiver CPU', 'db xacts/delivery'],
    [
      ...results.map((result) => [
        result.name,
        `${result.delivered}/${result.expected}`,
        String(result.duplicates),
        fixed(result.deliveriesPerSecond, 0),
        fixed(result.p50),
        fixed(result.p95),
        fixed(result.p99),
        percent(result.workerCpu),
        percent(result.receiverCpu),
        fixed(result.commitsPerDelivery, 2),
      ]),
      [
        `(d) receiver capacity (${DELIVERY_CONCURRENCY} concurrent)`,
        String(capacity.requests),
        '-',
        fixed(capacity.requestsPerSecond, 0),
        fixed(capacity.p50Ms),
        '-',
        fixed(capacity.p99Ms),
        '-',
        percent(receiverCpuCapacity),
        '-',
      ],
    ],
  );
  console.log('');
  for (const result of results) {
    console.log(`${result.name}: ${result.method}`);
    console.log(`  delivery statuses: ${JSON.stringify(result.statuses)}`);
    for (const note of result.notes) console.log(`  ${note}`);
  }
  if (options.mode === 'drain')
    console.log('(a), (b) latency: commit → receipt includes the time spent in the backlog before the worker started.');
  console.log(
    `worker CPU per delivery: ${results.map((result) => `${result.name.split(' ')[0]} ${fixed(result.workerMicrosPerDelivery, 0)} µs`).join(', ')} ` +
      '(everything: fetch, load, sign, HTTP, record)',
  );
  console.log(
    `(e) bare pg-boss no-op: ${fixed(noop.jobsPerSecond, 0)} jobs/s, ${fixed(noop.cpuMicrosPerJob, 0)} µs CPU per job in its process`,
  );
  console.log('(f) HTTP client CPU per attempt (median of 5 rounds):');
  for (const cost of clientCosts) {
    console.log(
      `  ${cost.client.padEnd(58)} ${fixed(cost.cpuMicrosPerRequest, 0).padStart(5)} µs   ${fixed(cost.requestsPerSecond, 0).padStart(6)} req/s`,
    );
  }
  const [attempt, overOfetch, bare] = clientCosts.map((cost) => cost.cpuMicrosPerRequest) as [number, number, number];
  console.log(
    `  of the attempt's ${fixed(attempt, 0)} µs: the HTTP exchange (bare request()) ${fixed(bare, 0)} µs (${percent(bare / attempt)}), ` +
      `ofetch ${fixed(overOfetch - bare, 0)} µs (${percent((overOfetch - bare) / attempt)}), ` +
      `the attempt's own work (timeout, 4 KB prefix, result) ${fixed(attempt - overOfetch, 0)} µs (${percent((attempt - overOfetch) / attempt)})`,
  );
  console.log(
    'CPU: share of one core over the measured span. db xacts/delivery: transactions committed in the scratch database ' +
      "(pg_stat_database.xact_commit: every session, read-only and background ones too; in (c) and --mode live the ingest's as well) per delivery.",
  );
  console.log('');
  for (const result of [a.result, b.result]) {
    console.log(
      `${result.name}: ${fixed(result.deliveriesPerSecond, 0)} deliveries/s (target >= ${TARGET_DELIVERIES_PER_SECOND}: ${verdict(result.deliveriesPerSecond >= TARGET_DELIVERIES_PER_SECOND)})`,
    );
  }
  const shareOfQueue = a.result.deliveriesPerSecond / noop.jobsPerSecond;
  console.log(
    `(a) ÷ (e) bare pg-boss no-op: ${shareOfQueue.toFixed(2)} (${fixed(a.result.deliveriesPerSecond, 0)} ÷ ${fixed(noop.jobsPerSecond, 0)}; ` +
      `target >= ${TARGET_SHARE_OF_BARE_QUEUE}: ${verdict(shareOfQueue >= TARGET_SHARE_OF_BARE_QUEUE)})`,
  );
  console.log(`${c.name}: p50 ${fixed(c.p50)} ms (target <= ${TARGET_STEADY_P50_MS} ms: ${verdict(c.p50 <= TARGET_STEADY_P50_MS)})`);
  console.log(`${c.name}: p95 ${fixed(c.p95)} ms (target <= ${TARGET_STEADY_P95_MS} ms: ${verdict(c.p95 <= TARGET_STEADY_P95_MS)})`);
  console.log(
    `ratio (a) worker deliveries/s ÷ receiver capacity: ${(a.result.deliveriesPerSecond / capacity.requestsPerSecond).toFixed(2)}` +
      ` (${fixed(a.result.deliveriesPerSecond, 0)} ÷ ${fixed(capacity.requestsPerSecond, 0)})`,
  );
  if (profileDir) {
    // Profiles are named by process start time: the first is the (a) worker's.
    const [first] = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile')).sort();
    if (first) {
      const profile = await summarizeProfile(path.join(profileDir, first), { from: 'attemptDelivery', count: 15 });
      console.log(
        `\n--profile: (a) worker, ${fixed(profile.totalMs, 0)} ms of CPU samples from its first attempt on (${path.join(profileDir, first)})`,
      );
      console.log('  self time by place:');
      for (const [place, share] of profile.byPlace) console.log(`    ${percent(share).padStart(4)}  ${place}`);
      console.log('  self time by function:');
      for (const [fn, share] of profile.byFunction) console.log(`    ${percent(share).padStart(4)}  ${fn}`);
    }
  }
  const capacityErrors = Object.entries(capacity.non200).map(([status, count]) => `${count} × ${status}`);
  if (capacityErrors.length > 0) console.log(`receiver capacity run: unexpected answers: ${capacityErrors.join(', ')}`);
  const incomplete = results.filter((result) => result.delivered < result.expected || result.duplicates > 0);
  if (incomplete.length > 0 || capacityErrors.length > 0) process.exitCode = 1;
}

await runBench(async () => {
  const adminUrl = await postgresServer();
  if (options.scenarios) await runScenarios(adminUrl);
  else await runSweep(adminUrl);
});
