// Databases for tests: each test file gets its own, cloned from the migrated template, and
// drops it afterwards, so runs never collide and leave nothing behind.
import pg from 'pg';
import { inject } from 'vitest';
import { adminQuery, databaseUrl, randomDatabaseName } from '../../src/db/admin.ts';
import { applyMigrations, readMigrations } from '../../src/db/migrate.ts';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database; `migrated: false` gives an empty one (for migration and start-up tests). */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = inject('adminUrl');
  const name = randomDatabaseName('hookline_test');
  const template = options.migrated === false ? '' : ` TEMPLATE "${inject('templateDatabase')}"`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"${template}`);
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * A database migrated up to just before the migration whose name ends with `migrationSuffix`;
 * `run` fills it as the older schema had it, then calls `migrateRest` to apply the remaining ones.
 */
export async function withDatabaseBefore(
  migrationSuffix: string,
  run: (client: pg.Client, migrateRest: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const migrations = await readMigrations();
  const before = migrations.findIndex((migration) => migration.name.endsWith(migrationSuffix));
  if (before === -1) throw new Error(`no migration named *${migrationSuffix}`);
  const older = await createTestDatabase({ migrated: false });
  try {
    await applyMigrations(older.url, migrations.slice(0, before));
    const client = new pg.Client({ connectionString: older.url });
    await client.connect();
    try {
      await run(client, async () => {
        await applyMigrations(older.url, migrations);
      });
    } finally {
      await client.end();
    }
  } finally {
    await older.drop();
  }
}
