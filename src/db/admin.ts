// Creating and dropping whole databases on a server, for tests and benchmarks that each
// work in a database of their own.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export function randomDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** `serverUrl` with its database replaced by `database`. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on its own connection (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
