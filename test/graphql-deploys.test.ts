// Deploys through GraphQL, as a dashboard reads them: the list with its filters and pages,
// one deploy with its previous deploy, the commits it brought (lead times) and their authors,
// and tenant isolation. Deploys come in through the real ingest endpoint, with `deployed_at`.
import { beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../src/domain/ingest/services.ts';
import { graphql } from './gql/index.ts';
import type { DeploysListQuery, ServiceDeploysListQuery } from './gql/graphql.ts';
import { dataOf, requestGraphql, type Tenant } from './support/app.ts';
import { useHookline } from './support/fixture.ts';
import { ingest } from './support/operations.ts';

const DEPLOYS_LIST = graphql(`
  query DeploysList($first: Int, $after: String, $serviceId: ID, $environment: String) {
    deploys(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {
      edges { cursor node { id commitSha environment deployedAt service { id name } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
const SERVICE_DEPLOYS_LIST = graphql(`
  query ServiceDeploysList($id: ID!, $first: Int, $after: String, $environment: String) {
    service(id: $id) {
      id
      deploys(first: $first, after: $after, environment: $environment) {
        edges { node { id environment } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);
const DEPLOY_DETAIL = graphql(`
  query DeployDetail($id: ID!) {
    deploy(id: $id) {
      id commitSha commitMessage branch deployedBy environment version description url deployedAt receivedAt
      service { id name }
      commits { sha message author timestamp position }
      previousDeploy { id commitSha environment deployedAt }
      commitsSincePrevious { sha message author timestamp leadTimeSeconds derived }
      authors
      suspectIn { rank }
    }
  }
`);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
let stranger: Tenant;
/** A second service of the tenant's organization, with its deploy token. */
let payments: { id: string; deployToken: string };
/** Whole seconds, ten hours ago: every deploy of the fixture is at a fixed offset from it. */
const t0 = Math.floor(Date.now() / 1000) * 1000 - 10 * HOUR;
const at = (offsetMs: number) => new Date(t0 + offsetMs).toISOString();

/** Deploy ids by fixture name. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  stranger = await hookline.createTenant('checkout');
  const created = await createService(hookline.app.database.prisma, hookline.tenant.organizationId, 'payments');
  payments = { id: created.service.id, deployToken: created.deployToken };

  // Sent out of order on purpose: the list orders by deployedAt, not by arrival.
  ids.prod3 = await ingest(hookline, hookline.tenant.deployToken, {
    commit_sha: 'c3c3c3c3c3c3',
    environment: 'production',
    deployed_at: at(2 * HOUR),
    commits: [
      { sha: 'c301', message: 'Add retries', author: 'alice', timestamp: at(1 * HOUR) },
      { sha: 'c302', message: 'Tune pool', author: 'carol', timestamp: at(90 * MINUTE) },
      { sha: 'c303', message: 'No time', author: 'alice' },
      // Dated after the deploy (a clock ahead): its lead time is 0, not negative.
      { sha: 'c304', message: 'Clock skew', timestamp: at(2 * HOUR + 10 * MINUTE) },
    ],
  });
  ids.prod1 = await ingest(hookline, hookline.tenant.deployToken, {
    commit_sha: 'a1a1a1a1a1a1',
    commit_message: 'Release 1.0',
    branch: 'main',
    deployed_by: 'ci-bot',
    environment: 'production',
    version: '1.0.0',
    description: 'First release',
    url: 'https://ci.example.com/runs/1',
    deployed_at: at(0),
    commits: [
      { sha: 'c101', message: 'Initial', author: 'alice', timestamp: at(-2 * HOUR) },
      { sha: 'c102', message: 'Docs', author: 'bob', timestamp: at(-30 * MINUTE) },
    ],
  });
  ids.staging2 = await ingest(hookline, hookline.tenant.deployToken, {
    commit_sha: 'b2b2b2b2b2b2',
    commit_message: 'Try it',
    environment: 'staging',
    deployed_at: at(1 * HOUR),
  });
  ids.payments1 = await ingest(hookline, payments.deployToken, {
    commit_sha: 'p1p1p1p1p1p1',
    environment: 'production',
    deployed_at: at(30 * MINUTE),
  });
  // A redeploy of prod3's commit, without commits: it brings nothing new.
  ids.prod4 = await ingest(hookline, hookline.tenant.deployToken, {
    commit_sha: 'c3c3c3c3c3c3',
    environment: 'production',
    deployed_at: at(3 * HOUR),
  });
  ids.prod5 = await ingest(hookline, hookline.tenant.deployToken, {
    commit_sha: 'd5d5d5d5d5d5',
    commit_message: 'Fix checkout',
    environment: 'production',
    deployed_at: at(4 * HOUR),
  });
  // No environment: its own line of deploys.
  ids.bare1 = await ingest(hookline, hookline.tenant.deployToken, { commit_sha: 'e1e1e1e1e1e1', deployed_at: at(5 * HOUR) });
  ids.bare2 = await ingest(hookline, hookline.tenant.deployToken, { commit_sha: 'e2e2e2e2e2e2', deployed_at: at(6 * HOUR) });
  ids.theirs = await ingest(hookline, stranger.deployToken, {
    commit_sha: 'f1f1f1f1f1f1',
    environment: 'production',
    deployed_at: at(2 * HOUR),
  });
});

async function listAll(token: string, variables: { serviceId?: string; environment?: string; first?: number }) {
  const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
  const seen: string[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const data: DeploysListQuery = dataOf(await requestGraphql(hookline.baseUrl, token, DEPLOYS_LIST, { first: 100, ...variables, after }));
    pages++;
    seen.push(...data.deploys.edges.map((edge) => names[edge.node.id] ?? edge.node.id));
    if (!data.deploys.pageInfo.hasNextPage) break;
    after = data.deploys.pageInfo.endCursor ?? null;
  }
  return { seen, pages };
}

async function detail(name: string, token = hookline.tenant.apiToken) {
  return dataOf(await requestGraphql(hookline.baseUrl, token, DEPLOY_DETAIL, { id: ids[name]! })).deploy;
}

describe('deploys', () => {
  it("lists the organization's deploys newest first by deployedAt", async () => {
    const data = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DEPLOYS_LIST, { first: 20 }));
    expect(data.deploys.edges.map((edge) => edge.node.id)).toEqual(
      ['bare2', 'bare1', 'prod5', 'prod4', 'prod3', 'staging2', 'payments1', 'prod1'].map((name) => ids[name]),
    );
    expect(data.deploys.edges[0]!.node).toEqual({
      id: ids.bare2,
      commitSha: 'e2e2e2e2e2e2',
      environment: null,
      deployedAt: at(6 * HOUR),
      service: { id: hookline.tenant.serviceId, name: 'checkout' },
    });
    expect(data.deploys.edges.at(-2)!.node.service).toEqual({ id: payments.id, name: 'payments' });
  });

  it('filters by service, by environment, and by both', async () => {
    expect((await listAll(hookline.tenant.apiToken, { serviceId: hookline.tenant.serviceId })).seen).toEqual([
      'bare2',
      'bare1',
      'prod5',
      'prod4',
      'prod3',
      'staging2',
      'prod1',
    ]);
    expect((await listAll(hookline.tenant.apiToken, { serviceId: payments.id })).seen).toEqual(['payments1']);
    expect((await listAll(hookline.tenant.apiToken, { environment: 'production' })).seen).toEqual([
      'prod5',
      'prod4',
      'prod3',
      'payments1',
      'prod1',
    ]);
    expect((await listAll(hookline.tenant.apiToken, { serviceId: hookline.tenant.serviceId, environment: 'staging' })).seen).toEqual([
      'staging2',
    ]);
    expect((await listAll(hookline.tenant.apiToken, { environment: 'nowhere' })).seen).toEqual([]);
  });

  it('refuses an environment filter PostgreSQL cannot compare (NUL, an unpaired surrogate) with BAD_USER_INPUT', async () => {
    for (const environment of ['production\u0000', '\udfff']) {
      const fields = [
        { field: 'environment', message: 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters' },
      ];
      const { body } = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DEPLOYS_LIST, { environment });
      expect(body.data).toBeNull();
      expect(body.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', fields } })]);
      // The same filter on one service's deploys.
      const nested = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SERVICE_DEPLOYS_LIST, {
        id: hookline.tenant.serviceId,
        environment,
      });
      expect(nested.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', fields } })]);
    }
  });

  it('pages with first/after without gaps or repeats', async () => {
    const { seen, pages } = await listAll(hookline.tenant.apiToken, { first: 3 });
    expect(pages).toBe(3);
    expect(seen).toEqual(['bare2', 'bare1', 'prod5', 'prod4', 'prod3', 'staging2', 'payments1', 'prod1']);
    const filtered = await listAll(hookline.tenant.apiToken, { first: 2, serviceId: hookline.tenant.serviceId, environment: 'production' });
    expect(filtered).toEqual({ seen: ['prod5', 'prod4', 'prod3', 'prod1'], pages: 2 });
  });

  it('Service.deploys pages through one service, optionally one environment', async () => {
    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const data: ServiceDeploysListQuery = dataOf(
        await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SERVICE_DEPLOYS_LIST, {
          id: hookline.tenant.serviceId,
          first: 2,
          after,
          environment: 'production',
        }),
      );
      const connection = data.service!.deploys;
      expect(connection.edges.length).toBeLessThanOrEqual(2);
      seen.push(...connection.edges.map((edge) => names[edge.node.id]!));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor ?? null;
    }
    expect(seen).toEqual(['prod5', 'prod4', 'prod3', 'prod1']);
    const all = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SERVICE_DEPLOYS_LIST, { id: payments.id }));
    expect(all.service!.deploys.edges.map((edge) => edge.node)).toEqual([{ id: ids.payments1, environment: 'production' }]);
  });
});

describe('deploy', () => {
  it('returns every field as sent, with the commits in payload order', async () => {
    const deploy = await detail('prod1');
    expect(deploy).toEqual({
      id: ids.prod1,
      commitSha: 'a1a1a1a1a1a1',
      commitMessage: 'Release 1.0',
      branch: 'main',
      deployedBy: 'ci-bot',
      environment: 'production',
      version: '1.0.0',
      description: 'First release',
      url: 'https://ci.example.com/runs/1',
      deployedAt: at(0),
      receivedAt: expect.any(String),
      service: { id: hookline.tenant.serviceId, name: 'checkout' },
      commits: [
        { sha: 'c101', message: 'Initial', author: 'alice', timestamp: at(-2 * HOUR), position: 0 },
        { sha: 'c102', message: 'Docs', author: 'bob', timestamp: at(-30 * MINUTE), position: 1 },
      ],
      // The first deploy of checkout to production.
      previousDeploy: null,
      // deployedAt − timestamp: 2 h and 30 min.
      commitsSincePrevious: [
        { sha: 'c101', message: 'Initial', author: 'alice', timestamp: at(-2 * HOUR), leadTimeSeconds: 7200, derived: false },
        { sha: 'c102', message: 'Docs', author: 'bob', timestamp: at(-30 * MINUTE), leadTimeSeconds: 1800, derived: false },
      ],
      authors: ['alice', 'bob'],
      suspectIn: [],
    });
    expect(Date.parse(deploy!.receivedAt)).toBeGreaterThan(t0);
  });

  it('previousDeploy is the latest earlier deploy of the same service and environment only', async () => {
    // prod3: staging2 and payments1 are in between, but neither is checkout in production.
    expect((await detail('prod3'))!.previousDeploy).toEqual({
      id: ids.prod1,
      commitSha: 'a1a1a1a1a1a1',
      environment: 'production',
      deployedAt: at(0),
    });
    expect((await detail('prod4'))!.previousDeploy?.id).toBe(ids.prod3);
    expect((await detail('prod5'))!.previousDeploy?.id).toBe(ids.prod4);
    expect((await detail('staging2'))!.previousDeploy).toBeNull();
    expect((await detail('payments1'))!.previousDeploy).toBeNull();
    // No environment: the previous deploy without one.
    expect((await detail('bare1'))!.previousDeploy).toBeNull();
    expect((await detail('bare2'))!.previousDeploy?.id).toBe(ids.bare1);
  });

  it('commitsSincePrevious: sent commits with exact lead times, and their distinct authors', async () => {
    const deploy = await detail('prod3');
    // Deployed at t0 + 2 h: c301 (t0 + 1 h) → 3600 s, c302 (t0 + 90 min) → 1800 s, c303 has no
    // timestamp → null, c304 (t0 + 2 h 10 min, after the deploy) → 0.
    expect(deploy!.commitsSincePrevious).toEqual([
      { sha: 'c301', message: 'Add retries', author: 'alice', timestamp: at(1 * HOUR), leadTimeSeconds: 3600, derived: false },
      { sha: 'c302', message: 'Tune pool', author: 'carol', timestamp: at(90 * MINUTE), leadTimeSeconds: 1800, derived: false },
      { sha: 'c303', message: 'No time', author: 'alice', timestamp: null, leadTimeSeconds: null, derived: false },
      { sha: 'c304', message: 'Clock skew', author: null, timestamp: at(2 * HOUR + 10 * MINUTE), leadTimeSeconds: 0, derived: false },
    ]);
    expect(deploy!.commits.map((commit) => [commit.sha, commit.position])).toEqual([
      ['c301', 0],
      ['c302', 1],
      ['c303', 2],
      ['c304', 3],
    ]);
    // Distinct, in order of first appearance; the commit without an author adds none.
    expect(deploy!.authors).toEqual(['alice', 'carol']);
  });

  it('commitsSincePrevious: the deployed head commit when none were sent, nothing for a redeploy', async () => {
    const derived = await detail('prod5');
    expect(derived!.commits).toEqual([]);
    expect(derived!.commitsSincePrevious).toEqual([
      { sha: 'd5d5d5d5d5d5', message: 'Fix checkout', author: null, timestamp: null, leadTimeSeconds: null, derived: true },
    ]);
    expect(derived!.authors).toEqual([]);
    // The first deploy of an environment, without commits, brought its head commit too.
    expect((await detail('staging2'))!.commitsSincePrevious).toEqual([
      { sha: 'b2b2b2b2b2b2', message: 'Try it', author: null, timestamp: null, leadTimeSeconds: null, derived: true },
    ]);

    // prod4 redeploys prod3's commit.
    const redeploy = await detail('prod4');
    expect(redeploy!.commitsSincePrevious).toEqual([]);
    expect(redeploy!.authors).toEqual([]);
  });

  it('is null for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect(dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DEPLOY_DETAIL, { id })).deploy).toBeNull();
    }
  });
});

describe('tenant isolation', () => {
  it("never shows another organization's deploys", async () => {
    // The stranger sees only its own deploy, whatever the filter.
    expect((await listAll(stranger.apiToken, {})).seen).toEqual(['theirs']);
    expect((await listAll(stranger.apiToken, { serviceId: hookline.tenant.serviceId })).seen).toEqual([]);
    expect((await listAll(stranger.apiToken, { serviceId: payments.id, environment: 'production' })).seen).toEqual([]);
    for (const name of ['prod1', 'prod3', 'payments1']) expect(await detail(name, stranger.apiToken)).toBeNull();
    const service = await requestGraphql(hookline.baseUrl, stranger.apiToken, SERVICE_DEPLOYS_LIST, { id: hookline.tenant.serviceId });
    expect(dataOf(service).service).toBeNull();

    // And the other way round; the stranger's deploy (same service name, same time) is no
    // one's previous deploy here.
    expect(await detail('theirs')).toBeNull();
    expect((await listAll(hookline.tenant.apiToken, { serviceId: stranger.serviceId })).seen).toEqual([]);
    expect((await detail('prod3'))!.previousDeploy?.id).toBe(ids.prod1);
  });

  it('refuses a caller without a valid API token', async () => {
    for (const token of [undefined, `hla_${'x'.repeat(40)}`]) {
      const response = await requestGraphql(hookline.baseUrl, token, DEPLOYS_LIST, { first: 20 });
      expect(response.body.data ?? null).toBeNull();
      expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });
});
