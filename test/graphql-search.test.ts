// Organization-wide search of deliveries and events through GraphQL, over real deliveries to a
// real receiver: every filter, totalCount, newest-first pagination, an event's deliveries to
// every endpoint, and tenant isolation (filters, cursors and ids of another organization).
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import type { DeliveryFilter } from './gql/graphql.ts';
import { dataOf, LOCAL_RECEIVERS, requestGraphqlWith, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const OPEN_INCIDENT = graphql(`
  mutation SearchOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: "Checkout errors") { id } }
`);
const DELIVERIES = graphql(`
  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {
    deliveries(filter: $filter, first: $first, after: $after) {
      totalCount
      edges { cursor node { id status createdAt endpoint { id } event { id type } attempts { responseStatus } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
const EVENTS = graphql(`
  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {
    events(filter: $filter, first: $first, after: $after) {
      totalCount
      edges { node { id type createdAt example deliveries(first: 10) { totalCount edges { node { id status endpoint { id } } } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
const EVENT = graphql(`
  query SearchEvent($id: ID!) { event(id: $id) { id type } }
`);

const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, DELIVERY_MAX_RETRIES: '0' }, receiver: true });
let stranger: Tenant;
/** ok: every event, answers 200; failing: incident.opened, answers 500; hangup: deploy.ingested, closes the connection. */
const endpoints = { ok: '', failing: '', hangup: '' };
let strangerEndpoint = '';

const gql = requestGraphqlWith;

/** An endpoint at `path` on the receiver, named after it: its id. */
async function endpointAt(apiToken: string, path: string, eventTypes?: string[]) {
  return (await createEndpoint(hookline, apiToken, { url: hookline.receiver.url + path, name: path, eventTypes })).id;
}

async function deliveries(
  filter: DeliveryFilter | null,
  apiToken = hookline.tenant.apiToken,
  page: { first?: number; after?: string } = {},
) {
  return dataOf(await gql(hookline.baseUrl, apiToken, DELIVERIES, { filter, first: page.first ?? 100, after: page.after })).deliveries;
}

beforeAll(async () => {
  stranger = await hookline.createTenant('theirs');
  hookline.receiver.respond((request, response) => {
    if (request.path === '/failing') response.writeHead(500).end('boom');
    else if (request.path === '/hangup') response.socket?.destroy();
    else response.end('ok');
  });
  endpoints.ok = await endpointAt(hookline.tenant.apiToken, '/ok');
  endpoints.failing = await endpointAt(hookline.tenant.apiToken, '/failing', ['incident.opened']);
  endpoints.hangup = await endpointAt(hookline.tenant.apiToken, '/hangup', ['deploy.ingested']);
  strangerEndpoint = await endpointAt(stranger.apiToken, '/stranger');

  for (const sha of ['aaa111', 'bbb222', 'ccc333'])
    expect((await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: sha })).status).toBe(200);
  dataOf(await gql(hookline.baseUrl, hookline.tenant.apiToken, OPEN_INCIDENT, { serviceId: hookline.tenant.serviceId }));
  expect((await postDeploy(hookline.baseUrl, stranger.deployToken, { commit_sha: 'fff999' })).status).toBe(200);

  // 3 deploys × (ok, hangup) + the incident × (ok, failing) = 8 deliveries, and the stranger's 1: all finished.
  await eventually(async () =>
    (await hookline.app.database.prisma.delivery.count({ where: { status: { not: 'PENDING' } } })) === 9 ? true : undefined,
  );
});

describe('deliveries', () => {
  it("lists the organization's deliveries to every endpoint, newest first, with totalCount", async () => {
    const all = await deliveries(null);
    expect(all.totalCount).toBe(8);
    expect(all.edges).toHaveLength(8);
    expect(all.pageInfo.hasNextPage).toBe(false);
    const nodes = all.edges.map((edge) => edge.node);
    expect(new Set(nodes.map((node) => node.endpoint.id))).toEqual(new Set(Object.values(endpoints)));
    const times = nodes.map((node) => Date.parse(node.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The incident came last: its two deliveries head the list.
    expect(nodes.slice(0, 2).map((node) => node.event.type)).toEqual(['incident.opened', 'incident.opened']);
  });

  it('filters by endpoint, status, event type and response status class, alone and together', async () => {
    const count = async (filter: DeliveryFilter) => {
      const page = await deliveries(filter);
      expect(page.edges).toHaveLength(page.totalCount);
      return page.totalCount;
    };
    expect(await count({ endpointId: endpoints.ok })).toBe(4);
    expect(await count({ endpointId: endpoints.failing })).toBe(1);
    expect(await count({ status: 'SUCCEEDED' })).toBe(4);
    expect(await count({ status: 'FAILED' })).toBe(4);
    expect(await count({ status: 'CANCELLED' })).toBe(0);
    expect(await count({ eventType: 'deploy.ingested' })).toBe(6);
    expect(await count({ eventType: 'incident.opened' })).toBe(2);
    expect(await count({ eventType: 'test.ping' })).toBe(0);
    expect(await count({ responseStatusClass: 'SUCCESS' })).toBe(4);
    expect(await count({ responseStatusClass: 'SERVER_ERROR' })).toBe(1);
    expect(await count({ responseStatusClass: 'NO_RESPONSE' })).toBe(3);
    expect(await count({ responseStatusClass: 'CLIENT_ERROR' })).toBe(0);
    expect(await count({ endpointId: endpoints.hangup, eventType: 'incident.opened' })).toBe(0);
    expect(
      await count({ endpointId: endpoints.ok, eventType: 'deploy.ingested', status: 'SUCCEEDED', responseStatusClass: 'SUCCESS' }),
    ).toBe(3);

    const failing = await deliveries({ responseStatusClass: 'SERVER_ERROR' });
    expect(failing.edges[0]!.node).toMatchObject({
      status: 'FAILED',
      endpoint: { id: endpoints.failing },
      attempts: [{ responseStatus: 500 }],
    });
    const hungUp = await deliveries({ responseStatusClass: 'NO_RESPONSE' });
    for (const edge of hungUp.edges)
      expect(edge.node).toMatchObject({ endpoint: { id: endpoints.hangup }, attempts: [{ responseStatus: null }] });
  });

  it('filters by a time window: from inclusive, to exclusive', async () => {
    const incidentEvent = (await deliveries({ eventType: 'incident.opened' })).edges[0]!.node.event;
    const { createdAt } = await hookline.app.database.prisma.event.findFirstOrThrow({ where: { id: incidentEvent.id } });
    const incidentDeliveries = await hookline.app.database.prisma.delivery.findMany({ where: { eventId: incidentEvent.id } });
    const from = new Date(Math.min(...incidentDeliveries.map((delivery) => delivery.createdAt.getTime()))).toISOString();
    expect((await deliveries({ from })).totalCount).toBe(2);
    expect((await deliveries({ to: from })).totalCount).toBe(6);
    expect(
      (await deliveries({ from: new Date(createdAt.getTime() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() }))
        .totalCount,
    ).toBe(8);
    expect((await deliveries({ from: new Date(Date.now() + 60_000).toISOString() })).totalCount).toBe(0);
  });

  it('pages with first/after through the whole list, totalCount on every page', async () => {
    const all = (await deliveries(null)).edges.map((edge) => edge.node.id);
    const seen: string[] = [];
    let after: string | undefined;
    for (const expected of [3, 3, 2]) {
      const page = await deliveries(null, hookline.tenant.apiToken, { first: 3, after });
      expect(page.totalCount).toBe(8);
      expect(page.edges).toHaveLength(expected);
      expect(page.pageInfo.hasNextPage).toBe(expected === 3);
      seen.push(...page.edges.map((edge) => edge.node.id));
      after = page.pageInfo.endCursor!;
    }
    expect(seen).toEqual(all);
  });

  it('refuses an unknown event type and an empty window; a malformed endpoint id matches nothing', async () => {
    const response = await gql(hookline.baseUrl, hookline.tenant.apiToken, DELIVERIES, {
      filter: { eventType: 'deploy.exploded', from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
    });
    expect(response.body.data).toBeNull();
    expect(response.body.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'filter.eventType', message: expect.stringMatching(/^must be one of deploy.ingested, /) },
        { field: 'filter.to', message: 'must be after filter.from' },
      ],
    });
    expect((await deliveries({ endpointId: 'not-an-id' })).totalCount).toBe(0);
  });

  it("never shows another organization's deliveries, whatever the filter or cursor", async () => {
    const theirs = await deliveries(null, stranger.apiToken);
    expect(theirs.totalCount).toBe(1);
    expect(theirs.edges.map((edge) => edge.node.endpoint.id)).toEqual([strangerEndpoint]);
    expect((await deliveries({ endpointId: endpoints.ok }, stranger.apiToken)).totalCount).toBe(0);
    expect((await deliveries({ endpointId: strangerEndpoint })).totalCount).toBe(0);

    const ours = await deliveries(null, hookline.tenant.apiToken, { first: 2 });
    const response = await gql(hookline.baseUrl, stranger.apiToken, DELIVERIES, { first: 2, after: ours.pageInfo.endCursor });
    expect(response.body.data).toBeUndefined(); // refused before the query ran
    expect(response.body.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'after', message: 'is not a cursor of this list' }],
    });
  });
});

describe('events', () => {
  it('lists events newest first with totalCount, each with its deliveries to every endpoint', async () => {
    const { events } = dataOf(await gql(hookline.baseUrl, hookline.tenant.apiToken, EVENTS, { first: 10 }));
    expect(events.totalCount).toBe(4);
    expect(events.edges.map((edge) => edge.node.type)).toEqual([
      'incident.opened',
      'deploy.ingested',
      'deploy.ingested',
      'deploy.ingested',
    ]);
    const [incident, ...deploys] = events.edges.map((edge) => edge.node);
    expect(incident!.example).toBe(false);
    expect(incident!.deliveries.totalCount).toBe(2);
    expect(incident!.deliveries.edges.map((edge) => edge.node.endpoint.id).sort()).toEqual([endpoints.ok, endpoints.failing].sort());
    expect(incident!.deliveries.edges.map((edge) => edge.node.status).sort()).toEqual(['FAILED', 'SUCCEEDED']);
    for (const deploy of deploys) {
      expect(deploy.deliveries.edges.map((edge) => edge.node.endpoint.id).sort()).toEqual([endpoints.ok, endpoints.hangup].sort());
    }
  });

  it('filters by type and time window, and pages', async () => {
    const page = async (filter: Record<string, string>, first = 10, after?: string) =>
      dataOf(await gql(hookline.baseUrl, hookline.tenant.apiToken, EVENTS, { filter, first, after })).events;
    expect((await page({ type: 'deploy.ingested' })).totalCount).toBe(3);
    expect((await page({ type: 'incident.resolved' })).totalCount).toBe(0);
    const newest = (await page({})).edges[0]!.node;
    expect((await page({ from: newest.createdAt })).edges.map((edge) => edge.node.id)).toEqual([newest.id]);
    expect((await page({ to: newest.createdAt })).totalCount).toBe(3);

    const first = await page({ type: 'deploy.ingested' }, 2);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await page({ type: 'deploy.ingested' }, 2, first.pageInfo.endCursor!);
    expect(second.edges).toHaveLength(1);
    expect(second.totalCount).toBe(3);
    expect(second.pageInfo.hasNextPage).toBe(false);

    const refused = await gql(hookline.baseUrl, hookline.tenant.apiToken, EVENTS, { filter: { type: 'nope' } });
    expect(refused.body.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'filter.type', message: expect.any(String) }],
    });
  });

  it("never shows another organization's events", async () => {
    const theirs = dataOf(await gql(hookline.baseUrl, stranger.apiToken, EVENTS, { first: 10 })).events;
    expect(theirs.totalCount).toBe(1);
    expect(theirs.edges[0]!.node.deliveries.edges.map((edge) => edge.node.endpoint.id)).toEqual([strangerEndpoint]);
    const ours = dataOf(await gql(hookline.baseUrl, hookline.tenant.apiToken, EVENTS, { first: 1 })).events;
    const eventId = ours.edges[0]!.node.id;
    expect((await gql(hookline.baseUrl, stranger.apiToken, EVENT, { id: eventId })).body).toEqual({ data: { event: null } });
    expect(dataOf(await gql(hookline.baseUrl, hookline.tenant.apiToken, EVENT, { id: eventId })).event).toEqual({
      id: eventId,
      type: 'incident.opened',
    });
    const cursor = await gql(hookline.baseUrl, stranger.apiToken, EVENTS, { first: 1, after: ours.pageInfo.endCursor });
    expect(cursor.body.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'after', message: 'is not a cursor of this list' }],
    });
  });
});
