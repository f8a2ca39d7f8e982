// `npm run bench:scale-out [-- --events 5000 --rate 100 --steady-seconds 10 --timeout 300]`
//
// Hookline scaled out on one PostgreSQL: one api and one worker process, then two of each
// (`npm start` with ROLE=api / ROLE=worker, the compiled program), each topology on a fresh
// database with one endpoint at a fast receiver in its own process (bench/delivery-receiver.ts).
//
//   ingest: `--events` deploys posted over HTTP, spread evenly over the api processes, 64 at once:
//           requests per second (the workers are not running yet).
//   drain:  then the workers start and deliver that backlog: deliveries per second, first to last
//           receipt, and duplicates (a delivery received twice).
//   steady: `--rate` deploys per second for `--steady-seconds`, spread over the api processes, with
//           the workers running: commit (the ingest answer) → receipt latency.
//
// Prints both topologies and the ratio of two of each to one of each. DATABASE_URL: an admin
// connection (scratch databases are created and dropped), or an embedded PostgreSQL when unset.
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { connectDatabase } from '../src/db/client.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { startQueue } from '../src/delivery/queue.ts';
import { createEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { now } from './delivery-receiver.ts';
import { percentile } from './percentile.ts';
import { Ingest, spawnHookline, startReceiver, stopChild, type Commit, type Receiver } from './processes.ts';
import { cleanUpOnInterrupt, postgresServer, runBench, scratchDatabase } from './support.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '100' },
    'steady-seconds': { type: 'string', default: '10' },
    timeout: { type: 'string', default: '300' },
  },
});
const events = Number(args.events);
const rate = Number(args.rate);
const steadySeconds = Number(args['steady-seconds']);
const timeoutMs = Number(args.timeout) * 1000;
for (const [name, value] of Object.entries({ events, rate, steadySeconds, timeoutMs })) {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a whole number greater than 0`);
}
const INGEST_CONCURRENCY = 64;

/** A Hookline process as `npm start` runs one; resolves with its address once it listens. */
async function startHookline(role: 'api' | 'worker', databaseUrl: string): Promise<{ child: ChildProcess; address: string }> {
  const { child, listening } = spawnHookline(role, databaseUrl);
  // What it says on stderr beyond the start-up's Node.js version notice is worth seeing.
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString().replace(/^Warning: Hookline supports Node\.js.*\n?/m, '');
    if (text) process.stderr.write(`[${role} ${child.pid}] ${text}`);
  });
  return { child, address: await listening };
}

interface Figures {
  topology: string;
  ingestPerSecond: number;
  drainPerSecond: number;
  duplicates: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Deliveries of `commits` the receiver has seen: their count, rate (first → last receipt), latencies and duplicates. */
async function receipts(receiver: Receiver, commits: Commit[]) {
  const byDeploy = new Map(commits.map((commit) => [commit.deployId, commit]));
  const { records } = await receiver.call('collect');
  const mine = records.filter(([, deployId]) => byDeploy.has(deployId));
  const times = mine.map(([, , receivedAt]) => receivedAt);
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  return {
    delivered: mine.length,
    rate: mine.length / span,
    duplicates: mine.reduce((sum, [, , , count]) => sum + count - 1, 0),
    latencies: mine.map(([, deployId, receivedAt]) => receivedAt - byDeploy.get(deployId)!.committedAt).sort((a, b) => a - b),
  };
}

async function waitForReceipts(receiver: Receiver, distinct: number): Promise<void> {
  const { reached } = await receiver.call('waitFor', { distinct, timeoutMs });
  if (!reached) throw new Error(`${distinct} deliveries did not arrive within ${timeoutMs} ms`);
}

async function measure(adminUrl: string, receiver: Receiver, processes: number): Promise<Figures> {
  const topology = `${processes} api + ${processes} worker`;
  console.log(`\n${topology} (load average ${loadavg()[0]!.toFixed(1)})`);
  const databaseUrl = await scratchDatabase(adminUrl);
  await applyMigrations(databaseUrl);
  const boss = await startQueue({ databaseUrl, jobExpirySeconds: 30, onError: () => {} });
  await boss.stop({ graceful: false });
  const database = connectDatabase(databaseUrl, { maxConnections: 2 });
  const { organizationId } = await createOrganization(database.prisma, 'scale-out');
  const { deployToken } = await createService(database.prisma, organizationId, 'checkout');
  await createEndpoint(
    database.prisma,
    organizationId,
    { url: `${receiver.url}/scale-out`, name: 'receiver' },
    { allowHttp: true, allowPrivate: true },
    1,
  );
  await database.close();

  const apis = await Promise.all(Array.from({ length: processes }, () => startHookline('api', databaseUrl)));
  const ingests = apis.map(({ address }) => new Ingest(address, deployToken));
  // Stopped at the end of the topology (and, stopped already, skipped by the final clean-up).
  const children = apis.map(({ child }) => child);
  try {
    await receiver.call('reset');
    const ingestStarted = now();
    const backlog = (await Promise.all(ingests.map((ingest) => ingest.many(events / processes, INGEST_CONCURRENCY / processes)))).flat();
    const ingestPerSecond = backlog.length / ((now() - ingestStarted) / 1000);
    console.log(`  ingest: ${backlog.length} deploys at ${ingestPerSecond.toFixed(0)}/s`);

    const workers = await Promise.all(Array.from({ length: processes }, () => startHookline('worker', databaseUrl)));
    children.push(...workers.map(({ child }) => child));
    await waitForReceipts(receiver, backlog.length);
    const drained = await receipts(receiver, backlog);
    console.log(`  drain: ${drained.delivered} deliveries at ${drained.rate.toFixed(0)}/s, ${drained.duplicates} duplicates`);

    await receiver.call('reset');
    const { commits } = (await Promise.all(ingests.map((ingest) => ingest.steady(rate / processes, steadySeconds)))).reduce(
      (all, part) => ({ commits: [...all.commits, ...part.commits] }),
      { commits: [] as Commit[] },
    );
    await waitForReceipts(receiver, commits.length);
    const steady = await receipts(receiver, commits);
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(steady.latencies, p));
    console.log(`  steady ${rate}/s: p50 ${p50!.toFixed(1)} ms, p95 ${p95!.toFixed(1)} ms, p99 ${p99!.toFixed(1)} ms`);
    return {
      topology,
      ingestPerSecond,
      drainPerSecond: drained.rate,
      duplicates: drained.duplicates + steady.duplicates,
      p50: p50!,
      p95: p95!,
      p99: p99!,
    };
  } finally {
    for (const ingest of ingests) ingest.close();
    await Promise.all(children.map((child) => stopChild(child)));
  }
}

async function main(): Promise<void> {
  cleanUpOnInterrupt('stopping the processes and the receiver, dropping the scratch databases');
  const adminUrl = await postgresServer();
  const receiver = await startReceiver();
  console.log(`${cpus().length} cores; ${events} deploys of backlog, then ${rate}/s for ${steadySeconds} s; one endpoint`);
  const one = await measure(adminUrl, receiver, 1);
  const two = await measure(adminUrl, receiver, 2);

  const row = (f: Figures) =>
    `${f.topology.padEnd(22)}${f.ingestPerSecond.toFixed(0).padStart(10)}${f.drainPerSecond.toFixed(0).padStart(12)}${f.p50.toFixed(1).padStart(10)}${f.p95.toFixed(1).padStart(10)}${f.p99.toFixed(1).padStart(10)}${String(f.duplicates).padStart(12)}`;
  console.log(
    `\n${'topology'.padEnd(22)}${'ingest/s'.padStart(10)}${'drain/s'.padStart(12)}${'p50 ms'.padStart(10)}${'p95 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'duplicates'.padStart(12)}`,
  );
  console.log(row(one));
  console.log(row(two));
  console.log(
    `ratio (2 + 2 / 1 + 1): ingest ${(two.ingestPerSecond / one.ingestPerSecond).toFixed(2)}, drain ${(two.drainPerSecond / one.drainPerSecond).toFixed(2)}, ` +
      `p50 ${(two.p50 / one.p50).toFixed(2)}, p95 ${(two.p95 / one.p95).toFixed(2)} (load average ${loadavg()[0]!.toFixed(1)})`,
  );
}

await runBench(main);
