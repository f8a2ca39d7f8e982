import { describe, expect, it } from 'vitest';
import { rankSuspects } from '../src/domain/correlation/suspects.ts';
import { graphql } from './gql/index.ts';
import type { CorrelationIncidentQuery } from './gql/graphql.ts';
import { rankingOptionsOf, SCENARIOS, suspectInputOf, type Scenario, type ScenarioEvent } from './support/correlation-scenarios.ts';
import { dataOf, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const CREATE_SERVICE = graphql(`
  mutation CorrelationCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }
`);
const SET_DEPENDENCIES = graphql(`
  mutation CorrelationSetDependencies($serviceId: ID!, $dependsOn: [ID!]!) {
    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id } }
  }
`);
const SET_ALIASES = graphql(`
  mutation CorrelationSetAliases($environment: String!, $aliases: [String!]!) { setEnvironmentAliases(environment: $environment, aliases: $aliases) { name } }
`);
const OPEN = graphql(`
  mutation CorrelationOpenIncident($serviceId: ID!, $environment: String, $startedAt: DateTime, $lookbackHours: Int, $affectedServiceIds: [ID!]) {
    openIncident(
      serviceId: $serviceId, title: "Errors", environment: $environment, startedAt: $startedAt, lookbackHours: $lookbackHours,
      affectedServiceIds: $affectedServiceIds
    ) { id affectedServices { name } }
  }
`);
const INCIDENT = graphql(`
  query CorrelationIncident($id: ID!) {
    incident(id: $id) {
      id
      suspects { rank score verdict reasons { code detail } deploy { id } change { id kind summary } }
    }
  }
`);
const MARK = graphql(`
  mutation CorrelationMarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {
    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) {
      suspects { verdict deploy { id } change { id } }
    }
  }
`);

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: 'off' }, tenant: false });

const gql = hookline.graphql;

/** An organization with the scenario's services (and their deploy tokens) and dependencies. */
async function organizationFor(scenario: Scenario) {
  const names = new Set([
    scenario.incident.service,
    ...(scenario.incident.alsoAffected ?? []),
    ...scenario.events.map((e) => e.service),
    ...Object.keys(scenario.dependencies ?? {}),
    ...Object.values(scenario.dependencies ?? {}).flat(),
  ]);
  const tenant = await hookline.createTenant(scenario.incident.service);
  const services = new Map<string, { id: string; deployToken: string }>([
    [scenario.incident.service, { id: tenant.serviceId, deployToken: tenant.deployToken }],
  ]);
  for (const name of names) {
    if (services.has(name)) continue;
    const created = dataOf(await gql(tenant.apiToken, CREATE_SERVICE, { name })).createService;
    services.set(name, { id: created.service.id, deployToken: created.deployToken });
  }
  for (const [name, upstream] of Object.entries(scenario.dependencies ?? {})) {
    const dependsOn = upstream.map((service) => services.get(service)!.id);
    expect(
      dataOf(await gql(tenant.apiToken, SET_DEPENDENCIES, { serviceId: services.get(name)!.id, dependsOn })).setServiceDependencies
        .dependsOn,
    ).toHaveLength(dependsOn.length);
  }
  const aliases = new Map<string, string[]>();
  for (const [alias, environment] of Object.entries(scenario.aliases ?? {}))
    aliases.set(environment, [...(aliases.get(environment) ?? []), alias]);
  for (const [environment, names] of aliases) dataOf(await gql(tenant.apiToken, SET_ALIASES, { environment, aliases: names }));
  return { tenant, services };
}

/** Sends one scenario event as its pipeline or flag tool would; returns the stored id. */
async function report(services: Map<string, { deployToken: string }>, event: ScenarioEvent, startedAt: number): Promise<string> {
  const at = new Date(startedAt - event.minutesBefore * MINUTE).toISOString();
  const environment = event.environment === undefined ? 'production' : event.environment;
  const token = services.get(event.service)!.deployToken;
  const response = event.change
    ? await postDeploy(
        hookline.baseUrl,
        token,
        {
          kind: event.change,
          summary: `${event.id} flipped`,
          environment,
          changed_at: at,
          subject: event.subject,
          previous: event.previous,
          value: event.value,
        },
        {},
        '/api/ingest/change',
      )
    : await postDeploy(hookline.baseUrl, token, {
        commit_sha: event.sha ?? event.id,
        version: event.version,
        environment,
        deployed_at: at,
        commits: event.commits === undefined ? undefined : Array.from({ length: event.commits }, (_, i) => ({ sha: `${event.id}-${i}` })),
      });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.deploy_id ?? response.body.change_id;
}

type Suspects = NonNullable<CorrelationIncidentQuery['incident']>['suspects'];
const subjectId = (suspect: Suspects[number]) => suspect.deploy?.id ?? suspect.change!.id;

describe('labelled scenarios through the APIs', () => {
  const apiScenarios = SCENARIOS.filter((scenario) => scenario.api);

  it('runs a subset covering late reports, rollbacks, dependencies and flags', () => {
    expect(apiScenarios.length).toBeGreaterThanOrEqual(10);
    for (const tag of ['late', 'rollback', 'dependency', 'flag', 'staging', 'busy'] as const) {
      expect(
        apiScenarios.some((scenario) => scenario.tags.includes(tag)),
        tag,
      ).toBe(true);
    }
  });

  it.each(apiScenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario) => {
    const { tenant, services } = await organizationFor(scenario);
    const startedAt = Math.floor(Date.now() / 1000) * 1000 - 10 * MINUTE;
    const names = new Map<string, string>();
    for (const event of scenario.events.filter((e) => !e.late)) names.set(await report(services, event, startedAt), event.id);
    const environment = scenario.incident.environment ?? null;
    const opened = dataOf(
      await gql(tenant.apiToken, OPEN, {
        serviceId: services.get(scenario.incident.service)!.id,
        environment,
        startedAt: new Date(startedAt).toISOString(),
        lookbackHours: scenario.incident.lookbackHours,
        affectedServiceIds: scenario.incident.alsoAffected?.map((name) => services.get(name)!.id),
      }),
    ).openIncident;
    expect(opened.affectedServices.map((service) => service.name)).toEqual([
      scenario.incident.service,
      ...(scenario.incident.alsoAffected ?? []),
    ]);
    for (const event of scenario.events.filter((e) => e.late)) names.set(await report(services, event, startedAt), event.id);

    const suspects = dataOf(await gql(tenant.apiToken, INCIDENT, { id: opened.id })).incident!.suspects;
    expect(names.get(subjectId(suspects[0]!))).toBe(scenario.culprit);
    // The same ranking as the pure function on the same scenario: the loader feeds it everything.
    const expected = rankSuspects(suspectInputOf(scenario, new Date(startedAt)), rankingOptionsOf(scenario)).map((s) => [
      s.id,
      s.rank,
      s.score,
      s.reasons,
    ]);
    expect(suspects.map((s) => [names.get(subjectId(s)), s.rank, s.score, s.reasons])).toEqual(expected);
  });
});

describe('learning from verdicts', () => {
  /** checkout depends on payments and cart; payments deployed 10 min and cart 12 min before each start. */
  async function world() {
    const scenario = SCENARIOS.find((s) => s.tags.includes('prior') && s.culprit === 'cart-12m')!;
    return organizationFor({ ...scenario, verdicts: [] });
  }

  async function incidentWithDeploys(tenant: Tenant, services: Map<string, { id: string; deployToken: string }>, startedAt: number) {
    const payments = await report(services, { id: `payments-${startedAt}`, service: 'payments', minutesBefore: 10, commits: 4 }, startedAt);
    const cart = await report(services, { id: `cart-${startedAt}`, service: 'cart', minutesBefore: 12, commits: 4 }, startedAt);
    const opened = dataOf(
      await gql(tenant.apiToken, OPEN, { serviceId: tenant.serviceId, startedAt: new Date(startedAt).toISOString() }),
    ).openIncident;
    const suspects = dataOf(await gql(tenant.apiToken, INCIDENT, { id: opened.id })).incident!.suspects;
    return { id: opened.id, payments, cart, suspects };
  }

  it("CAUSED and DISMISSED verdicts shift the next incident's ranking, with a prior reason; without verdicts it stays as it was", async () => {
    const { tenant, services } = await world();
    const now = Math.floor(Date.now() / 1000) * 1000;
    // Three incidents two days apart (more than the 24 h look-back), each with the same two upstream deploys before it.
    const first = await incidentWithDeploys(tenant, services, now - 4 * DAY);
    expect(first.suspects.map(subjectId)).toEqual([first.payments, first.cart]);
    expect(first.suspects.flatMap((s) => s.reasons).some((r) => r.code === 'prior')).toBe(false);
    const second = await incidentWithDeploys(tenant, services, now - 2 * DAY);
    // Stable without verdicts: the same order and the same scores.
    expect(second.suspects.map((s) => [s.rank, s.score, s.reasons])).toEqual(first.suspects.map((s) => [s.rank, s.score, s.reasons]));

    for (const { id, payments, cart } of [first, second]) {
      dataOf(await gql(tenant.apiToken, MARK, { incidentId: id, deployId: cart, verdict: 'CAUSED' }));
      dataOf(await gql(tenant.apiToken, MARK, { incidentId: id, deployId: payments, verdict: 'DISMISSED' }));
    }
    const third = await incidentWithDeploys(tenant, services, now - 10 * MINUTE);
    expect(third.suspects.map(subjectId)).toEqual([third.cart, third.payments]);
    expect(third.suspects[0]!.reasons.at(-1)).toEqual({
      code: 'prior',
      detail: 'past verdicts on cart deploys: 2 caused, 0 dismissed (score × 1.07)',
    });
    expect(third.suspects[1]!.reasons.at(-1)).toEqual({
      code: 'prior',
      detail: 'past verdicts on payments deploys: 0 caused, 2 dismissed (score × 0.93)',
    });
    // The record decided between two close suspects; it could not have crossed a gate (a direct dependency's 0.7).
    expect(third.suspects[0]!.score / third.suspects[1]!.score).toBeLessThan(1 / 0.7);

    // An incident's own verdicts are not a prior for itself: a late report ranks `first` again
    // with only `second`'s verdicts counted.
    await report(services, { id: 'late-checkout', service: 'checkout', minutesBefore: 300 }, now - 4 * DAY);
    const reranked = dataOf(await gql(tenant.apiToken, INCIDENT, { id: first.id })).incident!.suspects;
    expect(reranked.find((s) => subjectId(s) === first.cart)!.reasons.at(-1)).toEqual({
      code: 'prior',
      detail: 'past verdicts on cart deploys: 1 caused, 0 dismissed (score × 1.05)',
    });
    // Its verdicts stay, and a judged suspect keeps its place in the list.
    expect(reranked.map((s) => s.verdict)).toEqual(expect.arrayContaining(['CAUSED', 'DISMISSED', null]));
  });

  it('a change event can be judged like a deploy; its kind has its own prior', async () => {
    const { tenant, services } = await world();
    const startedAt = Math.floor(Date.now() / 1000) * 1000 - 10 * MINUTE;
    const flip = await report(services, { id: 'flip', service: 'checkout', minutesBefore: 4, change: 'feature_flag' }, startedAt);
    const opened = dataOf(
      await gql(tenant.apiToken, OPEN, { serviceId: tenant.serviceId, startedAt: new Date(startedAt).toISOString() }),
    ).openIncident;
    const marked = dataOf(await gql(tenant.apiToken, MARK, { incidentId: opened.id, changeId: flip, verdict: 'CAUSED' })).markSuspect;
    expect(marked.suspects).toEqual([{ verdict: 'CAUSED', deploy: null, change: { id: flip } }]);

    const refused = await gql(tenant.apiToken, MARK, { incidentId: opened.id, deployId: flip, changeId: flip, verdict: 'CAUSED' });
    expect(refused.body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'changeId', message: 'exactly one of deployId and changeId is required' }],
    });
    const notSuspect = await gql(tenant.apiToken, MARK, {
      incidentId: opened.id,
      changeId: '00000000-0000-4000-8000-000000000000',
      verdict: 'CAUSED',
    });
    expect(notSuspect.body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'changeId', message: 'is not a change event of this organization' }],
    });

    const next = Math.floor(Date.now() / 1000) * 1000;
    await report(services, { id: 'flip-2', service: 'checkout', minutesBefore: 4, change: 'feature_flag' }, next);
    const later = dataOf(
      await gql(tenant.apiToken, OPEN, { serviceId: tenant.serviceId, startedAt: new Date(next).toISOString() }),
    ).openIncident;
    const suspects = dataOf(await gql(tenant.apiToken, INCIDENT, { id: later.id })).incident!.suspects;
    expect(suspects[0]!.change).toEqual({ id: expect.any(String), kind: 'feature_flag', summary: 'flip-2 flipped' });
    expect(suspects[0]!.reasons.at(-1)).toEqual({
      code: 'prior',
      detail: 'past verdicts on checkout feature_flag changes: 1 caused, 0 dismissed (score × 1.05)',
    });
  });
});
