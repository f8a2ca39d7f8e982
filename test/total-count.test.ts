// totalCount of the delivery and event lists: exact up to 1,000 (totalCountIsEstimate false),
// above that the pace of the newest 1,000 stretched over the list's whole span, marked as an
// estimate. Rows a minute apart make the estimate predictable: 3,000 deliveries span 2,999
// minutes, the newest 1,001 span 1,000, so the estimate is 1,000 × 2,999 / 1,000 = 2,999.
import { getNamedType, isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { schema } from '../src/graphql/schema.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith } from './support/app.ts';
import { useHookline } from './support/fixture.ts';

const EVERY_LIST = graphql(`
  query TotalCountsEveryList($serviceId: ID!) {
    services(first: 1) { totalCount totalCountIsEstimate }
    service(id: $serviceId) {
      deploys(first: 1) { totalCount totalCountIsEstimate }
      incidents(first: 1) { totalCount totalCountIsEstimate }
    }
    deploys(first: 1) { totalCount totalCountIsEstimate }
    incidents(first: 1) { totalCount totalCountIsEstimate edges { node { alerts(first: 1) { totalCount totalCountIsEstimate } } } }
    changeEvents(first: 1) { totalCount totalCountIsEstimate }
    timeline(first: 1) { totalCount totalCountIsEstimate }
    webhookEndpoints(first: 1) { totalCount totalCountIsEstimate }
    apiTokens(first: 1) { totalCount totalCountIsEstimate }
    alertSources(first: 1) { totalCount totalCountIsEstimate edges { node { unroutedAlerts(first: 1) { totalCount totalCountIsEstimate } } } }
  }
`);

const COUNTS = graphql(`
  query TotalCounts($endpointId: ID!) {
    deliveries(first: 1, filter: { endpointId: $endpointId }) { totalCount totalCountIsEstimate }
    webhookEndpoint(id: $endpointId) { deliveries(first: 1) { totalCount totalCountIsEstimate } }
    events(first: 1) { totalCount totalCountIsEstimate edges { node { deliveries(first: 1) { totalCount totalCountIsEstimate } } } }
  }
`);

const hookline = useHookline({ environment: { ROLE: 'api' } });
let endpointId: string;
const start = Date.now() - 10 * 24 * 3600_000;

/** `count` events a minute apart after the last ones, each with one delivery to the endpoint. */
async function addDeliveries(count: number, fromMinute: number): Promise<void> {
  await hookline.app.database.pool.query(
    `WITH event AS (
       INSERT INTO events (organization_id, type, data, created_at)
       SELECT $1, 'test.ping', '{}', $3::timestamptz + n * interval '1 minute' FROM generate_series($4::int, $4::int + $5::int - 1) n
       RETURNING id, created_at)
     INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, created_at)
     SELECT $1, id, $2, 'test.ping', 'SUCCEEDED', created_at FROM event`,
    [hookline.tenant.organizationId, endpointId, new Date(start), fromMinute, count],
  );
}

async function counts() {
  return dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, COUNTS, { endpointId }));
}

beforeAll(async () => {
  const { endpoint } = await createEndpoint(
    hookline.app.database.prisma,
    hookline.tenant.organizationId,
    { url: 'https://hooks.example.com/counted', name: 'counted' },
    { allowHttp: false, allowPrivate: false },
    100,
  );
  endpointId = endpoint.id;
});

describe('totalCount', () => {
  it('is exact up to 1,000', async () => {
    await addDeliveries(1000, 0);
    const exact = { totalCount: 1000, totalCountIsEstimate: false };
    const result = await counts();
    expect(result.deliveries).toEqual(exact);
    expect(result.webhookEndpoint!.deliveries).toEqual(exact);
    expect({ totalCount: result.events.totalCount, totalCountIsEstimate: result.events.totalCountIsEstimate }).toEqual(exact);
    expect(result.events.edges[0]!.node.deliveries).toEqual({ totalCount: 1, totalCountIsEstimate: false });
  });

  it('is an estimate above 1,000, from the pace of the newest 1,000, and says so', async () => {
    await addDeliveries(2000, 1000);
    const estimate = { totalCount: 2999, totalCountIsEstimate: true };
    const result = await counts();
    expect(result.deliveries).toEqual(estimate);
    expect(result.webhookEndpoint!.deliveries).toEqual(estimate);
    expect({ totalCount: result.events.totalCount, totalCountIsEstimate: result.events.totalCountIsEstimate }).toEqual(estimate);
    // An event's deliveries (one per endpoint) are counted exactly.
    expect(result.events.edges[0]!.node.deliveries).toEqual({ totalCount: 1, totalCountIsEstimate: false });
  });

  it('stays within a GraphQL Int when a burst follows a long history', async () => {
    // One delivery 20 years old, then 1,001 a millisecond apart: the newest 1,000's pace over 20
    // years is 630 billion, beyond Int's 2,147,483,647.
    await hookline.app.database.pool.query(
      `WITH event AS (
         INSERT INTO events (organization_id, type, data, created_at)
         SELECT $1, 'test.ping', '{}', at FROM (
           SELECT now() - interval '20 years' AS at UNION ALL SELECT now() + n * interval '1 millisecond' FROM generate_series(1, 1001) n) t
         RETURNING id, created_at)
       INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, created_at)
       SELECT $1, id, $2, 'test.ping', 'SUCCEEDED', created_at FROM event`,
      [hookline.tenant.organizationId, endpointId],
    );
    const estimate = { totalCount: 2 ** 31 - 1, totalCountIsEstimate: true };
    const result = await counts();
    expect(result.deliveries).toEqual(estimate);
    expect(result.webhookEndpoint!.deliveries).toEqual(estimate);
    expect({ totalCount: result.events.totalCount, totalCountIsEstimate: result.events.totalCountIsEstimate }).toEqual(estimate);
  });
});

describe('every connection', () => {
  it('has totalCount and totalCountIsEstimate', () => {
    const connections = Object.values(schema.getTypeMap()).filter((type) => isObjectType(type) && type.name.endsWith('Connection'));
    expect(connections.length).toBeGreaterThanOrEqual(11);
    for (const connection of connections) {
      const fields = isObjectType(connection) ? connection.getFields() : {};
      expect(getNamedType(fields.totalCount?.type)?.toString(), connection.name).toBe('Int');
      expect(getNamedType(fields.totalCountIsEstimate?.type)?.toString(), connection.name).toBe('Boolean');
    }
  });

  it('counts each list by the same rule: exact up to 1,000, then an estimate', async () => {
    const other = await hookline.createTenant('other-service');
    const { service } = await createService(hookline.app.database.prisma, other.organizationId, 'second');
    // 3,000 deploys of the tenant's service a minute apart (the estimate as above: 2,999), one of the
    // second service at the first minute and four change events within the span: still 2,999 of each list.
    await hookline.app.database.pool.query(
      `INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at)
       SELECT s.organization_id, s.id, t.id, 'a1b2c3d', 'production', $2::timestamptz + n * interval '1 minute'
         FROM services s JOIN deploy_tokens t ON t.service_id = s.id, generate_series(0, CASE WHEN s.id = $1 THEN 2999 ELSE 0 END) n
        WHERE s.organization_id = $3`,
      [other.serviceId, new Date(start), other.organizationId],
    );
    await hookline.app.database.pool.query(
      `INSERT INTO change_events (organization_id, service_id, deploy_token_id, kind, summary, changed_at)
       SELECT $1, $2, t.id, 'feature_flag', 'flag ' || n, $3::timestamptz + n * interval '1 hour'
         FROM deploy_tokens t, generate_series(1, 4) n WHERE t.service_id = $2`,
      [other.organizationId, other.serviceId, new Date(start)],
    );
    const exact = (totalCount: number) => ({ totalCount, totalCountIsEstimate: false });
    const estimate = { totalCount: 2999, totalCountIsEstimate: true };
    const result = dataOf(await requestGraphqlWith(hookline.baseUrl, other.apiToken, EVERY_LIST, { serviceId: other.serviceId }));
    expect(result).toEqual({
      services: exact(2),
      service: { deploys: estimate, incidents: exact(0) },
      deploys: estimate,
      incidents: { ...exact(0), edges: [] },
      changeEvents: exact(4),
      timeline: estimate,
      webhookEndpoints: exact(0),
      apiTokens: exact(1),
      alertSources: { ...exact(0), edges: [] },
    });
    expect(service.name).toBe('second');
  });
});
