// The rollback judgement that every worker process runs at start-up and every couple of seconds
// (judgeDueRollbacks, calling judge_due_rollbacks per target) on a burst of deploys of one target
// ingested before any judgement, as a new service's history or a worker started after the ingest
// finds them: each call judges a bounded batch of them, and the pass reads about as many deploys
// as it judges, though PostgreSQL has no statistics of the new rows when it starts (without them,
// each deploy's look-up of the one it restores read all the earlier ones: 3.5 million rows for
// 2,000 deploys); the verdicts are those of detectRollbacks over the whole history, and DORA's
// daily counts follow them.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeDueRollbacks } from '../src/domain/correlation/rollback-judgement.ts';
import { detectRollbacks, type DeployVersion } from '../src/domain/correlation/rollbacks.ts';
import { useHookline } from './support/fixture.ts';

const hookline = useHookline({ app: false, tenant: false });
let client: pg.Client;
let organizationId: string;
let serviceId: string;

/** Deploys a pass may read per deploy it judges. */
const ROWS_PER_DEPLOY = 30;

beforeAll(async () => {
  client = new pg.Client({ connectionString: hookline.database.url });
  await client.connect();
  const { rows } = await client.query<{ organizationId: string; serviceId: string }>(
    `WITH organization AS (INSERT INTO organizations (name) VALUES ('judged') RETURNING id),
     service AS (INSERT INTO services (organization_id, name) SELECT id, 'payments' FROM organization RETURNING id, organization_id)
     SELECT organization_id AS "organizationId", id AS "serviceId" FROM service`,
  );
  ({ organizationId, serviceId } = rows[0]!);
});

afterAll(() => client?.end());

/**
 * Ingests `count` deploys of the service to `environment`, one statement each as ingest does
 * (each notes its target due), a minute apart: each one a new commit (40 hex digits, as git's,
 * which makes the commit index the largest) and version (every third one without a version),
 * but every 50th a rollback to the commit of the 5th before it, every 70th a redeploy of the one
 * before it, and those listed in `rollbacks` ([deploy, deploy it restores], numbered from 1)
 * rollbacks over a longer span.
 */
async function ingestBurst(environment: string, count: number, rollbacks: [number, number][] = []): Promise<void> {
  await client.query(
    `DO $$
     DECLARE
       token uuid;
       restored integer;
     BEGIN
       INSERT INTO deploy_tokens (service_id, prefix, token_hash) VALUES ('${serviceId}', 'hld_test', md5(random()::text)) RETURNING id INTO token;
       FOR n IN 1..${count} LOOP
         restored := CASE ${rollbacks.map(([deploy, restores]) => `WHEN n = ${deploy} THEN ${restores}`).join(' ')}
                          WHEN n % 50 = 0 THEN n - 5 WHEN n % 70 = 0 THEN n - 1 ELSE n END;
         INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, version, environment, deployed_at)
         VALUES ('${organizationId}', '${serviceId}', token, left(encode(sha256(restored::text::bytea), 'hex'), 40), CASE WHEN n % 3 = 0 THEN NULL ELSE 'v' || restored END,
                 '${environment}', now() - interval '1 day' * ${count} / 1440 + n * interval '1 minute');
       END LOOP;
     END $$`,
  );
  // Counted now in the statistics the judgement reads (a backend sends its counts now and then).
  await client.query('SELECT pg_stat_force_next_flush()');
}

/** Each deploy of `environment` whose deploys.rolled_back differs from what detectRollbacks finds. */
async function wrongVerdicts(environment: string): Promise<string[]> {
  const { rows } = await client.query<DeployVersion & { rolledBack: boolean }>(
    `SELECT id, service_id AS "serviceId", environment, commit_sha AS "commitSha", version, deployed_at AS "deployedAt", rolled_back AS "rolledBack"
     FROM deploys WHERE service_id = $1 AND environment = $2`,
    [serviceId, environment],
  );
  const { rolledBackBy } = detectRollbacks(rows);
  return rows.filter((deploy) => deploy.rolledBack !== rolledBackBy.has(deploy.id)).map((deploy) => deploy.id);
}

/** Days of `environment` whose DORA rolled-back count differs from the deploys rolled back that day. */
async function wrongDailyCounts(environment: string): Promise<unknown[]> {
  const { rows } = await client.query(
    `SELECT * FROM (
       SELECT (deployed_at AT TIME ZONE 'UTC')::date AS day, count(*) FILTER (WHERE rolled_back)::int AS n
       FROM deploys WHERE service_id = $1 AND environment = $2 GROUP BY 1
     ) raw
     FULL JOIN (SELECT day, rolled_back_count AS kept FROM dora_days WHERE service_id = $1 AND environment = $2) kept USING (day)
     WHERE coalesce(raw.n, 0) <> coalesce(kept.kept, 0)`,
    [serviceId, environment],
  );
  return rows;
}

describe('judging the rollbacks of a burst of deploys', () => {
  it('takes at most its batch of deploys per call, and the next call goes on from there', async () => {
    await ingestBurst('staging', 250, [[240, 20]]);
    const judged: number[] = [];
    for (;;) {
      const { rows } = await client.query<{ judged: number }>(`SELECT judge_due_rollbacks($1, 'staging', 100) AS judged`, [serviceId]);
      if (rows[0]!.judged === 0) break;
      judged.push(rows[0]!.judged);
    }
    expect(judged).toEqual([100, 100, 50]);
    expect(await wrongVerdicts('staging')).toEqual([]);
    expect(await wrongDailyCounts('staging')).toEqual([]);
  });

  it(`reads about as many deploys as it judges (${ROWS_PER_DEPLOY} rows each at most), with the verdicts of detectRollbacks`, async () => {
    const deploys = 2000;
    await ingestBurst('production', deploys, [[1500, 200]]);
    await client.query('BEGIN');
    const judged = await judgeDueRollbacks(client);
    // Deploys read in this transaction: by scans, and through indexes.
    const { rows } = await client.query<{ read: number }>(
      `SELECT (seq_tup_read + idx_tup_fetch)::int AS read FROM pg_stat_xact_user_tables WHERE relname = 'deploys'`,
    );
    await client.query('COMMIT');
    expect(judged).toBeGreaterThanOrEqual(deploys);
    expect(rows[0]!.read).toBeLessThanOrEqual(ROWS_PER_DEPLOY * deploys);
    expect(await wrongVerdicts('production')).toEqual([]);
    expect(await wrongDailyCounts('production')).toEqual([]);
  }, 120_000);
});
