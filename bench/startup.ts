// `npm run bench:startup [-- --runs 10 --role worker --also DIR --also-compiled DIR]`
//
// How long a Hookline process takes from spawn to `Hookline listening on` (a worker is
// consuming by then), on a database already migrated, so what is measured is a restart as a
// process manager or a deploy makes one: the compiled program `npm start` runs
// (`node dist/main.js`) beside the TypeScript sources transformed at run time by tsx
// (`node --import tsx src/main.ts`, what `npm start` ran before the build, and `npm run dev`
// still runs). Both take turns, so a change in the machine's load weighs on each alike, and a
// bare `node -e ''` gives Node.js's own floor. `--also DIR`: another checkout (an older commit, with
// node_modules and src/generated in place) timed too, as its `node --import tsx src/main.ts`;
// `--also-compiled DIR`: another checkout's compiled program (its `node dist/main.js`, built), the
// baseline for a change to what a start does. Prints each one's median, mean ± sd, min and max,
// and the ratio of medians. DATABASE_URL: an admin connection (a scratch database is created and
// dropped), or an embedded PostgreSQL in a temp dir when unset.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applyMigrations } from '../src/db/migrate.ts';
import { startQueue } from '../src/delivery/queue.ts';
import { percentile } from './percentile.ts';
import { cleanUpOnInterrupt, postgresServer, runBench, scratchDatabase } from './support.ts';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    role: { type: 'string', default: 'worker' },
    also: { type: 'string' },
    'also-compiled': { type: 'string' },
  },
});
const runs = Number(options.runs);
const role = options.role!;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
if (!['worker', 'api', 'all'].includes(role)) throw new Error('--role must be worker, api or all');

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface Variant {
  label: string;
  cwd?: string;
  args: string[];
  /** Printed by the process when it is up; none: the process exits when done. */
  ready?: RegExp;
}

const VARIANTS: Variant[] = [
  { label: 'compiled (node dist/main.js)', args: ['dist/main.js'], ready: /Hookline listening on/ },
  { label: 'tsx (node --import tsx src/main.ts)', args: ['--import', 'tsx', 'src/main.ts'], ready: /Hookline listening on/ },
  { label: "bare Node.js (node -e '')", args: ['-e', ''] },
  ...(options.also
    ? [{ label: `tsx in ${options.also}`, cwd: options.also, args: ['--import', 'tsx', 'src/main.ts'], ready: /Hookline listening on/ }]
    : []),
];
const compiledBaseline: Variant | undefined = options['also-compiled']
  ? {
      label: `compiled in ${options['also-compiled']}`,
      cwd: options['also-compiled'],
      args: ['dist/main.js'],
      ready: /Hookline listening on/,
    }
  : undefined;
if (compiledBaseline) VARIANTS.push(compiledBaseline);

/** Milliseconds from spawn until the variant is ready (or, without `ready`, has exited); then stops it. */
function timeOneStart(variant: Variant, databaseUrl: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: variant.cwd ?? repoRoot,
    env: { ...process.env, ROLE: role, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    let readyAfter: number | undefined;
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (readyAfter === undefined && variant.ready?.test(output)) {
        readyAfter = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => {
      if (!variant.ready && code === 0) resolve(performance.now() - started);
      else if (readyAfter !== undefined) resolve(readyAfter);
      else reject(new Error(`${variant.label} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((sum, x) => sum + x, 0) / samples.length;
  const sd = Math.sqrt(samples.reduce((sum, x) => sum + (x - mean) ** 2, 0) / samples.length);
  return { median: percentile(sorted, 50), mean, sd, min: sorted[0]!, max: sorted.at(-1)! };
}

async function main(): Promise<void> {
  cleanUpOnInterrupt('stopping the benchmark');
  const databaseUrl = await scratchDatabase(await postgresServer());
  // Migrations and pg-boss's schema in place first: a restart is what is timed.
  await applyMigrations(databaseUrl);
  const boss = await startQueue({ databaseUrl, jobExpirySeconds: 30, onError: () => {} });
  await boss.stop({ graceful: false });

  const samples = new Map<Variant, number[]>(VARIANTS.map((variant) => [variant, []]));
  console.log(`ROLE=${role}, ${runs} runs each, taking turns (load average ${loadavg()[0]!.toFixed(1)})`);
  // One unmeasured start of each first: the file system cache warm for all alike.
  for (const variant of VARIANTS) await timeOneStart(variant, databaseUrl);
  for (let run = 0; run < runs; run++) {
    for (const variant of VARIANTS) samples.get(variant)!.push(await timeOneStart(variant, databaseUrl));
  }

  const fmt = (ms: number) => ms.toFixed(0).padStart(7);
  const width = Math.max(38, ...VARIANTS.map((variant) => variant.label.length + 2));
  console.log(`\n${'spawn → listening'.padEnd(width)} median    mean ±    sd      min      max   (ms)`);
  for (const variant of VARIANTS) {
    const s = summary(samples.get(variant)!);
    console.log(
      `${variant.label.padEnd(width)}${fmt(s.median)} ${fmt(s.mean)} ± ${fmt(s.sd).trim().padStart(5)} ${fmt(s.min)}  ${fmt(s.max)}`,
    );
  }
  const [compiled, tsx] = VARIANTS.map((variant) => summary(samples.get(variant)!).median);
  console.log(
    `\nratio (compiled / tsx, medians): ${(compiled! / tsx!).toFixed(2)}, ${(tsx! / compiled!).toFixed(1)} × faster (load average ${loadavg()[0]!.toFixed(1)})`,
  );
  if (compiledBaseline) {
    const baseline = summary(samples.get(compiledBaseline)!).median;
    console.log(`ratio (compiled / ${compiledBaseline.label}, medians): ${(compiled! / baseline).toFixed(2)}`);
  }
}

await runBench(main);
