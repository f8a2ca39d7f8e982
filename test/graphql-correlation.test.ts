import { describe, expect, it } from 'vitest';
import { MAX_DEPENDENCIES } from '../src/domain/correlation/dependencies.ts';
import { graphql } from './gql/index.ts';
import { dataOf, errorOf, rollbacksJudged, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const CREATE_SERVICE = graphql(`
  mutation GraphqlCorrelationCreateService($name: String!) { createService(name: $name) { service { id name } deployToken } }
`);
const SET_DEPENDENCIES = graphql(`
  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {
    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id name dependsOn { name } dependents { name } }
  }
`);
const SERVICE_DEPENDENCIES = graphql(`
  query ServiceDependencies($id: ID!) { service(id: $id) { name dependsOn { name } dependents { name } } }
`);
const DEPLOY_ROLLBACK = graphql(`
  query DeployRollback($id: ID!) {
    deploy(id: $id) { id isRollback restoredDeploy { id } rolledBack rolledBackBy { id } }
  }
`);
const DEPLOYS_ROLLBACKS = graphql(`
  query DeploysRollbacks($serviceId: ID) {
    deploys(first: 50, serviceId: $serviceId) { edges { node { id commitSha environment isRollback rolledBack } } }
  }
`);
const DORA_FAILURES = graphql(`
  query DoraFailures($serviceId: ID, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate }
  }
`);
const TIMELINE = graphql(`
  query Timeline($first: Int, $after: String, $last: Int, $before: String, $serviceId: ID, $environment: String) {
    timeline(first: $first, after: $after, last: $last, before: $before, serviceId: $serviceId, environment: $environment) {
      edges { cursor node { __typename ... on Deploy { id } ... on ChangeEvent { id kind summary service { name } } } }
      pageInfo { hasNextPage hasPreviousPage endCursor startCursor }
    }
  }
`);
const CHANGE_EVENTS = graphql(`
  query ChangeEvents($serviceId: ID, $environment: String) {
    changeEvents(first: 10, serviceId: $serviceId, environment: $environment) { edges { node { id kind summary environment url changedAt service { name } } } }
  }
`);
const CHANGE_EVENT = graphql(`
  query ChangeEvent($id: ID!) { changeEvent(id: $id) { id kind } }
`);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: 'off' }, tenant: false });

const gql = hookline.graphql;

async function service(tenant: Tenant, name: string) {
  const created = dataOf(await gql(tenant.apiToken, CREATE_SERVICE, { name })).createService;
  return { id: created.service.id, deployToken: created.deployToken };
}

async function deploy(token: string, payload: Record<string, unknown>, path = '/api/ingest/deploy'): Promise<string> {
  const response = await postDeploy(hookline.baseUrl, token, payload, {}, path);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.deploy_id ?? response.body.change_id;
}

describe('service dependencies', () => {
  it('sets, replaces and reads dependsOn and dependents; cycles are allowed; the same id twice counts once', async () => {
    const tenant = await hookline.createTenant('checkout');
    const payments = await service(tenant, 'payments');
    const ledger = await service(tenant, 'ledger');
    const set = (serviceId: string, dependsOn: string[]) => gql(tenant.apiToken, SET_DEPENDENCIES, { serviceId, dependsOn });

    expect(dataOf(await set(tenant.serviceId, [payments.id, ledger.id, payments.id.toUpperCase()])).setServiceDependencies).toEqual({
      id: tenant.serviceId,
      name: 'checkout',
      dependsOn: [{ name: 'ledger' }, { name: 'payments' }],
      dependents: [],
    });
    // A cycle: ledger → checkout → ledger.
    dataOf(await set(ledger.id, [tenant.serviceId]));
    dataOf(await set(payments.id, [ledger.id]));
    const read = async (id: string) => dataOf(await gql(tenant.apiToken, SERVICE_DEPENDENCIES, { id })).service;
    expect(await read(ledger.id)).toEqual({
      name: 'ledger',
      dependsOn: [{ name: 'checkout' }],
      dependents: [{ name: 'checkout' }, { name: 'payments' }],
    });
    // Replacing: only payments now; an empty list removes all.
    dataOf(await set(tenant.serviceId, [payments.id]));
    expect(await read(tenant.serviceId)).toEqual({ name: 'checkout', dependsOn: [{ name: 'payments' }], dependents: [{ name: 'ledger' }] });
    dataOf(await set(ledger.id, []));
    expect(await read(tenant.serviceId)).toEqual({ name: 'checkout', dependsOn: [{ name: 'payments' }], dependents: [] });
  });

  it('refuses itself, services of another organization, malformed ids and too many, per item, changing nothing', async () => {
    const tenant = await hookline.createTenant('checkout');
    const stranger = await hookline.createTenant('theirs');
    const payments = await service(tenant, 'payments');
    dataOf(await gql(tenant.apiToken, SET_DEPENDENCIES, { serviceId: tenant.serviceId, dependsOn: [payments.id] }));

    const refused = errorOf(
      await gql(tenant.apiToken, SET_DEPENDENCIES, {
        serviceId: tenant.serviceId,
        dependsOn: [payments.id, tenant.serviceId, stranger.serviceId, 'nope'],
      }),
    );
    expect(refused.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'dependsOn[3]', message: 'must be a service id' }],
    });
    const foreign = errorOf(
      await gql(tenant.apiToken, SET_DEPENDENCIES, { serviceId: tenant.serviceId, dependsOn: [tenant.serviceId, stranger.serviceId] }),
    );
    expect(foreign.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'dependsOn[0]', message: 'must not be the service itself' },
        { field: 'dependsOn[1]', message: 'is not a service of this organization' },
      ],
    });
    const tooMany = Array.from({ length: MAX_DEPENDENCIES + 1 }, () => payments.id);
    expect(errorOf(await gql(tenant.apiToken, SET_DEPENDENCIES, { serviceId: tenant.serviceId, dependsOn: tooMany })).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'dependsOn', message: `must have at most ${MAX_DEPENDENCIES} services` }],
    });
    // Another organization's service, or none, is NOT_FOUND; theirs cannot name ours either.
    for (const serviceId of [stranger.serviceId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      expect(errorOf(await gql(tenant.apiToken, SET_DEPENDENCIES, { serviceId, dependsOn: [] }))).toEqual(
        expect.objectContaining({ message: `Service ${serviceId} not found`, extensions: { code: 'NOT_FOUND' } }),
      );
    }
    expect(
      errorOf(await gql(stranger.apiToken, SET_DEPENDENCIES, { serviceId: stranger.serviceId, dependsOn: [payments.id] })).extensions,
    ).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'dependsOn[0]', message: 'is not a service of this organization' }],
    });
    expect(dataOf(await gql(tenant.apiToken, SERVICE_DEPENDENCIES, { id: tenant.serviceId })).service!.dependsOn).toEqual([
      { name: 'payments' },
    ]);
    expect(dataOf(await gql(stranger.apiToken, SERVICE_DEPENDENCIES, { id: stranger.serviceId })).service!.dependsOn).toEqual([]);
  });
});

describe('rollbacks', () => {
  it('marks rollbacks and what they undid, by commit or version, per service and environment; a redeploy is no rollback', async () => {
    const tenant = await hookline.createTenant('checkout');
    const start = Date.now() - 10 * HOUR;
    const at = (hours: number) => new Date(start + hours * HOUR).toISOString();
    const ids: Record<string, string> = {};
    const send = async (name: string, payload: Record<string, unknown>) =>
      (ids[name] = await deploy(tenant.deployToken, { environment: 'production', ...payload }));
    await send('v1', { commit_sha: 'c1', version: '1.0', deployed_at: at(0) });
    await send('v1-rerun', { commit_sha: 'c1', version: '1.0', deployed_at: at(1) });
    await send('v2', { commit_sha: 'c2', version: '2.0', deployed_at: at(2) });
    await send('v3', { commit_sha: 'c3', version: '3.0', deployed_at: at(3) });
    await send('staging-v1', { commit_sha: 'c1', environment: 'staging', deployed_at: at(3.5) });
    await send('back-to-v1', { commit_sha: 'c1-rebuilt', version: '1.0', deployed_at: at(4) });
    await send('v4', { commit_sha: 'c4', deployed_at: at(5) });
    // Reported late: a deploy between v4 and the next, then a rollback of it.
    await send('v5', { commit_sha: 'c5', deployed_at: at(7) });
    await send('v4-again', { commit_sha: 'c4', deployed_at: at(8) });
    await send('v4-late-between', { commit_sha: 'c4b', deployed_at: at(6) });

    const facts = async (name: string) => {
      const d = dataOf(await gql(tenant.apiToken, DEPLOY_ROLLBACK, { id: ids[name]! })).deploy!;
      const nameOf = (ref: { id: string } | null | undefined) => (ref ? Object.keys(ids).find((key) => ids[key] === ref.id) : null);
      return [d.isRollback, nameOf(d.restoredDeploy), d.rolledBack, nameOf(d.rolledBackBy)];
    };
    expect(await facts('v1')).toEqual([false, null, false, null]);
    expect(await facts('v1-rerun')).toEqual([false, null, false, null]);
    expect(await facts('v2')).toEqual([false, null, true, 'back-to-v1']);
    expect(await facts('v3')).toEqual([false, null, true, 'back-to-v1']);
    expect(await facts('staging-v1')).toEqual([false, null, false, null]);
    expect(await facts('back-to-v1')).toEqual([true, 'v1-rerun', false, null]);
    expect(await facts('v4')).toEqual([false, null, false, null]);
    expect(await facts('v4-late-between')).toEqual([false, null, true, 'v4-again']);
    expect(await facts('v5')).toEqual([false, null, true, 'v4-again']);
    expect(await facts('v4-again')).toEqual([true, 'v4', false, null]);

    // A page of deploys: one loader for all of them.
    const page = dataOf(await gql(tenant.apiToken, DEPLOYS_ROLLBACKS, { serviceId: tenant.serviceId })).deploys.edges.map((e) => e.node);
    const flags = Object.fromEntries(page.map((d) => [Object.keys(ids).find((key) => ids[key] === d.id), [d.isRollback, d.rolledBack]]));
    expect(flags).toEqual({
      v1: [false, false],
      'v1-rerun': [false, false],
      v2: [false, true],
      v3: [false, true],
      'staging-v1': [false, false],
      'back-to-v1': [true, false],
      v4: [false, false],
      'v4-late-between': [false, true],
      v5: [false, true],
      'v4-again': [true, false],
    });

    // DORA: rolled-back deploys are failed changes (4 of 10), with no incident at all.
    await rollbacksJudged(hookline.app);
    const dora = dataOf(
      await gql(tenant.apiToken, DORA_FAILURES, { serviceId: tenant.serviceId, from: at(-1), to: new Date().toISOString() }),
    ).dora;
    expect(dora).toEqual({ deployCount: 10, changeFailureRate: 0.4 });
    // A period that ends before the rollbacks still counts v2 and v3 as failed: they were undone later.
    const early = dataOf(await gql(tenant.apiToken, DORA_FAILURES, { serviceId: tenant.serviceId, from: at(-1), to: at(3.9) })).dora;
    expect(early).toEqual({ deployCount: 5, changeFailureRate: 0.4 });
  });
});

describe('change events and the deploy timeline', () => {
  it('lists deploys and change events together, newest first, a page at a time in both directions, filtered', async () => {
    const tenant = await hookline.createTenant('checkout');
    const other = await hookline.createTenant('checkout');
    const payments = await service(tenant, 'payments');
    const start = Date.now() - HOUR;
    const at = (minutes: number) => new Date(start + minutes * MINUTE).toISOString();
    const d1 = await deploy(tenant.deployToken, { commit_sha: 'a', environment: 'production', deployed_at: at(0) });
    const c1 = await deploy(
      tenant.deployToken,
      { kind: 'feature_flag', summary: 'new flow on', environment: 'production', url: 'https://flags.example.com/1', changed_at: at(10) },
      '/api/ingest/change',
    );
    const d2 = await deploy(payments.deployToken, { commit_sha: 'b', environment: 'production', deployed_at: at(20) });
    const c2 = await deploy(
      payments.deployToken,
      { kind: 'config', summary: 'timeout 2 s', environment: 'staging', changed_at: at(30) },
      '/api/ingest/change',
    );
    const d3 = await deploy(tenant.deployToken, { commit_sha: 'c', environment: 'staging', deployed_at: at(40) });
    await deploy(other.deployToken, { commit_sha: 'theirs', deployed_at: at(35) });
    await deploy(other.deployToken, { kind: 'config', summary: 'theirs', changed_at: at(36) }, '/api/ingest/change');

    type Page = {
      edges: { cursor: string; node: { __typename?: string; id: string } }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor?: string | null; startCursor?: string | null };
    };
    const page = async (variables: Record<string, unknown>): Promise<Page> =>
      dataOf(await gql(tenant.apiToken, TIMELINE, variables)).timeline;
    const first = await page({ first: 2 });
    expect(first.edges.map((e) => [e.node.__typename, e.node.id])).toEqual([
      ['Deploy', d3],
      ['ChangeEvent', c2],
    ]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await page({ first: 2, after: first.pageInfo.endCursor });
    expect(second.edges.map((e) => e.node.id)).toEqual([d2, c1]);
    const third = await page({ first: 2, after: second.pageInfo.endCursor });
    expect(third.edges.map((e) => e.node.id)).toEqual([d1]);
    expect(third.pageInfo.hasNextPage).toBe(false);
    const back = await page({ last: 2, before: second.pageInfo.startCursor });
    expect(back.edges.map((e) => e.node.id)).toEqual([d3, c2]);

    expect((await page({ first: 10, serviceId: tenant.serviceId })).edges.map((e) => e.node.id)).toEqual([d3, c1, d1]);
    expect((await page({ first: 10, environment: 'staging' })).edges.map((e) => e.node.id)).toEqual([d3, c2]);
    expect((await page({ first: 10, serviceId: 'nope' })).edges).toEqual([]);

    const changes = dataOf(await gql(tenant.apiToken, CHANGE_EVENTS, {})).changeEvents.edges.map((e) => e.node);
    expect(changes).toEqual([
      {
        id: c2,
        kind: 'config',
        summary: 'timeout 2 s',
        environment: 'staging',
        url: null,
        changedAt: at(30),
        service: { name: 'payments' },
      },
      {
        id: c1,
        kind: 'feature_flag',
        summary: 'new flow on',
        environment: 'production',
        url: 'https://flags.example.com/1',
        changedAt: at(10),
        service: { name: 'checkout' },
      },
    ]);
    expect(dataOf(await gql(tenant.apiToken, CHANGE_EVENTS, { serviceId: payments.id })).changeEvents.edges.map((e) => e.node.id)).toEqual([
      c2,
    ]);

    // Another organization sees none of it, and cannot page from our entries.
    expect(dataOf(await gql(other.apiToken, CHANGE_EVENT, { id: c1 })).changeEvent).toBeNull();
    expect(dataOf(await gql(tenant.apiToken, CHANGE_EVENT, { id: c1 })).changeEvent).toEqual({ id: c1, kind: 'feature_flag' });
    const theirs = dataOf(await gql(other.apiToken, TIMELINE, { first: 10 })).timeline.edges.map((e) => e.node.id);
    expect(theirs).toHaveLength(2);
    expect(theirs).not.toContain(c1);
    expect(errorOf(await gql(other.apiToken, TIMELINE, { first: 2, after: first.pageInfo.endCursor })).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'after', message: 'is not a cursor of this list' }],
    });
  });
});

describe('environment aliases', () => {
  const ENVIRONMENTS = graphql(`
    query Environments { environments { name aliases spellings } }
  `);
  const SET_ALIASES = graphql(`
    mutation SetEnvironmentAliases($environment: String!, $aliases: [String!]!) {
      setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }
    }
  `);
  const DEPLOY_IDS = graphql(`
    query AliasDeploys($environment: String) { deploys(first: 20, environment: $environment) { edges { node { id } } } }
  `);
  const DORA_COUNT = graphql(`
    query AliasDora($environment: String, $from: DateTime!, $to: DateTime!) { dora(environment: $environment, from: $from, to: $to) { deployCount } }
  `);
  const OPEN = graphql(`
    mutation AliasOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime) {
      openIncident(serviceId: $serviceId, title: "Errors", environment: $environment, startedAt: $startedAt) {
        suspects { rank deploy { id } change { id } reasons { code detail } }
      }
    }
  `);

  it('names match case-insensitively and through aliases, in the filters, DORA and the ranking; the list shows them', async () => {
    const tenant = await hookline.createTenant('checkout');
    const start = Date.now() - HOUR;
    const at = (minutes: number) => new Date(start + minutes * MINUTE).toISOString();
    const production = await deploy(tenant.deployToken, { commit_sha: 'a', environment: 'production', deployed_at: at(0) });
    const capital = await deploy(tenant.deployToken, { commit_sha: 'b', environment: 'Production', deployed_at: at(10) });
    const prod = await deploy(tenant.deployToken, { commit_sha: 'c', environment: 'prod', deployed_at: at(20) });
    const staging = await deploy(tenant.deployToken, { commit_sha: 'd', environment: 'staging', deployed_at: at(30) });
    const flag = await deploy(
      tenant.deployToken,
      { kind: 'feature_flag', summary: 'on', environment: 'PROD', changed_at: at(25) },
      '/api/ingest/change',
    );
    const ids = async (environment: string) =>
      dataOf(await gql(tenant.apiToken, DEPLOY_IDS, { environment })).deploys.edges.map((e) => e.node.id);
    const timeline = async (environment: string) =>
      dataOf(await gql(tenant.apiToken, TIMELINE, { first: 10, environment })).timeline.edges.map((e) => e.node.id);
    const dora = async (environment: string) =>
      dataOf(await gql(tenant.apiToken, DORA_COUNT, { environment, from: at(-60), to: new Date().toISOString() })).dora.deployCount;

    // Case alone: Production is production; prod is another environment until it is an alias.
    expect(await ids('PRODUCTION')).toEqual([capital, production]);
    expect(await dora('production')).toBe(2);
    expect(dataOf(await gql(tenant.apiToken, ENVIRONMENTS, {})).environments).toEqual([
      { name: 'prod', aliases: [], spellings: ['PROD', 'prod'] },
      { name: 'production', aliases: [], spellings: ['Production', 'production'] },
      { name: 'staging', aliases: [], spellings: ['staging'] },
    ]);

    const set = dataOf(
      await gql(tenant.apiToken, SET_ALIASES, { environment: 'Production', aliases: ['prod', 'PRD', 'prod'] }),
    ).setEnvironmentAliases;
    expect(set).toEqual({ name: 'production', aliases: ['prd', 'prod'], spellings: ['PROD', 'Production', 'prod', 'production'] });
    expect(dataOf(await gql(tenant.apiToken, ENVIRONMENTS, {})).environments.map((e) => e.name)).toEqual(['production', 'staging']);
    for (const environment of ['production', 'prod', 'Prd']) {
      expect(await ids(environment), environment).toEqual([prod, capital, production]);
      expect(await timeline(environment), environment).toEqual([flag, prod, capital, production]);
      expect(await dora(environment), environment).toBe(3);
    }
    const changes = dataOf(await gql(tenant.apiToken, CHANGE_EVENTS, { environment: 'production' })).changeEvents.edges.map(
      (e) => e.node.id,
    );
    expect(changes).toEqual([flag]);
    expect(await ids('staging')).toEqual([staging]);

    // The ranking: a prod deploy is a production deploy, with the names said.
    const incident = dataOf(
      await gql(tenant.apiToken, OPEN, { serviceId: tenant.serviceId, environment: 'production', startedAt: at(40) }),
    ).openIncident;
    const reasonsOf = (id: string) => incident.suspects.find((s) => (s.deploy?.id ?? s.change?.id) === id)!.reasons;
    expect(reasonsOf(prod)).toContainEqual({ code: 'environment_match', detail: 'same environment (prod = production)' });
    expect(reasonsOf(flag)).toContainEqual({ code: 'environment_match', detail: 'same environment (PROD = production)' });
    expect(reasonsOf(staging)).toContainEqual({ code: 'environment_mismatch', detail: 'environment staging ≠ production' });
    // A production change, the PROD flag ranks above the staging deploy after it (a mismatch would put it below).
    const rankOf = (id: string) => incident.suspects.find((s) => (s.deploy?.id ?? s.change?.id) === id)!.rank;
    expect(rankOf(flag)).toBeLessThan(rankOf(staging));

    // Removing the aliases makes prod its own environment again.
    expect(
      dataOf(await gql(tenant.apiToken, SET_ALIASES, { environment: 'production', aliases: [] })).setEnvironmentAliases.aliases,
    ).toEqual([]);
    expect(await ids('prod')).toEqual([prod]);
  });

  it("refuses an alias that is the environment, another environment's alias or aliased itself, per item, changing nothing", async () => {
    const tenant = await hookline.createTenant('checkout');
    const other = await hookline.createTenant('checkout');
    dataOf(await gql(tenant.apiToken, SET_ALIASES, { environment: 'production', aliases: ['prod'] }));
    dataOf(await gql(tenant.apiToken, SET_ALIASES, { environment: 'staging', aliases: ['stg'] }));
    const refused = errorOf(await gql(tenant.apiToken, SET_ALIASES, { environment: 'qa', aliases: ['QA', 'prod', 'staging', ' ', 'ok'] }));
    expect(refused.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'aliases[3]', message: 'must be 1 to 100 characters' }],
    });
    const faults = errorOf(await gql(tenant.apiToken, SET_ALIASES, { environment: 'qa', aliases: ['QA', 'prod', 'staging', 'ok'] }));
    expect(faults.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'aliases[0]', message: 'must not be the environment itself' },
        { field: 'aliases[1]', message: 'is already an alias of production' },
        { field: 'aliases[2]', message: 'is an environment with aliases of its own' },
      ],
    });
    const aliased = errorOf(await gql(tenant.apiToken, SET_ALIASES, { environment: 'PROD', aliases: ['p'] }));
    expect(aliased.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'environment', message: 'is an alias of production: set the aliases of production' }],
    });
    expect(dataOf(await gql(tenant.apiToken, ENVIRONMENTS, {})).environments).toEqual([
      { name: 'production', aliases: ['prod'], spellings: [] },
      { name: 'staging', aliases: ['stg'], spellings: [] },
    ]);
    // Another organization's aliases are its own.
    expect(dataOf(await gql(other.apiToken, ENVIRONMENTS, {})).environments).toEqual([]);
    expect(
      dataOf(await gql(other.apiToken, SET_ALIASES, { environment: 'live', aliases: ['prod'] })).setEnvironmentAliases.aliases,
    ).toEqual(['prod']);
  });
});

describe('staged rollouts', () => {
  const DEPLOY_ROLLOUT = graphql(`
    query DeployRollout($id: ID!) { deploy(id: $id) { id deployedAt rolloutPercentage rolloutStages { percentage at } } }
  `);
  const OPEN = graphql(`
    mutation RolloutOpenIncident($serviceId: ID!, $startedAt: DateTime) {
      openIncident(serviceId: $serviceId, title: "Errors", startedAt: $startedAt) { id suspects { score deploy { id } reasons { code detail } } }
    }
  `);

  it('a later report of the same deploy at a higher percentage is a stage of it; recency counts from the stage reached', async () => {
    const tenant = await hookline.createTenant('checkout');
    const start = Date.now() - 3 * HOUR;
    const at = (minutes: number) => new Date(start + minutes * MINUTE).toISOString();
    const report = (payload: Record<string, unknown>) =>
      postDeploy(hookline.baseUrl, tenant.deployToken, { commit_sha: 'v2', environment: 'production', ...payload });

    const canary = await report({ rollout_percentage: 5, deployed_at: at(0) });
    expect(canary.body).toEqual({ status: 'accepted', deploy_id: expect.any(String) });
    const id = canary.body.deploy_id;
    expect((await report({ rollout_percentage: 25, deployed_at: at(60) })).body).toEqual({ status: 'updated', deploy_id: id });
    expect((await report({ rollout_percentage: 25, deployed_at: at(61) })).body).toEqual({ status: 'duplicate', deploy_id: id });
    expect((await report({ rollout_percentage: 100, deployed_at: at(120) })).body).toEqual({ status: 'updated', deploy_id: id });
    expect(dataOf(await gql(tenant.apiToken, DEPLOY_ROLLOUT, { id })).deploy).toEqual({
      id,
      deployedAt: at(0),
      rolloutPercentage: 100,
      rolloutStages: [
        { percentage: 5, at: at(0) },
        { percentage: 25, at: at(60) },
        { percentage: 100, at: at(120) },
      ],
    });
    // Reported fully rolled out, the same commit again is a new deploy (a redeploy), as is another commit.
    const again = await report({ rollout_percentage: 100, deployed_at: at(130) });
    expect(again.body.status).toBe('accepted');
    expect(again.body.deploy_id).not.toBe(id);
    const plain = await postDeploy(hookline.baseUrl, tenant.deployToken, {
      commit_sha: 'v3',
      environment: 'production',
      deployed_at: at(140),
    });
    expect(dataOf(await gql(tenant.apiToken, DEPLOY_ROLLOUT, { id: plain.body.deploy_id })).deploy).toEqual(
      expect.objectContaining({ rolloutPercentage: null, rolloutStages: [] }),
    );

    for (const rollout_percentage of [0, 101, '50']) {
      const refused = await report({ rollout_percentage });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual([
        {
          field: 'rollout_percentage',
          message: typeof rollout_percentage === 'string' ? 'must be a number' : 'must be more than 0 and at most 100',
        },
      ]);
    }
  });

  it('ranks a staged deploy by its latest stage before the incident, with the stages in the reasons', async () => {
    const tenant = await hookline.createTenant('checkout');
    const start = Date.now() - 3 * HOUR;
    const at = (minutes: number) => new Date(start + minutes * MINUTE).toISOString();
    const report = (payload: Record<string, unknown>) =>
      postDeploy(hookline.baseUrl, tenant.deployToken, { environment: 'production', ...payload });
    const staged = (await report({ commit_sha: 'v2', rollout_percentage: 1, deployed_at: at(0) })).body.deploy_id;
    await report({ commit_sha: 'v2', rollout_percentage: 100, deployed_at: at(115) });
    const incident = dataOf(await gql(tenant.apiToken, OPEN, { serviceId: tenant.serviceId, startedAt: at(120) })).openIncident;
    expect(incident.suspects[0]!.deploy!.id).toBe(staged);
    expect(incident.suspects[0]!.reasons).toContainEqual({
      code: 'recency',
      detail: 'deployed 2 h before the incident: it ran 2 h without trouble first',
    });
    expect(incident.suspects[0]!.reasons).toContainEqual({
      code: 'rollout',
      detail: 'rolled out in 2 stages, to 100 % 5 min before the incident: recency counts from there',
    });
    // 0.5 × recency(5 min) + 0.25 (last) + 0.25 × 0.5 (size unknown): as fresh as a deploy 5 min before.
    expect(incident.suspects[0]!.score).toBe(0.807);
  });
});

describe('the reason that decided a score', () => {
  const OPEN = graphql(`
    mutation MainReasonOpenIncident($serviceId: ID!, $startedAt: DateTime) {
      openIncident(serviceId: $serviceId, title: "Errors", environment: "production", startedAt: $startedAt) {
        suspects { deploy { id } reasons { code effect } mainReason { code detail effect } }
      }
    }
  `);

  it('is the largest effect either way: a mismatched environment over the dependency, time for an own deploy minutes before', async () => {
    const tenant = await hookline.createTenant('checkout');
    const cart = await service(tenant, 'cart');
    dataOf(await gql(tenant.apiToken, SET_DEPENDENCIES, { serviceId: tenant.serviceId, dependsOn: [cart.id] }));
    const start = Date.now() - HOUR;
    const at = (minutesBefore: number) => new Date(start - minutesBefore * MINUTE).toISOString();
    const staging = await deploy(cart.deployToken, { commit_sha: 'c1', environment: 'staging', deployed_at: at(3) });
    const own = await deploy(tenant.deployToken, { commit_sha: 'o1', environment: 'production', deployed_at: at(8) });
    const opened = dataOf(await gql(tenant.apiToken, OPEN, { serviceId: tenant.serviceId, startedAt: new Date(start).toISOString() }));
    const suspect = (id: string) => opened.openIncident.suspects.find((s) => s.deploy?.id === id)!;

    expect(suspect(staging).mainReason).toEqual({
      code: 'environment_mismatch',
      detail: 'environment staging ≠ production',
      effect: expect.any(Number),
    });
    expect(suspect(own).mainReason!.code).toBe('recency');
    for (const id of [staging, own]) {
      const { reasons, mainReason } = suspect(id);
      // Every reason has its effect, and none moved the score more than the main one.
      expect(reasons.every((reason) => typeof reason.effect === 'number')).toBe(true);
      expect(Math.max(...reasons.map((reason) => Math.abs(reason.effect!)))).toBe(Math.abs(mainReason!.effect!));
    }
    // The mismatch took most of what the deploy 3 min before would have had.
    expect(suspect(staging).mainReason!.effect).toBeLessThan(-0.3);
  });
});
