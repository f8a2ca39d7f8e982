// `npm run bench:ingest [-- --connections 32 --duration 5 --warmup 1 --rounds 3 --without-dora-triggers]`
//
// Deploy-ingest throughput of the real Hookline app against a bare node:http + pg baseline,
// in one run on one PostgreSQL server: DATABASE_URL (an admin connection, used to create and
// drop a scratch database), or an embedded PostgreSQL in a temp dir when it is unset.
//
// The servers run in this process and are driven in turn by the same load generator in a
// separate process (bench/load-generator.ts), so the comparison is like for like. They take
// turns for several rounds: when the machine's load changes during the run (other processes),
// it then weighs on each of them alike instead of on whichever happened to run last.
// `--without-dora-triggers`: one more Hookline (rate limit off) on a database of its own whose
// triggers on deploys and commits (those noting the deploys for DORA's daily figures and for the
// rollback judgement) are disabled, to weigh what they cost.
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { CREATE_BASELINE_TABLE, startBaselineServer } from './baseline-server.ts';
import type { LoadOptions, LoadResult } from './load-generator.ts';
import { adminQuery } from '../src/db/admin.ts';
import { cleanUpOnInterrupt, runBench, cleanups, postgresServer, scratchDatabase, positiveInteger } from './support.ts';

const TARGET_RATIO = 0.6;
const WITHOUT_TRIGGERS = 'Hookline (rate limit off, no DORA triggers)';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    'without-dora-triggers': { type: 'boolean', default: false },
  },
});
const connections = positiveInteger('connections', args.connections);
const durationSeconds = positiveInteger('duration', args.duration);
const rounds = positiveInteger('rounds', args.rounds);
const warmupSeconds = Number(args.warmup);
if (!(warmupSeconds >= 0)) throw new Error(`--warmup must be a number of seconds >= 0, got "${args.warmup}"`);

cleanUpOnInterrupt('stopping the servers, dropping the scratch database');

/** Runs the load generator in a child process and returns its figures. */
function generateLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./load-generator.ts', import.meta.url), {
      // The child is TypeScript too: load it through tsx, not through this process's flags.
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: 'inherit',
    });
    let result: LoadResult | undefined;
    child.once('message', (message) => (result = message as LoadResult));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      result ? resolve(result) : reject(new Error(`load generator stopped without a result (${signal ?? `exit code ${code}`})`)),
    );
    child.send(options);
  });
}

interface Row {
  name: string;
  result: LoadResult;
}

/** Several rounds of one server as one result: requests and errors add up; percentiles are the median round's. */
function combine(results: LoadResult[]): LoadResult {
  const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const non200: Record<string, number> = {};
  for (const result of results) for (const [status, count] of Object.entries(result.non200)) non200[status] = (non200[status] ?? 0) + count;
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  return {
    requests,
    requestsPerSecond: requests / (durationSeconds * results.length),
    p50Ms: median(results.map((result) => result.p50Ms)),
    p99Ms: median(results.map((result) => result.p99Ms)),
    non200,
    notAccepted: results.reduce((sum, result) => sum + result.notAccepted, 0),
    samples: results.flatMap((result) => result.samples).slice(0, 3),
  };
}

function describeErrors(result: LoadResult): string {
  const parts = Object.entries(result.non200).map(([status, count]) => `${count} × ${status}`);
  if (result.notAccepted > 0) parts.push(`${result.notAccepted} × 200 without status "accepted"`);
  return parts.join(', ');
}

function printTable(rows: Row[]): void {
  const header = ['', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-200'];
  const lines = rows.map(({ name, result }) => [
    name,
    result.requestsPerSecond.toFixed(1),
    result.p50Ms.toFixed(2),
    result.p99Ms.toFixed(2),
    String(result.requests),
    String(Object.values(result.non200).reduce((sum, count) => sum + count, 0)),
  ]);
  const widths = header.map((_, column) => Math.max(...[header, ...lines].map((line) => line[column]!.length)));
  const format = (line: string[]) =>
    line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

interface Server {
  name: string;
  url: string;
  deployToken: string;
}

async function main(): Promise<void> {
  const adminUrl = await postgresServer();
  const databaseUrl = await scratchDatabase(adminUrl);
  await applyMigrations(databaseUrl);
  await adminQuery(databaseUrl, CREATE_BASELINE_TABLE);

  const load = { connections, warmupSeconds, durationSeconds };
  console.log(
    `Deploy ingest: ${connections} connections, ${rounds} rounds of ${warmupSeconds} s warm-up + ${durationSeconds} s measured ` +
      `per server, database ${new URL(databaseUrl).pathname.slice(1)}`,
  );

  // Hookline as in production, with the rate limit lifted by configuration: switched off (the
  // figure the target is about), and set out of reach but still counted in PostgreSQL on every
  // request (what the shared limit costs).
  const startHookline = async (name: string, rateLimit: string, database = databaseUrl): Promise<Server> => {
    const config = loadConfig({ DATABASE_URL: database, LOG_LEVEL: 'silent', INGEST_RATE_LIMIT_PER_MINUTE: rateLimit });
    const app = await createApp(config, database);
    cleanups.push(() => app.close());
    const url = await app.listen(0, '127.0.0.1');
    const { organizationId } = await createOrganization(app.database.prisma, `bench ${name}`);
    const { deployToken } = await createService(app.database.prisma, organizationId, 'checkout');
    return { name, url, deployToken };
  };
  const servers = [
    await startHookline('Hookline (rate limit off)', 'off'),
    await startHookline('Hookline (rate limit counted)', '100000000'),
  ];
  if (args['without-dora-triggers']) {
    const untriggeredUrl = await scratchDatabase(adminUrl);
    await applyMigrations(untriggeredUrl);
    await adminQuery(
      untriggeredUrl,
      // USER: every trigger but those enforcing foreign keys.
      `ALTER TABLE deploys DISABLE TRIGGER USER; ALTER TABLE commits DISABLE TRIGGER USER`,
    );
    servers.push(await startHookline(WITHOUT_TRIGGERS, 'off', untriggeredUrl));
  }
  const baselineServer = await startBaselineServer(databaseUrl);
  cleanups.push(() => baselineServer.close());
  // The baseline ignores the token and the idempotency key, but gets exactly the same requests.
  servers.push({ name: 'baseline', url: baselineServer.url, deployToken: 'unused' });

  const results = new Map<string, LoadResult[]>(servers.map((server) => [server.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      console.log(`round ${round}/${rounds}: ${server.name}…`);
      results
        .get(server.name)!
        .push(await generateLoad({ ...load, url: `${server.url}/api/ingest/deploy`, deployToken: server.deployToken }));
    }
  }

  const rows = servers.map(({ name }) => ({ name, result: combine(results.get(name)!) }));
  console.log('');
  printTable(rows);
  const baseline = results.get('baseline')!;
  const ratios = (name: string) => {
    const overall = combine(results.get(name)!).requestsPerSecond / combine(baseline).requestsPerSecond;
    const byRound = results.get(name)!.map((result, round) => (result.requestsPerSecond / baseline[round]!.requestsPerSecond).toFixed(2));
    return `${overall.toFixed(2)} (target >= ${TARGET_RATIO.toFixed(2)}; by round: ${byRound.join(', ')})`;
  };
  console.log(`ratio (hookline / baseline req/s):  ${ratios('Hookline (rate limit off)')}`);
  console.log(`ratio with the rate limit counted:  ${ratios('Hookline (rate limit counted)')}`);
  if (results.has(WITHOUT_TRIGGERS)) {
    const withTriggers = results.get('Hookline (rate limit off)')!;
    const byRound = withTriggers.map((result, round) =>
      (result.requestsPerSecond / results.get(WITHOUT_TRIGGERS)![round]!.requestsPerSecond).toFixed(2),
    );
    const overall = combine(withTriggers).requestsPerSecond / combine(results.get(WITHOUT_TRIGGERS)!).requestsPerSecond;
    console.log(`ratio (DORA triggers on / off req/s): ${overall.toFixed(2)} (by round: ${byRound.join(', ')})`);
  }

  // Figures from runs with failed requests measure the failures, not the ingest path.
  for (const { name, result } of rows) {
    const errors = describeErrors(result);
    if (!errors) continue;
    process.exitCode = 1;
    console.log(`\n${name}: unexpected answers: ${errors}`);
    for (const sample of result.samples) console.log(`  e.g. ${sample}`);
  }
}

await runBench(main);
