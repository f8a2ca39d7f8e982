// `npm run bench:growth [-- --size S,M,L --samples 15 --shape spread|concentrated]`
//
// Whether a dashboard's queries stay flat as a year of data piles up. For each size (S and M by
// default, L when asked: see bench/growth-data.ts) it fills a fresh database with set-based SQL
// in one of two shapes (`spread`, the default: a year of a busy customer base; `concentrated`:
// the same plus services with 12,000 deploys each, an endpoint with 7,000 deliveries in 14 days
// and 18 suspects per incident, the queries asking for those),
// starts the real app (api role) on it, and runs every query of the table below through the
// GraphQL API over HTTP as a dashboard would: a few warm-up runs, then `--samples` timed ones.
// It prints the median and p95 per size with the ratio to S, and for each size the EXPLAIN
// (ANALYZE, BUFFERS) of the slowest SQL statement of the slowest query.
//
// Uses DATABASE_URL (an admin connection: it creates and drops one database per size) or an
// embedded PostgreSQL in a temp dir when it is unset.
//
// `--keep` keeps the database of each size named in `--size` under a stable name
// (hookline_growth_<size>, with `_concentrated` after it for that shape) instead of dropping it (S, when only added for the ratios, is not
// kept); `--reuse` measures such a database when a complete one exists instead of building one,
// after applying the migrations added since it was built with the app's own migrate function
// (as an upgrade in production would), and removes what the run wrote to it once measured. L
// takes 10 minutes to build on a quiet 2-core machine (76 on a loaded one): build it once with
// `--size L --keep`, then `--size S,M,L --reuse`.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { adminQuery, databaseUrl } from '../src/db/admin.ts';
import { connectDatabase } from '../src/db/client.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { issueToken } from '../src/domain/shared/tokens.ts';
import { explainText, isRead, statementsOf, watchPool, type Statement } from '../test/support/statements.ts';
import { catchUpAfterIngest, fillDatabase, GROWTH_SHAPES, queriedIdsSql, SIZES, type GrowthShape, type GrowthSize } from './growth-data.ts';
import { GROWTH_QUERIES as QUERIES, type GrowthQuery as Query, type QueriedIds } from './growth-queries.ts';
import { percentile } from './percentile.ts';
import { cleanUpOnInterrupt, cleanups, postgresServer, runBench, scratchDatabase, undoNow } from './support.ts';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: 'S,M' },
    samples: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    shape: { type: 'string', default: 'spread' },
  },
});
const shape = args.shape as GrowthShape;
if (!GROWTH_SHAPES.includes(shape)) throw new Error(`--shape takes ${GROWTH_SHAPES.join(' or ')}, got "${args.shape}"`);
const sizes = args.size.split(',').map((name) => {
  const size = SIZES[name.trim().toUpperCase()];
  if (!size) throw new Error(`--size takes S, M and L (comma-separated), got "${name}"`);
  return size;
});
const keptSizes = new Set(args.keep ? sizes.map((size) => size.name) : []);
if (!sizes.some((size) => size.name === 'S')) sizes.unshift(SIZES.S!);
const samples = Number(args.samples);
const warmup = Number(args.warmup);

interface Timing {
  median: number;
  p95: number;
}

interface Database {
  url: string;
  apiToken: string;
  /** Drops it, or nothing for a kept one. */
  drop: () => Promise<unknown>;
}

/** The stable name of a kept database of `size`. */
const keptName = (size: GrowthSize) => `hookline_growth_${size.name.toLowerCase()}${shape === 'spread' ? '' : `_${shape}`}`;
/** Set on a kept database once its build has finished: an interrupted build is never reused. */
const completeMark = (size: GrowthSize, organizationId: string) =>
  `hookline growth ${size.name} complete; queried organization ${organizationId}`;

async function buildDatabase(adminUrl: string, size: GrowthSize): Promise<Database> {
  let url: string;
  let drop: () => Promise<unknown>;
  if (keptSizes.has(size.name)) {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${keptName(size)}" WITH (FORCE)`);
    await adminQuery(adminUrl, `CREATE DATABASE "${keptName(size)}"`);
    url = databaseUrl(adminUrl, keptName(size));
    drop = async () => {};
  } else {
    url = await scratchDatabase(adminUrl);
    drop = cleanups.at(-1)!;
  }
  await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const database = connectDatabase(url);
    const { organizationId, apiToken } = await createOrganization(database.prisma, 'queried organization');
    await database.close();
    const started = performance.now();
    await fillDatabase(client, size, organizationId, (line) => console.log(`  ${size.name}: ${line}`), shape);
    const { rows } = await client.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`);
    console.log(`  ${size.name}: built in ${((performance.now() - started) / 1000).toFixed(0)} s, ${rows[0].size}`);
    if (keptSizes.has(size.name)) {
      await client.query(`COMMENT ON DATABASE "${keptName(size)}" IS '${completeMark(size, organizationId)}'`);
      console.log(`  ${size.name}: kept as database ${keptName(size)} (reuse it with --reuse)`);
    }
    return { url, apiToken, drop };
  } finally {
    await client.end();
  }
}

/** A complete kept database of `size`, migrated to the current schema, or undefined. */
async function reuseDatabase(adminUrl: string, size: GrowthSize): Promise<Database | undefined> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let comment: string | undefined;
  try {
    const { rows } = await admin.query(`SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`, [
      keptName(size),
    ]);
    comment = rows[0]?.comment ?? undefined;
  } finally {
    await admin.end();
  }
  const organizationId = comment?.match(/complete; queried organization ([0-9a-f-]{36})$/)?.[1];
  if (!organizationId) {
    if (comment !== undefined || size.name === 'L')
      console.log(`  ${size.name}: no complete kept database ${keptName(size)}: building one`);
    return undefined;
  }
  const url = databaseUrl(adminUrl, keptName(size));
  const started = performance.now();
  const applied = await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // What a worker does once started on the upgraded database; then fresh statistics for
    // what the migrations added, as autovacuum would gather within minutes.
    await catchUpAfterIngest(client);
    if (applied.length > 0) await client.query('ANALYZE');
    const { rows } = await client.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`);
    console.log(
      `  ${size.name}: reusing kept database ${keptName(size)} (${rows[0].size}); ` +
        `${applied.length === 0 ? 'no migration pending' : `applied ${applied.join(', ')}`} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await client.end();
  }
  // A fresh API token: the build's plaintext is not kept anywhere.
  const token = issueToken('api');
  const database = connectDatabase(url);
  let since: Date;
  try {
    const { createdAt } = await database.prisma.apiToken.create({
      data: { organizationId, name: 'bench:growth', prefix: token.prefix, tokenHash: token.hash },
    });
    since = createdAt;
  } finally {
    await database.close();
  }
  return { url, apiToken: token.plaintext, drop: () => removeRunWrites(url, organizationId, since) };
}

/**
 * Removes what a run wrote to a kept database, so that every run measures it as built: its API
 * token, and the incidents the ranking query opened with their events (each with a delivery per
 * endpoint) and queued jobs. Left there, they would be the newest events and deliveries of the
 * next run's lists.
 */
async function removeRunWrites(url: string, organizationId: string, since: Date): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`DELETE FROM incidents WHERE organization_id = $1 AND opened_at >= $2`, [organizationId, since]);
    await client.query(`DELETE FROM events WHERE organization_id = $1 AND created_at >= $2`, [organizationId, since]);
    await client.query(`DELETE FROM api_tokens WHERE organization_id = $1 AND created_at >= $2`, [organizationId, since]);
    await client.query(`DELETE FROM pgboss.job WHERE created_on >= $1`, [since]);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

async function graphql(baseUrl: string, apiToken: string, query: Query, ids: QueriedIds): Promise<void> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
    body: JSON.stringify({ query: query.document, variables: query.variables({ ...ids, now: new Date() }) }),
  });
  const body = (await response.json()) as { errors?: unknown[] };
  if (response.status !== 200 || body.errors) throw new Error(`${query.name}: ${response.status} ${JSON.stringify(body.errors)}`);
}

async function timeQueries(baseUrl: string, apiToken: string, ids: QueriedIds): Promise<Map<string, Timing>> {
  const timings = new Map<string, Timing>();
  for (const query of QUERIES) {
    for (let i = 0; i < warmup; i++) await graphql(baseUrl, apiToken, query, ids);
    const durations: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      await graphql(baseUrl, apiToken, query, ids);
      durations.push(performance.now() - started);
    }
    durations.sort((a, b) => a - b);
    timings.set(query.name, { median: percentile(durations, 50), p95: percentile(durations, 95) });
    console.log(`  ${query.name}: median ${percentile(durations, 50).toFixed(1)} ms, p95 ${percentile(durations, 95).toFixed(1)} ms`);
  }
  return timings;
}

/** The slowest read the query runs, and its EXPLAIN (ANALYZE, BUFFERS). */
async function explainSlowest(url: string, baseUrl: string, apiToken: string, query: Query, ids: QueriedIds) {
  const statements = await statementsOf(() => graphql(baseUrl, apiToken, query, ids));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let slowest: { statement: Statement; ms: number } | undefined;
    for (const statement of statements.filter(isRead)) {
      const started = performance.now();
      await client.query({ text: statement.text, values: statement.values });
      const ms = performance.now() - started;
      if (!slowest || ms > slowest.ms) slowest = { statement, ms };
    }
    if (!slowest) return `(${query.name} ran no read)`;
    const parameters = JSON.stringify(slowest.statement.values);
    const shown = parameters.length > 300 ? `${parameters.slice(0, 300)}… (${parameters.length} characters)` : parameters;
    return `${slowest.statement.text.trim()}\n-- parameters: ${shown}\n${await explainText(client, slowest.statement)}`;
  } finally {
    await client.end();
  }
}

const ratio = (value: number, base: number) => `${(value / base).toFixed(1)}×`;

await runBench(async () => {
  cleanUpOnInterrupt('dropping the databases');
  const adminUrl = await postgresServer();
  const results = new Map<string, Map<string, Timing>>();
  const plans: string[] = [];
  for (const size of sizes) {
    console.log(`${size.name}: ${size.deploys} deploys, ${size.deliveries} deliveries`);
    const database = (args.reuse && (await reuseDatabase(adminUrl, size))) || (await buildDatabase(adminUrl, size));
    const app = await createApp(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: database.url, ROLE: 'api' }), database.url);
    try {
      watchPool(app.database.pool);
      const baseUrl = await app.listen(0, '127.0.0.1');
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query(queriedIdsSql(shape));
      await client.end();
      const ids = rows[0] as QueriedIds;
      const timings = await timeQueries(baseUrl, database.apiToken, ids);
      results.set(size.name, timings);
      const slowest = QUERIES.reduce((a, b) => (timings.get(a.name)!.median >= timings.get(b.name)!.median ? a : b));
      plans.push(
        `--- ${size.name}: slowest query "${slowest.name}", its slowest statement:\n${await explainSlowest(database.url, baseUrl, database.apiToken, slowest, ids)}`,
      );
    } finally {
      await app.close();
      await undoNow(database.drop);
    }
  }

  for (const plan of plans) console.log(`\n${plan}`);
  const names = sizes.map((size) => size.name);
  console.log(`\n| query | ${names.map((name) => `${name} median / p95`).join(' | ')} |`);
  console.log(`|---|${names.map(() => '---').join('|')}|`);
  const base = results.get('S')!;
  for (const query of QUERIES) {
    const cells = names.map((name) => {
      const timing = results.get(name)!.get(query.name)!;
      const vsS = name === 'S' ? '' : ` (${ratio(timing.median, base.get(query.name)!.median)})`;
      return `${timing.median.toFixed(0)} / ${timing.p95.toFixed(0)} ms${vsS}`;
    });
    console.log(`| ${query.name} | ${cells.join(' | ')} |`);
  }
});
