// A page of a list costs a fixed number of SQL queries, the same for 5 items as for 50: webhook
// endpoints with their latest delivery, 24-hour stats and pending retries; deploys with their
// service, commits, previous deploy, commits since it and authors; incidents with their suspects;
// searched deliveries, and events with their deliveries.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { statementsOf, watchPool } from './support/statements.ts';
import { useHookline } from './support/fixture.ts';

const ENDPOINTS_DASHBOARD = graphql(`
  query NPlusOneEndpointsDashboard($first: Int) {
    webhookEndpoints(first: $first) {
      edges {
        node {
          id name status pendingRetries
          latestDelivery { id status attempts { number } event { type } }
          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }
        }
      }
    }
  }
`);

const DEPLOYS_PAGE = graphql(`
  query NPlusOneDeploys($first: Int) {
    deploys(first: $first) {
      edges { node { id commitSha service { name } commits { sha } previousDeploy { id commitSha } commitsSincePrevious { sha derived } authors } }
    }
  }
`);

const INCIDENTS_PAGE = graphql(`
  query NPlusOneIncidents($first: Int) {
    incidents(first: $first) { edges { node { id title service { name } suspects { rank deploy { id service { name } } } } } }
  }
`);

const DELIVERIES_SEARCH = graphql(`
  query NPlusOneDeliveriesSearch($first: Int) {
    deliveries(first: $first) { totalCount edges { node { id status endpoint { name } event { type } attempts { number } } } }
  }
`);

const EVENTS_SEARCH = graphql(`
  query NPlusOneEventsSearch($first: Int) {
    events(first: 4) {
      totalCount
      edges { node { id type deliveries(first: $first) { totalCount edges { node { id status endpoint { name } attempts { number } } } } } }
    }
  }
`);

const OPEN_INCIDENT = graphql(`
  mutation NPlusOneOpenIncident($serviceId: ID!, $title: String!) { openIncident(serviceId: $serviceId, title: $title) { id } }
`);

/** Small enough that a regression (one query per endpoint) cannot hide under it. */
const QUERY_BOUND = 10;
const HOUR = 3600_000;

const hookline = useHookline({ environment: { ROLE: 'api', INGEST_RATE_LIMIT_PER_MINUTE: 'off' }, tenant: false });
let admin: pg.Client;

beforeAll(async () => {
  // api only: no delivery worker picks up anything meanwhile.
  watchPool(hookline.app.database.pool);
  admin = new pg.Client({ connectionString: hookline.database.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
});

interface Seeded {
  tenant: Tenant;
  endpointIds: string[];
}

/**
 * An organization with `count` endpoints (made by the domain code), each with the same history,
 * inserted directly: three events; per endpoint a delivery of each (two in the last 24 hours, one
 * SUCCEEDED with two attempts and one FAILED; the newest PENDING with one attempt), and an old
 * SUCCEEDED delivery from two days ago that the stats leave out.
 */
async function seed(count: number): Promise<Seeded> {
  const tenant = await hookline.createTenant(`service-${count}`);
  const endpointIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const { endpoint } = await createEndpoint(
      hookline.app.database.prisma,
      tenant.organizationId,
      { url: `https://hooks.example.com/${count}/${i}`, name: `endpoint ${i}` },
      { allowHttp: false, allowPrivate: false },
      count,
    );
    endpointIds.push(endpoint.id);
  }
  const now = Date.now();
  await admin.query(
    `WITH e AS (
       INSERT INTO events (organization_id, type, data, created_at)
       SELECT $1, type, '{}'::jsonb, created_at
         FROM (VALUES ('deploy.ingested', $2::timestamptz), ('incident.opened', $3::timestamptz),
                      ('incident.resolved', $4::timestamptz), ('test.ping', $5::timestamptz)) AS v(type, created_at)
       RETURNING id, type, created_at
     ),
     d AS (
       INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, created_at, updated_at)
       SELECT $1, e.id, endpoint_id, e.type,
              (CASE e.type WHEN 'deploy.ingested' THEN 'SUCCEEDED' WHEN 'incident.opened' THEN 'SUCCEEDED'
                           WHEN 'incident.resolved' THEN 'FAILED' ELSE 'PENDING' END)::"DeliveryStatus",
              CASE e.type WHEN 'deploy.ingested' THEN 1 WHEN 'incident.opened' THEN 2 WHEN 'incident.resolved' THEN 6 ELSE 1 END,
              e.created_at, e.created_at
         FROM e CROSS JOIN unnest($6::uuid[]) AS endpoint_id
       RETURNING id, endpoint_id, attempt_count, created_at
     )
     INSERT INTO delivery_attempts (delivery_id, delivery_created_at, endpoint_id, number, succeeded, started_at, duration_ms, response_status)
     SELECT d.id, d.created_at, d.endpoint_id, n, false, d.created_at + n * interval '1 second', 12, 500
       FROM d CROSS JOIN generate_series(1, d.attempt_count) AS n`,
    [
      tenant.organizationId,
      new Date(now - 48 * HOUR),
      new Date(now - 3 * HOUR),
      new Date(now - 2 * HOUR),
      new Date(now - 1 * HOUR),
      endpointIds,
    ],
  );
  return { tenant, endpointIds };
}

/** The statements the app's own pool runs while answering `run` (test/support/statements.ts). */
async function counted<T>(run: () => Promise<T>): Promise<{ data: T; statements: string[] }> {
  let data: T | undefined;
  const statements = await statementsOf(async () => {
    data = await run();
  });
  return { data: data as T, statements: statements.map((statement) => statement.text) };
}

function dashboardQueries(seeded: Seeded, first: number) {
  return counted(async () => dataOf(await requestGraphql(hookline.baseUrl, seeded.tenant.apiToken, ENDPOINTS_DASHBOARD, { first })));
}

const report = (statements: string[]) => `${statements.length} statements:\n${statements.join('\n')}`;

/**
 * An organization (its service named `deploys-<count>`) with `count` deploys over HTTP, a minute apart, to one environment: the even
 * ones with two commits each (by two authors), the odd ones without (their head commit stands in).
 */
async function deployHistory(count: number): Promise<Tenant> {
  const tenant = await hookline.createTenant(`deploys-${count}`);
  const start = Date.now() - (count + 1) * 60_000;
  for (let i = 0; i < count; i++) {
    const commits =
      i % 2 === 0
        ? [
            { sha: `${i}-a`, author: 'ada' },
            { sha: `${i}-b`, author: 'grace' },
          ]
        : undefined;
    const body = { commit_sha: `sha-${i}`, environment: 'production', deployed_at: new Date(start + i * 60_000).toISOString(), commits };
    expect((await postDeploy(hookline.baseUrl, tenant.deployToken, body)).status).toBe(200);
  }
  return tenant;
}

describe('webhookEndpoints with latestDelivery, stats and pendingRetries', () => {
  it('answers correctly, with a small number of SQL queries that does not grow with the page', async () => {
    const small = await seed(5);
    const large = await seed(50);

    const five = await dashboardQueries(small, 50);
    const fifty = await dashboardQueries(large, 50);

    for (const [{ data }, seeded] of [
      [five, small],
      [fifty, large],
    ] as const) {
      const nodes = data.webhookEndpoints.edges.map((edge) => edge.node);
      expect(nodes).toHaveLength(seeded.endpointIds.length);
      expect(new Set(nodes.map((node) => node.id))).toEqual(new Set(seeded.endpointIds));
      for (const node of nodes) {
        expect(node.latestDelivery).toEqual({
          id: expect.any(String),
          status: 'PENDING',
          attempts: [{ number: 1 }],
          event: { type: 'test.ping' },
        });
        // The delivery from two days ago is left out; the PENDING one counts but has not finished.
        expect(node.stats).toEqual({ deliveriesLast24h: 3, succeededLast24h: 1, failedLast24h: 1, successRateLast24h: 0.5 });
        // The PENDING delivery has one failed attempt behind it; the FAILED one has given up.
        expect(node.pendingRetries).toBe(1);
      }
    }
    // Every endpoint's latest delivery is its own.
    const latest = fifty.data.webhookEndpoints.edges.map((edge) => edge.node.latestDelivery!.id);
    expect(new Set(latest).size).toBe(50);

    console.info(`SQL statements for 5 endpoints: ${five.statements.length}; for 50: ${fifty.statements.length}`);
    expect(five.statements.length, report(five.statements)).toBeLessThanOrEqual(QUERY_BOUND);
    expect(fifty.statements.length, report(fifty.statements)).toBe(five.statements.length);
    // The count sees Prisma's statements and hand-written ones alike.
    expect(fifty.statements.some((statement) => statement.includes('"public"."webhook_endpoints"'))).toBe(true);
    expect(fifty.statements.some((statement) => statement.includes('CROSS JOIN LATERAL'))).toBe(true);
  });

  it('gives null and zeros to an endpoint without deliveries, in the same number of queries', async () => {
    const tenant = await hookline.createTenant('quiet');
    await createEndpoint(
      hookline.app.database.prisma,
      tenant.organizationId,
      { url: 'https://hooks.example.com/quiet', name: 'quiet' },
      {
        allowHttp: false,
        allowPrivate: false,
      },
      1,
    );
    const { data, statements } = await dashboardQueries({ tenant, endpointIds: [] }, 10);
    expect(data.webhookEndpoints.edges.map((edge) => edge.node)).toEqual([
      expect.objectContaining({
        name: 'quiet',
        latestDelivery: null,
        pendingRetries: 0,
        stats: { deliveriesLast24h: 0, succeededLast24h: 0, failedLast24h: 0, successRateLast24h: null },
      }),
    ]);
    expect(statements.length).toBeLessThanOrEqual(QUERY_BOUND);
  });
});

describe('deploys with their service, commits, previous deploy, commits since it and authors', () => {
  it('answers correctly, in the same small number of SQL queries for 5 deploys as for 50', async () => {
    const [small, large] = [await deployHistory(5), await deployHistory(50)];
    const page = (tenant: Tenant) =>
      counted(async () => dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, DEPLOYS_PAGE, { first: 50 })));
    const five = await page(small);
    const fifty = await page(large);

    const nodes = fifty.data.deploys.edges.map((edge) => edge.node);
    expect(nodes).toHaveLength(50);
    // Newest first: each one's previous deploy is the next in the list.
    nodes.forEach((node, index) => {
      const i = 49 - index;
      expect(node.commitSha).toBe(`sha-${i}`);
      expect(node.service.name).toBe('deploys-50');
      expect(node.previousDeploy?.commitSha ?? null).toBe(i === 0 ? null : `sha-${i - 1}`);
      if (i % 2 === 0) {
        expect(node.commits.map((commit) => commit.sha)).toEqual([`${i}-a`, `${i}-b`]);
        expect(node.commitsSincePrevious).toEqual([
          { sha: `${i}-a`, derived: false },
          { sha: `${i}-b`, derived: false },
        ]);
        expect(node.authors).toEqual(['ada', 'grace']);
      } else {
        expect(node.commits).toEqual([]);
        expect(node.commitsSincePrevious).toEqual([{ sha: `sha-${i}`, derived: true }]);
        expect(node.authors).toEqual([]);
      }
    });

    console.info(`SQL statements for 5 deploys: ${five.statements.length}; for 50: ${fifty.statements.length}`);
    expect(five.statements.length, report(five.statements)).toBeLessThanOrEqual(QUERY_BOUND);
    expect(fifty.statements.length, report(fifty.statements)).toBe(five.statements.length);
  });
});

describe('incidents with their service and suspects', () => {
  it('answers correctly, in the same small number of SQL queries for 5 incidents as for 50', async () => {
    const withIncidents = async (count: number) => {
      const tenant = await deployHistory(3);
      for (let i = 0; i < count; i++) {
        dataOf(
          await requestGraphql(hookline.baseUrl, tenant.apiToken, OPEN_INCIDENT, { serviceId: tenant.serviceId, title: `incident ${i}` }),
        );
      }
      return tenant;
    };
    const [small, large] = [await withIncidents(5), await withIncidents(50)];
    const page = (tenant: Tenant) =>
      counted(async () => dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, INCIDENTS_PAGE, { first: 50 })));
    const five = await page(small);
    const fifty = await page(large);

    const nodes = fifty.data.incidents.edges.map((edge) => edge.node);
    expect(nodes).toHaveLength(50);
    for (const node of nodes) {
      expect(node.service.name).toBe('deploys-3');
      // Its three deploys, the last one first.
      expect(node.suspects.map((suspect) => suspect.rank)).toEqual([1, 2, 3]);
      expect(node.suspects.every((suspect) => suspect.deploy!.service.name === 'deploys-3')).toBe(true);
    }

    console.info(`SQL statements for 5 incidents: ${five.statements.length}; for 50: ${fifty.statements.length}`);
    expect(five.statements.length, report(five.statements)).toBeLessThanOrEqual(QUERY_BOUND);
    expect(fifty.statements.length, report(fifty.statements)).toBe(five.statements.length);
  });
});

describe('deliveries and events search, each event with its deliveries', () => {
  it('answers correctly, in the same small number of SQL queries for 5 endpoints as for 50', async () => {
    const [small, large] = [await seed(5), await seed(50)];
    const deliveries = (seeded: Seeded) =>
      counted(async () => dataOf(await requestGraphql(hookline.baseUrl, seeded.tenant.apiToken, DELIVERIES_SEARCH, { first: 50 })));
    const events = (seeded: Seeded) =>
      counted(async () => dataOf(await requestGraphql(hookline.baseUrl, seeded.tenant.apiToken, EVENTS_SEARCH, { first: 50 })));

    for (const seeded of [small, large]) {
      const count = seeded.endpointIds.length;
      const { data: found } = await deliveries(seeded);
      expect(found.deliveries.totalCount).toBe(4 * count);
      expect(found.deliveries.edges).toHaveLength(Math.min(50, 4 * count));
      const { data: listed } = await events(seeded);
      expect(listed.events.totalCount).toBe(4);
      for (const { node } of listed.events.edges) {
        expect(node.deliveries.totalCount).toBe(count);
        expect(node.deliveries.edges).toHaveLength(count);
      }
    }
    for (const run of [deliveries, events]) {
      const five = await run(small);
      const fifty = await run(large);
      console.info(`SQL statements for the search of 5 endpoints: ${five.statements.length}; for 50: ${fifty.statements.length}`);
      expect(five.statements.length, report(five.statements)).toBeLessThanOrEqual(QUERY_BOUND);
      expect(fifty.statements.length, report(fifty.statements)).toBe(five.statements.length);
    }
  });
});
