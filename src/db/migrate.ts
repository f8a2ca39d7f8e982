// Applies prisma/migrations at start-up without Prisma's native engine (which cannot be
// downloaded offline). Semantics follow `prisma migrate deploy`: each pending migration runs
// once, in order, and is recorded in _prisma_migrations exactly as Prisma records it, so
// `prisma migrate status|deploy` keep working against the same database. An advisory lock
// makes concurrent start-ups of several processes safe: one applies, the others wait and
// then find nothing to do.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import sql from 'sql-template-tag';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Any constant works; it only has to be the same in every Hookline process. */
const MIGRATION_LOCK_KEY = 72_707_369;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface MigrationRow {
  migration_name: string;
  finished_at: Date | null;
}

async function recordedMigrations(client: pg.ClientBase): Promise<MigrationRow[]> {
  const exists = await client.query(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`);
  if (!exists.rows[0].present) return [];
  const result = await client.query<MigrationRow>(
    `SELECT migration_name, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
  );
  return result.rows;
}

/** Applies what is pending and returns the names applied. */
export async function applyMigrations(databaseUrl: string, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await readMigrations());
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const recorded = await recordedMigrations(client);
    const failed = recorded.find((row) => row.finished_at === null);
    if (failed) {
      throw new Error(
        `Migration ${failed.migration_name} failed earlier and is marked unfinished in _prisma_migrations; ` +
          'fix the database and mark it rolled back before starting again.',
      );
    }
    const done = new Set(recorded.map((row) => row.migration_name));
    const applied: string[] = [];
    for (const migration of all.filter((m) => !done.has(m.name))) {
      // PostgreSQL DDL is transactional: a migration is applied whole or not at all.
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(
          sql`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
              VALUES (${randomUUID()}, ${migration.checksum}, ${migration.name}, now(), 1)`,
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.name);
    }
    return applied;
  } finally {
    await client.query(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => {});
    await client.end();
  }
}

/** Names of migrations this build knows that the database has not applied (for /readyz). */
export async function pendingMigrations(pool: pg.Pool, migrations: Migration[]): Promise<string[]> {
  const client = await pool.connect();
  try {
    const applied = new Set((await recordedMigrations(client)).filter((row) => row.finished_at !== null).map((row) => row.migration_name));
    return migrations.map((m) => m.name).filter((name) => !applied.has(name));
  } finally {
    client.release();
  }
}
