// The dashboard's pages on crowded places (bench/growth-data.ts, shape `concentrated`, size S):
// services with 12,000 deploys each, an endpoint with 7,000 deliveries in 14 days, 18 suspects
// per incident across 100 organizations. Each SQL statement the API runs for a page is explained
// (EXPLAIN ANALYZE, BUFFERS, FORMAT JSON) and must read through an index only the rows its page or
// period holds: neither a service's whole history, nor the attempts of every endpoint (nor the
// attempts of a window one delivery at a time), nor the suspects of every organization.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDatabase, queriedIdsSql, SIZES } from '../bench/growth-data.ts';
import { GROWTH_QUERIES, type QueriedIds } from '../bench/growth-queries.ts';
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

const hookline = useHookline({ environment: { ROLE: 'api' }, tenant: false });
let admin: pg.Client;
let apiToken: string;
let organizationId: string;
let ids: QueriedIds;

beforeAll(async () => {
  watchPool(hookline.app.database.pool);
  admin = new pg.Client({ connectionString: hookline.database.url });
  await admin.connect();
  const organization = await createOrganization(hookline.app.database.prisma, 'queried organization');
  apiToken = organization.apiToken;
  organizationId = organization.organizationId;
  await fillDatabase(admin, SIZES.S!, organizationId, () => {}, 'concentrated');
  ids = (await admin.query(queriedIdsSql('concentrated'))).rows[0];
}, 240_000);

afterAll(async () => {
  await admin?.end();
});

/** Each read the page's query ran, with its plan as executed. */
async function explainedReads(
  name: string,
  asked: Partial<QueriedIds & { now: Date }> = {},
): Promise<{ statement: Statement; plan: ExplainedPlan }[]> {
  const query = GROWTH_QUERIES.find((q) => q.name === name)!;
  const statements = await statementsOf(async () => {
    const response = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ query: query.document, variables: query.variables({ ...ids, now: new Date(), ...asked }) }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
  });
  const explained = [];
  for (const statement of statements.filter(isRead))
    explained.push({ statement, plan: await explainJson(admin, statement, { analyze: true }) });
  expect(explained.length).toBeGreaterThan(0);
  return explained;
}

const described = ({ statement, plan }: { statement: Statement; plan: ExplainedPlan }) =>
  `${statement.text}\n${JSON.stringify(plan.Plan, null, 1)}`;
const indexesOf = (plan: ExplainedPlan, relation: string) =>
  planNodes(plan.Plan)
    .filter((node) => node['Relation Name'] === relation)
    .map((node) => node['Index Name'] ?? node['Node Type']);

/** Buffers (8 KB pages) a plan touched in all, from the cache or the disk. */
const blocksOf = (plan: ExplainedPlan) => Number(plan.Plan['Shared Hit Blocks']) + Number(plan.Plan['Shared Read Blocks']);

/**
 * At most one 8 KB page of the index of attempts by endpoint and time per this many of the
 * window's attempts: an entry (endpoint, start, duration) takes about 44 bytes, so a page holds
 * some 180 even half full, and a read of each attempt's row (let alone of each delivery's
 * attempts) goes far past it.
 */
const ATTEMPTS_PER_BLOCK = 50;
/**
 * Attempts are partitioned by their delivery's month, not by when they started (a resent delivery
 * of last month is attempted today), so a window's range is looked up in each month's index: a
 * probe of a month without such attempts reads its index's root and a leaf.
 */
const BLOCKS_PER_MONTH_PROBED = 3;

describe('the dashboard’s pages on crowded places read their page, not the place', () => {
  it('reads an endpoint chart’s attempts as one range of the index of attempts by endpoint and time, not delivery by delivery', async () => {
    const now = new Date();
    for (const name of ['endpoint chart, 14 days by day', 'endpoint chart, 24 h by hour']) {
      const { from, to } = GROWTH_QUERIES.find((q) => q.name === name)!.variables({ ...ids, now }) as { from: Date; to: Date };
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
         WHERE d.endpoint_id = $1 AND a.started_at >= $2 AND a.started_at < $3`,
        [ids.endpointId, from, to],
      );
      const windowAttempts: number = rows[0].n;
      // Thousands of deliveries in 14 days: a read per delivery would show.
      expect(windowAttempts, name).toBeGreaterThan(name.includes('14 days') ? 7_000 : 400);
      const reads = (await explainedReads(name, { now })).filter(({ plan }) => rowsRead(plan, 'delivery_attempts') > 0);
      expect(reads, name).toHaveLength(1);
      const read = reads[0]!;
      const scans = planNodes(read.plan.Plan).filter((node) => node['Relation Name'] === 'delivery_attempts');
      const reading = scans.filter((node) => (node['Actual Rows'] ?? 0) > 0);
      // One range of each month's index that holds such attempts, read once (an empty month may be scanned as it is).
      expect(
        new Set(reading.map((node) => JSON.stringify([node['Node Type'], node['Index Name'], node['Actual Loops']]))),
        described(read),
      ).toEqual(new Set([JSON.stringify(['Index Only Scan', 'delivery_attempts_endpoint_id_started_at_duration_ms_idx', 1])]));
      expect(rowsRead(read.plan, 'delivery_attempts'), described(read)).toBe(windowAttempts);
      expect(rowsRead(read.plan, 'deliveries'), described(read)).toBe(0);
      expect(blocksOf(read.plan), described(read)).toBeLessThanOrEqual(
        Math.ceil(windowAttempts / ATTEMPTS_PER_BLOCK) + BLOCKS_PER_MONTH_PROBED * scans.length + 10,
      );
    }
  });

  it('reads the service page’s 10 latest deploys from the index of the service’s deploys by time, not its 12,000', async () => {
    const reads = (await explainedReads('service page')).filter(({ plan }) => rowsRead(plan, 'deploys') > 0);
    expect(reads).toHaveLength(1);
    expect(indexesOf(reads[0]!.plan, 'deploys'), described(reads[0]!)).toEqual(['deploys_service_id_deployed_at_id_idx']);
    expect(rowsRead(reads[0]!.plan, 'deploys'), described(reads[0]!)).toBeLessThanOrEqual(11);
  });

  it('reads a page of a service’s production deploys (DORA’s deploy times) in order from an index of the service’s deploys', async () => {
    const reads = (await explainedReads('deploy times, service (DORA page, a page of 100)')).filter(
      ({ plan }) => rowsRead(plan, 'deploys') > 0,
    );
    expect(reads).toHaveLength(1);
    expect(['deploys_service_id_environment_deployed_at_id_idx', 'deploys_service_id_deployed_at_id_idx']).toContain(
      indexesOf(reads[0]!.plan, 'deploys').join(),
    );
    // 101 production deploys, and the others' interleaved with them (4 in 10 here).
    expect(rowsRead(reads[0]!.plan, 'deploys'), described(reads[0]!)).toBeLessThanOrEqual(200);
  });

  it('finds a deploy’s previous one with one probe of an index of its target, with an environment or without', async () => {
    const { rows } = await admin.query(
      `SELECT (SELECT id::text FROM deploys WHERE service_id = $1 AND environment = 'production' ORDER BY deployed_at LIMIT 1 OFFSET 100) AS "withEnvironment",
              (SELECT id::text FROM deploys WHERE service_id = $1 AND environment IS NULL ORDER BY deployed_at LIMIT 1 OFFSET 100) AS "withoutEnvironment"`,
      [ids.serviceId],
    );
    for (const deployId of [rows[0].withEnvironment, rows[0].withoutEnvironment, ids.deployId]) {
      const reads = (await explainedReads('deploy page', { deployId })).filter(({ statement }) => statement.text.includes('"previousId"'));
      expect(reads).toHaveLength(1);
      // The deploy itself, and its previous one.
      expect(rowsRead(reads[0]!.plan, 'deploys'), described(reads[0]!)).toBeLessThanOrEqual(2);
    }
  });

  it('reads a deploy page’s history (previous deploy, rollbacks) by probes of its target’s indexes, not its service’s history', async () => {
    // The service's latest deploy, without an environment like a tenth of its 12,000.
    for (const read of await explainedReads('deploy page')) expect(rowsRead(read.plan, 'deploys'), described(read)).toBeLessThanOrEqual(20);
  });
  it('reads DORA’s failed deploys from the organization’s incidents and their judged or first suspects, never every organization’s suspects', async () => {
    // One look-up per incident of the organization (EXPLAIN rounds each one's rows up to 1).
    const { rows } = await admin.query(
      `SELECT count(*)::int + (SELECT count(*)::int FROM incidents WHERE organization_id = $1) AS n
       FROM incidents i JOIN incident_suspects x ON x.incident_id = i.id
       WHERE i.organization_id = $1 AND (x.verdict IS NOT NULL OR x.rank = 1)`,
      [organizationId],
    );
    for (const name of ['weekly trends, service (DORA page)', 'weekly trends, organization (DORA page)', 'DORA, one service, 365 d']) {
      const lookups = (await explainedReads(name)).filter(({ plan }) => rowsRead(plan, 'incident_suspects') > 0);
      expect(lookups.length, name).toBeGreaterThan(0);
      for (const lookup of lookups) {
        expect(indexesOf(lookup.plan, 'incident_suspects'), described(lookup)).toEqual(['incident_suspects_judged_or_first_idx']);
        expect(rowsRead(lookup.plan, 'incident_suspects'), described(lookup)).toBeLessThanOrEqual(rows[0].n);
      }
    }
  });

  it('opens an incident on a crowded service reading its look-back window’s deploys and the organization’s verdicts by index', async () => {
    const { rows } = await admin.query(
      `SELECT (SELECT count(*)::int FROM deploys WHERE organization_id = $1 AND deployed_at >= now() - interval '25 hours') AS deploys,
              (SELECT count(*)::int FROM incidents i JOIN incident_suspects x ON x.incident_id = i.id
                WHERE i.organization_id = $1 AND (x.verdict IS NOT NULL OR x.rank = 1))
                + (SELECT count(*)::int FROM incidents WHERE organization_id = $1) AS suspects`,
      [organizationId],
    );
    for (const read of await explainedReads('openIncident on a busy service (ranking)')) {
      const wholeScans = planNodes(read.plan.Plan).filter(
        (node) => node['Node Type'] === 'Seq Scan' && ['deploys', 'incident_suspects', 'commits'].includes(node['Relation Name']!),
      );
      expect(wholeScans, described(read)).toEqual([]);
      // The window's deploys, and for each of its targets (service and environment) the deploy
      // before it and the latest earlier deploy of each commit and version deployed in it.
      expect(rowsRead(read.plan, 'deploys'), described(read)).toBeLessThanOrEqual(4 * rows[0].deploys);
      // One look-up per incident of the organization (EXPLAIN rounds each one's rows up to 1).
      expect(rowsRead(read.plan, 'incident_suspects'), described(read)).toBeLessThanOrEqual(rows[0].suspects);
    }
  });
});
