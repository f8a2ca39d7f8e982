// What protects the GraphQL API from expensive or malformed queries, and what its errors look
// like: depth and complexity limits, page sizes, masked unexpected errors and expected error codes.
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { print } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE, QUERY_LIMITS } from '../src/graphql/builder.ts';
import { schema } from '../src/graphql/schema.ts';
import { adminQuery } from '../src/db/admin.ts';
import { graphql } from './gql/index.ts';
import { dataOf, errorOf, requestGraphql, type GraphqlResponse } from './support/app.ts';
import { useHookline } from './support/fixture.ts';
import { CREATE_ENDPOINT, createEndpoint } from './support/operations.ts';

/** What a dashboard asks for: a page of endpoints, each with its latest delivery, stats and recent deliveries. */
const LIMITS_DASHBOARD = graphql(`
  query LimitsDashboard($first: Int, $deliveries: Int) {
    webhookEndpoints(first: $first) {
      edges {
        node {
          id name status
          latestDelivery { id status attempts { number } event { type } }
          stats { deliveriesLast24h successRateLast24h }
          deliveries(first: $deliveries) {
            edges { node { id status createdAt attempts { number succeeded responseStatus } event { type } } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
const LIMITS_TWO_LEVELS = graphql(`
  query LimitsTwoLevels {
    webhookEndpoints(first: 100) {
      edges { node { id deliveries(first: 100) { edges { node { id status attempts { number } } } } } }
    }
  }
`);
const LIMITS_FOUR_LEVELS = graphql(`
  query LimitsFourLevels {
    webhookEndpoints(first: 100) {
      edges { node { deliveries(first: 100) { edges { node { endpoint {
        deliveries(first: 100) { edges { node { endpoint {
          deliveries(first: 100) { edges { node { id } } }
        } } } }
      } } } } } }
    }
  }
`);
const LIMITS_DEEP = graphql(`
  query LimitsDeep($id: ID!) {
    delivery(id: $id) { endpoint { latestDelivery { endpoint { latestDelivery { endpoint { latestDelivery {
      endpoint { latestDelivery { endpoint { id } } }
    } } } } } } }
  }
`);
const LIMITS_ENDPOINTS_PAGE = graphql(`
  query LimitsEndpointsPage($first: Int, $last: Int) {
    webhookEndpoints(first: $first, last: $last) { edges { node { id } } }
  }
`);
const LIMITS_ENDPOINT_DELIVERIES = graphql(`
  query LimitsEndpointDeliveries($id: ID!, $first: Int) {
    webhookEndpoint(id: $id) { id deliveries(first: $first) { edges { node { id } } } }
  }
`);
const LIMITS_DELETE_ENDPOINT = graphql(`
  mutation LimitsDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }
`);
const LIMITS_VIEWER = graphql(`
  query LimitsViewer { viewer { id name } }
`);

const hookline = useHookline({ environment: { ROLE: 'api' } });
let endpointId: string;

beforeAll(async () => {
  // api only: nothing in these tests needs a delivery worker.
  endpointId = (await createEndpoint(hookline, hookline.tenant.apiToken, { url: 'https://hooks.example.com/limits', name: 'limits' })).id;
});

/** The single error of a failed operation. */
describe('query depth and complexity', () => {
  it('lets a dashboard page of 50 endpoints with 10 deliveries each and their attempts through', async () => {
    const { complexity, depth } = complexityFromQuery(print(LIMITS_DASHBOARD), { schema, variables: { first: 50, deliveries: 10 } });
    expect(depth).toBeLessThanOrEqual(QUERY_LIMITS.depth);
    expect(complexity).toBeLessThanOrEqual(QUERY_LIMITS.complexity);
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_DASHBOARD, { first: 50, deliveries: 10 });
    expect(dataOf(response).webhookEndpoints.edges.map((edge) => edge.node.id)).toEqual([endpointId]);
    // Page sizes decide the cost: the same query with pages of 100 deliveries is refused.
    const larger = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_DASHBOARD, { first: 50, deliveries: 100 });
    expect(errorOf(larger).extensions).toEqual(expect.objectContaining({ code: 'QUERY_TOO_COMPLEX', limit: 'complexity' }));
  });

  it('refuses connections of 100 nested in connections of 100 as too complex, before running anything', async () => {
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_TWO_LEVELS);
    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
    const error = errorOf(response);
    expect(error.extensions).toEqual({
      code: 'QUERY_TOO_COMPLEX',
      limit: 'complexity',
      value: expect.any(Number),
      max: QUERY_LIMITS.complexity,
    });
    expect(error.extensions!.value as number).toBeGreaterThan(QUERY_LIMITS.complexity);
    expect(error.message).toMatch(/^Query is too complex: its complexity is \d+, at most 50000 is allowed\./);
  });

  it('refuses connections nested four levels deep', async () => {
    const error = errorOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_FOUR_LEVELS));
    expect(error.extensions).toEqual(expect.objectContaining({ code: 'QUERY_TOO_COMPLEX' }));
  });

  it(`refuses queries deeper than ${QUERY_LIMITS.depth} levels`, async () => {
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_DEEP, {
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(response.body.data).toEqual({ delivery: null });
    const error = errorOf(response);
    expect(error).toEqual(
      expect.objectContaining({
        message: `Query is too complex: its depth is 11, at most ${QUERY_LIMITS.depth} is allowed. Select fewer nested fields or smaller pages (first), or split the query.`,
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'depth', value: 11, max: QUERY_LIMITS.depth },
      }),
    );
  });
});

describe('document size', () => {
  it(`refuses a document of more than ${QUERY_LIMITS.tokens} tokens while parsing it: 400 GRAPHQL_PARSE_FAILED`, async () => {
    const fields = Array.from({ length: QUERY_LIMITS.tokens }, () => 'id').join(' ');
    const response = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        authorization: `Bearer ${hookline.tenant.apiToken}`,
      },
      body: JSON.stringify({ query: `{ viewer { ${fields} } }` }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: `Syntax Error: Document contains more that ${QUERY_LIMITS.tokens} tokens. Parsing aborted.`,
          locations: [expect.any(Object)],
          extensions: { code: 'GRAPHQL_PARSE_FAILED' },
        },
      ],
    });
  });
});

describe('page sizes', () => {
  it(`allows up to ${MAX_PAGE_SIZE} and refuses more with BAD_USER_INPUT`, async () => {
    dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_ENDPOINTS_PAGE, { first: MAX_PAGE_SIZE }));
    const cases: [{ first?: number; last?: number }, string][] = [
      [{ first: MAX_PAGE_SIZE + 1 }, 'first'],
      [{ last: 1000 }, 'last'],
    ];
    for (const [variables, field] of cases) {
      const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_ENDPOINTS_PAGE, variables);
      expect(response.body.data).toBeNull();
      expect(errorOf(response)).toEqual(
        expect.objectContaining({
          message: `${field} must be at most ${MAX_PAGE_SIZE}`,
          extensions: { code: 'BAD_USER_INPUT', fields: [{ field, message: `must be at most ${MAX_PAGE_SIZE}` }] },
        }),
      );
    }
    const negative = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_ENDPOINTS_PAGE, { first: -1 });
    expect(errorOf(negative).extensions).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'first', message: 'must be 0 or more' }] });
  });

  it('checks nested connections too', async () => {
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_ENDPOINT_DELIVERIES, {
      id: endpointId,
      first: 500,
    });
    expect(response.body.data).toEqual({ webhookEndpoint: null });
    // Reported on the endpoint: plugin-prisma reads the nested page size while planning its query.
    expect(errorOf(response)).toEqual(
      expect.objectContaining({
        message: `first must be at most ${MAX_PAGE_SIZE}`,
        extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'first', message: `must be at most ${MAX_PAGE_SIZE}` }] },
      }),
    );
    const allowed = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_ENDPOINT_DELIVERIES, {
      id: endpointId,
      first: 0,
    });
    expect(dataOf(allowed).webhookEndpoint?.deliveries.edges).toEqual([]);
  });
});

describe('errors', () => {
  it('masks unexpected errors: "Unexpected error." with INTERNAL_SERVER_ERROR, nothing of the cause', async () => {
    // The database refuses: the table the resolver reads is gone for a moment.
    await adminQuery(hookline.database.url, 'ALTER TABLE webhook_endpoints RENAME TO webhook_endpoints_away');
    let response: GraphqlResponse<unknown>;
    try {
      response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_ENDPOINTS_PAGE, { first: 10 });
    } finally {
      await adminQuery(hookline.database.url, 'ALTER TABLE webhook_endpoints_away RENAME TO webhook_endpoints');
    }
    expect(response.body.data).toBeNull();
    expect(errorOf(response)).toEqual({
      message: 'Unexpected error.',
      locations: expect.any(Array),
      path: ['webhookEndpoints'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    const text = JSON.stringify(response.body);
    for (const leak of ['webhook_endpoints', 'exist', 'prisma', 'stack']) expect(text.toLowerCase()).not.toContain(leak);
    // And the API works again once the table is back.
    dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_ENDPOINTS_PAGE, { first: 10 }));
  });

  it('keeps the code of expected errors', async () => {
    const unauthenticated = await requestGraphql(hookline.baseUrl, 'hla_not-a-token', LIMITS_VIEWER);
    expect(unauthenticated.status).toBe(401);
    expect(errorOf(unauthenticated)).toEqual(
      expect.objectContaining({
        message: 'A valid API token (Authorization: Bearer hla_...) or a live sign-in session is required',
        extensions: { code: 'UNAUTHENTICATED' },
      }),
    );

    const id = '00000000-0000-4000-8000-000000000000';
    const notFound = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, LIMITS_DELETE_ENDPOINT, { id });
    expect(errorOf(notFound)).toEqual(
      expect.objectContaining({ message: `Webhook endpoint ${id} not found`, extensions: { code: 'NOT_FOUND' } }),
    );

    const badInput = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_ENDPOINT, {
      url: 'https://hooks.example.com/x',
      name: '',
    });
    expect(errorOf(badInput).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'name', message: 'must be 1 to 200 characters' }],
    });
  });
});
