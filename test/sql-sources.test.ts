// prisma/sql/ against the migrations: what counts as drift, and the migration written for it
// (npm run migrate:new) leaves none. Each test works on copies of prisma/sql/ and the migrations.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { SQL_SOURCES_DIR, sqlSourcesDrift, sqlSourcesMigration } from '../scripts/sql-sources.ts';

let directory: string;
let sourcesDir: string;
let migrationsDir: string;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'hookline-sql-sources-'));
  sourcesDir = path.join(directory, 'sql');
  migrationsDir = path.join(directory, 'migrations');
  await cp(SQL_SOURCES_DIR, sourcesDir, { recursive: true });
  await cp(MIGRATIONS_DIR, migrationsDir, { recursive: true });
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const drift = () => sqlSourcesDrift({ adminUrl: inject('adminUrl'), migrationsDir, sourcesDir });

async function editSource(file: string, edit: (sql: string) => string) {
  const sourcePath = path.join(sourcesDir, file);
  const sql = await readFile(sourcePath, 'utf8');
  const edited = edit(sql);
  expect(edited).not.toBe(sql);
  await writeFile(sourcePath, edited);
}

async function addMigration(name: string, sql: string) {
  await mkdir(path.join(migrationsDir, name));
  await writeFile(path.join(migrationsDir, name, 'migration.sql'), sql);
}

describe('prisma/sql against the migrations', () => {
  it('finds edited, added and removed sources, and the migration written for them leaves no drift', async () => {
    await editSource('functions/response_status_class.sql', (sql) => sql.replace("'NO_RESPONSE'", "'NONE'"));
    // A new parameter name: CREATE OR REPLACE cannot change it, the function is dropped first.
    await editSource('functions/with_response_class.sql', (sql) => sql.replaceAll('classes', 'known'));
    await editSource('triggers/events_notify.sql', (sql) => sql.replace('AFTER INSERT ON', 'AFTER INSERT OR UPDATE ON'));
    await rm(path.join(sourcesDir, 'triggers/deploys_dora_folds_due.sql'));
    await rm(path.join(sourcesDir, 'functions/deploys_note_dora_folds_due.sql'));
    // A SQL function's body is checked when it is created: the one it calls must come first.
    await writeFile(
      path.join(sourcesDir, 'functions/a_caller.sql'),
      'CREATE OR REPLACE FUNCTION "a_caller"() RETURNS integer LANGUAGE sql AS $$ SELECT "z_callee"() $$;\n',
    );
    await writeFile(
      path.join(sourcesDir, 'functions/z_callee.sql'),
      'CREATE OR REPLACE FUNCTION "z_callee"() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;\n',
    );

    const found = await drift();
    expect(found.changed.map(({ file, migrated, dropFirst }) => ({ file, migrated: migrated !== undefined, dropFirst }))).toEqual([
      { file: 'functions/response_status_class.sql', migrated: true, dropFirst: undefined },
      {
        file: 'functions/with_response_class.sql',
        migrated: true,
        dropFirst: 'DROP FUNCTION with_response_class(text[],integer)',
      },
      { file: 'functions/z_callee.sql', migrated: false, dropFirst: undefined },
      { file: 'triggers/events_notify.sql', migrated: true, dropFirst: undefined },
      { file: 'functions/a_caller.sql', migrated: false, dropFirst: undefined },
    ]);
    expect(found.changed[0]).toMatchObject({
      migrated: expect.stringContaining("'NO_RESPONSE'"),
      source: expect.stringContaining("'NONE'"),
    });
    expect(found.unsourced.map(({ object }) => object)).toEqual([
      'function deploys_note_dora_folds_due()',
      'trigger deploys_dora_folds_due on deploys',
    ]);

    const migration = sqlSourcesMigration(found);
    const order = [
      'DROP TRIGGER deploys_dora_folds_due ON deploys;',
      'DROP FUNCTION with_response_class(text[],integer);',
      'CREATE OR REPLACE FUNCTION "with_response_class"(known text[]',
      'CREATE OR REPLACE FUNCTION "z_callee"()',
      'CREATE OR REPLACE FUNCTION "a_caller"()',
      'DROP FUNCTION deploys_note_dora_folds_due();',
    ].map((statement) => migration.indexOf(statement));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));

    await addMigration('20991231000000_next', migration);
    expect(await drift()).toEqual({ changed: [], unsourced: [] });
  }, 60_000);

  it('finds a migration that changes a function, or adds one, without its source', async () => {
    await addMigration(
      '20991231000000_by_hand',
      [
        'CREATE OR REPLACE FUNCTION "dora_lead_time_buckets_add"(a integer[], b integer[]) RETURNS integer[] LANGUAGE sql IMMUTABLE AS $$ SELECT a $$;',
        'CREATE FUNCTION "unsourced_helper"() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;',
      ].join('\n'),
    );
    const found = await drift();
    expect(found.changed.map(({ file }) => file)).toEqual(['functions/dora_lead_time_buckets_add.sql']);
    expect(found.changed[0]?.migrated).toContain('SELECT a');
    expect(found.unsourced).toEqual([
      {
        object: 'function unsourced_helper()',
        migrated: expect.stringContaining('SELECT 1'),
        drop: 'DROP FUNCTION unsourced_helper()',
      },
    ]);
  }, 60_000);

  it("counts a partitioned table's trigger once, not once more for each partition PostgreSQL clones it onto", async () => {
    const trigger = [
      'DROP TRIGGER IF EXISTS "history_notify" ON "history";',
      'CREATE TRIGGER history_notify',
      'AFTER INSERT ON "history"',
      'FOR EACH ROW EXECUTE FUNCTION hookline_notify_event();',
      '',
    ].join('\n');
    await addMigration(
      '20991231000000_partitioned',
      [
        'CREATE TABLE "history" (at timestamptz NOT NULL) PARTITION BY RANGE (at);',
        `CREATE TABLE "history_2099_01" PARTITION OF "history" FOR VALUES FROM ('2099-01-01') TO ('2099-02-01');`,
        'CREATE TABLE "history_default" PARTITION OF "history" DEFAULT;',
        trigger,
      ].join('\n'),
    );
    await writeFile(path.join(sourcesDir, 'triggers/history_notify.sql'), trigger);
    expect(await drift()).toEqual({ changed: [], unsourced: [] });

    await editSource('triggers/history_notify.sql', (sql) => sql.replace('AFTER INSERT ON', 'AFTER INSERT OR UPDATE ON'));
    expect((await drift()).changed.map(({ file }) => file)).toEqual(['triggers/history_notify.sql']);
  }, 60_000);

  it('refuses a file that does not define the object it is named after, alone', async () => {
    await writeFile(
      path.join(sourcesDir, 'functions/misnamed.sql'),
      'CREATE OR REPLACE FUNCTION "other_name"() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;\n',
    );
    await expect(drift()).rejects.toThrow(
      'prisma/sql/functions/misnamed.sql must define the function misnamed alone; it defines function other_name()',
    );
  }, 60_000);

  it('refuses a file that a migration could not apply over its object', async () => {
    await editSource('triggers/events_notify.sql', (sql) => sql.replace(/^DROP TRIGGER .*\n/, ''));
    await expect(drift()).rejects.toThrow(
      'prisma/sql/triggers/events_notify.sql must apply over its own object (DROP TRIGGER IF EXISTS, then CREATE TRIGGER): trigger "events_notify" for relation "events" already exists',
    );
  }, 60_000);
});
