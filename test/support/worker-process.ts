// A Hookline process started exactly as `npm start` runs one (ROLE=worker or api), for tests
// where deliveries, notifications or faults must cross a process boundary. The program is the
// compiled one in dist/, which the test run's global setup builds from the sources first.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** What `npm start` runs, after `exec node`. */
export const HOOKLINE_PROGRAM = 'dist/main.js';
const running = new Set<ChildProcess>();
// Even when the test runner itself is torn down, no worker process outlives it.
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the process's address once it listens (a worker is consuming by then). */
  ready: Promise<string>;
  exited: Promise<void>;
  /** The process's recent output, for failure messages. */
  output(): string;
  /** Keys typed on its terminal (`terminal` only), e.g. "\x03" for Ctrl-C. */
  type(keys: string): void;
  /** Sends `signal`; SIGKILL if it has not exited 10 s later. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startWorkerProcess(databaseUrl: string, environment: Record<string, string>, name = 'worker'): WorkerProcess {
  return startHooklineProcess('worker', databaseUrl, environment, name);
}

export interface ProcessOptions {
  /**
   * Its output goes to a terminal (a pseudo-terminal from util-linux `script`), as in a user's
   * shell; then signals reach `script`, which passes SIGTERM on, and `type` types on it.
   */
  terminal?: boolean;
  /** Started with `npm start` itself rather than the program it runs. */
  npmStart?: boolean;
  /** Whoever reads its stdout and stderr goes away after the first line (`npm start | head -1`). */
  closeOutput?: boolean;
}

/** `databaseUrl` undefined: the process starts its embedded PostgreSQL (set HOOKLINE_DATA_DIR). */
export function startHooklineProcess(
  role: 'worker' | 'api' | 'all',
  databaseUrl: string | undefined,
  environment: Record<string, string>,
  name: string = role,
  { terminal = false, npmStart = false, closeOutput = false }: ProcessOptions = {},
): WorkerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...environment,
    ROLE: role,
    DATABASE_URL: databaseUrl,
  };
  if (databaseUrl === undefined) delete env.DATABASE_URL;
  const command = npmStart ? ['npm', 'start'] : [process.execPath, HOOKLINE_PROGRAM];
  // `exec`: the command alone is in the terminal's foreground process group, as when a user's
  // interactive shell runs it; a `sh -c` left waiting there (dash, script's shell when SHELL is
  // unset, does not exec) would take the Ctrl-C too and die of it whatever the command does.
  const [program, ...args] = terminal
    ? ['script', '--quiet', '--flush', '--return', '--command', `exec ${command.join(' ')}`, '/dev/null']
    : command;
  const child = spawn(program!, args, {
    cwd: repoRoot,
    env,
    stdio: [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-64_000);
    if (closeOutput && output.includes('\n') && !child.stdout!.destroyed) {
      child.stdout!.destroy();
      child.stderr!.destroy();
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /Hookline listening on (\S+)/.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    void exited.then(() => reject(new Error(`${name} exited before it was ready (${child.signalCode ?? child.exitCode}):\n${output}`)));
  });
  ready.catch(() => {}); // awaited where it matters; an early exit must not be an unhandled rejection
  return {
    child,
    ready,
    exited,
    output: () => output,
    type: (keys) => child.stdin!.write(keys),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm start`'s program with exactly `environment` (plus PATH) until it exits: for start-ups that fail.
 * The kill after `timeoutMs` is a net for a hang: a failing start takes 2-3 s when quiet and over 30 s on a loaded machine.
 */
export function runHooklineToExit(environment: Record<string, string>, timeoutMs = 90_000): Promise<Finished> {
  const child = spawn(process.execPath, [HOOKLINE_PROGRAM], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
}
