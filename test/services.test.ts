// Services and deploy tokens through GraphQL, and token rotation seen by every process.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import type { ServicesPageQuery } from './gql/graphql.ts';
import { dataOf, requestGraphql, type RunningApp, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const CREATE_SERVICE = graphql(`
  mutation CreateService($name: String!) {
    createService(name: $name) { deployToken service { id name deployTokenPrefix } }
  }
`);
const ROTATE_DEPLOY_TOKEN = graphql(`
  mutation RotateDeployToken($serviceId: ID!) {
    rotateDeployToken(serviceId: $serviceId) { deployToken service { id name deployTokenPrefix } }
  }
`);
const SERVICES_PAGE = graphql(`
  query ServicesPage($after: String) {
    viewer { id name }
    services(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } }
  }
`);
const SERVICE = graphql(`
  query Service($id: ID!) { service(id: $id) { id name } }
`);

const hookline = useHookline({ tenant: 'existing' });
let second: RunningApp;
let stranger: Tenant;

beforeAll(async () => {
  second = await hookline.startApp();
  stranger = await hookline.createTenant('theirs');
});

describe('createService', () => {
  it('creates a service and returns its deploy token once, storing only a hash', async () => {
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_SERVICE, { name: 'payments' });
    expect(response.status).toBe(200);
    const { deployToken, service } = dataOf(response).createService;
    expect(deployToken).toMatch(/^hld_[0-9A-Za-z]{40}$/);
    expect(service).toEqual({ id: expect.any(String), name: 'payments', deployTokenPrefix: deployToken.slice(0, 12) });

    const client = new pg.Client({ connectionString: hookline.database.url });
    await client.connect();
    const rows = await client.query(`SELECT * FROM deploy_tokens WHERE service_id = $1`, [service.id]);
    await client.end();
    expect(rows.rows).toHaveLength(1);
    expect(JSON.stringify(rows.rows)).not.toContain(deployToken);

    const ingest = await postDeploy(second.baseUrl, deployToken, { commit_sha: 'abc' });
    expect(ingest.body.status).toBe('accepted');
  });

  it('refuses a blank, too long or taken name with BAD_USER_INPUT', async () => {
    for (const [name, message] of [
      ['  ', 'Service name must be 1 to 200 characters'],
      ['x'.repeat(201), 'Service name must be 1 to 200 characters'],
      ['existing', 'A service named "existing" already exists'],
    ] as const) {
      const { body } = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_SERVICE, { name });
      expect(body.data).toBeNull();
      expect(body.errors).toEqual([
        expect.objectContaining({ message, extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'name', message }] } }),
      ]);
    }
  });

  it('refuses a name PostgreSQL cannot store (NUL, an unpaired surrogate) with BAD_USER_INPUT', async () => {
    const message = 'Service name must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters';
    for (const name of ['check\u0000out', 'check\ud800out']) {
      const { status, body } = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_SERVICE, { name });
      expect(status).toBe(200);
      expect(body).toEqual({
        data: null,
        errors: [expect.objectContaining({ message, extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'name', message }] } })],
      });
    }
    expect(await hookline.app.database.prisma.service.count({ where: { name: { startsWith: 'check' } } })).toBe(0);
  });

  it('lets another organization use the same name', async () => {
    const response = await requestGraphql(hookline.baseUrl, stranger.apiToken, CREATE_SERVICE, { name: 'existing' });
    expect(dataOf(response).createService.service.name).toBe('existing');
  });

  it('refuses callers without a valid API token', async () => {
    for (const token of [undefined, `hla_${'x'.repeat(40)}`, hookline.tenant.deployToken]) {
      const { status, body } = await requestGraphql(hookline.baseUrl, token, CREATE_SERVICE, { name: 'nope' });
      expect(status).toBe(401);
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('rotateDeployToken', () => {
  it('refuses the old token at once in every process, and accepts the new one', async () => {
    const created = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_SERVICE, { name: 'search' });
    const { deployToken: oldToken, service } = dataOf(created).createService;
    expect((await postDeploy(second.baseUrl, oldToken, { commit_sha: 'abc' })).status).toBe(200);

    const rotated = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, ROTATE_DEPLOY_TOKEN, { serviceId: service.id });
    const { deployToken: newToken } = dataOf(rotated).rotateDeployToken;
    expect(newToken).toMatch(/^hld_[0-9A-Za-z]{40}$/);
    expect(newToken).not.toBe(oldToken);
    expect(dataOf(rotated).rotateDeployToken.service).toEqual({ ...service, deployTokenPrefix: newToken.slice(0, 12) });

    // The other instance learns of the rotation with no delay: the next request is refused.
    for (const instance of [second, hookline]) {
      const refused = await postDeploy(instance.baseUrl, oldToken, { commit_sha: 'abc' });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('invalid_deploy_token');
      expect((await postDeploy(instance.baseUrl, newToken, { commit_sha: 'abc' })).body.status).toBe('accepted');
    }
  });

  it('leaves exactly one live token after concurrent rotations', async () => {
    const created = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_SERVICE, { name: 'ledger' });
    const serviceId = dataOf(created).createService.service.id;
    const results = await Promise.all(
      [hookline, second, hookline, second].map((instance) =>
        requestGraphql(instance.baseUrl, hookline.tenant.apiToken, ROTATE_DEPLOY_TOKEN, { serviceId }),
      ),
    );
    const tokens = results.map((result) => dataOf(result).rotateDeployToken.deployToken);
    const accepted = await Promise.all(tokens.map((token) => postDeploy(hookline.baseUrl, token, { commit_sha: 'abc' })));
    expect(accepted.filter((response) => response.status === 200)).toHaveLength(1);
    expect(await hookline.app.database.prisma.deployToken.count({ where: { serviceId, revokedAt: null } })).toBe(1);
  });

  it("treats another organization's service, an unknown id and a malformed id as not found", async () => {
    for (const serviceId of [stranger.serviceId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const { body } = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, ROTATE_DEPLOY_TOKEN, { serviceId });
      expect(body.errors).toEqual([
        expect.objectContaining({ message: `Service ${serviceId} not found`, extensions: { code: 'NOT_FOUND' } }),
      ]);
    }
    // The stranger's token still works: nothing was rotated.
    expect((await postDeploy(hookline.baseUrl, stranger.deployToken, { commit_sha: 'abc' })).status).toBe(200);
  });
});

describe('queries', () => {
  it('lists only the viewer organization services, page by page', async () => {
    const names: string[] = [];
    let after: string | null = null;
    for (;;) {
      const data: ServicesPageQuery = dataOf(await requestGraphql(hookline.baseUrl, stranger.apiToken, SERVICES_PAGE, { after }));
      expect(data.viewer.id).toBe(stranger.organizationId);
      names.push(...data.services.edges.map((edge) => edge.node.name));
      if (!data.services.pageInfo.hasNextPage) break;
      after = data.services.pageInfo.endCursor ?? null;
    }
    expect(names).toEqual(['existing', 'theirs']);
  });

  it('returns null for a service of another organization', async () => {
    expect(
      dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SERVICE, { id: stranger.serviceId })).service,
    ).toBeNull();
    expect(dataOf(await requestGraphql(hookline.baseUrl, stranger.apiToken, SERVICE, { id: stranger.serviceId })).service).toEqual({
      id: stranger.serviceId,
      name: 'theirs',
    });
  });
});
