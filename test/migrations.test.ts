// Start-up migrations: applied once, in order, safely when several processes start at once,
// and recorded the way Prisma records them.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations, readMigrations } from '../src/db/migrate.ts';
import type { TestDatabase } from './support/database.ts';
import { useHookline } from './support/fixture.ts';

const hookline = useHookline({ database: false });

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

async function recorded(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    return result.rows;
  } finally {
    await client.end();
  }
}

describe('applyMigrations', () => {
  it('applies every migration once when five processes start at the same moment', async () => {
    database = await hookline.createDatabase({ migrated: false });
    const migrations = await readMigrations();
    const results = await Promise.all(Array.from({ length: 5 }, () => applyMigrations(database!.url)));
    expect(results.filter((applied) => applied.length > 0)).toEqual([migrations.map((m) => m.name)]);
    expect(await recorded(database.url)).toEqual(
      migrations.map((m) => ({ migration_name: m.name, checksum: m.checksum, finished: true, applied_steps_count: 1 })),
    );
    expect(await applyMigrations(database.url)).toEqual([]);
  });

  it('rolls a failing migration back whole and refuses to go on', async () => {
    database = await hookline.createDatabase({ migrated: false });
    const broken = [{ name: '20990101000000_broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();', checksum: 'x' }];
    await expect(applyMigrations(database.url, broken)).rejects.toThrow(
      /Migration 20990101000000_broken failed: function no_such_function\(\) does not exist/,
    );
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const table = await client.query(`SELECT to_regclass('half_done') IS NULL AS absent`);
    await client.end();
    expect(table.rows[0].absent).toBe(true);
    expect(await recorded(database.url)).toEqual([]);
  });

  it('reports not ready on /readyz while migrations are pending, ready after', async () => {
    database = await hookline.createDatabase({ migrated: false });
    const running = await hookline.startApp({}, database.url);
    try {
      const pending = await fetch(`${running.baseUrl}/readyz`);
      expect(pending.status).toBe(503);
      expect(await pending.json()).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^migrations pending: \d{14}_init/) });
      await applyMigrations(database.url);
      const ready = await fetch(`${running.baseUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
      expect(await (await fetch(`${running.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    } finally {
      await running.close();
    }
  });
});
