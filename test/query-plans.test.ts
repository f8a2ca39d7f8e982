// Every query of the dashboard's growth table (bench/growth-queries.ts) reads rows in proportion
// to the page it asks for, not to the data kept. On a year of data at size S (10k deploys, 50k
// deliveries; the queried organization holds 6,000 of them, its busiest endpoint 840), each SQL
// statement the API runs for the query is explained (EXPLAIN ANALYZE, FORMAT JSON): it must
// scan no large table whole and read at most ROW_BOUND rows of each, whichever plan PostgreSQL
// picks. A missing index, a dropped LIMIT, a count over the whole organization, a materialized
// CTE or a DORA figure computed from every deploy each read thousands of rows here.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDatabase, queriedIdsSql, SIZES } from '../bench/growth-data.ts';
import { GROWTH_QUERIES, type GrowthQuery, type QueriedIds } from '../bench/growth-queries.ts';
import { COUNT_EXACT_UP_TO } from '../src/domain/shared/counts.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import {
  explainJson,
  isRead,
  planNodes,
  rowsRead,
  statementsOf,
  watchPool,
  type ExplainedPlan,
  type Statement,
} from './support/statements.ts';
import { useHookline } from './support/fixture.ts';

/** Tables that grow with the data kept. */
const LARGE_TABLES = ['deliveries', 'delivery_attempts', 'events', 'deploys', 'commits', 'change_events'];
/** A bounded count (up to COUNT_EXACT_UP_TO + 1 rows, then the row at that offset) and a page. */
const ROW_BOUND = 2 * (COUNT_EXACT_UP_TO + 1) + 100;
/**
 * A search by response class reads the organization's deliveries newest first (their classes are
 * in the index) until it has its page and its bounded count: it reads 1 / share rows per match
 * (share: the part of the deliveries with such an answer, a fifth here), however many are kept.
 */
const FIVE_XX = 'deliveries with 5xx responses';
let fiveXxShare: number;
/** The rows each large table holds (its statistics). */
let rowsKept: Map<string, number>;
/**
 * DORA reads deploys and their commits one by one only for the partial days at either end of its
 * period (a few deploys a day here); whether a deploy was rolled back is counted per day, so no
 * statement reads a deploy's history. The look-up of deploys judged failed for an incident reads
 * the period's deploys once, in their index.
 */
const DORA_COMMIT_BOUND = 60;
const DORA_PARTIAL_DAYS_DEPLOY_BOUND = 30;

const hookline = useHookline({ environment: { ROLE: 'api' }, tenant: false });
let admin: pg.Client;
let apiToken: string;
let ids: QueriedIds;
let organizationId: string;

beforeAll(async () => {
  watchPool(hookline.app.database.pool);
  admin = new pg.Client({ connectionString: hookline.database.url });
  await admin.connect();
  const organization = await createOrganization(hookline.app.database.prisma, 'queried organization');
  apiToken = organization.apiToken;
  organizationId = organization.organizationId;
  await fillDatabase(admin, SIZES.S!, organization.organizationId);
  ids = (await admin.query(queriedIdsSql('spread'))).rows[0];
  const share = await admin.query(
    `SELECT avg((EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.delivery_id = d.id AND a.response_status BETWEEN 500 AND 599))::int)::float8 AS share
     FROM deliveries d WHERE d.organization_id = $1`,
    [organization.organizationId],
  );
  fiveXxShare = share.rows[0].share;
  // A table smaller than a page's bound (S's 1,000 change events) may be read whole: the planner
  // rightly scans it rather than probe its index for a list of ids, and the bound on rows read holds.
  // A partition is judged by its own size: a month made ahead and still empty is rightly scanned.
  const kept = await admin.query(
    `SELECT c.relname, c.reltuples::int AS n FROM pg_class c
     WHERE c.relname = ANY ($1) OR c.relispartition AND (SELECT relname FROM pg_class WHERE oid = pg_partition_root(c.oid)) = ANY ($1)`,
    [LARGE_TABLES],
  );
  rowsKept = new Map(kept.rows.map((row) => [row.relname, row.n]));
}, 180_000);

afterAll(async () => {
  await admin?.end();
});

async function run(query: GrowthQuery): Promise<Statement[]> {
  return statementsOf(async () => {
    const response = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ query: query.document, variables: query.variables({ ...ids, now: new Date() }) }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
  });
}

/** The deploys of a DORA query's scope (a service's are in production) and period. */
async function deploysInPeriod(query: GrowthQuery): Promise<number> {
  const { serviceId, from, to } = query.variables({ ...ids, now: new Date() }) as { serviceId?: string; from: Date; to: Date };
  const { rows } = await admin.query(
    `SELECT count(*)::int AS n FROM deploys
     WHERE organization_id = $1 AND ($2::uuid IS NULL OR (service_id = $2 AND environment = 'production')) AND deployed_at >= $3 AND deployed_at < $4`,
    [organizationId, serviceId ?? null, from, to],
  );
  return rows[0].n;
}

/** Each read the query ran, with its plan as executed. */
async function explainedReads(query: GrowthQuery): Promise<{ statement: Statement; plan: ExplainedPlan }[]> {
  const reads = (await run(query)).filter(isRead);
  expect(reads.length).toBeGreaterThan(0);
  const explained = [];
  for (const statement of reads) explained.push({ statement, plan: await explainJson(admin, statement, { analyze: true }) });
  return explained;
}

describe('the growth table’s queries read what their page needs, not the data kept', () => {
  it.each(GROWTH_QUERIES.map((query) => [query.name, query] as const))('%s', async (_name, query) => {
    const bound = query.name === FIVE_XX ? ROW_BOUND / fiveXxShare : ROW_BOUND;
    for (const { statement, plan } of await explainedReads(query)) {
      const context = `${statement.text}\n${JSON.stringify(plan.Plan, null, 1)}`;
      const wholeScans = planNodes(plan.Plan).filter(
        (node) =>
          node['Node Type'] === 'Seq Scan' &&
          LARGE_TABLES.includes(node['Relation Name']!) &&
          rowsKept.get(node['Partition Relation Name'] ?? node['Relation Name']!)! > bound,
      );
      expect(
        wholeScans.map((node) => node['Relation Name']),
        context,
      ).toEqual([]);
      for (const table of LARGE_TABLES) expect(rowsRead(plan, table), `${table} rows read by ${context}`).toBeLessThanOrEqual(bound);
      if (query.name.startsWith('DORA')) {
        expect(rowsRead(plan, 'commits'), context).toBeLessThanOrEqual(DORA_COMMIT_BOUND);
        // The look-up of failed deploys reads them by incident instead (bounded below).
        if (rowsRead(plan, 'incident_suspects') === 0)
          expect(rowsRead(plan, 'deploys'), context).toBeLessThanOrEqual((await deploysInPeriod(query)) + DORA_PARTIAL_DAYS_DEPLOY_BOUND);
      }
    }
  });

  it('reads the days of DORA from their daily figures (per service, or per organization)', async () => {
    for (const query of GROWTH_QUERIES.filter((q) => q.name.startsWith('DORA'))) {
      const plans = await explainedReads(query);
      expect(
        plans.some(({ plan }) => rowsRead(plan, 'dora_days') + rowsRead(plan, 'dora_organization_days') > 0),
        query.name,
      ).toBe(true);
    }
  });

  it('takes a service’s DORA lead time in the database: the one statement reading its daily figures returns one row, not their lead times', async () => {
    const query = GROWTH_QUERIES.find((q) => q.name === 'DORA, one service, 365 d')!;
    const readingDays = (await explainedReads(query)).filter(({ plan }) => rowsRead(plan, 'dora_days') > 0);
    expect(readingDays).toHaveLength(1);
    expect(readingDays[0]!.plan.Plan['Actual Rows']).toBe(1);
  });

  it('finds DORA’s deploys failed for an incident from the incidents of the period, reading deploys only by id', async () => {
    for (const query of GROWTH_QUERIES.filter((q) => q.name.startsWith('DORA'))) {
      const { from } = query.variables({ ...ids, now: new Date() }) as { from: Date };
      const lookups = (await explainedReads(query)).filter(({ plan }) => rowsRead(plan, 'incident_suspects') > 0);
      expect(lookups, query.name).toHaveLength(1);
      const deployIndexes = planNodes(lookups[0]!.plan.Plan)
        .filter((node) => node['Relation Name'] === 'deploys')
        .map((node) => node['Index Name']);
      expect(deployIndexes, query.name).toEqual(['deploys_pkey']);
      const since = await admin.query(
        `SELECT count(DISTINCT i.id)::int AS incidents, count(x.id)::int AS suspects
         FROM incidents i LEFT JOIN incident_suspects x ON x.incident_id = i.id WHERE i.organization_id = $1 AND i.started_at >= $2`,
        [organizationId, from],
      );
      expect(rowsRead(lookups[0]!.plan, 'incidents'), query.name).toBeLessThanOrEqual(since.rows[0].incidents);
      expect(rowsRead(lookups[0]!.plan, 'deploys'), query.name).toBeLessThanOrEqual(since.rows[0].suspects);
    }
  });

  it('reads an organization’s DORA from one row a day and environment, and its partial days only from the deploys', async () => {
    const query = GROWTH_QUERIES.find((q) => q.name === 'DORA, organization, 30 d')!;
    const { from, to } = query.variables({ ...ids, now: new Date() }) as { from: Date; to: Date };
    const plans = await explainedReads(query);
    const read = (table: string) => plans.reduce((sum, { plan }) => sum + rowsRead(plan, table), 0);
    // One row per environment (production, staging) and whole day: not one per service-day.
    expect(read('dora_organization_days')).toBeGreaterThan(0);
    expect(read('dora_organization_days')).toBeLessThanOrEqual(2 * 30);
    expect(read('dora_days')).toBe(0);
    // Deploys: those of the two partial days (added up by the database, not loaded), and those the
    // look-up of incidents' failed deploys reads in the period.
    const partialDays = await admin.query(
      `SELECT count(*)::int AS n FROM deploys WHERE organization_id = $1
         AND (deployed_at >= $2 AND deployed_at < date_trunc('day', $2 AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 day'
              OR deployed_at >= date_trunc('day', $3 AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AND deployed_at < $3)`,
      [organizationId, from, to],
    );
    const commitsRead = plans.reduce((sum, { plan }) => sum + rowsRead(plan, 'commits'), 0);
    expect(commitsRead).toBeLessThanOrEqual(3 * partialDays.rows[0].n);
  });

  it('searches deliveries by response class in the index of the organization’s deliveries by time, which holds their classes, reading no attempt', async () => {
    const query = GROWTH_QUERIES.find((q) => q.name === FIVE_XX)!;
    const plans = await explainedReads(query);
    const indexes = plans.flatMap(({ plan }) => planNodes(plan.Plan).map((node) => node['Index Name']));
    expect(indexes).toContain('deliveries_organization_id_created_at_id_response_classes_idx');
    for (const { statement, plan } of plans) expect(rowsRead(plan, 'delivery_attempts'), statement.text).toBe(0);
  });

  it('searches deliveries by event type in the index of deliveries by organization, event type and time', async () => {
    const query = GROWTH_QUERIES.find((q) => q.name === 'deliveries by event type')!;
    const indexes = (await explainedReads(query)).flatMap(({ plan }) => planNodes(plan.Plan).map((node) => node['Index Name']));
    expect(indexes).toContain('deliveries_organization_id_event_type_created_at_id_idx');
  });
});
