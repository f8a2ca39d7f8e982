// Relay object identification: every type with an id implements Node, and node(id:)/nodes(ids:)
// find the caller's rows by their plain UUIDs (the ids every field returns) or by Relay global
// ids (base64 of "Type:uuid"). Another organization's row, a deleted endpoint, an unknown or
// malformed id, or a global id naming the wrong type: null, never an error that tells them apart.
import { getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_KINDS } from '../src/domain/shared/nodes.ts';
import { createEndpoint, deleteEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { schema } from '../src/graphql/schema.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { statementsOf, watchPool } from './support/statements.ts';
import { useHookline } from './support/fixture.ts';

const NODE = graphql(`
  query NodeById($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on Service { name }
      ... on Deploy { commitSha service { name } }
      ... on WebhookEndpoint { name }
      ... on Delivery { status endpoint { id } }
      ... on Event { type }
      ... on Organization { name }
      ... on Incident { title }
    }
  }
`);

const NODES = graphql(`
  query NodesByIds($ids: [ID!]!) {
    nodes(ids: $ids) { __typename id }
  }
`);

const TENANT_IDS = graphql(`
  query NodeTenantIds {
    viewer { id }
    deploys(first: 1) { edges { node { id } } }
    deliveries(first: 1) { edges { node { id event { id } } } }
  }
`);

const OPEN_INCIDENT = graphql(`
  mutation NodeOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: "Checkout down") { id } }
`);

interface TenantRows {
  tenant: Tenant;
  organizationId: string;
  serviceId: string;
  deployId: string;
  endpointId: string;
  deliveryId: string;
  eventId: string;
  incidentId: string;
}

const hookline = useHookline({ environment: { ROLE: 'api' }, tenant: false });
let mine: TenantRows;
let theirs: TenantRows;

const globalId = (typename: string, id: string) => Buffer.from(`${typename}:${id}`).toString('base64');

/** A tenant with a service, an endpoint, a deploy (so an event and a delivery) and an incident. */
async function seedTenant(): Promise<TenantRows> {
  const tenant = await hookline.createTenant();
  const { endpoint } = await createEndpoint(
    hookline.app.database.prisma,
    tenant.organizationId,
    { url: 'https://hooks.example.com/nodes', name: 'nodes' },
    { allowHttp: false, allowPrivate: false },
    10,
  );
  expect((await postDeploy(hookline.baseUrl, tenant.deployToken, { commit_sha: 'a1b2c3d' })).status).toBe(200);
  const ids = dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, TENANT_IDS, {}));
  const incident = dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, OPEN_INCIDENT, { serviceId: tenant.serviceId }));
  return {
    tenant,
    organizationId: ids.viewer.id,
    serviceId: tenant.serviceId,
    deployId: ids.deploys.edges[0]!.node.id,
    endpointId: endpoint.id,
    deliveryId: ids.deliveries.edges[0]!.node.id,
    eventId: ids.deliveries.edges[0]!.node.event.id,
    incidentId: incident.openIncident.id,
  };
}

beforeAll(async () => {
  // api only: the delivery stays PENDING, nothing is sent.
  watchPool(hookline.app.database.pool);
  mine = await seedTenant();
  theirs = await seedTenant();
});

const node = async (id: string, apiToken = mine.tenant.apiToken) =>
  dataOf(await requestGraphqlWith(hookline.baseUrl, apiToken, NODE, { id })).node;
const nodes = async (ids: string[], apiToken = mine.tenant.apiToken) =>
  dataOf(await requestGraphqlWith(hookline.baseUrl, apiToken, NODES, { ids })).nodes;

describe('the Node interface', () => {
  it('is implemented by every type with an id, each found by node(id:)', () => {
    const withId = Object.values(schema.getTypeMap()).filter(
      (type): type is GraphQLObjectType =>
        isObjectType(type) && !type.name.startsWith('__') && getNamedType(type.getFields().id?.type)?.name === 'ID',
    );
    expect(withId.length).toBeGreaterThanOrEqual(14);
    for (const type of withId)
      expect(
        type.getInterfaces().map((i) => i.name),
        type.name,
      ).toContain('Node');
    // and node(id:) knows, for each, where the organization's rows of it are.
    expect(new Set(NODE_KINDS)).toEqual(new Set(withId.map((type) => type.name)));
  });
});

describe('node(id:)', () => {
  it('finds each kind of row by the plain UUID its id field returns', async () => {
    expect(await node(mine.serviceId)).toEqual({ __typename: 'Service', id: mine.serviceId, name: 'checkout' });
    expect(await node(mine.deployId)).toEqual({
      __typename: 'Deploy',
      id: mine.deployId,
      commitSha: 'a1b2c3d',
      service: { name: 'checkout' },
    });
    expect(await node(mine.endpointId)).toEqual({ __typename: 'WebhookEndpoint', id: mine.endpointId, name: 'nodes' });
    expect(await node(mine.deliveryId)).toEqual({
      __typename: 'Delivery',
      id: mine.deliveryId,
      status: 'PENDING',
      endpoint: { id: mine.endpointId },
    });
    expect(await node(mine.eventId)).toEqual({ __typename: 'Event', id: mine.eventId, type: 'deploy.ingested' });
    expect(await node(mine.incidentId)).toEqual({ __typename: 'Incident', id: mine.incidentId, title: 'Checkout down' });
    expect(await node(mine.organizationId)).toMatchObject({ __typename: 'Organization', id: mine.organizationId });
    // Upper-case hex names the same UUID.
    expect(await node(mine.serviceId.toUpperCase())).toMatchObject({ __typename: 'Service', id: mine.serviceId });
  });

  it('takes Relay global ids (base64 of "Type:uuid") too, and answers with the plain id', async () => {
    expect(await node(globalId('Service', mine.serviceId))).toEqual({ __typename: 'Service', id: mine.serviceId, name: 'checkout' });
    expect(await node(globalId('Delivery', mine.deliveryId))).toMatchObject({ __typename: 'Delivery', id: mine.deliveryId });
    // A global id that names another type than the row's names nothing.
    expect(await node(globalId('Deploy', mine.serviceId))).toBeNull();
  });

  it("is null for another organization's rows, exactly as for unknown or malformed ids", async () => {
    for (const id of [
      theirs.serviceId,
      theirs.deployId,
      theirs.endpointId,
      theirs.deliveryId,
      theirs.eventId,
      theirs.incidentId,
      theirs.organizationId,
    ]) {
      expect(await node(id), id).toBeNull();
      expect(await node(globalId('Service', id)), id).toBeNull();
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', '', globalId('Service', 'not-a-uuid'), 'U2VydmljZQ==']) {
      expect(await node(id), id).toBeNull();
    }
    // The other organization still finds its own.
    expect(await node(theirs.serviceId, theirs.tenant.apiToken)).toMatchObject({ __typename: 'Service', id: theirs.serviceId });
  });

  it('is null for a deleted endpoint, as webhookEndpoint(id:) is', async () => {
    const { endpoint } = await createEndpoint(
      hookline.app.database.prisma,
      mine.tenant.organizationId,
      { url: 'https://hooks.example.com/gone', name: 'gone' },
      { allowHttp: false, allowPrivate: false },
      10,
    );
    expect(await node(endpoint.id)).toMatchObject({ __typename: 'WebhookEndpoint' });
    await deleteEndpoint(hookline.app.database.prisma, mine.tenant.organizationId, endpoint.id);
    expect(await node(endpoint.id)).toBeNull();
  });

  it('needs an API token', async () => {
    const response = await requestGraphqlWith(hookline.baseUrl, undefined, NODE, { id: mine.serviceId });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('nodes(ids:)', () => {
  it("answers in order, across types, null where the id names none of the caller's rows", async () => {
    const ids = [
      mine.deliveryId,
      theirs.serviceId,
      mine.serviceId,
      'nonsense',
      globalId('Deploy', mine.deployId),
      mine.serviceId,
      mine.eventId,
    ];
    expect(await nodes(ids)).toEqual([
      { __typename: 'Delivery', id: mine.deliveryId },
      null,
      { __typename: 'Service', id: mine.serviceId },
      null,
      { __typename: 'Deploy', id: mine.deployId },
      { __typename: 'Service', id: mine.serviceId },
      { __typename: 'Event', id: mine.eventId },
    ]);
  });

  it('loads in a fixed number of statements however many ids it is given', async () => {
    const few = [mine.serviceId, mine.deployId, mine.deliveryId];
    const many = [...few, mine.endpointId, mine.eventId, mine.incidentId, mine.organizationId];
    const fewStatements = await statementsOf(() => nodes(few));
    const manyStatements = await statementsOf(() => nodes([...many, ...many, ...many]));
    // One statement finds the tables, then one per type (Prisma batches a type's rows), and the token check.
    expect(fewStatements.length).toBe(few.length + 2);
    expect(manyStatements.length).toBe(many.length + 2);
  });

  it('takes at most 100 ids', async () => {
    const response = await requestGraphqlWith(hookline.baseUrl, mine.tenant.apiToken, NODES, {
      ids: Array.from({ length: 101 }, () => mine.serviceId),
    });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await nodes(Array.from({ length: 100 }, () => mine.serviceId))).toHaveLength(100);
  });
});
