// Cursors of every connection are the caller's own: a cursor of another organization's row, or
// one that is no cursor at all, is BAD_USER_INPUT, never a page placed relative to a row the
// caller cannot see (which would tell it that the row exists, and when it was made).
import { isObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectionNodeType, CURSOR_CHECKED_TYPES } from '../src/graphql/cursors.ts';
import { schema } from '../src/graphql/schema.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql, type GraphqlResponse, type Tenant } from './support/app.ts';
import { connectGraphqlWs, ping, subscribe } from './support/graphql-ws.ts';
import { post, postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const CURSORS_PAGES = graphql(`
  query CursorsPages($after: String) {
    services(first: 2, after: $after) { edges { cursor node { id } } }
    deploys(first: 2, after: $after) { edges { cursor node { id } } }
    incidents(first: 2, after: $after) { edges { cursor node { id } } }
    webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } }
  }
`);
const CURSORS_SERVICES = graphql(`
  query CursorsServices($after: String, $before: String) { services(first: 2, after: $after, before: $before) { edges { cursor node { id } } } }
`);
const CURSORS_DEPLOYS = graphql(`
  query CursorsDeploys($after: String) { deploys(first: 2, after: $after) { edges { cursor node { id } } } }
`);
const CURSORS_INCIDENTS = graphql(`
  query CursorsIncidents($after: String) { incidents(first: 2, after: $after) { edges { cursor node { id } } } }
`);
const CURSORS_ENDPOINTS = graphql(`
  query CursorsEndpoints($after: String) { webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } } }
`);
const CURSORS_SERVICE_DEPLOYS = graphql(`
  query CursorsServiceDeploys($serviceId: ID!, $after: String) { service(id: $serviceId) { deploys(first: 2, after: $after) { edges { cursor } } } }
`);
const CURSORS_SERVICE_INCIDENTS = graphql(`
  query CursorsServiceIncidents($serviceId: ID!, $after: String) { service(id: $serviceId) { incidents(first: 2, after: $after) { edges { cursor } } } }
`);
const CURSORS_DELIVERIES = graphql(`
  query CursorsDeliveries($endpointId: ID!, $after: String) {
    webhookEndpoint(id: $endpointId) { deliveries(first: 2, after: $after) { edges { cursor node { id } } } }
  }
`);
const CURSORS_API_TOKENS = graphql(`
  query CursorsApiTokens($after: String) { apiTokens(first: 2, after: $after) { edges { cursor node { id } } } }
`);
const CURSORS_SUBSCRIPTION = graphql(`
  subscription CursorsSubscription($after: String) {
    deliveryUpdated { id endpoint { deliveries(first: 1, after: $after) { edges { cursor } } } }
  }
`);
const CURSORS_CREATE_SERVICE = graphql(`
  mutation CursorsCreateService($name: String!) { createService(name: $name) { service { id } } }
`);
const CURSORS_OPEN_INCIDENT = graphql(`
  mutation CursorsOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: "down") { id } }
`);

const hookline = useHookline({ environment: { ROLE: 'api' }, tenant: false });
/** Three of everything: services, deploys, incidents, endpoints, deliveries of one endpoint. */
let ours: Tenant & { endpointId: string };
/** One of everything, and the cursors of its rows. */
let theirs: Tenant & { endpointId: string };
let theirCursors: Record<'service' | 'deploy' | 'incident' | 'endpoint' | 'delivery' | 'apiToken', string>;

async function populate(tenant: Tenant, count: number): Promise<Tenant & { endpointId: string }> {
  let endpointId = '';
  for (let n = 0; n < count; n++) {
    if (n > 0) dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, CURSORS_CREATE_SERVICE, { name: `service-${n}` }));
    expect((await postDeploy(hookline.baseUrl, tenant.deployToken, { commit_sha: `sha-${n}` })).status).toBe(200);
    dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, CURSORS_OPEN_INCIDENT, { serviceId: tenant.serviceId }));
    const endpoint = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      body: JSON.stringify({ url: `https://hooks.example.com/${n}`, name: `endpoint-${n}` }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
    });
    expect(endpoint.status).toBe(201);
    endpointId ||= endpoint.body.id as string;
  }
  for (let n = 0; n < count; n++) await ping(hookline.baseUrl, tenant, endpointId);
  return { ...tenant, endpointId };
}

beforeAll(async () => {
  ours = await populate(await hookline.createTenant(), 3);
  theirs = await populate(await hookline.createTenant(), 1);
  const pages = dataOf(await requestGraphql(hookline.baseUrl, theirs.apiToken, CURSORS_PAGES, { after: null }));
  const deliveries = dataOf(await requestGraphql(hookline.baseUrl, theirs.apiToken, CURSORS_DELIVERIES, { endpointId: theirs.endpointId }));
  const apiTokens = dataOf(await requestGraphql(hookline.baseUrl, theirs.apiToken, CURSORS_API_TOKENS, { after: null }));
  theirCursors = {
    apiToken: apiTokens.apiTokens.edges[0]!.cursor,
    service: pages.services.edges[0]!.cursor,
    deploy: pages.deploys.edges[0]!.cursor,
    incident: pages.incidents.edges[0]!.cursor,
    endpoint: pages.webhookEndpoints.edges[0]!.cursor,
    delivery: deliveries.webhookEndpoint!.deliveries.edges[0]!.cursor,
  };
});

function expectBadCursor(response: GraphqlResponse<unknown>, field = 'after') {
  expect(response.status).toBe(200);
  expect(response.body.errors).toEqual([
    expect.objectContaining({
      message: `${field} is not a cursor of this list`,
      extensions: { code: 'BAD_USER_INPUT', fields: [{ field, message: 'is not a cursor of this list' }] },
    }),
  ]);
  expect(response.body.data ?? null).toBeNull();
}

const cursorOf = (text: string) => Buffer.from(text).toString('base64');

describe('connection cursors', () => {
  it("pages with the caller's own cursors", async () => {
    const first = dataOf(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_PAGES, { after: null }));
    for (const connection of [first.services, first.deploys, first.incidents, first.webhookEndpoints]) {
      expect(connection.edges).toHaveLength(2);
    }
    const next = dataOf(
      await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_ENDPOINTS, { after: first.webhookEndpoints.edges[1]!.cursor }),
    );
    expect(next.webhookEndpoints.edges).toHaveLength(1);
    const deliveries = dataOf(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_DELIVERIES, { endpointId: ours.endpointId }));
    const after = deliveries.webhookEndpoint!.deliveries.edges[1]!.cursor;
    const rest = dataOf(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_DELIVERIES, { endpointId: ours.endpointId, after }));
    expect(rest.webhookEndpoint!.deliveries.edges).toHaveLength(2);
    expect(rest.webhookEndpoint!.deliveries.edges.map((edge) => edge.cursor)).not.toContain(after);
  });

  it("refuses another organization's cursor on every top-level connection", async () => {
    expectBadCursor(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_SERVICES, { after: theirCursors.service }));
    expectBadCursor(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_SERVICES, { before: theirCursors.service }), 'before');
    expectBadCursor(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_DEPLOYS, { after: theirCursors.deploy }));
    expectBadCursor(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_INCIDENTS, { after: theirCursors.incident }));
    expectBadCursor(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_ENDPOINTS, { after: theirCursors.endpoint }));
    expectBadCursor(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_API_TOKENS, { after: theirCursors.apiToken }));
  });

  it('every connection of the schema has its cursors checked', () => {
    const unchecked = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .flatMap((type) =>
        Object.values(type.getFields()).map((field) => [`${type.name}.${field.name}`, connectionNodeType(field.type)] as const),
      )
      .filter(([, nodeType]) => nodeType !== undefined && !CURSOR_CHECKED_TYPES.includes(nodeType));
    expect(unchecked).toEqual([]);
  });

  it("refuses another organization's cursor on nested connections", async () => {
    const serviceId = ours.serviceId;
    expectBadCursor(
      await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_SERVICE_DEPLOYS, { serviceId, after: theirCursors.deploy }),
    );
    expectBadCursor(
      await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_SERVICE_INCIDENTS, { serviceId, after: theirCursors.incident }),
    );
    expectBadCursor(
      await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_DELIVERIES, {
        endpointId: ours.endpointId,
        after: theirCursors.delivery,
      }),
    );
  });

  it("refuses another organization's cursor in a subscription's selection over WebSocket", async () => {
    const client = connectGraphqlWs(hookline.baseUrl, ours.apiToken);
    try {
      const subscriber = subscribe(client, CURSORS_SUBSCRIPTION, { after: theirCursors.delivery }, (data) => data.deliveryUpdated);
      const errors = await subscriber.waitFor(() => subscriber.errors[0], 'the refusal');
      const message = 'is not a cursor of this list';
      expect(errors).toEqual([
        { message: `after ${message}`, extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'after', message }] } },
      ]);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a cursor that is not one, or names no row, with BAD_USER_INPUT', async () => {
    for (const after of [
      'garbage',
      cursorOf('GPC:S:notauuid'),
      cursorOf('GPC:S:00000000-0000-4000-8000-000000000000'),
      cursorOf('GPC:N:12'),
    ]) {
      expectBadCursor(await requestGraphql(hookline.baseUrl, ours.apiToken, CURSORS_ENDPOINTS, { after }));
    }
  });
});
