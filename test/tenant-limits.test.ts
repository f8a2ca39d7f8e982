// What one organization may ask of a shared server: at most WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION
// live endpoints (REST 409 limit_reached, GraphQL LIMIT_REACHED), and at most
// MUTATION_RATE_LIMIT_PER_MINUTE mutation fields a minute, each alias counted (GraphQL
// RATE_LIMITED, HTTP 429 with Retry-After). Other organizations are not touched by either.
import { describe, expect, it } from 'vitest';
import type { Tenant } from './support/app.ts';
import { connectGraphqlWs } from './support/graphql-ws.ts';
import { post } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const MAX_ENDPOINTS = 3;
const MUTATIONS_PER_MINUTE = 10;

const hookline = useHookline({
  environment: {
    WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION: String(MAX_ENDPOINTS),
    MUTATION_RATE_LIMIT_PER_MINUTE: String(MUTATIONS_PER_MINUTE),
  },
  tenant: false,
});

function createByRest(tenant: Tenant, index: number) {
  return post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
    body: JSON.stringify({ url: `https://hooks.example.com/${index}`, name: `endpoint ${index}` }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
  });
}

/** A GraphQL request as any client sends it, with the answer's status, Retry-After and body. */
async function graphql(tenant: Tenant, query: string) {
  const response = await fetch(`${hookline.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

const LIMIT_MESSAGE = `The organization has ${MAX_ENDPOINTS} webhook endpoints, the most it may have (${MAX_ENDPOINTS}); delete one first`;

describe('endpoints per organization', () => {
  it('refuses one more than the limit over REST and GraphQL, and counts a deleted one no more', async () => {
    const tenant = await hookline.createTenant();
    const ids: string[] = [];
    for (let index = 0; index < MAX_ENDPOINTS; index++) {
      const created = await createByRest(tenant, index);
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }

    const refused = await createByRest(tenant, 99);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(refused.body).toEqual({ error: { code: 'limit_reached', message: LIMIT_MESSAGE } });

    const overGraphql = await graphql(
      tenant,
      'mutation { createWebhookEndpoint(url: "https://hooks.example.com/g", name: "g") { endpoint { id } } }',
    );
    expect(overGraphql.status).toBe(200);
    expect(overGraphql.body).toEqual({
      data: null,
      errors: [
        {
          message: LIMIT_MESSAGE,
          locations: [{ line: 1, column: 12 }],
          path: ['createWebhookEndpoint'],
          extensions: { code: 'LIMIT_REACHED', limit: MAX_ENDPOINTS },
        },
      ],
    });
    expect(await hookline.app.database.prisma.webhookEndpoint.count({ where: { organizationId: tenant.organizationId } })).toBe(
      MAX_ENDPOINTS,
    );

    // Another organization has its own count.
    expect((await createByRest(await hookline.createTenant(), 0)).status).toBe(201);

    const deleted = await graphql(tenant, `mutation { deleteWebhookEndpoint(id: "${ids[0]}") }`);
    expect(deleted.body).toEqual({ data: { deleteWebhookEndpoint: ids[0] } });
    expect((await createByRest(tenant, 100)).status).toBe(201);
    expect((await createByRest(tenant, 101)).status).toBe(409);
  });

  it('refuses a request whose aliases would pass the limit as a whole, before any endpoint is made', async () => {
    const tenant = await hookline.createTenant();
    expect((await createByRest(tenant, 0)).status).toBe(201);
    const creations = (count: number, from = 0) =>
      Array.from(
        { length: count },
        (_, index) =>
          `e${from + index}: createWebhookEndpoint(url: "https://hooks.example.com/${from + index}", name: "e") { signingSecret }`,
      );
    // Two more through a fragment, one as a plain field: three would pass the limit of 3 by one.
    const refused = await graphql(
      tenant,
      `mutation { ${creations(1).join(' ')} ...more } fragment more on Mutation { ${creations(2, 1).join(' ')} }`,
    );
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      errors: [
        {
          message: `The organization has 1 webhook endpoints and this request would make 3 more, past the most it may have (${MAX_ENDPOINTS}); nothing was made`,
          extensions: { code: 'LIMIT_REACHED', limit: MAX_ENDPOINTS },
        },
      ],
    });
    expect(await hookline.app.database.prisma.webhookEndpoint.count({ where: { organizationId: tenant.organizationId } })).toBe(1);

    // Two fit: both are made, and both secrets are shown.
    const made = await graphql(tenant, `mutation { ${creations(2).join(' ')} }`);
    expect(made.body.errors).toBeUndefined();
    expect(Object.values(made.body.data).map((created: any) => created.signingSecret)).toEqual([
      expect.stringMatching(/^whsec_/),
      expect.stringMatching(/^whsec_/),
    ]);
  });

  it('holds under concurrent creations: exactly the limit is made', async () => {
    const tenant = await hookline.createTenant();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => createByRest(tenant, index)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(await hookline.app.database.prisma.webhookEndpoint.count({ where: { organizationId: tenant.organizationId } })).toBe(
      MAX_ENDPOINTS,
    );
  });
});

describe('mutations per organization and minute', () => {
  /** One request running `count` aliased createListener mutations (fragments count what they spread). */
  const listeners = (count: number) =>
    `mutation { ${Array.from({ length: count }, (_, index) => (index % 2 ? `l${index}: createListener { id }` : `...on Mutation { l${index}: createListener { id } }`)).join(' ')} }`;

  it('counts each aliased field, refuses the request that passes the limit as a whole with 429 and Retry-After, and leaves others alone', async () => {
    const tenant = await hookline.createTenant();
    const first = await graphql(tenant, listeners(6));
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.data)).toHaveLength(6);

    // 6 + 5 > 10: none of the 5 runs.
    const refused = await graphql(tenant, listeners(5));
    expect(refused.status).toBe(429);
    const retryAfterSeconds = Number(refused.retryAfter);
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      errors: [
        {
          message: `Too many mutations: an organization may run ${MUTATIONS_PER_MINUTE} mutation fields a minute (each alias counts); retry in ${retryAfterSeconds} s`,
          extensions: { code: 'RATE_LIMITED', limit: MUTATIONS_PER_MINUTE, retryAfterSeconds },
        },
      ],
    });
    expect(await hookline.app.database.prisma.listener.count({ where: { organizationId: tenant.organizationId } })).toBe(6);

    // Queries are not mutations; another organization has its own count.
    const query = await graphql(tenant, '{ webhookEndpoints(first: 1) { edges { node { id } } } }');
    expect(query.body).toEqual({ data: { webhookEndpoints: { edges: [] } } });
    const other = await graphql(await hookline.createTenant(), listeners(MUTATIONS_PER_MINUTE));
    expect(other.status).toBe(200);
    expect(Object.keys(other.body.data)).toHaveLength(MUTATIONS_PER_MINUTE);
  });

  it('refuses the same over graphql-ws, without what only HTTP uses (extensions.http)', async () => {
    const tenant = await hookline.createTenant();
    expect((await graphql(tenant, listeners(MUTATIONS_PER_MINUTE))).status).toBe(200);
    const client = connectGraphqlWs(hookline.baseUrl, tenant.apiToken);
    try {
      const results: unknown[] = [];
      await new Promise<void>((resolve, reject) =>
        client.subscribe({ query: listeners(1) }, { next: (result) => results.push(result), error: reject, complete: resolve }),
      );
      expect(results).toEqual([
        {
          errors: [
            {
              message: expect.stringMatching(/^Too many mutations/),
              extensions: { code: 'RATE_LIMITED', limit: MUTATIONS_PER_MINUTE, retryAfterSeconds: expect.any(Number) },
            },
          ],
        },
      ]);
    } finally {
      await client.dispose();
    }
  });
});
