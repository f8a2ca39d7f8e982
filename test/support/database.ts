// Databases for tests: each test file gets its own, cloned from the migrated template, and
// drops it afterwards, so runs never collide and leave nothing behind.
import { inject } from 'vitest';
import { adminQuery, databaseUrl, randomDatabaseName } from '../../src/db/admin.ts';

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
