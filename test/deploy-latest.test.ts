// GET /api/ingest/deploy/latest: the latest deploy of the deploy token's service to an
// environment, where `hookline deploy` starts its commit list. Real HTTP, real database.
import { describe, expect, it } from 'vitest';
import { createService, rotateDeployToken } from '../src/domain/ingest/services.ts';
import { useHookline } from './support/fixture.ts';
import { ingest } from './support/operations.ts';

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' } });

async function latest(token: string | undefined, query = '') {
  const response = await fetch(`${hookline.baseUrl}/api/ingest/deploy/latest${query}`, {
    headers: token ? { 'x-deploy-token': token } : {},
  });
  return { status: response.status, body: await response.json() };
}

describe('GET /api/ingest/deploy/latest', () => {
  it('answers deploy null for a service with no deploy to the environment yet (a first deploy)', async () => {
    expect(await latest(hookline.tenant.deployToken, '?environment=production')).toEqual({
      status: 200,
      body: { service: { id: hookline.tenant.serviceId, name: 'checkout' }, deploy: null },
    });
  });

  it('answers the latest deploy by deployed_at to that environment, and to no environment without the parameter', async () => {
    const older = await ingest(hookline, hookline.tenant.deployToken, {
      commit_sha: 'aaa111',
      environment: 'production',
      deployed_at: '2026-01-02T00:00:00Z',
    });
    // Reported later but deployed earlier: not the latest.
    await ingest(hookline, hookline.tenant.deployToken, {
      commit_sha: 'bbb222',
      environment: 'production',
      deployed_at: '2026-01-01T00:00:00Z',
    });
    await ingest(hookline, hookline.tenant.deployToken, {
      commit_sha: 'ccc333',
      environment: 'staging',
      deployed_at: '2026-01-03T00:00:00Z',
    });
    const unnamed = await ingest(hookline, hookline.tenant.deployToken, { commit_sha: 'ddd444', deployed_at: '2026-01-04T00:00:00Z' });

    expect(await latest(hookline.tenant.deployToken, '?environment=production')).toEqual({
      status: 200,
      body: {
        service: { id: hookline.tenant.serviceId, name: 'checkout' },
        deploy: { deploy_id: older, commit_sha: 'aaa111', environment: 'production', deployed_at: '2026-01-02T00:00:00.000Z' },
      },
    });
    expect((await latest(hookline.tenant.deployToken)).body.deploy).toEqual({
      deploy_id: unnamed,
      commit_sha: 'ddd444',
      environment: null,
      deployed_at: '2026-01-04T00:00:00.000Z',
    });
  });

  it("never answers another service's deploys: each token reads only its own service", async () => {
    const other = await createService(hookline.app.database.prisma, hookline.tenant.organizationId, 'payments');
    const stranger = await hookline.createTenant('checkout');
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
    const service = await createService(hookline.app.database.prisma, hookline.tenant.organizationId, 'search');
    await rotateDeployToken(hookline.app.database.prisma, hookline.tenant.organizationId, service.service.id);
    for (const token of [undefined, 'hld_short', `hld_${'x'.repeat(40)}`, service.deployToken, hookline.tenant.apiToken]) {
      expect(await latest(token, '?environment=production')).toEqual(refused);
    }
    // The token is checked before the query.
    expect(await latest(service.deployToken, '?environment=a&environment=b')).toEqual(refused);
  });

  it('answers 400 validation_failed for an environment given twice', async () => {
    expect(await latest(hookline.tenant.deployToken, '?environment=a&environment=b')).toEqual({
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
