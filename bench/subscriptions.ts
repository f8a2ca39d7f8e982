// `npm run bench:subscriptions [-- --subscribers 1000 --clients 4 --deliveries 100 --rate 4 --timeout 120
//                                  --fields "id status attemptCount ..." --api-cpu-prof DIR]`
//
// Live-update latency of `subscription { deliveryUpdated }`: `--subscribers` graphql-ws
// subscribers (one WebSocket each, spread over `--clients` processes so that the clients are
// not the bottleneck) on ONE api process (`npm start` with ROLE=api: the one under test), a
// worker in another process (ROLE=worker), and `--deliveries` deploys (one delivery each) sent
// at `--rate` per second to a fast local receiver. Each delivery changes twice (PENDING on
// ingest, SUCCEEDED after its attempt); every subscriber must get every change, in order.
//
// Latency, per change and subscriber: from the change in PostgreSQL to its arrival at the
// subscriber. The change's time is recorded in the database itself, by a bench-only trigger on
// `deliveries` beside Hookline's notify trigger (same events: insert, change of status or
// attempt count) that writes `clock_timestamp()` with the delivery id, status and attempt count
// into a side table, so the time comes from no process under test. It is the moment the row
// changed inside the writing transaction, a little before that transaction commits (and so
// before the notification can leave), so the figures err on the slow side by the rest of the
// transaction; when the server has `track_commit_timestamp = on`, the commit time itself is used
// (pg_xact_commit_timestamp of the recorded transaction id). Arrival is `performance.timeOrigin
// + performance.now()` in the client process. Both read the same system clock: this bench
// assumes PostgreSQL, the api and the clients run on one machine (it warns otherwise).
//
// Also printed: the api's CPU per message (one change to one subscriber), which says what one
// api process can carry whatever else the machine runs. Subscribers of the same operation share
// one execution per change (serialised once), so what is left per subscriber is mostly the write
// to its socket. The api's peak RSS is printed against its target (400 MB), and a same-run
// baseline: the latency from the change to a bare LISTEN client in this process, the floor that
// PostgreSQL's NOTIFY sets for any subscriber.
//
// PostgreSQL: DATABASE_URL (an admin connection, used to create and drop a scratch database),
// or an embedded PostgreSQL in a temp dir when it is unset. Processes, the scratch database and
// the embedded server are cleaned up at the end, on failure and on Ctrl-C.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { connectDatabase } from '../src/db/client.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { DELIVERY_CHANNEL } from '../src/delivery/notifications.ts';
import type { ChangeKey, ClientMethods, ClientOptions, Progress } from './subscriptions-client.ts';
import { adminQuery } from '../src/db/admin.ts';
import { spawnHookline, stopChild } from './processes.ts';
import { cleanUpOnInterrupt, cpuSeconds, runBench, cleanups, postgresServer, scratchDatabase, wasInterrupted } from './support.ts';
import { percentile } from './percentile.ts';

const TARGET_P95_MS = 100;
const TARGET_API_RSS_MB = 400;

/**
 * What a dashboard's delivery list asks of each change by default: the row's own columns. The row
 * is loaded once per change whatever the selection, but each relation in it (`endpoint { id }`,
 * `attempts { ... }`) is resolved by Pothos for every subscriber and adds markedly to the api's
 * cost per message: `--fields` measures other selections.
 */
const DEFAULT_FIELDS = 'id status attemptCount lastAttemptAt nextAttemptAt updatedAt';

function positiveNumber(name: string, value: string, integer = true): number {
  const number = Number(value);
  if (!(number > 0) || (integer && !Number.isInteger(number)))
    throw new Error(`--${name} must be a ${integer ? 'whole ' : ''}number greater than 0, got "${value}"`);
  return number;
}

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '4' },
    deliveries: { type: 'string', default: '100' },
    rate: { type: 'string', default: '4' },
    timeout: { type: 'string', default: '120' },
    fields: { type: 'string', default: DEFAULT_FIELDS },
    'api-cpu-prof': { type: 'string' },
  },
});
const options = {
  subscribers: positiveNumber('subscribers', args.subscribers),
  clients: positiveNumber('clients', args.clients),
  deliveries: positiveNumber('deliveries', args.deliveries),
  rate: positiveNumber('rate', args.rate, false),
  timeoutSeconds: positiveNumber('timeout', args.timeout),
  /** The selection of `deliveryUpdated`; must include id, status and attemptCount. */
  fields: args.fields,
  /** Where the api process writes a CPU profile (node --cpu-prof) when it stops. */
  apiCpuProfileDir: args['api-cpu-prof'],
};

if (!/\bid\b/.test(options.fields) || !/\bstatus\b/.test(options.fields) || !/\battemptCount\b/.test(options.fields)) {
  throw new Error('--fields must include id, status and attemptCount');
}
const SUBSCRIPTION = `subscription BenchDeliveryUpdated { deliveryUpdated { ${options.fields} } }`;

// ---------------------------------------------------------------------------------------
// Clean-up: undone in reverse order at the end, on failure and on Ctrl-C.

cleanUpOnInterrupt('stopping the processes and dropping the scratch database');

/** The bench's own record of every delivery change (see the top of this file). Scratch database only. */
const RECORD_CHANGES_SQL = `
CREATE TABLE bench_delivery_changes (
  delivery_id uuid NOT NULL,
  status text NOT NULL,
  attempt_count int NOT NULL,
  changed_at timestamptz NOT NULL,
  xid bigint NOT NULL
);
CREATE FUNCTION bench_record_delivery_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bench_delivery_changes VALUES (NEW.id, NEW.status, NEW.attempt_count, clock_timestamp(), txid_current());
  RETURN NULL;
END
$$;
CREATE TRIGGER bench_record_delivery_change
AFTER INSERT OR UPDATE OF status, attempt_count ON deliveries
FOR EACH ROW EXECUTE FUNCTION bench_record_delivery_change();`;

// ---------------------------------------------------------------------------------------
// Processes

/** The peak resident memory of a process so far, in MB (Linux /proc: VmHWM), or NaN elsewhere. */
function peakRssMb(pid: number | undefined): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Arrival times of the notifications of a bare LISTEN client in this process: the floor of any subscriber's latency. */
async function listenForBaseline(databaseUrl: string): Promise<Map<ChangeKey, number>> {
  const arrivals = new Map<ChangeKey, number>();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  cleanups.push(() => client.end());
  client.on('notification', ({ payload }) => {
    const at = performance.timeOrigin + performance.now();
    const change = JSON.parse(payload!) as { id: string; status: string; attemptCount: number };
    arrivals.set(`${change.id}|${change.status}|${change.attemptCount}`, at);
  });
  await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
  return arrivals;
}

/** A Hookline process exactly as `npm start` runs one; resolves with its address once it listens. */
async function startHookline(role: 'api' | 'worker', databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const profile =
    role === 'api' && options.apiCpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.apiCpuProfileDir)}`] : [];
  const { child, listening } = spawnHookline(role, databaseUrl, {
    nodeArgs: profile,
    // Every subscriber is a socket of the one organization.
    env: { WS_MAX_CONNECTIONS_PER_ORGANIZATION: String(Math.max(options.subscribers, 1000)) },
  });
  const url = await listening;
  // Warnings and errors it logs during the run are worth seeing beside the figures.
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[${role}] ${chunk}`));
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    if (/"level":(40|50|60)/.test(text)) process.stdout.write(`[${role}] ${text}`);
  });
  return { child, url };
}

interface ClientProcess {
  pid: number;
  call<M extends keyof ClientMethods>(method: M, params?: Parameters<ClientMethods[M]>[0]): Promise<Awaited<ReturnType<ClientMethods[M]>>>;
}

function startClientProcess(): ClientProcess {
  const child = fork(new URL('./subscriptions-client.ts', import.meta.url), {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: 'inherit',
    serialization: 'advanced',
  });
  cleanups.push(() => stopChild(child, 'SIGKILL'));
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  child.on('message', (message: { id: number; result: unknown }) => {
    pending.get(message.id)?.resolve(message.result);
    pending.delete(message.id);
  });
  child.once('exit', (code, signal) => {
    for (const { reject } of pending.values()) reject(new Error(`client process stopped (${signal ?? `exit code ${code}`})`));
  });
  return {
    pid: child.pid!,
    call(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
        child.send({ id, method, params });
      });
    },
  };
}

/** A receiver that answers 200 at once. */
async function startReceiver(): Promise<{ url: string; count: () => number }> {
  let count = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count++;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => count };
}

// ---------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

async function sumProgress(clients: ClientProcess[]): Promise<Progress> {
  const all = await Promise.all(clients.map((client) => client.call('progress')));
  return {
    connected: all.reduce((sum, p) => sum + p.connected, 0),
    live: all.reduce((sum, p) => sum + p.live, 0),
    received: all.reduce((sum, p) => sum + p.received, 0),
    errors: all.flatMap((p) => p.errors),
  };
}

const [loadAtStart] = loadavg();

async function main(): Promise<void> {
  const adminUrl = await postgresServer();
  const host = new URL(adminUrl).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    console.warn(`warning: PostgreSQL is on ${host}: its clock and this machine's may differ, and latencies with them`);
  }
  const databaseUrl = await scratchDatabase(adminUrl);
  await applyMigrations(databaseUrl);
  await adminQuery(databaseUrl, RECORD_CHANGES_SQL);
  const database = connectDatabase(databaseUrl, { maxConnections: 2 });
  cleanups.push(() => database.close());
  const { rows: settings } = await database.pool.query<{ on: boolean }>(`SELECT current_setting('track_commit_timestamp') = 'on' AS on`);
  const commitTimestamps = settings[0]!.on;

  const { organizationId, apiToken } = await createOrganization(database.prisma, 'bench');
  const { deployToken } = await createService(database.prisma, organizationId, 'checkout');
  const receiver = await startReceiver();

  const api = await startHookline('api', databaseUrl);
  const worker = await startHookline('worker', databaseUrl);
  const endpointResponse = await fetch(`${api.url}/api/webhooks/endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
    body: JSON.stringify({ url: `${receiver.url}/hooks`, name: 'bench', eventTypes: ['deploy.ingested'] }),
  });
  if (endpointResponse.status !== 201)
    throw new Error(`endpoint creation answered ${endpointResponse.status}: ${await endpointResponse.text()}`);
  const endpointId = ((await endpointResponse.json()) as { id: string }).id;

  console.log(
    `deliveryUpdated fan-out: ${options.subscribers} subscribers (one WebSocket each, ${options.clients} client processes) on one api process, ` +
      `a worker process, ${options.deliveries} deliveries at ${options.rate}/s; selection { ${options.fields} }; database ${new URL(databaseUrl).pathname.slice(1)}; ` +
      `change time = ${commitTimestamps ? 'commit timestamp' : 'clock_timestamp() at the change (track_commit_timestamp is off)'}`,
  );

  // Subscribers.
  const clients = Array.from({ length: options.clients }, () => startClientProcess());
  const started = Date.now();
  await Promise.all(
    clients.map((client, index) => {
      const count = Math.floor(options.subscribers / options.clients) + (index < options.subscribers % options.clients ? 1 : 0);
      const params: ClientOptions = {
        url: `${api.url.replace(/^http/, 'ws')}/graphql`,
        apiToken,
        count,
        query: SUBSCRIPTION,
        connectConcurrency: 20,
      };
      return client.call('start', params);
    }),
  );
  let progress = await sumProgress(clients);
  if (progress.connected < options.subscribers)
    throw new Error(`only ${progress.connected} of ${options.subscribers} connected: ${progress.errors.join('; ')}`);
  console.log(`${progress.connected} subscribers connected in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Warm-up: test pings until every subscriber has received a change (so every subscription is
  // set up server-side; graphql-ws does not acknowledge subscriptions).
  const ping = () =>
    fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({
        query: 'mutation BenchPing($id: ID!) { sendTestEvent(endpointId: $id) { id } }',
        variables: { id: endpointId },
      }),
    });
  const pingIds: string[] = [];
  let pings = 0;
  for (;;) {
    pings++;
    const answer = await ping();
    const body = (await answer.json()) as { data?: { sendTestEvent: { id: string } }; errors?: unknown };
    if (!body.data) throw new Error(`sendTestEvent answered ${answer.status}: ${JSON.stringify(body)}`);
    pingIds.push(body.data.sendTestEvent.id);
    try {
      await until('every subscriber live', 3000, async () => (progress = await sumProgress(clients)).live >= options.subscribers);
      break;
    } catch (error) {
      if (pings === 10)
        throw new Error(`${String(error)}: ${progress.live} of ${options.subscribers} after ${pings} pings; ${progress.errors.join('; ')}`);
    }
  }
  // The warm-up deliveries (test.ping events) are not measured: only deploy.ingested ones are.
  await Promise.all(clients.map((client) => client.call('collect', { ignore: pingIds })));
  console.log(`${progress.live} subscribers live after ${pings} warm-up ping(s)`);

  // Measured: open-loop ingest at --rate.
  const ingestStarted = Date.now();
  const apiCpuBefore = cpuSeconds(api.child.pid);
  const baselineArrivals = await listenForBaseline(databaseUrl);
  const workerCpuBefore = cpuSeconds(worker.child.pid);
  const clientCpuBefore = clients.map((client) => cpuSeconds(client.pid));
  const interval = 1000 / options.rate;
  const ingests: Promise<void>[] = [];
  for (let index = 0; index < options.deliveries && !wasInterrupted(); index++) {
    const wait = ingestStarted + index * interval - Date.now();
    if (wait > 0) await sleep(wait);
    const ingest = fetch(`${api.url}/api/ingest/deploy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-deploy-token': deployToken },
      body: JSON.stringify({ commit_sha: randomBytes(20).toString('hex'), environment: 'production', version: `v1.${index}.0` }),
    }).then(async (response) => {
      const body = (await response.json()) as { status?: string };
      if (body.status !== 'accepted') throw new Error(`ingest answered ${response.status}: ${JSON.stringify(body)}`);
    });
    // Handled now (and reported below): a failure while later ones are still being sent, or
    // while Ctrl-C is cleaning up, must not end the process as an unhandled rejection.
    ingest.catch(() => {});
    ingests.push(ingest);
  }
  const ingested = await Promise.allSettled(ingests);
  if (wasInterrupted()) return; // Ctrl-C
  const failure = ingested.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;

  // Every measured delivery done, and every change received by every subscriber (or the timeout).
  const measuredSql = `
    SELECT c.delivery_id AS id, c.status, c.attempt_count AS "attemptCount",
           extract(epoch FROM ${commitTimestamps ? 'coalesce(pg_xact_commit_timestamp((c.xid % 4294967296)::text::xid), c.changed_at)' : 'c.changed_at'}) * 1000 AS at
      FROM bench_delivery_changes c
      JOIN deliveries d ON d.id = c.delivery_id
      JOIN events e ON e.id = d.event_id
     WHERE e.type = 'deploy.ingested'`;
  let changes: { id: string; status: string; attemptCount: number; at: number }[] = [];
  let complete = true;
  try {
    await until('deliveries and receipts', options.timeoutSeconds * 1000, async () => {
      const { rows } = await database.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.type = 'deploy.ingested' AND d.status = 'SUCCEEDED'`,
      );
      if (rows[0]!.n < options.deliveries) return false;
      changes = (await database.pool.query(measuredSql)).rows;
      progress = await sumProgress(clients);
      return progress.received >= changes.length * options.subscribers;
    });
  } catch (error) {
    complete = false;
    console.log(String(error));
  }
  const elapsedSeconds = (Date.now() - ingestStarted) / 1000;
  const apiCpu = (cpuSeconds(api.child.pid) - apiCpuBefore) / elapsedSeconds;
  const workerCpu = (cpuSeconds(worker.child.pid) - workerCpuBefore) / elapsedSeconds;
  const clientCpu = clients.map((client, index) => (cpuSeconds(client.pid) - clientCpuBefore[index]!) / elapsedSeconds);
  changes = (await database.pool.query(measuredSql)).rows;

  // Figures.
  const collected = await Promise.all(clients.map((client) => client.call('collect')));
  const changedAt = new Map<ChangeKey, number>(
    changes.map((change) => [`${change.id}|${change.status}|${change.attemptCount}`, Number(change.at)]),
  );
  const latencies = new Float64Array(changes.length * options.subscribers);
  const byStatus: Record<string, number[]> = {};
  let count = 0;
  let unknown = 0;
  for (const { receipts } of collected) {
    for (const [key, times] of Object.entries(receipts)) {
      const at = changedAt.get(key);
      if (at === undefined) {
        unknown += times.length;
        continue;
      }
      const status = key.split('|')[1]!;
      for (const time of times) {
        latencies[count++] = time - at;
        (byStatus[status] ??= []).push(time - at);
      }
    }
  }
  const measured = latencies.subarray(0, count).sort();
  const expected = changes.length * options.subscribers;
  const outOfOrder = collected.reduce((sum, c) => sum + c.outOfOrder, 0);
  const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');
  const percent = (value: number) => (Number.isFinite(value) ? `${Math.round(value * 100)}%` : '-');

  console.log('');
  console.log(
    `changes: ${changes.length} (${options.deliveries} deliveries × PENDING, SUCCEEDED), receipts ${count}/${expected}${unknown ? `, ${unknown} of unknown changes` : ''}`,
  );
  console.log(
    `change → subscriber latency over all subscribers: p50 ${fixed(percentile(measured, 50))} ms, p95 ${fixed(percentile(measured, 95))} ms, p99 ${fixed(percentile(measured, 99))} ms, max ${fixed(percentile(measured, 100))} ms`,
  );
  for (const [status, values] of Object.entries(byStatus)) {
    values.sort((a, b) => a - b);
    console.log(
      `  ${status.padEnd(9)} p50 ${fixed(percentile(values, 50))} ms, p95 ${fixed(percentile(values, 95))} ms (${values.length} receipts)`,
    );
  }
  console.log(
    `out of order or repeated: ${outOfOrder}; subscriber errors: ${progress.errors.length ? progress.errors.join('; ') : 'none'}`,
  );
  console.log(
    `CPU over ${elapsedSeconds.toFixed(1)} s (share of one core): api ${percent(apiCpu)}, worker ${percent(workerCpu)}, clients ${clientCpu.map(percent).join(' ')}; receiver got ${receiver.count()} requests`,
  );
  // The api's CPU per message sent (one change to one subscriber): what one api process can
  // carry, on this machine, whatever else runs on it.
  const apiCpuPerMessageUs = (apiCpu * elapsedSeconds * 1e6) / Math.max(1, count);
  console.log(
    `api CPU per message: ${fixed(apiCpuPerMessageUs)} µs, so one core fans out about ${Math.floor(1e6 / apiCpuPerMessageUs)} messages/s ` +
      `(${fixed(1e6 / apiCpuPerMessageUs / options.subscribers)} changes/s to ${options.subscribers} subscribers; this run offered ${fixed((changes.length / options.deliveries) * options.rate)})`,
  );
  const baseline = changes
    .map((change) => (baselineArrivals.get(`${change.id}|${change.status}|${change.attemptCount}`) ?? Number.NaN) - Number(change.at))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  console.log(
    `baseline, change → a bare LISTEN client in the bench process: p50 ${fixed(percentile(baseline, 50))} ms, p95 ${fixed(percentile(baseline, 95))} ms ` +
      `(${baseline.length} changes): the floor NOTIFY sets; subscribers add the api's load, execution and fan-out`,
  );
  const apiRssMb = peakRssMb(api.child.pid);
  console.log(`api peak RSS: ${fixed(apiRssMb)} MB (target <= ${TARGET_API_RSS_MB} MB)`);
  const [loadAtEnd] = loadavg();
  console.log(
    `machine: ${availableParallelism()} cores, load average ${loadAtStart!.toFixed(1)} at the start, ${loadAtEnd!.toFixed(1)} at the end` +
      (Math.max(loadAtStart!, loadAtEnd!) > availableParallelism() ? ' (busy: the api competed for CPU, latencies include that)' : ''),
  );
  const met =
    complete && count === expected && outOfOrder === 0 && percentile(measured, 95) <= TARGET_P95_MS && !(apiRssMb > TARGET_API_RSS_MB);
  console.log(
    `p95 ${fixed(percentile(measured, 95))} ms (target <= ${TARGET_P95_MS} ms, every change to every subscriber in order), ` +
      `api RSS ${fixed(apiRssMb)} MB (target <= ${TARGET_API_RSS_MB} MB): ${met ? 'met' : 'MISSED'}`,
  );
  if (!met) process.exitCode = 1;

  await Promise.all(clients.map((client) => client.call('stop')));
}

await runBench(main);
