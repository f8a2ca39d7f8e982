// `npm run bench:ingest [-- --connections 32 --duration 10 --warmup 2]`
//
// Deploy-ingest throughput of the real Hookline app against a bare node:http + pg baseline,
// in one run on one PostgreSQL server: DATABASE_URL (an admin connection, used to create and
// drop a scratch database), or an embedded PostgreSQL in a temp dir when it is unset.
//
// Both servers run in this process, one after the other, and are driven by the same load
// generator in a separate process (bench/load-generator.ts), so the comparison is like for like.
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createService } from '../src/domain/services.ts';
import { CREATE_BASELINE_TABLE, startBaselineServer } from './baseline-server.ts';
import type { LoadOptions, LoadResult } from './load-generator.ts';
import { adminQuery } from '../src/db/admin.ts';
import { cleanUpOnInterrupt, runBench, cleanups, postgresServer, scratchDatabase } from './support.ts';

const TARGET_RATIO = 0.6;

function positiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new Error(`--${name} must be a whole number greater than 0, got "${value}"`);
  return number;
}

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
  },
});
const connections = positiveInteger('connections', args.connections);
const durationSeconds = positiveInteger('duration', args.duration);
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

async function main(): Promise<void> {
  const adminUrl = await postgresServer();
  const databaseUrl = await scratchDatabase(adminUrl);
  await applyMigrations(databaseUrl);
  await adminQuery(databaseUrl, CREATE_BASELINE_TABLE);

  const load = { connections, warmupSeconds, durationSeconds };
  console.log(
    `Deploy ingest: ${connections} connections, ${warmupSeconds} s warm-up + ${durationSeconds} s measured, ` +
      `database ${new URL(databaseUrl).pathname.slice(1)}`,
  );

  // Hookline as in production, with the rate limit lifted by configuration: first switched
  // off (the figure the target is about), then set out of reach but still counted in
  // PostgreSQL on every request (what the shared limit costs).
  const runHookline = async (label: string, rateLimit: string): Promise<LoadResult> => {
    const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', INGEST_RATE_LIMIT_PER_MINUTE: rateLimit });
    const app = await createApp(config, databaseUrl);
    cleanups.push(() => app.close());
    const hooklineUrl = await app.listen(0, '127.0.0.1');
    const { organizationId } = await createOrganization(app.database.prisma, `bench ${label}`);
    const { deployToken } = await createService(app.database.prisma, organizationId, 'checkout');
    console.log(`running ${label}…`);
    const result = await generateLoad({ ...load, url: `${hooklineUrl}/api/ingest/deploy`, deployToken });
    await cleanups.pop()!(); // app.close(): the next run has the process to itself
    return result;
  };
  const hookline = await runHookline('Hookline (rate limit off)', 'off');
  const hooklineCounted = await runHookline('Hookline (rate limit counted)', '100000000');

  const baselineServer = await startBaselineServer(databaseUrl);
  cleanups.push(() => baselineServer.close());
  console.log('running baseline…');
  // The baseline ignores the token and the idempotency key, but gets exactly the same requests.
  const baseline = await generateLoad({ ...load, url: `${baselineServer.url}/api/ingest/deploy`, deployToken: 'unused' });
  await cleanups.pop()!();

  const rows = [
    { name: 'Hookline (rate limit off)', result: hookline },
    { name: 'Hookline (rate limit counted)', result: hooklineCounted },
    { name: 'baseline', result: baseline },
  ];
  console.log('');
  printTable(rows);
  const ratio = (result: LoadResult) => (result.requestsPerSecond / baseline.requestsPerSecond).toFixed(2);
  console.log(`ratio (hookline / baseline req/s): ${ratio(hookline)} (target >= ${TARGET_RATIO.toFixed(2)})`);
  console.log(`ratio with the rate limit counted:  ${ratio(hooklineCounted)}`);

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
