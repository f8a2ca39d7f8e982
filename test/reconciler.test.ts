// The reconciler's pass (the background job requeue-stranded-deliveries: every worker process runs
// one at start-up, then every minute) on a backlog of PENDING deliveries: it examines a bounded
// number of them, each checked for its unfinished job by one probe of hookline_deliver_delivery,
// never by an anti-join over pg-boss's job table, so its cost follows what it examines whatever the
// backlog; and pass after pass it walks the whole backlog, requeueing each stranded delivery
// (PENDING without a job) once.
import { beforeAll, describe, expect, it } from 'vitest';
import { attemptQueue, DELIVER_QUEUE } from '../src/delivery/queue.ts';
import { DELIVERIES_EXAMINED_PER_PASS, requeueStrandedDeliveriesJob } from '../src/background/requeue-stranded-deliveries.ts';
import { startBackgroundJobs } from '../src/background/scheduler.ts';
import { createMetrics } from '../src/metrics.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { explainJson, planNodes, rowsRead, statementsOf, watchPool, type ExplainedPlan, type Statement } from './support/statements.ts';

/** No worker of its own: the tests run the passes. */
const hookline = useHookline({ environment: { ROLE: 'api' }, tenant: false });

/** PENDING deliveries of the busy organization, each with its job but the stranded ones. */
const BACKLOG = 4 * DELIVERIES_EXAMINED_PER_PASS;
/**
 * The busy organization's stranded deliveries, by position in its backlog (oldest first): more
 * at its start than one pass requeues (1,000), one in the middle, the last one.
 */
const STRANDED_POSITIONS = [...Array.from({ length: 1200 }, (_, index) => index + 1), BACKLOG / 2, BACKLOG];
/** Quiet organizations: a few PENDING deliveries each, the first of each stranded. */
const QUIET_ORGANIZATIONS = 20;
const QUIET_DELIVERIES = 5;

beforeAll(async () => {
  const { pool } = hookline.app.database;
  const sizes = [BACKLOG, ...Array.from({ length: QUIET_ORGANIZATIONS }, () => QUIET_DELIVERIES)];
  // Each organization: an endpoint, an event, as many finished deliveries as PENDING ones (the walk
  // reads none of them), and the jobs of the PENDING ones.
  for (const [index, size] of sizes.entries()) {
    const stranded = index === 0 ? STRANDED_POSITIONS : [1];
    await pool.query(
      `WITH organization AS (INSERT INTO organizations (name) VALUES ($1) RETURNING id),
       endpoint AS (
         INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret, event_types)
         SELECT id, 'https://hooks.example.com/hook', 'hook', 'whsec_test', '{}' FROM organization RETURNING id, organization_id
       ), event AS (
         -- An event per delivery, at its time (a delivery references its event by id and time).
         INSERT INTO events (organization_id, type, data, created_at)
         SELECT id, 'deploy.ingested', '{}', at FROM organization, generate_series(1, $2::int) n,
           LATERAL (VALUES (now() - interval '1 day' - n * interval '1 second'), (now() - interval '1 hour' + n * interval '1 millisecond')) v(at)
         RETURNING id, created_at
       ), finished AS (
         INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, next_attempt_at, created_at)
         SELECT e.organization_id, v.id, e.id, 'deploy.ingested', 'SUCCEEDED', 1, NULL, v.created_at
         FROM endpoint e, event v WHERE v.created_at < now() - interval '1 day'
       ), pending AS (
         INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, next_attempt_at, created_at, updated_at)
         SELECT e.organization_id, v.id, e.id, 'deploy.ingested', 'PENDING', now() - interval '1 minute', v.created_at, now() - interval '1 hour'
         FROM endpoint e, event v WHERE v.created_at > now() - interval '1 day'
         RETURNING id, organization_id, endpoint_id, created_at
       )
       INSERT INTO pgboss.job (name, data, group_id)
       SELECT $3, jsonb_build_object('deliveryId', p.id, 'deliveryCreatedAt', p.created_at, 'attempt', 1, 'organizationId', p.organization_id), p.endpoint_id::text
       FROM (SELECT p.*, row_number() OVER (ORDER BY p.created_at, p.id) AS position FROM pending p) p
       WHERE p.position <> ALL ($4::int[])`,
      [`organization ${index}`, size, DELIVER_QUEUE, stranded],
    );
  }
  await pool.query(`ANALYZE deliveries; ANALYZE pgboss.job`);
  watchPool(pool);
}, 120_000);

/** A reconciler on the app's pool; `intervalMs` apart, its passes go on until it is stopped. */
function reconciler(intervalMs: number) {
  const { pool } = hookline.app.database;
  const metrics = createMetrics(pool);
  const running = startBackgroundJobs(
    [requeueStrandedDeliveriesJob({ pool, boss: hookline.app.boss, metrics, log: { warn: () => {} }, intervalMs })],
    { error: () => {} },
  );
  return { running, metrics };
}

/** PENDING deliveries by their number of unfinished jobs. */
async function deliveriesByJobs(): Promise<Record<number, number>> {
  const { rows } = await hookline.app.database.pool.query<{ jobs: number; deliveries: number }>(
    `SELECT jobs, count(*)::int AS deliveries FROM (
       SELECT (SELECT count(*) FROM pgboss.job j WHERE j.name = $1 AND j.state < 'completed' AND j.data->>'deliveryId' = d.id::text)::int AS jobs
       FROM deliveries d WHERE d.status = 'PENDING'
     ) counted GROUP BY jobs`,
    [DELIVER_QUEUE],
  );
  return Object.fromEntries(rows.map((row) => [row.jobs, row.deliveries]));
}

/**
 * Explains `statement` as executed (in a transaction rolled back): it reads pg-boss's job table
 * only through hookline_deliver_delivery, at most `probes` rows, and joins nothing against it.
 */
async function expectJobsReadByProbes(statement: Statement, probes: number): Promise<ExplainedPlan> {
  const client = await hookline.app.database.pool.connect();
  try {
    await client.query('BEGIN');
    const probeIndexes = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'pgboss.hookline_deliver_delivery'::regclass`,
    );
    const plan = await explainJson(client, statement, { analyze: true });
    const context = `${statement.text}\n${JSON.stringify(plan.Plan, null, 1)}`;
    // Partitions of pgboss.job, and their indexes.
    const jobNodes = planNodes(plan.Plan).filter(
      (node) => node['Relation Name']?.startsWith('job') || node['Index Name']?.startsWith('job'),
    );
    expect(
      jobNodes.filter((node) => node['Node Type'] === 'Seq Scan'),
      context,
    ).toEqual([]);
    const indexes = new Set(jobNodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : [])));
    expect(indexes.size, context).toBeGreaterThan(0);
    for (const index of indexes)
      expect(
        probeIndexes.rows.map((row) => row.name),
        context,
      ).toContain(index);
    expect(
      planNodes(plan.Plan).filter((node) => node['Join Type'] === 'Anti'),
      context,
    ).toEqual([]);
    const jobRows = jobNodes
      .filter((node) => node['Relation Name'])
      .reduce((sum, node) => sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1), 0);
    expect(jobRows, context).toBeLessThanOrEqual(probes);
    return plan;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

describe('the reconciler', () => {
  it(`examines at most ${DELIVERIES_EXAMINED_PER_PASS} PENDING deliveries a pass, each by a probe of hookline_deliver_delivery, whatever the backlog`, async () => {
    const statements = await statementsOf(async () => {
      const { running } = reconciler(3_600_000);
      await running.stop();
    });
    const pass = statements.find((statement) => statement.text.includes('pgboss.job') && statement.text.includes('UPDATE deliveries'));
    expect(pass, statements.map((statement) => statement.text).join('\n---\n')).toBeDefined();
    const plan = await expectJobsReadByProbes(pass!, DELIVERIES_EXAMINED_PER_PASS);
    // A step of the walk reads one delivery; the requeued ones are read again to be updated.
    expect(rowsRead(plan, 'deliveries'), JSON.stringify(plan.Plan, null, 1)).toBeLessThanOrEqual(2 * DELIVERIES_EXAMINED_PER_PASS);
  });

  it('walks the whole backlog pass after pass, requeueing each stranded delivery once', async () => {
    // Those the first test's pass left (it requeued the first ones of its walk).
    const stranded = (await deliveriesByJobs())[0] ?? 0;
    expect(stranded).toBeGreaterThan(0);
    const { running, metrics } = reconciler(10);
    try {
      await eventually(
        async () => ((await deliveriesByJobs())[0] === undefined ? true : undefined),
        60_000,
        'every stranded delivery requeued',
      );
    } finally {
      await running.stop();
    }
    expect(await deliveriesByJobs()).toEqual({ 1: BACKLOG + QUIET_ORGANIZATIONS * QUIET_DELIVERIES });
    expect((await metrics.deliveriesRequeued.get()).values[0]?.value).toBe(stranded);
  }, 90_000);

  it('has the queue tell which deliveries lost their attempt (resend, retry, recover) by a probe of the same index each', async () => {
    const { pool } = hookline.app.database;
    const { rows } = await pool.query<{ id: string }>(`SELECT id FROM deliveries WHERE status = 'PENDING' LIMIT 1000`);
    const client = await pool.connect();
    const statements = await statementsOf(async () => {
      try {
        await attemptQueue(hookline.app.boss).unqueued(
          client,
          rows.map((row) => row.id),
        );
      } finally {
        client.release();
      }
    });
    const lookUp = statements.find((statement) => statement.text.includes('pgboss.job'));
    expect(lookUp, statements.map((statement) => statement.text).join('\n---\n')).toBeDefined();
    await expectJobsReadByProbes(lookUp!, rows.length);
  });
});
