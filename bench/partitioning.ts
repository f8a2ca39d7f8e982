// `npm run bench:partitioning [-- --events 50000]`
//
// What monthly RANGE partitions of webhook history (events, deliveries, delivery_attempts) would
// cost and save, measured on a database of today's shape before they are built. Two identical
// databases hold a year of history (`--events` events spread evenly over 365 days, two endpoints
// each, two attempts per delivery); the second is converted to partitions (CONVERT_SQL, as the
// migration would do it: timed, with its WAL). Then every month that ends more than RETENTION_MONTHS
// before this one goes: row by row on the first (pruneHistory, as the hourly job runs it), by
// detaching and dropping its partitions on the second, each month in its own transaction (the
// longest of them is how long ingest and delivery wait on the tables' lock). Last, the hot-path
// statements' shapes (the worker's read of a fetched batch, the recorder's batched and single
// updates) are timed on both, interleaved, looked up by id as today and by (id, created_at).
// DATABASE_URL: an admin connection (scratch databases are created and dropped), or an embedded
// PostgreSQL in a temp dir when unset.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PRUNE_BATCH_SIZE } from '../src/background/prune-history.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { pruneHistory } from '../src/domain/webhooks/retention.ts';
import { percentile } from './percentile.ts';
import { fixed, printTable } from './table.ts';
import { cleanUpOnInterrupt, cleanups, positiveInteger, postgresServer, runBench, scratchDatabase } from './support.ts';

const { values: options } = parseArgs({
  options: {
    events: { type: 'string', default: '50000' },
    samples: { type: 'string', default: '200' },
  },
});
const events = positiveInteger('events', options.events!);
const samples = positiveInteger('samples', options.samples!);
/** Whole months kept before the current one (RETENTION_DAYS=90 keeps about three). */
const RETENTION_MONTHS = 3;
/** Partitions made ahead of the current month, so that inserts never reach the default partition. */
const MONTHS_AHEAD = 2;

/** A year of history in today's shape: 20 organizations of two endpoints each. */
const SEED_SQL = `
WITH orgs AS (
  INSERT INTO organizations (name) SELECT 'bench-' || i FROM generate_series(1, 20) AS i RETURNING id
)
INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret)
SELECT id, 'https://hooks.example.com/' || n, 'bench', 'whsec_MfKQ9r8GKYqrTwJSJbPmSc6e0jIrY8Pq' FROM orgs, generate_series(1, 2) AS n;
INSERT INTO events (organization_id, type, data, created_at)
SELECT o.id, 'deploy.ingested',
       jsonb_build_object('deploy', jsonb_build_object('id', gen_random_uuid(), 'commitSha', md5(i::text), 'commits', jsonb_build_array(md5(i::text), md5((i + 1)::text)))),
       now() - i * (interval '365 days' / $1::int)
FROM generate_series(1, $1::int) AS i
JOIN (SELECT id, row_number() OVER (ORDER BY id) AS k FROM organizations) o ON o.k = 1 + i % 20;
INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, created_at, updated_at, next_attempt_at, response_classes)
SELECT ev.organization_id, ev.id, en.id, ev.type, 'SUCCEEDED', 2, ev.created_at, ev.created_at, NULL, '{SERVER_ERROR,SUCCESS}'
FROM events ev JOIN webhook_endpoints en USING (organization_id);
INSERT INTO delivery_attempts (delivery_id, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body, request_headers)
SELECT d.id, d.endpoint_id, n, n = 2, d.created_at + (n - 1) * interval '30 seconds', 120, CASE n WHEN 1 THEN 503 ELSE 200 END, repeat('x', 200),
       '{"content-type": "application/json", "webhook-id": "bench"}'
FROM deliveries d CROSS JOIN generate_series(1, 2) AS n`;

/**
 * The conversion, in one transaction: the tables are renamed, partitioned ones of the same columns
 * made (delivery_attempts with its delivery's created_at, its partition key), a partition per month
 * from the oldest row to MONTHS_AHEAD ahead and a default one, the rows copied, the old tables
 * dropped, then keys, indexes, foreign keys and triggers made under the names Prisma gave them.
 * Primary keys and unique constraints include the partition key; a delivery has its event's
 * created_at (both are written by one statement), so it references (event_id, created_at).
 */
const CONVERT_SQL = `
CREATE FUNCTION hookline_history_partition(parent text, month date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                 parent || '_' || to_char(month, 'YYYY_MM'), parent,
                 month::timestamp AT TIME ZONE 'UTC', (month + interval '1 month')::timestamp AT TIME ZONE 'UTC');
END $$;
ALTER TABLE events RENAME TO events_unpartitioned;
ALTER TABLE deliveries RENAME TO deliveries_unpartitioned;
ALTER TABLE delivery_attempts RENAME TO delivery_attempts_unpartitioned;
DROP TRIGGER events_notify ON events_unpartitioned;
DROP TRIGGER deliveries_notify ON deliveries_unpartitioned;
CREATE TABLE events (LIKE events_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (created_at);
CREATE TABLE deliveries (LIKE deliveries_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (created_at);
CREATE TABLE delivery_attempts (LIKE delivery_attempts_unpartitioned INCLUDING DEFAULTS, delivery_created_at timestamp(3) with time zone NOT NULL)
  PARTITION BY RANGE (delivery_created_at);
CREATE TABLE events_default PARTITION OF events DEFAULT;
CREATE TABLE deliveries_default PARTITION OF deliveries DEFAULT;
CREATE TABLE delivery_attempts_default PARTITION OF delivery_attempts DEFAULT;
SELECT hookline_history_partition(t, m::date)
FROM unnest(ARRAY['events', 'deliveries', 'delivery_attempts']) AS t,
     generate_series(date_trunc('month', (SELECT coalesce(min(created_at), now()) FROM events_unpartitioned) AT TIME ZONE 'UTC'),
                     date_trunc('month', now() AT TIME ZONE 'UTC') + interval '${MONTHS_AHEAD} months', interval '1 month') AS m;
INSERT INTO events SELECT * FROM events_unpartitioned;
INSERT INTO deliveries SELECT * FROM deliveries_unpartitioned;
INSERT INTO delivery_attempts SELECT a.*, d.created_at FROM delivery_attempts_unpartitioned a JOIN deliveries_unpartitioned d ON d.id = a.delivery_id;
DROP TABLE delivery_attempts_unpartitioned, deliveries_unpartitioned, events_unpartitioned;
ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (id, created_at);
CREATE INDEX events_organization_id_created_at_id_idx ON events (organization_id, created_at, id);
CREATE INDEX events_organization_id_type_created_at_id_idx ON events (organization_id, type, created_at, id);
ALTER TABLE events ADD CONSTRAINT events_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_pkey PRIMARY KEY (id, created_at);
CREATE INDEX deliveries_endpoint_id_created_at_id_idx ON deliveries (endpoint_id, created_at, id);
CREATE INDEX deliveries_endpoint_id_status_created_at_id_idx ON deliveries (endpoint_id, status, created_at, id);
CREATE INDEX deliveries_event_id_idx ON deliveries (event_id);
CREATE INDEX deliveries_organization_id_created_at_id_response_classes_idx ON deliveries (organization_id, created_at, id, response_classes);
CREATE INDEX deliveries_organization_id_event_type_created_at_id_idx ON deliveries (organization_id, event_type, created_at, id);
CREATE INDEX deliveries_organization_id_status_created_at_id_idx ON deliveries (organization_id, status, created_at, id);
ALTER TABLE deliveries ADD CONSTRAINT deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_event_id_fkey FOREIGN KEY (event_id, created_at) REFERENCES events (id, created_at) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_pkey PRIMARY KEY (id, delivery_created_at);
ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_delivery_id_number_key UNIQUE (delivery_id, number, delivery_created_at);
ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id, delivery_created_at)
  REFERENCES deliveries (id, created_at) ON UPDATE CASCADE ON DELETE CASCADE;
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION hookline_notify_event();
CREATE TRIGGER deliveries_notify AFTER INSERT OR UPDATE OF status, attempt_count ON deliveries FOR EACH ROW EXECUTE FUNCTION hookline_notify_delivery();
-- Autovacuum analyzes partitions but never a partitioned parent: without this, joins through the
-- parents are planned blind (a batch of 50 deliveries read in 280 ms instead of 12).
ANALYZE events, deliveries, delivery_attempts;`;

/**
 * One month's partitions, attempts first: a detached deliveries partition keeps its foreign key to
 * events, and detaching a referenced partition checks (under the parent's ACCESS EXCLUSIVE lock)
 * that no row of the referencing table points into it.
 */
function dropMonthSql(suffix: string): string {
  return `
DROP TABLE delivery_attempts_${suffix};
ALTER TABLE deliveries DETACH PARTITION deliveries_${suffix};
DROP TABLE deliveries_${suffix};
ALTER TABLE events DETACH PARTITION events_${suffix};
DROP TABLE events_${suffix};`;
}

/** The shapes of the hot path's statements on deliveries, each with 50 recently created deliveries. */
const READ = (byCreatedAt: boolean) => `
SELECT d.id, d.status, d.attempt_count, d.organization_id, d.endpoint_id, e.url, e.signing_secret, ev.id, ev.type, ev.created_at, ev.data
FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
JOIN events ev ON ev.id = d.event_id ${byCreatedAt ? 'AND ev.created_at = d.created_at' : ''}
WHERE d.id = ANY ($1::uuid[]) ${byCreatedAt ? 'AND d.created_at = ANY ($2::timestamptz[])' : ''}`;
const HOT_STATEMENTS: { name: string; byCreatedAt: boolean; text: string; single?: boolean }[] = [
  { name: "worker's read of 50 fetched jobs", byCreatedAt: false, text: READ(false) },
  { name: "worker's read of 50 fetched jobs", byCreatedAt: true, text: READ(true) },
  {
    name: "recorder's update of 50 deliveries",
    byCreatedAt: false,
    text: `UPDATE deliveries d SET updated_at = now() FROM unnest($1::uuid[]) AS i(id) WHERE d.id = i.id AND d.status = 'SUCCEEDED'`,
  },
  {
    name: "recorder's update of 50 deliveries",
    byCreatedAt: true,
    text: `UPDATE deliveries d SET updated_at = now() FROM unnest($1::uuid[], $2::timestamptz[]) AS i(id, at)
           WHERE d.id = i.id AND d.created_at = i.at AND d.status = 'SUCCEEDED'`,
  },
  {
    name: "recorder's update of one delivery",
    byCreatedAt: false,
    single: true,
    text: `UPDATE deliveries SET updated_at = now() WHERE id = $1 AND status = 'SUCCEEDED'`,
  },
  {
    name: "recorder's update of one delivery",
    byCreatedAt: true,
    single: true,
    text: `UPDATE deliveries SET updated_at = now() WHERE id = $1 AND created_at = $2 AND status = 'SUCCEEDED'`,
  },
];

async function seededDatabase(adminUrl: string): Promise<pg.Pool> {
  const url = await scratchDatabase(adminUrl);
  await applyMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  cleanups.push(() => pool.end());
  await pool.query(SEED_SQL.replaceAll('$1::int', `${events}::int`));
  await pool.query('VACUUM ANALYZE');
  return pool;
}

/** Each table's rows, every column of today's shape, as a count and one hash: equal before and after the conversion when no row is lost or changed. */
const FINGERPRINT_SQL = `
SELECT 'events' AS "table", count(*)::int AS rows, md5(string_agg(md5(e::text), '' ORDER BY id)) AS hash
FROM (SELECT id, organization_id, type, data, created_at, example FROM events) e
UNION ALL
SELECT 'deliveries', count(*)::int, md5(string_agg(md5(d::text), '' ORDER BY id))
FROM (SELECT id, organization_id, event_id, endpoint_id, status, attempt_count, next_attempt_at, last_attempt_at, created_at, updated_at,
             event_type, response_classes FROM deliveries) d
UNION ALL
SELECT 'delivery_attempts', count(*)::int, md5(string_agg(md5(a::text), '' ORDER BY id))
FROM (SELECT id, delivery_id, number, succeeded, started_at, duration_ms, response_status, response_body, error, response_body_bytes,
             response_body_decoded, response_content_encoding, request_headers, response_headers FROM delivery_attempts) a`;

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

const MB = 1e6;

async function main(): Promise<void> {
  cleanUpOnInterrupt('stopping the benchmark');
  const adminUrl = await postgresServer();
  console.log(`Seeding two databases: a year of ${events} events, ${2 * events} deliveries, ${4 * events} attempts…`);
  const [rows, partitions] = [await seededDatabase(adminUrl), await seededDatabase(adminUrl)];
  console.log(`load average ${loadavg()[0]!.toFixed(1)}`);

  const { rows: fingerprintBefore } = await partitions.query(FINGERPRINT_SQL);
  const converting = await walAndSize(partitions);
  let started = performance.now();
  await partitions.query(CONVERT_SQL);
  const convertMs = performance.now() - started;
  const convertWal = await walSince(partitions, converting.lsn);
  console.log(
    `conversion to partitions: ${fixed(convertMs / 1000)} s, ${fixed(convertWal / MB, 0)} MB of WAL (database ${fixed(converting.size / MB, 0)} MB)`,
  );
  const { rows: fingerprintAfter } = await partitions.query(FINGERPRINT_SQL);
  const kept = JSON.stringify(fingerprintAfter) === JSON.stringify(fingerprintBefore);
  console.log(
    `  every row kept, every column equal: ${kept ? 'yes' : 'NO'} (${fingerprintAfter.map((t) => `${t.rows} ${t.table}`).join(', ')})`,
  );

  // Every month ending before the kept ones goes.
  const { rows: expired } = await partitions.query<{ suffix: string; cutoff: Date }>(`
    SELECT to_char(m, 'YYYY_MM') AS suffix, date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '${RETENTION_MONTHS} months' AS cutoff
    FROM generate_series(date_trunc('month', (SELECT min(created_at) FROM events) AT TIME ZONE 'UTC'),
                         date_trunc('month', now() AT TIME ZONE 'UTC') - interval '${RETENTION_MONTHS + 1} months', interval '1 month') AS m`);
  const cutoff = expired[0]!.cutoff;

  const rowsBefore = await walAndSize(rows);
  started = performance.now();
  const pruned = await pruneHistory(rows, { cutoff, batchSize: PRUNE_BATCH_SIZE });
  const rowsMs = performance.now() - started;
  const rowsWal = await walSince(rows, rowsBefore.lsn);
  const rowsAfter = await walAndSize(rows);

  const partitionsBefore = await walAndSize(partitions);
  const monthMs: number[] = [];
  started = performance.now();
  for (const { suffix } of expired) {
    const monthStarted = performance.now();
    await partitions.query(`BEGIN; ${dropMonthSql(suffix)} COMMIT;`);
    monthMs.push(performance.now() - monthStarted);
  }
  const partitionsMs = performance.now() - started;
  const partitionsWal = await walSince(partitions, partitionsBefore.lsn);
  const partitionsAfter = await walAndSize(partitions);
  // As after the conversion: the parents' statistics still count the dropped months. On
  // PostgreSQL before 18 this analyzes every partition too (no ANALYZE ONLY).
  const analyzing = await walAndSize(partitions);
  started = performance.now();
  await partitions.query('ANALYZE events, deliveries, delivery_attempts');
  const analyzeMs = performance.now() - started;
  const analyzeWal = await walSince(partitions, analyzing.lsn);

  console.log(
    `\npruning ${expired.length} months (before ${cutoff.toISOString().slice(0, 10)}): ${pruned.deliveries} deliveries, ${pruned.attempts} attempts, ${pruned.events} events`,
  );
  printTable(
    ['', 'time s', 'WAL MB', 'size before MB', 'size after MB', 'longest transaction ms'],
    [
      [
        `row by row (${pruned.batches} batches of ${PRUNE_BATCH_SIZE})`,
        fixed(rowsMs / 1000),
        fixed(rowsWal / MB),
        fixed(rowsBefore.size / MB, 0),
        fixed(rowsAfter.size / MB, 0),
        '-',
      ],
      [
        'partitions detached and dropped',
        fixed(partitionsMs / 1000),
        fixed(partitionsWal / MB),
        fixed(partitionsBefore.size / MB, 0),
        fixed(partitionsAfter.size / MB, 0),
        fixed(Math.max(...monthMs), 0),
      ],
      ['then ANALYZE of the partitioned tables', fixed(analyzeMs / 1000), fixed(analyzeWal / MB), '-', '-', '-'],
    ],
  );

  // The hot path's shapes on the same rows, now that both hold the kept months only.
  const times = new Map<string, number[]>();
  const recent = `SELECT array_agg(id) AS ids, array_agg(created_at) AS at
                  FROM (SELECT id, created_at FROM deliveries WHERE created_at > now() - interval '60 days' ORDER BY random() LIMIT 50) s`;
  const clients = { 'not partitioned': await rows.connect(), partitioned: await partitions.connect() };
  try {
    for (let sample = 0; sample < samples; sample++) {
      for (const [shape, client] of Object.entries(clients)) {
        const { rows: picked } = await client.query<{ ids: string[]; at: Date[] }>(recent);
        const { ids, at } = picked[0]!;
        for (const statement of HOT_STATEMENTS) {
          if (statement.byCreatedAt && shape === 'not partitioned') continue;
          const values: unknown[] = statement.single ? [ids[0], at[0]] : [ids, at];
          await client.query('BEGIN');
          const statementStarted = performance.now();
          await client.query(statement.text, statement.byCreatedAt ? values : values.slice(0, 1));
          const key = `${statement.name}, ${shape}${statement.byCreatedAt ? ', by (id, created_at)' : ', by id'}`;
          times.set(key, [...(times.get(key) ?? []), performance.now() - statementStarted]);
          await client.query('ROLLBACK');
        }
      }
    }
  } finally {
    for (const client of Object.values(clients)) client.release();
  }
  console.log(`\nhot-path statements (${samples} samples each, interleaved, rolled back; load average ${loadavg()[0]!.toFixed(1)})`);
  printTable(
    ['statement', 'p50 ms', 'p95 ms'],
    [...times].map(([key, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return [key, fixed(percentile(sorted, 50), 2), fixed(percentile(sorted, 95), 2)];
    }),
  );
}

await runBench(main);
