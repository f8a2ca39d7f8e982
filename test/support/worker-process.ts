// A Hookline process started exactly as `npm start` runs one (ROLE=worker or api), for tests
// where deliveries, notifications or faults must cross a process boundary.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
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
  /** Sends `signal`; SIGKILL if it has not exited 10 s later. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startWorkerProcess(databaseUrl: string, environment: Record<string, string>, name = 'worker'): WorkerProcess {
  return startHooklineProcess('worker', databaseUrl, environment, name);
}

/**
 * `databaseUrl` undefined: the process starts its embedded PostgreSQL (set HOOKLINE_DATA_DIR).
 * `terminal`: its output goes to a terminal (a pseudo-terminal from util-linux `script`), as in
 * a user's shell; then signals reach `script`, which passes SIGTERM on.
 */
export function startHooklineProcess(
  role: 'worker' | 'api' | 'all',
  databaseUrl: string | undefined,
  environment: Record<string, string>,
  name: string = role,
  { terminal = false }: { terminal?: boolean } = {},
): WorkerProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...environment, ROLE: role, DATABASE_URL: databaseUrl };
  if (databaseUrl === undefined) delete env.DATABASE_URL;
  const command = [process.execPath, '--import', 'tsx', 'src/main.ts'];
  const [program, ...args] = terminal ? ['script', '--quiet', '--flush', '--return', '--command', command.join(' '), '/dev/null'] : command;
  const child = spawn(program!, args, {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-64_000);
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

/** Runs `npm start`'s program with exactly `environment` (plus PATH) until it exits: for start-ups that fail. */
export function runHooklineToExit(environment: Record<string, string>, timeoutMs = 30_000): Promise<Finished> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
