// `npm run bench:retention [-- --deliveries 100000 --organizations 10]`
//
// What a pruning run costs (domain/webhooks/retention.ts, as the hourly job runs it: batches of 1,000):
// `--deliveries` expired deliveries (2 attempts each, an event each, spread over
// `--organizations`) beside as many recent ones that stay, seeded with SQL. Prints the run's
// total time, rows per second and the time of each statement (the longest any row lock is held),
// next to the same rows deleted the naive way on an identical copy: one DELETE per table (one
// long transaction holding every row it deletes). DATABASE_URL: an admin connection (scratch
// databases are created and dropped), or an embedded PostgreSQL in a temp dir when unset.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applyMigrations } from '../src/db/migrate.ts';
import { historyStartsAt, pruneHistory } from '../src/domain/webhooks/retention.ts';
import { PRUNE_BATCH_SIZE } from '../src/background/prune-history.ts';
import { percentile } from './percentile.ts';
import { cleanUpOnInterrupt, cleanups, postgresServer, runBench, scratchDatabase } from './support.ts';

const { values: options } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '100000' },
    organizations: { type: 'string', default: '10' },
  },
});
const deliveries = Number(options.deliveries);
const organizations = Number(options.organizations);
const RETENTION_DAYS = 90;

/** Per organization: an endpoint, then `perOrganization` expired and as many recent deliveries, events and 2 attempts each. */
const SEED_SQL = `
WITH orgs AS (
  INSERT INTO organizations (name) SELECT 'bench-' || i FROM generate_series(1, $1::int) AS i RETURNING id
), endpoints AS (
  INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret)
  SELECT id, 'https://hooks.example.com/bench', 'bench', 'whsec_MfKQ9r8GKYqrTwJSJbPmSc6e0jIrY8Pq' FROM orgs RETURNING id, organization_id
), events AS (
  INSERT INTO events (organization_id, type, data, created_at)
  SELECT e.organization_id, 'deploy.ingested',
         jsonb_build_object('deploy', jsonb_build_object('id', gen_random_uuid(), 'commitSha', md5(i::text), 'commits', jsonb_build_array(md5(i::text), md5((i + 1)::text)))),
         CASE WHEN i % 2 = 0 THEN now() - interval '${RETENTION_DAYS} days' - i * interval '1 second' ELSE now() - i * interval '1 second' END
  FROM endpoints e CROSS JOIN generate_series(1, 2 * $2::int) AS i
  RETURNING id, organization_id, created_at
), deliveries AS (
  INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, created_at, updated_at)
  SELECT ev.organization_id, ev.id, en.id, 'deploy.ingested', 'SUCCEEDED'::"DeliveryStatus", 2, ev.created_at, ev.created_at
  FROM events ev JOIN endpoints en USING (organization_id)
  RETURNING id, endpoint_id, created_at
)
INSERT INTO delivery_attempts (delivery_id, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body)
SELECT d.id, d.endpoint_id, n, n = 2, d.created_at, 120, CASE n WHEN 1 THEN 503 ELSE 200 END, repeat('x', 200)
FROM deliveries d CROSS JOIN generate_series(1, 2) AS n`;

async function seededDatabase(adminUrl: string): Promise<pg.Pool> {
  const url = await scratchDatabase(adminUrl);
  await applyMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  cleanups.push(() => pool.end());
  await pool.query(SEED_SQL, [organizations, Math.ceil(deliveries / organizations)]);
  await pool.query('VACUUM ANALYZE');
  return pool;
}

async function main(): Promise<void> {
  cleanUpOnInterrupt('stopping the benchmark');
  if (!Number.isInteger(deliveries) || deliveries < organizations || organizations < 1)
    throw new Error('--deliveries and --organizations: whole numbers, deliveries ≥ organizations ≥ 1');
  const adminUrl = await postgresServer();
  console.log(
    `Seeding two databases: ${deliveries} expired deliveries (2 attempts and an event each) and as many recent ones, ${organizations} organizations…`,
  );
  const [batched, naive] = [await seededDatabase(adminUrl), await seededDatabase(adminUrl)];
  const cutoff = historyStartsAt(RETENTION_DAYS);
  console.log(`load average ${loadavg()[0]!.toFixed(1)}`);

  // The run as the job makes it, each statement timed.
  const statementMs: number[] = [];
  const timedPool = {
    query: async (...args: Parameters<pg.Pool['query']>) => {
      const started = performance.now();
      try {
        return await (batched.query as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        statementMs.push(performance.now() - started);
      }
    },
  } as unknown as pg.Pool;
  const started = performance.now();
  const result = await pruneHistory(timedPool, { cutoff, batchSize: PRUNE_BATCH_SIZE });
  const batchedMs = performance.now() - started;

  // The naive way: one statement per table, every row locked until the end.
  const naiveStarted = performance.now();
  await naive.query(`DELETE FROM deliveries WHERE created_at < $1 AND status <> 'PENDING'`, [cutoff]);
  const naiveDeliveriesMs = performance.now() - naiveStarted;
  await naive.query(`DELETE FROM events e WHERE created_at < $1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)`, [
    cutoff,
  ]);
  const naiveMs = performance.now() - naiveStarted;

  const rows = result.deliveries + result.attempts + result.events;
  const sorted = statementMs.slice(1).sort((a, b) => a - b); // the first is the list of organizations
  console.log(
    `\nbatched run (${PRUNE_BATCH_SIZE} per statement): ${result.deliveries} deliveries, ${result.attempts} attempts, ${result.events} events in ${result.batches} statements`,
  );
  console.log(`  total ${(batchedMs / 1000).toFixed(2)} s, ${Math.round(rows / (batchedMs / 1000))} rows/s`);
  console.log(
    `  per statement: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (the longest any row stays locked)`,
  );
  console.log(
    `naive (one DELETE per table): total ${(naiveMs / 1000).toFixed(2)} s, ${Math.round(rows / (naiveMs / 1000))} rows/s; deliveries' statement ${(naiveDeliveriesMs / 1000).toFixed(2)} s holding ${result.deliveries + result.attempts} row locks`,
  );
  console.log(
    `ratio (batched / naive total time): ${(batchedMs / naiveMs).toFixed(2)}; longest lock held: ${(sorted.at(-1)! / naiveDeliveriesMs).toFixed(3)} of the naive one (load average ${loadavg()[0]!.toFixed(1)})`,
  );
}

await runBench(main);
