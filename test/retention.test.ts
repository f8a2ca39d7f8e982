// Retention: webhook history older than RETENTION_DAYS is deleted in small batches by a
// background job of the worker processes, hourly and one process at a time, which logs and counts
// each run; PENDING deliveries (and the events they carry) and anything newer are kept; the API
// says where history begins.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { msUntilNextPruning, pruneHistoryJob } from '../src/background/prune-history.ts';
import { createEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { historyStartsAt, pruneHistory } from '../src/domain/webhooks/retention.ts';
import { createMetrics } from '../src/metrics.ts';
import { dataOf, requestGraphql, type Tenant } from './support/app.ts';
import { graphql } from './gql/index.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const DAY = 86_400_000;

const hookline = useHookline({ environment: { ROLE: 'api', RETENTION_DAYS: '30' }, tenant: false });

interface Seeded {
  tenant: Tenant;
  /** Delivery ids by what the test expects of them. */
  old: string[];
  oldPending: string[];
  recent: string[];
  /** Old events no delivery carries (a listener's). */
  oldUndelivered: string[];
}

/**
 * An organization with one endpoint and, per entry, an event and its delivery `ageDays` old with
 * `attempts` attempts; plus `undelivered` old events without deliveries.
 */
async function seed(
  rows: { ageDays: number; status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED'; attempts: number }[],
  undelivered = 0,
): Promise<Seeded> {
  const tenant = await hookline.createTenant();
  const { endpoint } = await createEndpoint(
    hookline.app.database.prisma,
    tenant.organizationId,
    { url: 'https://hooks.example.com/retention', name: 'retention' },
    { allowHttp: false, allowPrivate: false },
    1,
  );
  const seeded: Seeded = { tenant, old: [], oldPending: [], recent: [], oldUndelivered: [] };
  for (const { ageDays, status, attempts } of rows) {
    const createdAt = new Date(Date.now() - ageDays * DAY);
    const { rows: inserted } = await hookline.app.database.pool.query<{ id: string }>(
      `WITH e AS (
         INSERT INTO events (organization_id, type, data, created_at) VALUES ($1, 'deploy.ingested', '{"payload": "kept until pruned"}', $4) RETURNING id
       ), d AS (
         INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, created_at, updated_at)
         SELECT $1, e.id, $2, 'deploy.ingested', $3::"DeliveryStatus", $5, $4, $4 FROM e RETURNING id
       ), a AS (
         INSERT INTO delivery_attempts (delivery_id, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body)
         SELECT d.id, $2, n, false, $4, 12, 500, 'answer kept until pruned' FROM d CROSS JOIN generate_series(1, $5) AS n
       )
       SELECT id FROM d`,
      [tenant.organizationId, endpoint.id, status, createdAt, attempts],
    );
    const id = inserted[0]!.id;
    if (ageDays < 30) seeded.recent.push(id);
    else if (status === 'PENDING') seeded.oldPending.push(id);
    else seeded.old.push(id);
  }
  for (let i = 0; i < undelivered; i++) {
    const { rows: inserted } = await hookline.app.database.pool.query<{ id: string }>(
      `INSERT INTO events (organization_id, type, data, created_at) VALUES ($1, 'incident.opened', '{}', $2) RETURNING id`,
      [tenant.organizationId, new Date(Date.now() - 45 * DAY)],
    );
    seeded.oldUndelivered.push(inserted[0]!.id);
  }
  return seeded;
}

/** What is left of an organization's history: delivery ids with their attempts, and event count. */
async function remaining(organizationId: string) {
  const { rows } = await hookline.app.database.pool.query<{ id: string; attempts: number }>(
    `SELECT d.id, (SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id)::int AS attempts
     FROM deliveries d WHERE d.organization_id = $1 ORDER BY d.id`,
    [organizationId],
  );
  const { rows: events } = await hookline.app.database.pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM events WHERE organization_id = $1`,
    [organizationId],
  );
  return { deliveries: rows, events: events[0]!.count };
}

describe('pruning webhook history', () => {
  it('deletes old finished deliveries, their attempts and events, in batches, and keeps PENDING and recent ones', async () => {
    const finished = ['SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
    const first = await seed(
      [
        ...Array.from({ length: 12 }, (_, i) => ({ ageDays: 31 + i, status: finished[i % 3]!, attempts: 2 })),
        { ageDays: 200, status: 'PENDING', attempts: 3 },
        ...Array.from({ length: 3 }, (_, i) => ({ ageDays: 29 - i, status: finished[i]!, attempts: 1 })),
      ],
      2,
    );
    const second = await seed([{ ageDays: 90, status: 'FAILED', attempts: 6 }]);

    const result = await pruneHistory(hookline.app.database.pool, { cutoff: historyStartsAt(30), batchSize: 5 });

    // First organization: deliveries 5 + 5 + 2, events 5 + 5 + 4 (12 delivered, 2 not);
    // second: one of each. No batch deleted more than 5 rows.
    expect(result).toEqual({ deliveries: 13, attempts: 30, events: 15, batches: 8, complete: true });
    const keptIds = [...first.oldPending, ...first.recent].sort();
    expect(await remaining(first.tenant.organizationId)).toEqual({
      deliveries: keptIds.map((id) => ({ id, attempts: first.oldPending.includes(id) ? 3 : 1 })),
      events: 4,
    });
    expect(await remaining(second.tenant.organizationId)).toEqual({ deliveries: [], events: 0 });

    // A second run finds nothing more.
    expect(await pruneHistory(hookline.app.database.pool, { cutoff: historyStartsAt(30), batchSize: 5 })).toEqual({
      deliveries: 0,
      attempts: 0,
      events: 0,
      batches: 4,
      complete: true,
    });
  });

  it('stops starting batches at its deadline, leaving the rest for the next run', async () => {
    const seeded = await seed([{ ageDays: 40, status: 'SUCCEEDED', attempts: 1 }]);
    const result = await pruneHistory(hookline.app.database.pool, { cutoff: historyStartsAt(30), batchSize: 5, deadline: Date.now() - 1 });
    expect(result).toEqual({ deliveries: 0, attempts: 0, events: 0, batches: 0, complete: false });
    expect((await remaining(seeded.tenant.organizationId)).deliveries).toHaveLength(1);
  });

  it('runs hourly, at minute 17 (UTC), whenever the last run ended', () => {
    expect(msUntilNextPruning(new Date('2026-03-01T10:16:00Z'))).toBe(60_000);
    expect(msUntilNextPruning(new Date('2026-03-01T10:17:00Z'))).toBe(3_600_000);
    expect(msUntilNextPruning(new Date('2026-03-01T10:22:30.5Z'))).toBe(54.5 * 60_000 - 500);
    expect(msUntilNextPruning(new Date('2026-02-28T23:50:00Z'))).toBe(27 * 60_000);
  });

  it('runs in a worker process at its start, with a log line and metrics per run', async () => {
    // The worker process would make attempts of PENDING deliveries (ending them FAILED): none here.
    await hookline.app.database.pool.query(`DELETE FROM deliveries WHERE status = 'PENDING'`);
    const seeded = await seed([
      { ageDays: 31, status: 'SUCCEEDED', attempts: 1 },
      { ageDays: 32, status: 'FAILED', attempts: 6 },
      { ageDays: 1, status: 'SUCCEEDED', attempts: 1 },
    ]);
    // Whatever other tests of this file left behind goes in the same run; counted from here.
    const { rows: before } = await hookline.app.database.pool.query<{ deliveries: number; attempts: number; events: number }>(
      `SELECT (SELECT count(*) FROM deliveries WHERE created_at < $1 AND status <> 'PENDING')::int AS deliveries,
              (SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.created_at < $1 AND d.status <> 'PENDING')::int AS attempts,
              (SELECT count(*) FROM events e WHERE e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND (d.status = 'PENDING' OR d.created_at >= $1)))::int AS events`,
      [historyStartsAt(30)],
    );
    const expected = before[0]!;
    expect(expected.deliveries).toBeGreaterThanOrEqual(2);

    const worker = hookline.startProcess('worker', {
      RETENTION_DAYS: '30',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      DELIVERY_BACKOFF_BASE_MS: '100',
    });
    try {
      const address = await worker.ready;
      // The run at the worker's start.
      const line = await eventually(
        async () =>
          worker
            .output()
            .split('\n')
            .find((text) => text.includes('pruned webhook history')),
        30_000,
        'the pruning log line',
      );
      expect(JSON.parse(line)).toMatchObject({
        level: 30,
        msg: `pruned webhook history older than 30 days: ${expected.deliveries} deliveries, ${expected.attempts} attempts, ${expected.events} events in ${JSON.parse(line).batches} batches; 0 audit entries older than 365 days`,
        auditEntries: 0,
        auditRetentionDays: 365,
        deliveries: expected.deliveries,
        attempts: expected.attempts,
        events: expected.events,
        complete: true,
        retentionDays: 30,
        cutoff: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        durationMs: expect.any(Number),
      });

      const metrics = await (await fetch(`${address}/metrics`)).text();
      expect(metrics).toContain(`hookline_history_pruned_rows_total{table="deliveries"} ${expected.deliveries}\n`);
      expect(metrics).toContain(`hookline_history_pruned_rows_total{table="delivery_attempts"} ${expected.attempts}\n`);
      expect(metrics).toContain(`hookline_history_pruned_rows_total{table="events"} ${expected.events}\n`);
      expect(metrics).toContain('hookline_history_prune_run_duration_seconds_count{result="complete"} 1\n');

      expect(await remaining(seeded.tenant.organizationId)).toEqual({
        deliveries: seeded.recent.map((id) => ({ id, attempts: 1 })),
        events: 1,
      });
    } finally {
      await worker.stop();
    }
  });
});

describe('pruning the audit log', () => {
  it('deletes entries older than AUDIT_RETENTION_DAYS, in the same job, and keeps younger ones', async () => {
    const { pool } = hookline.app.database;
    const tenant = await hookline.createTenant();
    const insert = (ageDays: number, action: string) =>
      pool.query(
        `INSERT INTO audit_entries (organization_id, at, actor_kind, action, summary) VALUES ($1, now() - make_interval(days => $2), 'SYSTEM', $3, $3)`,
        [tenant.organizationId, ageDays, action],
      );
    await insert(400, 'old.one');
    await insert(366, 'old.two');
    await insert(364, 'kept.year');
    await insert(40, 'kept.older-than-webhook-history');
    const metrics = createMetrics(pool);
    const logged: object[] = [];
    const job = pruneHistoryJob({
      pool,
      databaseUrl: hookline.database.url,
      metrics,
      log: { info: (object) => logged.push(object), error: (object) => logged.push(object) },
      retentionDays: 30,
      auditRetentionDays: 365,
    });
    await job.pass(() => false);
    const { rows } = await pool.query(`SELECT action FROM audit_entries WHERE organization_id = $1 ORDER BY at`, [tenant.organizationId]);
    expect(rows.map((row) => row.action)).toEqual(['kept.year', 'kept.older-than-webhook-history']);
    expect(logged).toEqual([expect.objectContaining({ auditEntries: 2, auditRetentionDays: 365, complete: true })]);
    const pruned = (await metrics.historyPruned.get()).values.find((value) => value.labels.table === 'audit_entries');
    expect(pruned?.value).toBe(2);
  });
});

describe('pruning in several worker processes', () => {
  it('prunes in one process at a time: a run while another process prunes is skipped', async () => {
    const { pool } = hookline.app.database;
    const seeded = await seed([{ ageDays: 40, status: 'SUCCEEDED', attempts: 1 }]);
    const metrics = createMetrics(pool);
    const logged: string[] = [];
    const job = pruneHistoryJob({
      pool,
      databaseUrl: hookline.database.url,
      metrics,
      log: { info: (_object, message) => logged.push(message), error: (_object, message) => logged.push(message) },
      retentionDays: 30,
      auditRetentionDays: 365,
    });
    // Another process's run, holding the lock.
    const other = new pg.Client({ connectionString: hookline.database.url });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('hookline.prune-history'))`);
      await job.pass(() => false);
      expect(logged).toEqual([]);
      expect((await metrics.historyPruneRuns.get()).values).toEqual([]);
      expect((await remaining(seeded.tenant.organizationId)).deliveries).toHaveLength(1);
    } finally {
      await other.end();
    }

    // Its run over, the next pass prunes.
    await job.pass(() => false);
    expect(logged).toEqual([expect.stringMatching(/^pruned webhook history older than 30 days: [1-9]\d* deliveries/)]);
    expect((await remaining(seeded.tenant.organizationId)).deliveries).toEqual([]);
  });
});

describe('where history begins, in the API', () => {
  it('is on the viewer organization: the retention in days and the time it reaches back to', async () => {
    const tenant = await hookline.createTenant();
    const asked = Date.now();
    const { viewer } = dataOf(
      await requestGraphql(
        hookline.baseUrl,
        tenant.apiToken,
        graphql(`query RetentionOfViewer { viewer { retentionDays historyStartsAt } }`),
      ),
    );
    const answered = Date.now();
    expect(viewer.retentionDays).toBe(30);
    const startsAt = Date.parse(viewer.historyStartsAt);
    expect(startsAt).toBeGreaterThanOrEqual(asked - 30 * DAY);
    expect(startsAt).toBeLessThanOrEqual(answered - 30 * DAY);
  });
});
