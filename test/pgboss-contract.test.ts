// What src/delivery/queue.ts relies on in pg-boss's schema, read from a migrated database: the
// fair fetch (FETCH_ATTEMPTS_SQL) reads and claims rows of pgboss.job itself, and Hookline's own
// indexes and queuedAttemptCondition filter it by state. An upgrade of pg-boss that renames or
// retypes one of these columns, reorders or adds a job state, or changes job_now() or the index of
// active jobs per group fails here, by name, before it fails a delivery. The claims themselves are
// in test/fetch-attempts.test.ts.
import type pg from 'pg';
import { states } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPool } from '../src/db/pool.ts';
import { DELIVER_QUEUE } from '../src/delivery/queue.ts';
import { useHookline } from './support/fixture.ts';

const hookline = useHookline({ app: false, tenant: false });
let pool: pg.Pool;

beforeAll(() => {
  pool = connectPool(hookline.database.url, { maxConnections: 1 });
});
afterAll(() => pool.end());

const RECHECK = 'pg-boss changed what src/delivery/queue.ts relies on: re-check FETCH_ATTEMPTS_SQL';

/**
 * The columns of pgboss.job the queue reads or writes, as `name type NULL|NOT NULL`. Nullability
 * counts: `NOT j.blocked` and `retry_count + 1` would quietly skip or lose rows on a NULL.
 */
const JOB_COLUMNS = [
  'blocked boolean NOT NULL', // waiting jobs: `NOT blocked` (a job waiting for others is not due)
  'data jsonb NULL', // data->>'organizationId', data->>'deliveryId', returned to the worker
  'group_id text NULL', // the endpoint: caps, the loose scan of waiting endpoints
  'heartbeat_on timestamp with time zone NULL', // set on claim, as pg-boss's fetch does
  'id uuid NOT NULL',
  'name text NOT NULL', // the queue: every condition names it, so the partial indexes apply
  'retry_count integer NOT NULL', // raised on a re-claim; complete() is fenced by it
  'start_after timestamp with time zone NOT NULL', // due when start_after <= job_now()
  'started_on timestamp with time zone NULL', // set on claim; not null means claimed before
  'state pgboss.job_state NOT NULL',
];

/**
 * pgboss.job_state in its order: the queue compares states. `state < 'active'` must mean waiting
 * (created, retry) and `state < 'completed'` unfinished (created, retry, active).
 */
const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];

describe("pg-boss's job table, as the delivery queue uses it", () => {
  it('has the columns the fair fetch reads and sets, with their types and nullability', async () => {
    const { rows } = await pool.query<{ column: string }>(
      `SELECT column_name || ' ' || CASE WHEN data_type = 'USER-DEFINED' THEN udt_schema || '.' || udt_name ELSE data_type END
              || CASE WHEN is_nullable = 'YES' THEN ' NULL' ELSE ' NOT NULL' END AS column
       FROM information_schema.columns
       WHERE table_schema = 'pgboss' AND table_name = 'job' AND column_name = ANY ($1::text[])
       ORDER BY column_name`,
      [JOB_COLUMNS.map((column) => column.split(' ')[0])],
    );
    expect(
      rows.map((row) => row.column),
      `${RECHECK} (its columns), queuedAttemptCondition and CREATE_QUEUE_INDEXES_SQL, then this list`,
    ).toEqual(JOB_COLUMNS);
  });

  it('orders its job states so that < active is waiting and < completed is unfinished', async () => {
    const { rows } = await pool.query<{ label: string }>(
      `SELECT e.enumlabel AS label FROM pg_enum e
       JOIN pg_type t ON t.oid = e.enumtypid JOIN pg_namespace n ON n.oid = t.typnamespace
       WHERE n.nspname = 'pgboss' AND t.typname = 'job_state'
       ORDER BY e.enumsortorder`,
    );
    const message = `${RECHECK}'s and CREATE_QUEUE_INDEXES_SQL's state < 'active', queuedAttemptCondition's state < 'completed'`;
    expect(
      rows.map((row) => row.label),
      message,
    ).toEqual(JOB_STATES);
    expect(Object.values(states), `${message} (pg-boss's own list of states)`).toEqual(JOB_STATES);
  });

  it('has job_now(): the clock pg-boss claims by, stable so that it bounds an index scan', async () => {
    const { rows } = await pool.query<{ signature: string }>(
      `SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || pg_get_function_result(p.oid)
              || ' ' || CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END AS signature
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = 'pgboss' AND p.proname = 'job_now'`,
    );
    expect(
      rows.map((row) => row.signature),
      `${RECHECK}'s start_after <= pgboss.job_now() and its claim's started_on and heartbeat_on`,
    ).toEqual(['job_now() timestamp with time zone STABLE']);
  });

  it("indexes the active jobs of each group in the deliver queue's table, which the fair fetch counts per endpoint", async () => {
    const { rows } = await pool.query<{ definition: string }>(
      `SELECT regexp_replace(i.indexdef, '^CREATE INDEX \\S+ ON \\S+ ', '') AS definition
       FROM pgboss.queue q JOIN pg_indexes i ON i.schemaname = 'pgboss' AND i.tablename = q.table_name
       WHERE q.name = $1 AND i.indexdef ~ 'group_id' AND i.indexname NOT LIKE 'hookline_%'`,
      [DELIVER_QUEUE],
    );
    expect(
      rows.map((row) => row.definition),
      `${RECHECK}'s room CTE (count of an endpoint's active jobs): without this index it reads every active job`,
    ).toContain("USING btree (name, group_id) WHERE ((state = 'active'::pgboss.job_state) AND (group_id IS NOT NULL))");
  });
});
