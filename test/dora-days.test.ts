// DORA's daily figures (dora_days) stay equal to what the raw deploys and commits give, however
// the deploys arrive: through the ingest endpoint, over several days and services, with and
// without an environment, with commits dated after the deploy or undated, redeploys, rollbacks,
// a late deploy backfilled into an earlier day, and a retried request. And the `dora` query,
// which reads whole days from them, answers what computeDora gives from the raw deploys over
// periods that start and end mid-day, on midnight, or within one day. Whether a deploy is rolled
// back (deploys.rolled_back, counted per day) is what detectRollbacks finds in the raw history,
// also after a late deploy changes it either way and when a deploy arrives while an earlier one
// of its target is not committed yet.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../src/domain/ingest/services.ts';
import { computeDora } from '../src/domain/correlation/dora.ts';
import { detectRollbacks } from '../src/domain/correlation/rollbacks.ts';
import { withDatabaseBefore } from './support/database.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith, rollbacksJudged } from './support/app.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { ingest } from './support/operations.ts';

const DORA_OF_DAYS = graphql(`
  query DoraOfDays($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {
      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds
      failedDeployCount rolledBackCount
      failedDeploys(first: 200) { reason deploy { id deployedAt } }
    }
  }
`);

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Midnight UTC 20 days ago: the deploys spread over the 20 days after it. */
const day0 = Math.floor(Date.now() / DAY) * DAY - 20 * DAY;
const at = (offsetMs: number) => new Date(day0 + offsetMs);

/** An organization's dora_days, lead times sorted. */
const KEPT_DAYS_SQL = `
SELECT service_id, environment, day::text, deploy_count, (SELECT coalesce(array_agg(v ORDER BY v), '{}') FROM unnest(lead_times_ms) v) AS lead_times,
       rolled_back_count
FROM dora_days WHERE organization_id = $1 ORDER BY 1, 2, 3`;

/** The same, recomputed from its deploys and commits. */
const RAW_DAYS_SQL = `
SELECT d.service_id, coalesce(d.environment, '') AS environment, (d.deployed_at AT TIME ZONE 'UTC')::date::text AS day,
       count(DISTINCT d.id)::int AS deploy_count,
       coalesce(array_agg((extract(epoch FROM d.deployed_at - c.timestamp) * 1000)::float8 ORDER BY d.deployed_at - c.timestamp)
                FILTER (WHERE c.timestamp <= d.deployed_at), '{}') AS lead_times,
       count(DISTINCT d.id) FILTER (WHERE d.rolled_back)::int AS rolled_back_count
FROM deploys d LEFT JOIN commits c ON c.deploy_id = d.id
WHERE d.organization_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;

/** An organization's dora_organization_days. */
const KEPT_ORGANIZATION_DAYS_SQL = `
SELECT environment, day::text, deploy_count, coalesce(lead_time_buckets, '{}') AS lead_time_buckets, rolled_back_count
FROM dora_organization_days WHERE organization_id = $1 ORDER BY 1, 2`;

/** The same, recomputed from its deploys and commits. */
const RAW_ORGANIZATION_DAYS_SQL = `
SELECT coalesce(d.environment, '') AS environment, (d.deployed_at AT TIME ZONE 'UTC')::date::text AS day, count(DISTINCT d.id)::int AS deploy_count,
       dora_lead_time_buckets(array_agg((extract(epoch FROM d.deployed_at - c.timestamp) * 1000)::float8) FILTER (WHERE c.timestamp <= d.deployed_at))
         AS lead_time_buckets,
       count(DISTINCT d.id) FILTER (WHERE d.rolled_back)::int AS rolled_back_count
FROM deploys d LEFT JOIN commits c ON c.deploy_id = d.id
WHERE d.organization_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`;

/** dora_days and dora_organization_days of an organization equal what its raw deploys and commits give. */
async function expectFiguresOfRawDeploys(client: pg.Client, organizationId: string): Promise<void> {
  expect((await client.query(KEPT_DAYS_SQL, [organizationId])).rows).toEqual((await client.query(RAW_DAYS_SQL, [organizationId])).rows);
  expect((await client.query(KEPT_ORGANIZATION_DAYS_SQL, [organizationId])).rows).toEqual(
    (await client.query(RAW_ORGANIZATION_DAYS_SQL, [organizationId])).rows,
  );
}

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
let admin: pg.Client;
let services: { id: string; token: string }[];

beforeAll(async () => {
  admin = new pg.Client({ connectionString: hookline.database.url });
  await admin.connect();
  const payments = await createService(hookline.app.database.prisma, hookline.tenant.organizationId, 'payments');
  services = [
    { id: hookline.tenant.serviceId, token: hookline.tenant.deployToken },
    { id: payments.service.id, token: payments.deployToken },
  ];
  const environments = ['production', 'staging', null];
  // 60 deploys: every 8 hours (plus a few minutes), over three targets per service; the commit
  // sha repeats every 7 deploys of a service (rollbacks and redeploys); commits dated 1 to 30 hours
  // before, one undated, one dated after the deploy.
  for (let n = 0; n < 60; n++) {
    const service = services[n % 2]!;
    const deployedAt = at(n * 8 * HOUR + (n % 5) * 60_000);
    await ingest(
      hookline,
      service.token,
      {
        commit_sha: `sha${Math.floor(n / 2) % 7}`,
        version: `v${Math.floor(n / 2) % 9}`,
        ...(environments[n % 3] ? { environment: environments[n % 3] } : {}),
        deployed_at: deployedAt.toISOString(),
        commits: [
          { sha: `c${n}a`, message: 'a', timestamp: new Date(deployedAt.getTime() - ((n % 30) + 1) * HOUR).toISOString() },
          { sha: `c${n}b`, message: 'b' },
          ...(n % 4 === 0 ? [{ sha: `c${n}c`, message: 'c', timestamp: new Date(deployedAt.getTime() + HOUR).toISOString() }] : []),
        ],
      },
      { headers: { 'x-idempotency-key': `deploy-${n}` } },
    );
  }
  // The same request again (a retry): stored once, counted once.
  const retried = { commit_sha: 'sha0', environment: 'production', deployed_at: at(3 * HOUR).toISOString() };
  await ingest(hookline, services[0]!.token, retried, { headers: { 'x-idempotency-key': 'retried' } });
  await ingest(hookline, services[0]!.token, retried, { headers: { 'x-idempotency-key': 'retried' }, status: 'duplicate' });
  // A late deploy, backfilled into day 2 after days 3 to 19 were recorded; and one without commits.
  await ingest(hookline, services[1]!.token, {
    commit_sha: 'late',
    environment: 'production',
    deployed_at: at(2 * DAY + 5 * HOUR).toISOString(),
    commits: [{ sha: 'l', message: 'l', timestamp: at(2 * DAY).toISOString() }],
  });
  await ingest(hookline, services[1]!.token, {
    commit_sha: 'bare',
    environment: 'staging',
    deployed_at: at(11 * DAY + HOUR).toISOString(),
  });
  await rollbacksJudged(hookline.app);
}, 120_000);

afterAll(async () => {
  await admin?.end();
});

/**
 * The DORA metrics computeDora gives from every raw deploy of the scope and the whole history; for
 * a whole organization (`approximate`) with the lead time as the median of their histogram.
 */
async function doraFromRawDeploys(
  scope: { serviceId?: string; environment?: string; from: Date; to: Date },
  approximate = !scope.serviceId,
) {
  const prisma = hookline.app.database.prisma;
  const history = await prisma.deploy.findMany({
    where: { organizationId: hookline.tenant.organizationId },
    select: {
      id: true,
      serviceId: true,
      environment: true,
      commitSha: true,
      version: true,
      deployedAt: true,
      commits: { select: { timestamp: true } },
    },
  });
  const deploys = history.filter(
    (deploy) =>
      (!scope.serviceId || deploy.serviceId === scope.serviceId) && (!scope.environment || deploy.environment === scope.environment),
  );
  const { rolledBackBy } = detectRollbacks(history);
  // Every failure here is a rollback (no incidents): as the keys count them, whatever computeDora calls them.
  const {
    judgedCausedCount: _judged,
    topSuspectCount: _top,
    rolledBackCount: _counted,
    ...keys
  } = computeDora({
    from: scope.from,
    to: scope.to,
    deploys,
    ...(approximate ? { days: { deployCount: 0, leadTimeBuckets: [], rolledBackCount: 0 } } : {}),
    failedDeploys: deploys.filter((deploy) => rolledBackBy.has(deploy.id)),
    incidents: [],
  });
  const failedIds = deploys
    .filter((deploy) => rolledBackBy.has(deploy.id) && deploy.deployedAt >= scope.from && deploy.deployedAt < scope.to)
    .sort((a, b) => b.deployedAt.getTime() - a.deployedAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((deploy) => deploy.id);
  return { ...keys, rolledBackCount: keys.failedDeployCount, failedIds };
}

describe('DORA daily figures', () => {
  it('are filled by their migration from the deploys made before it, and deliveries get their event type', async () => {
    await withDatabaseBefore('_query_growth', async (client, migrateRest) => {
      const organizationId = (await client.query(`INSERT INTO organizations (name) VALUES ('before') RETURNING id`)).rows[0].id;
      // 40 deploys of two services over 5 days, with and without an environment, 0 to 4 commits
      // each (the second undated, the third dated after the deploy); an event with a delivery.
      await client.query(
        `WITH service AS (INSERT INTO services (organization_id, name) SELECT $1, 'svc-' || n FROM generate_series(1, 2) n RETURNING id, name),
            token AS (INSERT INTO deploy_tokens (service_id, prefix, token_hash) SELECT id, 'hld_x', md5(name) FROM service RETURNING id, service_id),
            deploy AS (
              INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at)
              SELECT $1, token.service_id, token.id, 'sha' || n, (ARRAY['production', 'staging', NULL])[1 + n % 3], $2::timestamptz + n * interval '6 hours'
              FROM token CROSS JOIN generate_series(1, 20) n RETURNING id, deployed_at)
       INSERT INTO commits (deploy_id, position, sha, timestamp)
       SELECT deploy.id, p, md5(deploy.id::text || p),
              CASE p WHEN 1 THEN NULL WHEN 2 THEN deploy.deployed_at + interval '1 hour' ELSE deploy.deployed_at - p * interval '90 minutes' END
       FROM deploy CROSS JOIN generate_series(0, (extract(epoch FROM deploy.deployed_at)::bigint / 21600) % 5 - 1) p`,
        [organizationId, new Date(day0)],
      );
      const endpoint = (
        await client.query(
          `INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret, event_types) VALUES ($1, 'https://h.example.com', 'h', 's', '{}') RETURNING id`,
          [organizationId],
        )
      ).rows[0].id;
      await client.query(
        `WITH event AS (INSERT INTO events (organization_id, type, data) VALUES ($1, 'incident.opened', '{}') RETURNING id)
       INSERT INTO deliveries (organization_id, event_id, endpoint_id) SELECT $1, id, $2 FROM event`,
        [organizationId, endpoint],
      );
      await migrateRest();
      const raw = await client.query(RAW_DAYS_SQL, [organizationId]);
      expect(raw.rows.reduce((sum, row) => sum + row.deploy_count, 0)).toBe(40);
      expect(raw.rows.some((row) => row.lead_times.length > 1)).toBe(true);
      await expectFiguresOfRawDeploys(client, organizationId);
      expect((await client.query(`SELECT event_type FROM deliveries`)).rows).toEqual([{ event_type: 'incident.opened' }]);
    });
  });

  it('mark the deploys made before their rollbacks migration that detectRollbacks finds rolled back', async () => {
    await withDatabaseBefore('_dora_rollbacks', async (client, migrateRest) => {
      const organizationId = (await client.query(`INSERT INTO organizations (name) VALUES ('before') RETURNING id`)).rows[0].id;
      // 60 deploys of two services, with and without an environment; commits repeat every 5
      // deploys of a target, versions every 7.
      await client.query(
        `WITH service AS (INSERT INTO services (organization_id, name) SELECT $1, 'svc-' || n FROM generate_series(1, 2) n RETURNING id, name),
            token AS (INSERT INTO deploy_tokens (service_id, prefix, token_hash) SELECT id, 'hld_x', md5(name) FROM service RETURNING id, service_id)
       INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, version, environment, deployed_at)
       SELECT $1, token.service_id, token.id, 'sha' || (n / 2) % 5, 'v' || (n / 2) % 7, (ARRAY['production', NULL])[1 + n % 2], $2::timestamptz + n * interval '5 hours'
       FROM token CROSS JOIN generate_series(1, 30) n`,
        [organizationId, new Date(day0)],
      );
      await migrateRest();
      const flags = await client.query(
        `SELECT id, rolled_back, service_id AS "serviceId", environment, commit_sha AS "commitSha", version, deployed_at AS "deployedAt" FROM deploys`,
      );
      const { rolledBackBy } = detectRollbacks(flags.rows);
      expect(rolledBackBy.size).toBeGreaterThan(0);
      expect(flags.rows.map((row) => [row.id, row.rolled_back])).toEqual(flags.rows.map((row) => [row.id, rolledBackBy.has(row.id)]));
      await expectFiguresOfRawDeploys(client, organizationId);
    });
  });

  it('of organizations are filled by their migration from the figures ingest kept before it, rollbacks included', async () => {
    await withDatabaseBefore('_dora_folded_by_worker', async (client, migrateRest) => {
      const organizationId = (await client.query(`INSERT INTO organizations (name) VALUES ('before') RETURNING id`)).rows[0].id;
      // 60 deploys of three services over 5 days, with and without an environment, commits
      // repeating every 5 deploys of a target (rollbacks), 0 to 3 commits each (the second undated).
      await client.query(
        `WITH service AS (INSERT INTO services (organization_id, name) SELECT $1, 'svc-' || n FROM generate_series(1, 3) n RETURNING id, name),
            token AS (INSERT INTO deploy_tokens (service_id, prefix, token_hash) SELECT id, 'hld_x', md5(name) FROM service RETURNING id, service_id),
            deploy AS (
              INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at)
              SELECT $1, token.service_id, token.id, 'sha' || (n / 2) % 5, (ARRAY['production', NULL])[1 + n % 2], $2::timestamptz + n * interval '6 hours'
              FROM token CROSS JOIN generate_series(1, 20) n RETURNING id, deployed_at)
       INSERT INTO commits (deploy_id, position, sha, timestamp)
       SELECT deploy.id, p, md5(deploy.id::text || p), CASE p WHEN 1 THEN NULL ELSE deploy.deployed_at - (p + 1) * interval '47 minutes' END
       FROM deploy CROSS JOIN generate_series(0, (extract(epoch FROM deploy.deployed_at)::bigint / 21600) % 4 - 1) p`,
        [organizationId, new Date(day0)],
      );
      await client.query(
        `SELECT judge_due_rollbacks(service_id, environment) FROM (SELECT DISTINCT service_id, environment FROM rollback_judgements_due) due`,
      );
      expect((await client.query(`SELECT count(*)::int AS n FROM deploys WHERE rolled_back`)).rows[0].n).toBeGreaterThan(0);
      await migrateRest();
      await expectFiguresOfRawDeploys(client, organizationId);
    });
  });

  it('are added by a worker, not by the ingest: an ingest waits on no day’s figures, and each deploy is added once', async () => {
    const other = await hookline.createTenant('fold');

    await ingest(hookline, other.deployToken, { commit_sha: 'a', environment: 'production', deployed_at: at(HOUR).toISOString() });
    await rollbacksJudged(hookline.app);
    const holder = new pg.Client({ connectionString: hookline.database.url });
    await holder.connect();
    try {
      // The day's figures held by another transaction (as a worker's pass would): ingests of that
      // service and day, side by side, are not held up by them.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM dora_days WHERE service_id = $1 FOR UPDATE`, [other.serviceId]);
      await holder.query(`SELECT 1 FROM dora_organization_days WHERE organization_id = $1 FOR UPDATE`, [other.organizationId]);
      await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          ingest(hookline, other.deployToken, {
            commit_sha: `c${n}`,
            environment: 'production',
            deployed_at: at(2 * HOUR + n * 60_000).toISOString(),
            commits: [{ sha: `s${n}`, message: 'm', timestamp: at(n * 60_000).toISOString() }],
          }),
        ),
      );
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    await rollbacksJudged(hookline.app);
    await expectFiguresOfRawDeploys(admin, other.organizationId);
    // A pass again with nothing due changes nothing.
    const before = (await admin.query(KEPT_ORGANIZATION_DAYS_SQL, [other.organizationId])).rows;
    expect((await admin.query(`SELECT fold_due_dora_figures(1000) AS taken`)).rows[0].taken).toBe(0);
    expect((await admin.query(KEPT_ORGANIZATION_DAYS_SQL, [other.organizationId])).rows).toEqual(before);
  });

  it('lose and double no deploy when a worker stops in the middle of a pass or two workers pass at once', async () => {
    const other = await hookline.createTenant('stops');
    const stopped = new pg.Client({ connectionString: hookline.database.url });
    const second = new pg.Client({ connectionString: hookline.database.url });
    await Promise.all([stopped.connect(), second.connect()]);
    try {
      const insertDeploys = (client: pg.Client) =>
        client.query(
          `WITH deploy AS (
             INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at)
             SELECT s.organization_id, s.id, t.id, 'sha' || n, 'production', $2::timestamptz + n * interval '1 hour'
             FROM deploy_tokens t JOIN services s ON s.id = t.service_id CROSS JOIN generate_series(1, 30) n WHERE s.id = $1 RETURNING id, deployed_at)
           INSERT INTO commits (deploy_id, position, sha, timestamp) SELECT id, 0, md5(id::text), deployed_at - interval '5 hours' FROM deploy`,
          [other.serviceId, at(5 * DAY)],
        );
      // A worker's pass under way (it holds the pass's lock) when the deploys commit: no other
      // pass takes them meanwhile. It folds them and dies before committing (its connection ends):
      // a second worker's pass meanwhile takes nothing (one pass at a time), and once the first is
      // gone the workers' passes add each deploy once.
      await stopped.query('BEGIN');
      await stopped.query('SELECT pg_advisory_xact_lock(1919707235)');
      await insertDeploys(admin);
      expect((await stopped.query(`SELECT fold_due_dora_figures(1000) AS taken`)).rows[0].taken).toBeGreaterThanOrEqual(30);
      expect((await second.query(`SELECT fold_due_dora_figures(1000) AS taken`)).rows[0].taken).toBe(0);
      expect((await admin.query(KEPT_ORGANIZATION_DAYS_SQL, [other.organizationId])).rows).toEqual([]);
      await stopped.end().catch(() => {});
      await rollbacksJudged(hookline.app);
      await expectFiguresOfRawDeploys(admin, other.organizationId);
      expect(
        (await admin.query(KEPT_ORGANIZATION_DAYS_SQL, [other.organizationId])).rows.reduce((sum, row) => sum + row.deploy_count, 0),
      ).toBe(30);
    } finally {
      await second.end();
    }
  });

  it('equal the deploys and commit lead times of each service, environment and day, recomputed from the raw rows', async () => {
    const raw = await admin.query(RAW_DAYS_SQL, [hookline.tenant.organizationId]);
    expect(raw.rows.reduce((sum, row) => sum + row.deploy_count, 0)).toBe(63);
    await expectFiguresOfRawDeploys(admin, hookline.tenant.organizationId);
  });

  it('give the dora query the figures computeDora gives from the raw deploys, over any period and scope', async () => {
    const periods = [
      { from: at(0), to: at(20 * DAY) }, // whole days only
      { from: at(5 * HOUR), to: at(17 * DAY + 13 * HOUR) }, // partial days at both ends
      { from: at(2 * DAY + HOUR), to: at(2 * DAY + 20 * HOUR) }, // within one day
      { from: at(3 * DAY), to: at(4 * DAY + 2 * HOUR) }, // one whole day and a partial one
      { from: at(-30 * DAY), to: at(30 * DAY) }, // beyond the data at both ends
    ];
    const scopes = [
      {},
      { serviceId: services[0]!.id },
      { serviceId: services[1]!.id, environment: 'production' },
      { environment: 'staging' },
    ];
    const failureRates: (number | null)[] = [];
    for (const period of periods) {
      for (const scope of scopes) {
        const { dora } = dataOf(
          await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, DORA_OF_DAYS, {
            ...scope,
            from: period.from.toISOString(),
            to: period.to.toISOString(),
          }),
        );
        const { failedDeploys, ...keys } = dora;
        const { failedIds, ...raw } = await doraFromRawDeploys({ ...scope, ...period });
        expect(keys, JSON.stringify({ period, scope })).toEqual(raw);
        // The drill-down lists the very deploys counted, newest first, each as rolled back.
        expect(failedDeploys.map((failed) => failed.reason)).toEqual(failedIds.map(() => 'ROLLED_BACK'));
        expect(failedDeploys.map((failed) => failed.deploy.id)).toEqual(failedIds);
        failureRates.push(dora.changeFailureRate);
        if (!scope.serviceId) {
          // An organization's lead time comes from a histogram: near the exact median.
          const exact = (await doraFromRawDeploys({ ...scope, ...period }, false)).leadTimeForChangesSeconds;
          if (exact === null) expect(dora.leadTimeForChangesSeconds).toBeNull();
          else expect(Math.abs(dora.leadTimeForChangesSeconds! / exact - 1), JSON.stringify({ period, scope })).toBeLessThan(0.045);
        }
      }
    }
    // Rollbacks among them: some deploys count as failed.
    expect(failureRates.some((rate) => rate !== null && rate > 0)).toBe(true);
  });

  it('mark the deploys detectRollbacks finds rolled back in the raw history', async () => {
    expect(await rolledBackFlags(hookline.tenant.organizationId)).toEqual(await rolledBackInRawHistory(hookline.tenant.organizationId));
    expect(Object.values(await rolledBackFlags(hookline.tenant.organizationId)).filter(Boolean).length).toBeGreaterThan(3);
  });

  it('follow a late deploy that undoes a rollback, and one that makes one', async () => {
    const other = await hookline.createTenant('billing');
    const service = { token: other.deployToken };
    const deploy = (commitSha: string, version: string, offsetMs: number) =>
      ingest(hookline, service.token, {
        commit_sha: commitSha,
        version,
        environment: 'production',
        deployed_at: at(offsetMs).toISOString(),
      });
    const flags = async () => {
      await rollbacksJudged(hookline.app);
      const rows = await admin.query(`SELECT commit_sha, rolled_back FROM deploys WHERE organization_id = $1 ORDER BY deployed_at`, [
        other.organizationId,
      ]);
      return rows.rows.map((row) => `${row.commit_sha}${row.rolled_back ? ' rolled back' : ''}`);
    };
    // The last deploy restores a's commit: b and c are rolled back.
    await deploy('a', 'v1', 1 * HOUR);
    await deploy('b', 'v2', 2 * HOUR);
    await deploy('c', 'v3', 4 * HOUR);
    await deploy('a', 'v4', 5 * HOUR);
    expect(await flags()).toEqual(['a', 'b rolled back', 'c rolled back', 'a']);
    // A late deploy of version v4 right before the last: that one is now its redeploy, and
    // restores nothing, so b and c are not rolled back any more.
    await deploy('z', 'v4', 4.5 * HOUR);
    expect(await flags()).toEqual(['a', 'b', 'c', 'z', 'a']);
    // A late deploy restoring b's version after c: c is rolled back by it.
    await deploy('y', 'v2', 4.2 * HOUR);
    expect(await flags()).toEqual(['a', 'b', 'c rolled back', 'y', 'z', 'a']);
    expect(await rolledBackFlags(other.organizationId)).toEqual(await rolledBackInRawHistory(other.organizationId));
    await expectFiguresOfRawDeploys(admin, other.organizationId);
  });

  it('let an ingest of a service go on while another ingest of that service is not yet committed', async () => {
    const other = await hookline.createTenant('ledger');
    const insert = (client: pg.Client, commitSha: string, environment: string, offsetMs: number) =>
      client.query(
        `INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at)
         SELECT s.organization_id, s.id, t.id, $1, $2, $3 FROM deploy_tokens t JOIN services s ON s.id = t.service_id WHERE s.id = $4`,
        [commitSha, environment, at(offsetMs), other.serviceId],
      );
    await insert(admin, 'a', 'production', HOUR);
    const first = new pg.Client({ connectionString: hookline.database.url });
    const second = new pg.Client({ connectionString: hookline.database.url });
    await Promise.all([first.connect(), second.connect()]);
    try {
      // A rollback of production left uncommitted, and a deploy of staging on another day: no
      // row in common, so the second commits while the first is open.
      await second.query(`SET lock_timeout = '10s'`);
      await first.query('BEGIN');
      await insert(first, 'b', 'production', DAY + HOUR);
      await insert(first, 'a', 'production', DAY + 2 * HOUR);
      await insert(second, 'c', 'staging', 3 * DAY);
      await first.query('COMMIT');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    await rollbacksJudged(hookline.app);
    expect(await rolledBackFlags(other.organizationId)).toEqual(await rolledBackInRawHistory(other.organizationId));
    expect(Object.values(await rolledBackFlags(other.organizationId)).filter(Boolean)).toEqual([true]);
    await expectFiguresOfRawDeploys(admin, other.organizationId);
  });

  it('judge a deploy ingested while an earlier one of its target is not yet committed once that one is', async () => {
    const other = await hookline.createTenant('search');
    const insert = (client: pg.Client, commitSha: string, offsetMs: number) =>
      client.query(
        `INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at)
         SELECT s.organization_id, s.id, t.id, $1, 'production', $2 FROM deploy_tokens t JOIN services s ON s.id = t.service_id WHERE s.id = $3`,
        [commitSha, at(offsetMs), other.serviceId],
      );
    await insert(admin, 'a', HOUR);
    const first = new pg.Client({ connectionString: hookline.database.url });
    const second = new pg.Client({ connectionString: hookline.database.url });
    await Promise.all([first.connect(), second.connect()]);
    try {
      // b, in a transaction still open, while a second session deploys a again after it (on other
      // days: their daily rows do not make one wait for the other): a rollback of b, which that
      // session cannot see until b is committed.
      const secondPid = (await second.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await first.query('BEGIN');
      await insert(first, 'b', DAY + HOUR);
      let rollbackDone = false;
      const rollback = insert(second, 'a', 2 * DAY + HOUR).then(() => (rollbackDone = true));
      await eventually(
        async () => {
          if (rollbackDone) return true;
          const { rows } = await admin.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [secondPid]);
          return rows[0]?.wait_event_type === 'Lock' ? true : undefined;
        },
        15_000,
        'the second session blocked or done',
      );
      await first.query('COMMIT');
      await rollback;
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    await rollbacksJudged(hookline.app);
    const flags = await admin.query(`SELECT commit_sha, rolled_back FROM deploys WHERE organization_id = $1 ORDER BY deployed_at`, [
      other.organizationId,
    ]);
    expect(flags.rows).toEqual([
      { commit_sha: 'a', rolled_back: false },
      { commit_sha: 'b', rolled_back: true },
      { commit_sha: 'a', rolled_back: false },
    ]);
    await expectFiguresOfRawDeploys(admin, other.organizationId);
  });
});

/** deploys.rolled_back of an organization's deploys, by id. */
async function rolledBackFlags(organizationId: string): Promise<Record<string, boolean>> {
  const { rows } = await admin.query(`SELECT id, rolled_back FROM deploys WHERE organization_id = $1`, [organizationId]);
  return Object.fromEntries(rows.map((row) => [row.id, row.rolled_back]));
}

/** The same, from detectRollbacks over the organization's whole history. */
async function rolledBackInRawHistory(organizationId: string): Promise<Record<string, boolean>> {
  const history = await hookline.app.database.prisma.deploy.findMany({
    where: { organizationId },
    select: { id: true, serviceId: true, environment: true, commitSha: true, version: true, deployedAt: true },
  });
  const { rolledBackBy } = detectRollbacks(history);
  return Object.fromEntries(history.map((deploy) => [deploy.id, rolledBackBy.has(deploy.id)]));
}
