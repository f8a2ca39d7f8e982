// GET /api/ingest/deploy/latest: the latest deploy of the deploy token's service to an
// environment, where `hookline deploy` starts its commit list. Real HTTP, real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, rotateDeployToken } from '../src/domain/ingest/services.ts';
import { createTenant, startApp, type RunningApp, type Tenant } from './support/app.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { postDeploy } from './support/http.ts';

let database: TestDatabase;
let running: RunningApp;
let tenant: Tenant;

beforeAll(async () => {
  database = await createTestDatabase();
  running = await startApp(database.url, { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' });
  tenant = await createTenant(running.app, 'checkout');
});

afterAll(async () => {
  await running?.close();
  await database?.drop();
});

async function latest(token: string | undefined, query = '') {
  const response = await fetch(`${running.baseUrl}/api/ingest/deploy/latest${query}`, {
    headers: token ? { 'x-deploy-token': token } : {},
  });
  return { status: response.status, body: await response.json() };
}

async function deploy(token: string, payload: Record<string, unknown>): Promise<string> {
  const response = await postDeploy(running.baseUrl, token, payload);
  expect(response.status).toBe(200);
  return response.body.deploy_id;
}

describe('GET /api/ingest/deploy/latest', () => {
  it('answers deploy null for a service with no deploy to the environment yet (a first deploy)', async () => {
    expect(await latest(tenant.deployToken, '?environment=production')).toEqual({
      status: 200,
      body: { service: { id: tenant.serviceId, name: 'checkout' }, deploy: null },
    });
  });

  it('answers the latest deploy by deployed_at to that environment, and to no environment without the parameter', async () => {
    const older = await deploy(tenant.deployToken, {
      commit_sha: 'aaa111',
      environment: 'production',
      deployed_at: '2026-01-02T00:00:00Z',
    });
    // Reported later but deployed earlier: not the latest.
    await deploy(tenant.deployToken, { commit_sha: 'bbb222', environment: 'production', deployed_at: '2026-01-01T00:00:00Z' });
    await deploy(tenant.deployToken, { commit_sha: 'ccc333', environment: 'staging', deployed_at: '2026-01-03T00:00:00Z' });
    const unnamed = await deploy(tenant.deployToken, { commit_sha: 'ddd444', deployed_at: '2026-01-04T00:00:00Z' });

    expect(await latest(tenant.deployToken, '?environment=production')).toEqual({
      status: 200,
      body: {
        service: { id: tenant.serviceId, name: 'checkout' },
        deploy: { deploy_id: older, commit_sha: 'aaa111', environment: 'production', deployed_at: '2026-01-02T00:00:00.000Z' },
      },
    });
    expect((await latest(tenant.deployToken)).body.deploy).toEqual({
      deploy_id: unnamed,
      commit_sha: 'ddd444',
      environment: null,
      deployed_at: '2026-01-04T00:00:00.000Z',
    });
  });

  it("never answers another service's deploys: each token reads only its own service", async () => {
    const other = await createService(running.app.database.prisma, tenant.organizationId, 'payments');
    const stranger = await createTenant(running.app, 'checkout');
    expect(await latest(other.deployToken, '?environment=production')).toEqual({
      status: 200,
      body: { service: { id: other.service.id, name: 'payments' }, deploy: null },
    });
    expect((await latest(stranger.deployToken, '?environment=production')).body).toEqual({
      service: { id: stranger.serviceId, name: 'checkout' },
      deploy: null,
    });
  });

  it('refuses a missing, malformed, unknown, revoked or API token with 401 invalid_deploy_token', async () => {
    const refused = {
      status: 401,
      body: { error: { code: 'invalid_deploy_token', message: 'X-Deploy-Token is missing or is not a valid deploy token' } },
    };
    const service = await createService(running.app.database.prisma, tenant.organizationId, 'search');
    await rotateDeployToken(running.app.database.prisma, tenant.organizationId, service.service.id);
    for (const token of [undefined, 'hld_short', `hld_${'x'.repeat(40)}`, service.deployToken, tenant.apiToken]) {
      expect(await latest(token, '?environment=production')).toEqual(refused);
    }
    // The token is checked before the query.
    expect(await latest(service.deployToken, '?environment=a&environment=b')).toEqual(refused);
  });

  it('answers 400 validation_failed for an environment given twice', async () => {
    expect(await latest(tenant.deployToken, '?environment=a&environment=b')).toEqual({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'The query is invalid',
          details: [{ field: 'environment', message: 'must be given once' }],
        },
      },
    });
  });
});
