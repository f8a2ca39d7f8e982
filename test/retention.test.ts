// Retention: webhook history is partitioned by month, and a month whose every day is older than
// RETENTION_DAYS goes whole (its partitions detached and dropped) in a background job of the worker
// processes, hourly and one process at a time, which logs and counts each run; a month holding a
// PENDING delivery and the months reaching past the cutoff are kept; another job makes the months
// ahead; the API says where history begins.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { msUntilNextPruning, pruneHistoryJob } from '../src/background/prune-history.ts';
import { createEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { historyStartsAt, makeHistoryMonths, makeMonthsAhead, pruneHistory } from '../src/domain/webhooks/retention.ts';
import { createMetrics } from '../src/metrics.ts';
import { dataOf, requestGraphql, type Tenant } from './support/app.ts';
import { graphql } from './gql/index.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const DAY = 86_400_000;

const hookline = useHookline({ environment: { ROLE: 'api', RETENTION_DAYS: '30' }, tenant: false });

interface Seeded {
  tenant: Tenant;
  /** Delivery ids, in the order of the rows asked for. */
  deliveries: string[];
}

/**
 * An organization with one endpoint and, per entry, an event made `at` and its delivery with
 * `attempts` attempts (or no delivery: a listener's event), in their month's partitions.
 */
async function seed(rows: { at: Date; status?: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED'; attempts?: number }[]): Promise<Seeded> {
  const { pool, prisma } = hookline.app.database;
  const tenant = await hookline.createTenant();
  const { endpoint } = await createEndpoint(
    prisma,
    tenant.organizationId,
    { url: 'https://hooks.example.com/retention', name: 'retention' },
    { allowHttp: false, allowPrivate: false },
    1,
  );
  const seeded: Seeded = { tenant, deliveries: [] };
  for (const { at, status, attempts = 0 } of rows) {
    await makeHistoryMonths(pool, at, at);
    const { rows: inserted } = await pool.query<{ id: string }>(
      `WITH e AS (
         INSERT INTO events (organization_id, type, data, created_at) VALUES ($1, 'deploy.ingested', '{"payload": "kept until pruned"}', $4)
         RETURNING id, created_at
       ), d AS (
         INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, created_at, updated_at)
         SELECT $1, e.id, $2, 'deploy.ingested', $3::"DeliveryStatus", $5, e.created_at, e.created_at FROM e WHERE $3 IS NOT NULL
         RETURNING id, created_at
       ), a AS (
         INSERT INTO delivery_attempts (delivery_id, delivery_created_at, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body)
         SELECT d.id, d.created_at, $2, n, false, $4, 12, 500, 'answer kept until pruned' FROM d CROSS JOIN generate_series(1, $5) AS n
       )
       SELECT id FROM d`,
      [tenant.organizationId, endpoint.id, status ?? null, at, attempts],
    );
    if (inserted[0]) seeded.deliveries.push(inserted[0].id);
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

/** The partitions of webhook history named for `month` (YYYY_MM). */
async function partitionsOf(month: string): Promise<string[]> {
  const { rows } = await hookline.app.database.pool.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relname = ANY ($1) ORDER BY 1`,
    [['events', 'deliveries', 'delivery_attempts'].map((table) => `${table}_${month}`)],
  );
  return rows.map((row) => row.name);
}

describe('pruning webhook history', () => {
  it('drops each month whose every day is before the cutoff, whole, and keeps a month with a PENDING delivery and the month of the cutoff', async () => {
    const at = (iso: string) => new Date(iso);
    const seeded = await seed([
      { at: at('2020-01-05T00:00:00Z'), status: 'SUCCEEDED', attempts: 2 },
      { at: at('2020-01-31T12:00:00Z'), status: 'FAILED', attempts: 6 },
      { at: at('2020-01-20T00:00:00Z') },
      { at: at('2020-02-10T00:00:00Z'), status: 'CANCELLED', attempts: 1 },
      { at: at('2020-02-11T00:00:00Z'), status: 'PENDING', attempts: 3 },
      { at: at('2020-03-31T23:59:59.999Z'), status: 'SUCCEEDED', attempts: 1 },
      { at: at('2020-04-01T00:00:00Z'), status: 'SUCCEEDED', attempts: 1 },
    ]);
    const [january, , february, pending, , april] = seeded.deliveries;

    const result = await pruneHistory(hookline.app.database.pool, { cutoff: at('2020-04-20T00:00:00Z') });

    expect(result).toEqual({ months: ['2020_01', '2020_03'], deliveries: 3, attempts: 9, events: 4, keptPending: ['2020_02'], busy: null });
    expect(await partitionsOf('2020_01')).toEqual([]);
    expect(await partitionsOf('2020_03')).toEqual([]);
    expect(await partitionsOf('2020_02')).toHaveLength(3);
    expect(await remaining(seeded.tenant.organizationId)).toEqual({
      deliveries: [
        { id: february, attempts: 1 },
        { id: pending, attempts: 3 },
        { id: april, attempts: 1 },
      ].sort((a, b) => (a.id! < b.id! ? -1 : 1)),
      events: 3,
    });
    expect(january).toBeDefined();

    // Its PENDING delivery finished, February goes at the next run; nothing else does.
    await hookline.app.database.pool.query(`UPDATE deliveries SET status = 'FAILED' WHERE id = $1`, [pending]);
    expect(await pruneHistory(hookline.app.database.pool, { cutoff: at('2020-04-20T00:00:00Z') })).toEqual({
      months: ['2020_02'],
      deliveries: 2,
      attempts: 4,
      events: 2,
      keptPending: [],
      busy: null,
    });
    expect(await remaining(seeded.tenant.organizationId)).toEqual({ deliveries: [{ id: april, attempts: 1 }], events: 1 });
  });

  it('leaves a month for the next run when its tables stay busy, changing nothing', async () => {
    const seeded = await seed([{ at: new Date('2019-06-10T00:00:00Z'), status: 'SUCCEEDED', attempts: 1 }]);
    // A transaction writing deliveries (as the recorder's do), open for longer than the pruning waits.
    const writer = new pg.Client({ connectionString: hookline.database.url });
    await writer.connect();
    try {
      await writer.query(`BEGIN; LOCK TABLE deliveries IN ROW EXCLUSIVE MODE`);
      expect(await pruneHistory(hookline.app.database.pool, { cutoff: new Date('2019-08-01T00:00:00Z'), lockTries: 3 })).toEqual({
        months: [],
        deliveries: 0,
        attempts: 0,
        events: 0,
        keptPending: [],
        busy: '2019_06',
      });
      expect(await partitionsOf('2019_06')).toHaveLength(3);
      expect((await remaining(seeded.tenant.organizationId)).deliveries).toHaveLength(1);
    } finally {
      await writer.end();
    }
    expect((await pruneHistory(hookline.app.database.pool, { cutoff: new Date('2019-08-01T00:00:00Z') })).months).toEqual(['2019_06']);
  });

  it('makes the partitions of this month and the two after it, once', async () => {
    const now = new Date('2031-05-31T23:00:00Z');
    expect(await makeMonthsAhead(hookline.app.database.pool, now)).toEqual(['2031_05', '2031_06', '2031_07']);
    expect(await makeMonthsAhead(hookline.app.database.pool, now)).toEqual([]);
    expect(await partitionsOf('2031_07')).toEqual(['deliveries_2031_07', 'delivery_attempts_2031_07', 'events_2031_07']);
    const { rows } = await hookline.app.database.pool.query(
      `INSERT INTO events (organization_id, type, data, created_at)
       SELECT id, 'test.ping', '{}', '2031-06-30T23:59:59.999Z' FROM organizations LIMIT 1 RETURNING tableoid::regclass::text AS partition`,
    );
    expect(rows).toEqual([{ partition: 'events_2031_06' }]);
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
      { at: new Date(Date.now() - 70 * DAY), status: 'SUCCEEDED', attempts: 1 },
      { at: new Date(Date.now() - 71 * DAY), status: 'FAILED', attempts: 6 },
      { at: new Date(Date.now() - DAY), status: 'SUCCEEDED', attempts: 1 },
    ]);
    // Whatever other tests of this file left in months now over goes in the same run; counted from
    // here (a row of the default partition, of a month without partitions, stays).
    const { rows: before } = await hookline.app.database.pool.query<{ deliveries: number; attempts: number; events: number }>(
      `WITH past AS (SELECT date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS before)
       SELECT (SELECT count(*) FROM deliveries, past WHERE created_at < before AND tableoid <> 'deliveries_default'::regclass)::int AS deliveries,
              (SELECT count(*) FROM delivery_attempts, past WHERE delivery_created_at < before AND tableoid <> 'delivery_attempts_default'::regclass)::int AS attempts,
              (SELECT count(*) FROM events, past WHERE created_at < before AND tableoid <> 'events_default'::regclass)::int AS events`,
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
      const logged = JSON.parse(line);
      expect(logged).toMatchObject({
        level: 30,
        auditEntries: 0,
        auditRetentionDays: 365,
        deliveries: expected.deliveries,
        attempts: expected.attempts,
        events: expected.events,
        keptPending: [],
        complete: true,
        retentionDays: 30,
        cutoff: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        durationMs: expect.any(Number),
      });
      expect(logged.msg).toBe(
        `pruned webhook history older than 30 days: dropped ${logged.months.join(', ')}, ${expected.deliveries} deliveries, ` +
          `${expected.attempts} attempts, ${expected.events} events; 0 audit entries older than 365 days`,
      );

      const metrics = await (await fetch(`${address}/metrics`)).text();
      expect(metrics).toContain(`hookline_history_pruned_rows_total{table="deliveries"} ${expected.deliveries}\n`);
      expect(metrics).toContain(`hookline_history_pruned_rows_total{table="delivery_attempts"} ${expected.attempts}\n`);
      expect(metrics).toContain(`hookline_history_pruned_rows_total{table="events"} ${expected.events}\n`);
      expect(metrics).toContain('hookline_history_prune_run_duration_seconds_count{result="complete"} 1\n');

      expect(await remaining(seeded.tenant.organizationId)).toEqual({
        deliveries: [{ id: seeded.deliveries[2], attempts: 1 }],
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
    const seeded = await seed([{ at: new Date(Date.now() - 70 * DAY), status: 'SUCCEEDED', attempts: 1 }]);
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
    expect(logged).toEqual([
      expect.stringMatching(/^pruned webhook history older than 30 days: dropped \d{4}_\d\d.*, [1-9]\d* deliveries/),
    ]);
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
