// `npm run bench:retention [-- --events 50000 --organizations 20]`
//
// What moving to monthly partitions and then retention cost, on a database of the shape before
// them. A database at the migration before `history_partitioned_by_month` holds a year of webhook
// history (`--events` events spread evenly over 365 days, two endpoints per organization, so two
// deliveries each, two attempts per delivery; `--events 2460000` is the issue's year of a busy
// customer base: 4.9M deliveries, 9.8M attempts). Then:
// 1. The migration, as a process applies it at start: its time and WAL, and every row of the three
//    tables kept with every column equal (a count and a hash per table, before and after).
// 2. Retention at RETENTION_DAYS=90: the hourly job's pruneHistory drops the nine months that ended
//    before the cutoff. Its time, WAL and the database's size before and after, while ingest
//    (the outbox's statement writing an event and its deliveries, one client, back to back) and
//    the delivery hot path (the worker's read of a batch of 50 deliveries and the recorder's
//    update of them, by (id, created_at), rolled back) run beside it: their latencies during the
//    pruning against the same loops' before it.
// 3. DORA for the year, for every organization, before and after the pruning: retention keeps
//    deploys, commits and incidents (seeded after the migration: a deploy a few hours, an
//    incident per 50 deploys), so every figure must come out identical.
// DATABASE_URL: an admin connection (a scratch database is created and dropped), or an embedded
// PostgreSQL in a temp dir when unset.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import sql, { raw } from 'sql-template-tag';
import type { PrismaClient } from '../src/generated/prisma/client.ts';
import { connectDatabase } from '../src/db/client.ts';
import { applyMigrations, readMigrations } from '../src/db/migrate.ts';
import type { DoraMetrics } from '../src/domain/correlation/dora.ts';
import { doraMetrics } from '../src/domain/correlation/insights.ts';
import { subscribedEndpointCondition } from '../src/domain/webhooks/events.ts';
import { eventWithDeliveries, EMITTED_COLUMNS } from '../src/domain/webhooks/outbox.ts';
import { historyStartsAt, pruneHistory } from '../src/domain/webhooks/retention.ts';
import { catchUpAfterIngest } from './growth-data.ts';
import { FINGERPRINT_SQL } from './history-fingerprint.ts';
import { percentile } from './percentile.ts';
import { fixed, printTable } from './table.ts';
import { cleanUpOnInterrupt, cleanups, positiveInteger, postgresServer, runBench, scratchDatabase } from './support.ts';

const { values: options } = parseArgs({
  options: {
    events: { type: 'string', default: '50000' },
    organizations: { type: 'string', default: '20' },
  },
});
const events = positiveInteger('events', options.events!);
const organizations = positiveInteger('organizations', options.organizations!);
const RETENTION_DAYS = 90;
const MB = 1e6;

/** A year of history in the shape before partitioning: each event's deliveries share its created_at. */
const SEED_SQL = `
WITH orgs AS (
  INSERT INTO organizations (name) SELECT 'bench-' || i FROM generate_series(1, ${organizations}) AS i RETURNING id
)
INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret, event_types)
SELECT id, 'https://hooks.example.com/' || n, 'bench', 'whsec_MfKQ9r8GKYqrTwJSJbPmSc6e0jIrY8Pq', '{}' FROM orgs, generate_series(1, 2) AS n;
INSERT INTO events (organization_id, type, data, created_at)
SELECT o.id, 'deploy.ingested',
       jsonb_build_object('deploy', jsonb_build_object('id', gen_random_uuid(), 'commitSha', md5(i::text), 'commits', jsonb_build_array(md5(i::text), md5((i + 1)::text)))),
       now() - i * (interval '365 days' / ${events})
FROM generate_series(1, ${events}) AS i
JOIN (SELECT id, row_number() OVER (ORDER BY id) AS k FROM organizations) o ON o.k = 1 + i % ${organizations};
INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, created_at, updated_at, next_attempt_at, response_classes)
SELECT ev.organization_id, ev.id, en.id, ev.type, 'SUCCEEDED', 2, ev.created_at, ev.created_at, NULL, '{SERVER_ERROR,SUCCESS}'
FROM events ev JOIN webhook_endpoints en USING (organization_id);
INSERT INTO delivery_attempts (delivery_id, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body, request_headers)
SELECT d.id, d.endpoint_id, n, n = 2, d.created_at + (n - 1) * interval '30 seconds', 120, CASE n WHEN 1 THEN 503 ELSE 200 END, repeat('x', 200),
       '{"content-type": "application/json", "webhook-id": "bench"}'
FROM deliveries d CROSS JOIN generate_series(1, 2) AS n`;

/** Ingest's statement: an event of a random organization and its deliveries. */
const INGEST = sql`WITH ${eventWithDeliveries(
  sql`SELECT id, 'deploy.ingested', '{"deploy": {"bench": true}}'::jsonb FROM organizations ORDER BY random() LIMIT 1`,
  subscribedEndpointCondition(raw("'deploy.ingested'")),
)} SELECT ${EMITTED_COLUMNS}`;

/** A batch of 50 recent deliveries, as a worker's jobs name them. */
const RECENT = `SELECT array_agg(id) AS ids, array_agg(created_at) AS at
FROM (SELECT id, created_at FROM deliveries WHERE created_at > now() - interval '30 days' ORDER BY random() LIMIT 50) s`;
/** The worker's read of a fetched batch and the recorder's update of it, by (id, created_at) (see src/delivery/). */
const WORKER_READ = `
SELECT d.id, d.status, d.attempt_count, e.url, e.signing_secret, ev.type, ev.created_at, ev.data
FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
JOIN events ev ON ev.id = d.event_id AND ev.created_at = d.created_at
WHERE d.id = ANY ($1::uuid[]) AND d.created_at = ANY ($2::timestamptz[]) AND ev.created_at = ANY ($2::timestamptz[])`;
const RECORDER_UPDATE = `
UPDATE deliveries d SET updated_at = now() FROM unnest($1::uuid[], $2::timestamptz[]) AS i(id, at)
WHERE d.id = i.id AND d.created_at = i.at AND d.created_at = ANY ($2::timestamptz[]) AND d.status = 'SUCCEEDED'`;

/**
 * What DORA reads, over the same year: three services per organization, their deploys with a
 * commit each (every 100th redeploys its service's commit before the last: a rollback), and incidents.
 */
const deploys = Math.max(1000, Math.round(events / 2));
const DORA_SEED_SQL = `
INSERT INTO services (organization_id, name) SELECT o.id, 'service-' || n FROM organizations o CROSS JOIN generate_series(1, 3) AS n;
INSERT INTO deploy_tokens (service_id, prefix, token_hash) SELECT id, 'hld_' || left(md5(id::text), 6), md5('token' || id) FROM services;
INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at, received_at)
SELECT s.organization_id, s.id, t.id, md5((CASE WHEN g % 100 = 0 THEN g + ${6 * organizations} ELSE g END)::text), 'production', x.at, x.at
FROM generate_series(1, ${deploys}) AS g
JOIN (SELECT id, organization_id, row_number() OVER (ORDER BY id) AS k FROM services) s ON s.k = 1 + g % (3 * ${organizations})
JOIN deploy_tokens t ON t.service_id = s.id
CROSS JOIN LATERAL (SELECT now() - g * (interval '365 days' / ${deploys}) AS at) x;
INSERT INTO commits (deploy_id, position, sha, message, author, timestamp)
SELECT id, 0, commit_sha, 'a change', 'dev', deployed_at - interval '5 hours' FROM deploys;
WITH failed AS (
  SELECT id, organization_id, service_id, deployed_at FROM (SELECT d.*, row_number() OVER (ORDER BY deployed_at) AS r FROM deploys d) d WHERE r % 50 = 0
), opened AS (
  INSERT INTO incidents (organization_id, service_id, title, severity, environment, status, started_at, opened_at, resolved_at)
  SELECT organization_id, service_id, 'after ' || id, 'SEV2', 'production', 'RESOLVED', deployed_at + interval '10 minutes',
         deployed_at + interval '12 minutes', deployed_at + interval '2 hours'
  FROM failed RETURNING id, service_id, started_at
)
INSERT INTO incident_suspects (incident_id, deploy_id, rank, score, reasons)
SELECT o.id, f.id, 1, 0.9, '[]'::jsonb FROM opened o JOIN failed f ON f.service_id = o.service_id AND f.deployed_at + interval '10 minutes' = o.started_at`;

/** Every organization's DORA over the year. */
async function doraOfTheYear(prisma: PrismaClient, to: Date): Promise<DoraMetrics[]> {
  const organizations = await prisma.organization.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
  const from = new Date(to.getTime() - 365 * 86_400_000);
  const figures = [];
  for (const { id } of organizations) figures.push(await doraMetrics(prisma, id, { from, to }));
  return figures;
}

const sumOf = (figures: DoraMetrics[], key: 'deployCount' | 'failedDeployCount' | 'rolledBackCount') =>
  figures.reduce((sum, figure) => sum + figure[key], 0);

async function walAndSize(pool: pg.Pool): Promise<{ lsn: string; size: number }> {
  const { rows } = await pool.query<{ lsn: string; size: string }>(
    'SELECT pg_current_wal_lsn() AS lsn, pg_database_size(current_database()) AS size',
  );
  return { lsn: rows[0]!.lsn, size: Number(rows[0]!.size) };
}

async function walSince(pool: pg.Pool, lsn: string): Promise<number> {
  const { rows } = await pool.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes', [lsn]);
  return Number(rows[0]!.bytes);
}

/** Ingest and the delivery hot path, each on its own connection, back to back until `until` resolves. */
async function loadDuring(pool: pg.Pool, until: Promise<unknown>): Promise<{ ingest: number[]; delivery: number[] }> {
  let done = false;
  until.finally(() => {
    done = true;
  });
  const ingest: number[] = [];
  const delivery: number[] = [];
  const ingesting = (async () => {
    while (!done) {
      const started = performance.now();
      await pool.query(INGEST);
      ingest.push(performance.now() - started);
    }
  })();
  const delivering = (async () => {
    const client = await pool.connect();
    try {
      while (!done) {
        const { rows } = await client.query<{ ids: string[]; at: Date[] }>(RECENT);
        const started = performance.now();
        await client.query(WORKER_READ, [rows[0]!.ids, rows[0]!.at]);
        await client.query('BEGIN');
        await client.query(RECORDER_UPDATE, [rows[0]!.ids, rows[0]!.at]);
        await client.query('ROLLBACK');
        delivery.push(performance.now() - started);
      }
    } finally {
      client.release();
    }
  })();
  await Promise.all([until, ingesting, delivering]);
  return { ingest, delivery };
}

const latency = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return [String(values.length), fixed(percentile(sorted, 50), 1), fixed(percentile(sorted, 99), 1), fixed(sorted.at(-1) ?? 0, 1)];
};

async function main(): Promise<void> {
  cleanUpOnInterrupt('stopping the benchmark');
  const adminUrl = await postgresServer();
  const url = await scratchDatabase(adminUrl);
  const migrations = await readMigrations();
  const partitioning = migrations.findIndex((migration) => migration.name.endsWith('_history_partitioned_by_month'));
  await applyMigrations(url, migrations.slice(0, partitioning));
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  cleanups.push(() => pool.end());
  console.log(`Seeding a year of ${events} events, ${2 * events} deliveries, ${4 * events} attempts (the shape before partitioning)…`);
  let started = performance.now();
  await pool.query(SEED_SQL);
  await pool.query('VACUUM ANALYZE');
  console.log(`  seeded in ${fixed((performance.now() - started) / 1000)} s; load average ${fixed(loadavg()[0]!)}`);

  const { rows: before } = await pool.query(FINGERPRINT_SQL);
  const migrating = await walAndSize(pool);
  started = performance.now();
  await applyMigrations(url);
  const migrateMs = performance.now() - started;
  const migrateWal = await walSince(pool, migrating.lsn);
  const { rows: after } = await pool.query(FINGERPRINT_SQL);
  const kept = JSON.stringify(after) === JSON.stringify(before);
  console.log(
    `\nmigration to monthly partitions: ${fixed(migrateMs / 1000)} s, ${fixed(migrateWal / MB, 0)} MB of WAL, database ${fixed(migrating.size / MB, 0)} MB; ` +
      `every row kept, every column equal: ${kept ? 'yes' : 'NO'} (${after.map((table) => `${table.rows} ${table.table}`).join(', ')}); load average ${fixed(loadavg()[0]!)}`,
  );
  if (!kept) throw new Error('the migration changed or lost rows');
  started = performance.now();
  await pool.query(DORA_SEED_SQL);
  const client = await pool.connect();
  await catchUpAfterIngest(client).finally(() => client.release());
  await pool.query('VACUUM ANALYZE');
  const database = connectDatabase(url);
  cleanups.push(() => database.close());
  const { prisma } = database;
  const doraUntil = new Date();
  const doraBefore = await doraOfTheYear(prisma, doraUntil);
  console.log(
    `  ${deploys} deploys with a commit each and ${Math.floor(deploys / 50)} incidents for DORA, in ${fixed((performance.now() - started) / 1000)} s`,
  );

  // The same load alone, for as long as the pruning will take (at least 10 s), then with it.
  const cutoff = historyStartsAt(RETENTION_DAYS);
  const quiet = await loadDuring(pool, new Promise((resolve) => setTimeout(resolve, Math.max(10_000, events / 10))));
  const pruningFrom = await walAndSize(pool);
  started = performance.now();
  const pruning = pruneHistory(pool, { cutoff });
  const during = await loadDuring(pool, pruning);
  const pruned = await pruning;
  const pruneMs = performance.now() - started;
  const pruneWal = await walSince(pool, pruningFrom.lsn);
  const pruningTo = await walAndSize(pool);
  const doraAfter = await doraOfTheYear(prisma, doraUntil);
  const doraKept = JSON.stringify(doraAfter) === JSON.stringify(doraBefore);

  console.log(
    `\nretention at ${RETENTION_DAYS} days: ${pruned.months.length} months dropped (${pruned.months.join(', ')}): ${pruned.deliveries} deliveries, ` +
      `${pruned.attempts} attempts, ${pruned.events} events`,
  );
  printTable(
    ['pruning', 'time s', 'WAL MB', 'database before MB', 'after MB'],
    [
      [
        `${pruned.months.length} months`,
        fixed(pruneMs / 1000),
        fixed(pruneWal / MB, 1),
        fixed(pruningFrom.size / MB, 0),
        fixed(pruningTo.size / MB, 0),
      ],
    ],
  );
  console.log(
    `DORA of the year for each of the ${organizations} organizations (${sumOf(doraAfter, 'deployCount')} deploys, ` +
      `${sumOf(doraAfter, 'failedDeployCount')} failed, ${sumOf(doraAfter, 'rolledBackCount')} rolled back) identical after the pruning: ${doraKept ? 'yes' : 'NO'}`,
  );
  if (!doraKept) throw new Error('pruning changed a DORA figure');
  console.log(`\nlatency beside it, ms (the loops' own WAL is in the figure above; load average ${fixed(loadavg()[0]!)})`);
  printTable(
    ['loop', 'runs', 'p50', 'p99', 'max'],
    [
      ['ingest (event + 2 deliveries), alone', ...latency(quiet.ingest)],
      ['ingest, while pruning', ...latency(during.ingest)],
      ['delivery read + update of 50, alone', ...latency(quiet.delivery)],
      ['delivery read + update of 50, while pruning', ...latency(during.delivery)],
    ],
  );
}

await runBench(main);
