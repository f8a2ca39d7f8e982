// The schema's SQL functions and triggers are read and changed in prisma/sql/, one file each:
// functions/<name>.sql (CREATE OR REPLACE FUNCTION) and triggers/<name>.sql (DROP TRIGGER IF
// EXISTS, then CREATE TRIGGER: CREATE OR REPLACE TRIGGER needs PostgreSQL 14). Migrations stay
// the history that is applied; Prisma's diff knows nothing of functions, so this module compares
// what the migrations leave in a database with what the files define, in PostgreSQL's own words
// (pg_get_functiondef, pg_get_triggerdef), and writes the SQL that takes one to the other.
//
// sqlSourcesDrift() is also the drift check: no change and nothing unsourced means the
// migrations leave exactly what prisma/sql/ defines.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { adminQuery, databaseUrl, randomDatabaseName } from '../src/db/admin.ts';
import { applyMigrations, readMigrations } from '../src/db/migrate.ts';

export const SQL_SOURCES_DIR = path.resolve(import.meta.dirname, '../prisma/sql');

/** The folders of prisma/sql/ and the kind of object each file defines, in the order they apply. */
const FOLDERS = { functions: 'function', triggers: 'trigger' } as const;

const REPLACE = { function: 'CREATE OR REPLACE FUNCTION', trigger: 'DROP TRIGGER IF EXISTS, then CREATE TRIGGER' };

export interface SqlSource {
  /** Relative to prisma/sql/, e.g. functions/judge_due_rollbacks.sql. */
  file: string;
  sql: string;
}

/** A function or trigger as the database holds it. */
interface DatabaseObject {
  kind: 'function' | 'trigger';
  name: string;
  /** Unique among the schema's objects: a function with its argument types (not their names), a trigger with its table. */
  key: string;
  definition: string;
  drop: string;
  /** A function's arguments (names and defaults too) and result, which CREATE OR REPLACE cannot change. */
  signature: string | null;
}

/** A source file whose object the migrations do not leave as the file defines it. */
export interface ChangedSource extends SqlSource {
  /** As PostgreSQL prints the file's object. */
  source: string;
  /** As PostgreSQL prints the object the migrations leave under the same key; undefined: none. */
  migrated: string | undefined;
  /** The statement that must come first: the object's signature changed. */
  dropFirst: string | undefined;
}

/** An object the migrations leave that no source file defines. */
export interface UnsourcedObject {
  object: string;
  migrated: string;
  drop: string;
}

export interface SqlSourcesDrift {
  /** In an order they apply in (a SQL function's body is checked against those it calls). */
  changed: ChangedSource[];
  unsourced: UnsourcedObject[];
}

/** The files of prisma/sql/: functions first (triggers name them), each folder by name. */
export async function readSqlSources(dir: string = SQL_SOURCES_DIR): Promise<SqlSource[]> {
  const unknown = (await readdir(dir)).filter((folder) => !Object.hasOwn(FOLDERS, folder));
  if (unknown.length > 0) throw new Error(`${dir} holds ${unknown.join(', ')}: only ${Object.keys(FOLDERS).join(' and ')}/ are read`);
  const sources: SqlSource[] = [];
  for (const folder of Object.keys(FOLDERS)) {
    const files = (await readdir(path.join(dir, folder)).catch(() => [])).sort();
    for (const file of files) {
      if (!file.endsWith('.sql')) throw new Error(`${path.join(dir, folder, file)}: source files end in .sql`);
      sources.push({ file: `${folder}/${file}`, sql: await readFile(path.join(dir, folder, file), 'utf8') });
    }
  }
  return sources;
}

// The current schema's functions and procedures (not an extension's) and triggers (not those of
// foreign keys, nor the copies PostgreSQL makes of a partitioned table's trigger on each of its
// partitions: they come and go with the partitions). Tables are named as they are on the search
// path, like the migrations name them.
const OBJECTS = `
SELECT 'function' AS kind, p.proname AS name, p.oid::regprocedure::text AS key,
       pg_get_functiondef(p.oid) AS definition,
       format('DROP %s %s', CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END, p.oid::regprocedure) AS drop,
       pg_get_function_arguments(p.oid) || ' -> ' || coalesce(pg_get_function_result(p.oid), 'procedure') AS signature
FROM pg_proc p
WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind IN ('f', 'p')
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
UNION ALL
SELECT 'trigger', t.tgname, format('%s on %s', quote_ident(t.tgname), t.tgrelid::regclass),
       pg_get_triggerdef(t.oid), format('DROP TRIGGER %s ON %s', quote_ident(t.tgname), t.tgrelid::regclass), NULL
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal AND t.tgparentid = 0
ORDER BY 1, 3`;

async function databaseObjects(client: pg.ClientBase): Promise<Map<string, DatabaseObject>> {
  const { rows } = await client.query<DatabaseObject>(OBJECTS);
  return new Map(rows.map((row) => [row.key, row]));
}

/**
 * Applies each source, in an order in which each applies (retrying those that failed while others
 * still succeed), and returns the objects each one created. Checks that each file defines exactly
 * the object its folder and name say, so that every function and trigger has one place.
 */
async function applySources(client: pg.ClientBase, sources: SqlSource[]) {
  const applied: { source: SqlSource; object: DatabaseObject }[] = [];
  let present = await databaseObjects(client);
  let pending = sources;
  while (pending.length > 0) {
    const failed: { source: SqlSource; error: Error }[] = [];
    for (const source of pending) {
      await client.query('SAVEPOINT sql_source');
      try {
        await client.query(source.sql);
        await client.query('RELEASE SAVEPOINT sql_source');
      } catch (error) {
        await client.query('ROLLBACK TO SAVEPOINT sql_source');
        failed.push({ source, error: error as Error });
        continue;
      }
      const after = await databaseObjects(client);
      const created = [...after.values()].filter((object) => !present.has(object.key));
      present = after;
      const [folder = '', file = ''] = source.file.split('/');
      const expected = { kind: FOLDERS[folder as keyof typeof FOLDERS], name: path.basename(file, '.sql') };
      if (created.length !== 1 || created[0]?.kind !== expected.kind || created[0].name !== expected.name) {
        const what = created.map((object) => `${object.kind} ${object.key}`).join(', ') || 'nothing new';
        throw new Error(`prisma/sql/${source.file} must define the ${expected.kind} ${expected.name} alone; it defines ${what}`);
      }
      // As the migration will: over the object as it stands.
      await client.query(source.sql).catch((error: Error) => {
        throw new Error(`prisma/sql/${source.file} must apply over its own object (${REPLACE[expected.kind]}): ${error.message}`);
      });
      applied.push({ source, object: created[0] });
    }
    if (failed.length === pending.length) {
      throw new Error(failed.map(({ source, error }) => `prisma/sql/${source.file}: ${error.message}`).join('\n'));
    }
    pending = failed.map(({ source }) => source);
  }
  return applied;
}

/**
 * What the sources change in the database `client` is connected to. The sources are applied in a
 * transaction that is rolled back, after dropping every function and trigger there: what they
 * create is then theirs alone, whatever the database held.
 */
export async function diffSqlSources(client: pg.ClientBase, sources: SqlSource[]): Promise<SqlSourcesDrift> {
  const migrated = await databaseObjects(client);
  await client.query('BEGIN');
  try {
    const objects = [...migrated.values()];
    // Triggers first (they depend on their functions); CASCADE: whatever else uses a function
    // (an index, a default) is gone only until the rollback.
    for (const object of objects.filter((o) => o.kind === 'trigger')) await client.query(object.drop);
    const routines = objects.filter((o) => o.kind === 'function').map((o) => o.key);
    if (routines.length > 0) await client.query(`DROP ROUTINE ${routines.join(', ')} CASCADE`);
    const applied = await applySources(client, sources);
    const sourced = new Set(applied.map(({ object }) => object.key));
    return {
      changed: applied
        .filter(({ object }) => migrated.get(object.key)?.definition !== object.definition)
        .map(({ source, object }) => {
          const before = migrated.get(object.key);
          return {
            ...source,
            source: object.definition,
            migrated: before?.definition,
            dropFirst: before && before.signature !== object.signature ? before.drop : undefined,
          };
        }),
      unsourced: objects
        .filter((object) => !sourced.has(object.key))
        .map((object) => ({ object: `${object.kind} ${object.key}`, migrated: object.definition, drop: object.drop })),
    };
  } finally {
    await client.query('ROLLBACK');
  }
}

/**
 * The drift between prisma/sql/ and what `migrationsDir` leaves in a new database (followed by
 * `thenRun`: the next migration's table changes, which a function may need), on a throwaway
 * database of the server at `adminUrl`.
 */
export async function sqlSourcesDrift(options: {
  adminUrl: string;
  migrationsDir: string;
  sourcesDir?: string;
  thenRun?: string;
}): Promise<SqlSourcesDrift> {
  const name = randomDatabaseName('sql_sources');
  await adminQuery(options.adminUrl, `CREATE DATABASE "${name}"`);
  try {
    const url = databaseUrl(options.adminUrl, name);
    await applyMigrations(url, await readMigrations(options.migrationsDir));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      if (options.thenRun) await client.query(options.thenRun);
      return await diffSqlSources(client, await readSqlSources(options.sourcesDir));
    } finally {
      await client.end();
    }
  } finally {
    await adminQuery(options.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/**
 * The migration's part for the drift: removed triggers dropped first, then each changed file as
 * written (a function whose signature changed dropped just before), then removed functions (a
 * trigger moved to another function no longer needs the old one). '' when there is no drift.
 */
export function sqlSourcesMigration(drift: SqlSourcesDrift): string {
  const isTrigger = (object: UnsourcedObject) => object.object.startsWith('trigger ');
  const parts = [
    ...drift.unsourced.filter(isTrigger).map((object) => `-- ${object.object}: no longer in prisma/sql/\n${object.drop};`),
    ...drift.changed.map(
      (source) => `-- prisma/sql/${source.file}\n${source.dropFirst ? `${source.dropFirst};\n` : ''}${source.sql.trim()}`,
    ),
    ...drift.unsourced
      .filter((object) => !isTrigger(object))
      .map((object) => `-- ${object.object}: no longer in prisma/sql/\n${object.drop};`),
  ];
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}
