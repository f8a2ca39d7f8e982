// What every benchmark needs: a PostgreSQL server (DATABASE_URL, or a throwaway embedded one),
// a scratch database, and a clean-up stack run at the end, on failure and on Ctrl-C, so no
// process, database or embedded server outlives the run.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminQuery, databaseUrl, randomDatabaseName } from '../src/db/admin.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';

/** Undone in reverse order by cleanUp(). */
export const cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | undefined;

export function cleanUp(): Promise<void> {
  // One pass only, even when Ctrl-C arrives while the run is already unwinding.
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      await cleanups.pop()!().catch((error) => console.error('cleanup failed:', error));
    }
  })();
  return cleaning;
}

/** Runs `undo` now and removes it from the clean-up stack. */
export async function undoNow(undo: () => Promise<unknown>): Promise<void> {
  const index = cleanups.indexOf(undo);
  if (index >= 0) cleanups.splice(index, 1);
  await undo();
}

let interrupted = false;
/** Whether Ctrl-C (or SIGTERM) has started the clean-up. */
export const wasInterrupted = () => interrupted;

/**
 * On SIGINT/SIGTERM: say `message`, clean up, exit 130. `on`, not `once`: Ctrl-C reaches the
 * process twice (from the terminal, and relayed by the npm and tsx wrappers), and a second
 * signal without a listener would kill it mid-clean-up.
 */
export function cleanUpOnInterrupt(message: string): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.log(`\n${signal}: ${message}`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
}

/** The admin connection: DATABASE_URL, or a throwaway embedded PostgreSQL. */
export async function postgresServer(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hookline-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  console.log(`DATABASE_URL is not set: starting an embedded PostgreSQL in ${dataDir}`);
  const embedded = await startEmbeddedPostgres(dataDir);
  cleanups.push(() => embedded.stop());
  return embedded.adminUrl;
}

/**
 * A scratch database dropped at the end (or on Ctrl-C), or earlier by `drop()`: a benchmark
 * whose scenarios each fill one (250k deliveries) drops each as soon as it is measured.
 */
export async function droppableScratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = randomDatabaseName('hookline_bench');
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const drop = () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  cleanups.push(drop);
  return { url: databaseUrl(adminUrl, name), drop: () => undoNow(drop) };
}

/** A new database on the server, dropped at clean-up. */
export async function scratchDatabase(adminUrl: string): Promise<string> {
  return (await droppableScratchDatabase(adminUrl)).url;
}

/** Runs a benchmark's main(), then always cleans up; a failure sets exit code 1. */
export async function runBench(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    // After Ctrl-C, whatever main() was waiting for fails as its processes go: not worth a trace.
    if (!interrupted) console.error(error);
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}

/** A command-line option that must be a whole number above 0; a clear error names the flag otherwise. */
export function positiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new Error(`--${name} must be a whole number greater than 0, got "${value}"`);
  return number;
}

/** CPU seconds a process has used so far (Linux /proc), or NaN elsewhere. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}
