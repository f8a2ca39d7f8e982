// Databases for tests: each test file gets its own, cloned from the migrated template, and
// drops it afterwards, so runs never collide and leave nothing behind.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export function randomDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

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
