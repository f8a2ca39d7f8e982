// A real PgBouncer (Debian's package; CI installs it) in transaction pooling mode in front of
// the tests' PostgreSQL server, on a free loopback port, with few server connections so that
// consecutive transactions of one client land on different ones, as they do in production.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/db/embedded.ts';
import { eventually } from './receiver.ts';

export const PGBOUNCER_PATH = '/usr/sbin/pgbouncer';
export const hasPgbouncer = existsSync(PGBOUNCER_PATH);
/** In CI the PgBouncer tests may not be skipped (.ci/run installs it). */
export const pgbouncerRequired = process.env.CI === 'true' || process.env.CI === '1';

export interface Pgbouncer {
  /** `databaseUrl` with its host and port replaced by PgBouncer's. */
  pooled(databaseUrl: string): string;
  /** Transactions PgBouncer has served for `database` (its SHOW STATS). */
  transactions(database: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startPgbouncer(serverUrl: string, { serverConnections = 2 } = {}): Promise<Pgbouncer> {
  const server = new URL(serverUrl);
  const port = await freePort();
  const directory = await mkdtemp(path.join(tmpdir(), 'hookline-pgbouncer-'));
  // PgBouncer refuses to run as root: it is told to switch to the postgres user, who must read this.
  await chmod(directory, 0o755);
  const user = decodeURIComponent(server.username) || 'postgres';
  const config = path.join(directory, 'pgbouncer.ini');
  await writeFile(
    config,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432} user=${user}${server.password ? ` password=${decodeURIComponent(server.password)}` : ''}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${serverConnections}`,
      'max_client_conn = 1000',
      `admin_users = ${user}`,
      'ignore_startup_parameters = extra_float_digits,options',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(PGBOUNCER_PATH, [...asRoot, config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const admin = () => {
    const url = new URL(serverUrl);
    url.port = String(port);
    url.hostname = '127.0.0.1';
    url.pathname = '/pgbouncer';
    return new pg.Client({ connectionString: url.toString() });
  };
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}):\n${output}`);
      const client = admin();
      try {
        await client.connect();
        return true;
      } catch {
        return undefined;
      } finally {
        await client.end().catch(() => {});
      }
    },
    15_000,
    'pgbouncer accepting connections',
  );

  return {
    pooled(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async transactions(database) {
      const client = admin();
      await client.connect();
      try {
        const { rows } = await client.query<{ database: string; total_xact_count: string }>('SHOW STATS');
        return Number(rows.find((row) => row.database === database)?.total_xact_count ?? 0);
      } finally {
        await client.end();
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
