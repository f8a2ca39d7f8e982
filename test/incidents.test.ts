import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../src/domain/ingest/services.ts';
import { graphql } from './gql/index.ts';
import type { IncidentPartsFragment, IncidentsListQuery } from './gql/graphql.ts';
import { dataOf, errorOf, rollbacksJudged, type GraphqlResponse, type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { eventually, type ReceivedRequest } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

graphql(`
  fragment IncidentParts on Incident {
    id title severity environment status startedAt openedAt acknowledgedAt resolvedAt
    service { id name }
    suspects { rank score verdict reasons { code detail } deploy { id } }
  }
`);
const OPEN_INCIDENT = graphql(`
  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {
    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {
      ...IncidentParts
    }
  }
`);
const ACKNOWLEDGE_INCIDENT = graphql(`
  mutation AcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { ...IncidentParts } }
`);
const RESOLVE_INCIDENT = graphql(`
  mutation ResolveIncident($id: ID!) { resolveIncident(id: $id) { ...IncidentParts } }
`);
const MARK_SUSPECT = graphql(`
  mutation MarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {
    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { ...IncidentParts }
  }
`);
const INCIDENT = graphql(`
  query Incident($id: ID!) { incident(id: $id) { ...IncidentParts } }
`);
const INCIDENTS_DORA = graphql(`
  query IncidentsDora($serviceId: ID, $from: DateTime!, $to: DateTime!) { dora(serviceId: $serviceId, from: $from, to: $to) { deployCount changeFailureRate } }
`);
const INCIDENTS_LIST = graphql(`
  query IncidentsList($first: Int, $after: String, $status: IncidentStatus, $serviceId: ID) {
    incidents(first: $first, after: $after, status: $status, serviceId: $serviceId) {
      edges { node { id title status service { id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
const SERVICE_INCIDENTS = graphql(`
  query ServiceIncidents($id: ID!, $status: IncidentStatus) {
    service(id: $id) { id incidents(first: 50, status: $status) { edges { node { id status } } } }
  }
`);
const DEPLOY_SUSPECT_IN = graphql(`
  query DeploySuspectIn($id: ID!) {
    deploy(id: $id) { id suspectIn { rank score verdict incident { id title } deploy { id } } }
  }
`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    DELIVERY_BACKOFF_BASE_MS: '50',
    DELIVERY_BACKOFF_FACTOR: '2',
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    // Deploys more than 2 h before an incident's start are not suspects (default 24 h).
    INCIDENT_LOOKBACK_HOURS: '2',
  },
  tenant: false,
  receiver: true,
});

/** A tenant (service "checkout"), a second service "payments", and an endpoint at `path` on the receiver. */
async function setUp(path: string, eventTypes = ['incident.opened', 'incident.acknowledged', 'incident.resolved']) {
  const tenant = await hookline.createTenant('checkout');
  const payments = await createService(hookline.app.database.prisma, tenant.organizationId, 'payments');
  const endpoint = await createEndpoint(hookline, tenant.apiToken, { url: `${hookline.receiver.url}${path}`, name: path, eventTypes });
  return {
    tenant,
    payments: { id: payments.service.id, deployToken: payments.deployToken },
    secret: endpoint.signingSecret,
  };
}

/** requestGraphql on this test's app; every operation here has variables. */
const gql = hookline.graphql;

const acknowledge = (token: string, id: string) => gql(token, ACKNOWLEDGE_INCIDENT, { id });
const resolve = (token: string, id: string) => gql(token, RESOLVE_INCIDENT, { id });

/** The single error of a failed operation. */
/** The one error of a refused operation, which answers no data. */
function refusalOf(response: GraphqlResponse<unknown>) {
  expect(response.body.data ?? null).toBeNull();
  return errorOf(response);
}

function eventCount(organizationId: string) {
  return hookline.app.database.prisma.event.count({ where: { organizationId } });
}

/** Verifies a delivered webhook with the endpoint's secret and returns its body. */
function verified(request: ReceivedRequest, secret: string): { id: string; type: string; organizationId: string; data: { incident: any } } {
  const body = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as any;
  expect(request.headers['x-service-event']).toBe(body.type);
  return body;
}

/** What a suspect looks like in GraphQL and in the webhook payload alike. */
const suspectSummary = (suspect: {
  deploy: { id: string } | null;
  rank: number;
  score: number;
  verdict?: string | null;
  reasons: unknown;
}) => ({
  deployId: suspect.deploy?.id,
  rank: suspect.rank,
  score: suspect.score,
  verdict: suspect.verdict ?? null,
  reasons: suspect.reasons,
});

describe('incident lifecycle', () => {
  it('OPEN → ACKNOWLEDGED → RESOLVED and OPEN → RESOLVED, each delivering its signed event; invalid transitions change and emit nothing', async () => {
    const { tenant, secret } = await setUp('/lifecycle');
    const before = Date.now();

    const opened = dataOf(
      await gql(tenant.apiToken, OPEN_INCIDENT, {
        serviceId: tenant.serviceId,
        title: '  Checkout is down  ',
        severity: 'SEV1',
        environment: 'production',
      }),
    ).openIncident;
    expect(opened).toEqual({
      id: expect.stringMatching(UUID),
      title: 'Checkout is down',
      severity: 'SEV1',
      environment: 'production',
      status: 'OPEN',
      startedAt: expect.any(String),
      openedAt: expect.any(String),
      acknowledgedAt: null,
      resolvedAt: null,
      service: { id: tenant.serviceId, name: 'checkout' },
      suspects: [],
    });
    // startedAt defaults to when it was opened.
    expect(opened.startedAt).toBe(opened.openedAt);
    expect(Date.parse(opened.openedAt)).toBeGreaterThanOrEqual(before - 1000);

    const acknowledged = dataOf(await gql(tenant.apiToken, ACKNOWLEDGE_INCIDENT, { id: opened.id })).acknowledgeIncident;
    expect(acknowledged).toEqual({ ...opened, status: 'ACKNOWLEDGED', acknowledgedAt: expect.any(String) });

    const events = await eventCount(tenant.organizationId);
    const twice = refusalOf(await gql(tenant.apiToken, ACKNOWLEDGE_INCIDENT, { id: opened.id }));
    const message = 'An incident that is ACKNOWLEDGED cannot become ACKNOWLEDGED';
    expect(twice).toEqual(expect.objectContaining({ message, extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'id', message }] } }));
    expect(await eventCount(tenant.organizationId)).toBe(events);

    const resolved = dataOf(await gql(tenant.apiToken, RESOLVE_INCIDENT, { id: opened.id })).resolveIncident;
    expect(resolved).toEqual({ ...acknowledged, status: 'RESOLVED', resolvedAt: expect.any(String) });

    // RESOLVED is final.
    for (const [transition, to] of [
      [acknowledge, 'ACKNOWLEDGED'],
      [resolve, 'RESOLVED'],
    ] as const) {
      const refused = refusalOf(await transition(tenant.apiToken, opened.id));
      expect(refused.message).toBe(`An incident that is RESOLVED cannot become ${to}`);
      expect(refused.extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect(dataOf(await gql(tenant.apiToken, INCIDENT, { id: opened.id })).incident).toEqual(resolved);

    // OPEN → RESOLVED directly.
    const second = dataOf(await gql(tenant.apiToken, OPEN_INCIDENT, { serviceId: tenant.serviceId, title: 'Slow pages' })).openIncident;
    expect(second).toEqual(expect.objectContaining({ severity: 'SEV3', environment: null, status: 'OPEN' }));
    const direct = dataOf(await gql(tenant.apiToken, RESOLVE_INCIDENT, { id: second.id })).resolveIncident;
    expect(direct).toEqual({ ...second, status: 'RESOLVED', acknowledgedAt: null, resolvedAt: expect.any(String) });

    // Exactly five events, each delivered once, signed, with the incident as it was then.
    expect(await eventCount(tenant.organizationId)).toBe(5);
    const requests = await hookline.receiver.waitForRequests(5, { path: '/lifecycle' });
    const bodies = requests.map((request) => verified(request, secret));
    const key = (body: (typeof bodies)[number]) => `${body.data.incident.id} ${body.type}`;
    const byKey = new Map(bodies.map((body) => [key(body), body]));
    expect(byKey.size).toBe(5);
    const expected = [
      ['incident.opened', opened],
      ['incident.acknowledged', acknowledged],
      ['incident.resolved', resolved],
      ['incident.opened', second],
      ['incident.resolved', direct],
    ] as const;
    // Who acknowledged and resolved it: the API token, as kind and id.
    const token = await hookline.app.database.prisma.apiToken.findFirstOrThrow({ where: { organizationId: tenant.organizationId } });
    const byToken = { kind: 'API_TOKEN', id: token.id };
    for (const [type, incident] of expected) {
      const body = byKey.get(`${incident.id} ${type}`);
      expect(body, `${type} of ${incident.title}`).toBeDefined();
      expect(body!.organizationId).toBe(tenant.organizationId);
      // An incident a person opened has no alert source and no alerts.
      expect(body!.data.incident).toEqual({
        ...incident,
        acknowledgedBy: incident.acknowledgedAt ? byToken : null,
        resolvedBy: incident.resolvedAt ? byToken : null,
        alertSource: null,
        alerts: [],
        suspects: [],
      });
    }
    // And no more: every delivery of the organization is SUCCEEDED after one attempt, with one
    // job, completed, so nothing else can reach the receiver.
    const deliveries = await eventually(async () => {
      const rows = await hookline.app.database.prisma.delivery.findMany({ where: { organizationId: tenant.organizationId } });
      return rows.every((row) => row.status === 'SUCCEEDED') ? rows : undefined;
    });
    expect(deliveries.map((delivery) => delivery.attemptCount)).toEqual([1, 1, 1, 1, 1]);
    const { rows: jobs } = await hookline.app.database.pool.query(
      `SELECT state FROM pgboss.job WHERE data->>'deliveryId' = ANY ($1::text[])`,
      [deliveries.map((delivery) => delivery.id)],
    );
    expect(jobs.map((job) => job.state)).toEqual(Array(5).fill('completed'));
    expect(hookline.receiver.requests.filter((request) => request.path === '/lifecycle')).toHaveLength(5);
  });

  it('refuses bad input with BAD_USER_INPUT and an unknown service with NOT_FOUND, storing and emitting nothing', async () => {
    const { tenant } = await setUp('/refused');
    const stranger = await hookline.createTenant('theirs');
    const refused = refusalOf(
      await gql(tenant.apiToken, OPEN_INCIDENT, {
        serviceId: tenant.serviceId,
        title: '   ',
        startedAt: new Date(Date.now() + HOUR).toISOString(),
      }),
    );
    expect(refused.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'title', message: 'must be 1 to 200 characters' },
        { field: 'startedAt', message: 'must not be more than 5 minutes in the future' },
      ],
    });
    const tooLong = refusalOf(await gql(tenant.apiToken, OPEN_INCIDENT, { serviceId: tenant.serviceId, title: 'x'.repeat(201) }));
    expect(tooLong.extensions).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'title', message: 'must be 1 to 200 characters' }] });
    for (const serviceId of [UNKNOWN_ID, 'nope', stranger.serviceId]) {
      const missing = refusalOf(await gql(tenant.apiToken, OPEN_INCIDENT, { serviceId, title: 'Down' }));
      expect(missing).toEqual(expect.objectContaining({ message: `Service ${serviceId} not found`, extensions: { code: 'NOT_FOUND' } }));
    }
    for (const organizationId of [tenant.organizationId, stranger.organizationId]) {
      expect(await hookline.app.database.prisma.incident.count({ where: { organizationId } })).toBe(0);
      expect(await eventCount(organizationId)).toBe(0);
    }
  });

  it('refuses a title or environment PostgreSQL cannot store (NUL, an unpaired surrogate), and a start before year 1, with BAD_USER_INPUT', async () => {
    const { tenant } = await setUp('/not-storable');
    const refused = refusalOf(
      await gql(tenant.apiToken, OPEN_INCIDENT, {
        serviceId: tenant.serviceId,
        title: 'Checkout\u0000 down',
        environment: 'production\ud800',
      }),
    );
    expect(refused.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'title', message: 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters' },
        { field: 'environment', message: 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters' },
      ],
    });
    // Before the documented range: year 0 (once in UTC), and year 1, whose look-back would reach year 0.
    for (const startedAt of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '0001-01-01T00:00:00Z', '1969-12-31T23:59:59Z']) {
      const outOfRange = refusalOf(await gql(tenant.apiToken, OPEN_INCIDENT, { serviceId: tenant.serviceId, title: 'Down', startedAt }));
      expect(outOfRange.extensions).toEqual({
        code: 'BAD_USER_INPUT',
        fields: [{ field: 'startedAt', message: 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z' }],
      });
    }
    expect(await hookline.app.database.prisma.incident.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
    expect(await eventCount(tenant.organizationId)).toBe(0);
  });

  it('treats unknown ids as NOT_FOUND and refuses callers without an API token', async () => {
    const { tenant } = await setUp('/unknown');
    for (const id of [UNKNOWN_ID, 'nope']) {
      for (const transition of [acknowledge, resolve]) {
        expect(refusalOf(await transition(tenant.apiToken, id))).toEqual(
          expect.objectContaining({ message: `Incident ${id} not found`, extensions: { code: 'NOT_FOUND' } }),
        );
      }
      expect(dataOf(await gql(tenant.apiToken, INCIDENT, { id })).incident).toBeNull();
    }
    const anonymous = refusalOf(await gql(undefined, OPEN_INCIDENT, { serviceId: tenant.serviceId, title: 'Down' }));
    expect(anonymous.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('suspects', () => {
  // One organization for the scenarios below: its deploys around `startedAt`, an hour ago.
  let world: Awaited<ReturnType<typeof setUp>>;
  let stranger: Tenant;
  const startedAt = Math.floor(Date.now() / 1000) * 1000 - HOUR;
  const at = (offsetMs: number) => new Date(startedAt + offsetMs).toISOString();
  const deploys: Record<string, string> = {};
  let incident: IncidentPartsFragment;

  beforeAll(async () => {
    world = await setUp('/ranking', ['incident.opened', 'incident.resolved']);
    stranger = await hookline.createTenant('checkout');
    const checkout = world.tenant.deployToken;
    const commits = [1, 2, 3].map((n) => ({ sha: `a${n}`, author: 'alice', timestamp: at(-HOUR) }));
    deploys.prod = await ingest(hookline, checkout, {
      commit_sha: 'aaaa',
      environment: 'production',
      deployed_at: at(-10 * MINUTE),
      commits,
    });
    deploys.staging = await ingest(hookline, checkout, { commit_sha: 'bbbb', environment: 'staging', deployed_at: at(-5 * MINUTE) });
    deploys.payments = await ingest(hookline, world.payments.deployToken, {
      commit_sha: 'cccc',
      environment: 'production',
      deployed_at: at(-2 * MINUTE),
    });
    // Not suspects: after the start, before the 2 h lookback, another organization's.
    deploys.after = await ingest(hookline, checkout, { commit_sha: 'dddd', environment: 'production', deployed_at: at(5 * MINUTE) });
    deploys.old = await ingest(hookline, checkout, { commit_sha: 'eeee', environment: 'production', deployed_at: at(-3 * HOUR) });
    deploys.theirs = await ingest(hookline, stranger.deployToken, {
      commit_sha: 'ffff',
      environment: 'production',
      deployed_at: at(-1 * MINUTE),
    });

    incident = dataOf(
      await gql(world.tenant.apiToken, OPEN_INCIDENT, {
        serviceId: world.tenant.serviceId,
        title: 'Checkout errors',
        severity: 'SEV2',
        environment: 'production',
        startedAt: at(0),
      }),
    ).openIncident;
  });

  it('ranks a same-service production deploy minutes before above staging and other-service deploys', async () => {
    expect(incident.startedAt).toBe(at(0));
    // score = relation × environment × (0.5 × recency + 0.25 × [last] + 0.25 × size), see suspects.ts,
    // recency(t) = 0.85 × 2^(−t/20 min) + 0.15 × 2^(−t/6 h):
    //   prod:     1    × 1    × (0.5 × 0.74818 + 0.25 + 0.25 × log2(4)/log2(51)) = 0.37409 + 0.25 + 0.08815 = 0.712
    //   payments: 0.3  × 1    × (0.5 × 0.94250 + 0.25 + 0.25 × 0.5)              = 0.3 × 0.84625           = 0.254
    //   staging:  1    × 0.15 × (0.5 × 0.86332 + 0.25 + 0.25 × 0.5)              = 0.15 × 0.80666          = 0.121
    expect(incident.suspects.map(suspectSummary)).toEqual([
      {
        deployId: deploys.prod,
        rank: 1,
        score: 0.712,
        verdict: null,
        reasons: [
          { code: 'same_service', detail: 'same service (checkout)' },
          { code: 'environment_match', detail: 'same environment (production)' },
          { code: 'recency', detail: 'deployed 10 min before the incident, within the hour in which most incidents a change causes begin' },
          { code: 'last_before_incident', detail: 'last deploy of checkout to production before the incident' },
          { code: 'change_size', detail: '3 commits since the previous deploy' },
        ],
      },
      {
        deployId: deploys.payments,
        rank: 2,
        score: 0.254,
        verdict: null,
        reasons: [
          { code: 'other_service', detail: 'other service (payments) of the organization' },
          { code: 'environment_match', detail: 'same environment (production)' },
          { code: 'recency', detail: 'deployed 2 min before the incident, within the hour in which most incidents a change causes begin' },
          { code: 'last_before_incident', detail: 'last deploy of payments to production before the incident' },
          { code: 'change_size', detail: 'change size unknown (no commits sent)' },
        ],
      },
      {
        deployId: deploys.staging,
        rank: 3,
        score: 0.121,
        verdict: null,
        reasons: [
          { code: 'same_service', detail: 'same service (checkout)' },
          { code: 'environment_mismatch', detail: 'environment staging ≠ production' },
          { code: 'recency', detail: 'deployed 5 min before the incident, within the hour in which most incidents a change causes begin' },
          { code: 'last_before_incident', detail: 'last deploy of checkout to staging before the incident' },
          { code: 'change_size', detail: 'change size unknown (no commits sent)' },
        ],
      },
    ]);
    // The deploy after the start, the one before the lookback and the stranger's are absent.
    const suspects = incident.suspects.map((suspect) => suspect.deploy!.id);
    for (const name of ['after', 'old', 'theirs']) expect(suspects, name).not.toContain(deploys[name]);
  });

  it('delivers the ranked suspects, with scores and reasons, in the signed incident.opened event', async () => {
    const [request] = await hookline.receiver.waitForRequests(1, { path: '/ranking' });
    const body = verified(request!, world.secret);
    expect(body.type).toBe('incident.opened');
    expect(body.data.incident.id).toBe(incident.id);
    expect(body.data.incident.suspects[0].deploy.id).toBe(deploys.prod);
    expect(body.data.incident.suspects.map(suspectSummary)).toEqual(incident.suspects.map(suspectSummary));
    expect(body.data.incident.suspects[0].deploy).toEqual({
      id: deploys.prod,
      commitSha: 'aaaa',
      environment: 'production',
      version: null,
      deployedAt: at(-10 * MINUTE),
      service: { id: world.tenant.serviceId, name: 'checkout' },
    });
  });

  it('without an incident environment, the most recent same-service deploy wins whatever its environment', async () => {
    const anywhere = dataOf(
      await gql(world.tenant.apiToken, OPEN_INCIDENT, { serviceId: world.tenant.serviceId, title: 'Somewhere', startedAt: at(0) }),
    ).openIncident;
    // staging: 0.43166 + 0.25 + 0.125 = 0.807 now ungated; prod 0.712; payments still 0.254.
    expect(anywhere.suspects.map((suspect) => [suspect.deploy!.id, suspect.score])).toEqual([
      [deploys.staging, 0.807],
      [deploys.prod, 0.712],
      [deploys.payments, 0.254],
    ]);
  });

  it('shows where a deploy is a suspect', async () => {
    const data = dataOf(await gql(world.tenant.apiToken, DEPLOY_SUSPECT_IN, { id: deploys.prod! }));
    expect(data.deploy!.suspectIn).toEqual(
      expect.arrayContaining([
        { rank: 1, score: 0.712, verdict: null, incident: { id: incident.id, title: 'Checkout errors' }, deploy: { id: deploys.prod } },
      ]),
    );
    expect(dataOf(await gql(world.tenant.apiToken, DEPLOY_SUSPECT_IN, { id: deploys.after! })).deploy!.suspectIn).toEqual([]);
  });

  it('markSuspect: CAUSED comes first and DISMISSED last, whatever the score; the ranks stay', async () => {
    const mark = async (deploy: string, verdict: 'CAUSED' | 'DISMISSED') =>
      dataOf(await gql(world.tenant.apiToken, MARK_SUSPECT, { incidentId: incident.id, deployId: deploys[deploy]!, verdict })).markSuspect;
    const order = (marked: IncidentPartsFragment) => marked.suspects.map((suspect) => [suspect.deploy!.id, suspect.rank, suspect.verdict]);

    expect(order(await mark('payments', 'CAUSED'))).toEqual([
      [deploys.payments, 2, 'CAUSED'],
      [deploys.prod, 1, null],
      [deploys.staging, 3, null],
    ]);
    expect(order(await mark('prod', 'DISMISSED'))).toEqual([
      [deploys.payments, 2, 'CAUSED'],
      [deploys.staging, 3, null],
      [deploys.prod, 1, 'DISMISSED'],
    ]);
    // A later verdict replaces an earlier one; among CAUSED, rank decides.
    const changed = await mark('prod', 'CAUSED');
    expect(order(changed)).toEqual([
      [deploys.prod, 1, 'CAUSED'],
      [deploys.payments, 2, 'CAUSED'],
      [deploys.staging, 3, null],
    ]);
    const dismissed = await mark('payments', 'DISMISSED');
    expect(order(dismissed)).toEqual([
      [deploys.prod, 1, 'CAUSED'],
      [deploys.staging, 3, null],
      [deploys.payments, 2, 'DISMISSED'],
    ]);
    expect(dataOf(await gql(world.tenant.apiToken, INCIDENT, { id: incident.id })).incident).toEqual(dismissed);

    // A verdict emits nothing; the incident.resolved payload lists the suspects in the same order.
    const events = await eventCount(world.tenant.organizationId);
    expect(events).toBe(2);
    const resolved = dataOf(await gql(world.tenant.apiToken, RESOLVE_INCIDENT, { id: incident.id })).resolveIncident;
    const requests = await hookline.receiver.waitForRequests(3, { path: '/ranking' });
    const body = requests.map((request) => verified(request, world.secret)).find((b) => b.type === 'incident.resolved')!;
    expect(body.data.incident.suspects.map(suspectSummary)).toEqual(resolved.suspects.map(suspectSummary));
    expect(body.data.incident.suspects.map(suspectSummary)).toEqual(dismissed.suspects.map(suspectSummary));
  });

  it("markSuspect refuses what came after the start, another organization's deploy and an unknown incident", async () => {
    const refusals = [
      ['after', 'happened after the incident started, so it cannot have caused it'],
      ['theirs', 'is not a deploy of this organization'],
    ] as const;
    for (const [deploy, message] of refusals) {
      const refused = refusalOf(
        await gql(world.tenant.apiToken, MARK_SUSPECT, { incidentId: incident.id, deployId: deploys[deploy]!, verdict: 'CAUSED' }),
      );
      expect(refused.extensions).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'deployId', message }] });
    }
    for (const deployId of [UNKNOWN_ID, 'nope']) {
      const refused = refusalOf(await gql(world.tenant.apiToken, MARK_SUSPECT, { incidentId: incident.id, deployId, verdict: 'CAUSED' }));
      expect(refused.extensions).toEqual({
        code: 'BAD_USER_INPUT',
        fields: [{ field: 'deployId', message: 'is not a deploy of this organization' }],
      });
    }
    for (const incidentId of [UNKNOWN_ID, 'nope']) {
      const missing = refusalOf(await gql(world.tenant.apiToken, MARK_SUSPECT, { incidentId, deployId: deploys.prod!, verdict: 'CAUSED' }));
      expect(missing).toEqual(expect.objectContaining({ message: `Incident ${incidentId} not found`, extensions: { code: 'NOT_FOUND' } }));
    }
    const stored = await hookline.app.database.prisma.incidentSuspect.findMany({ where: { incidentId: incident.id } });
    expect(stored.map((suspect) => suspect.deployId).sort()).toEqual([deploys.prod, deploys.payments, deploys.staging].sort());
  });

  it('markSuspect names a deploy older than the look-back: it joins the suspects ranked among them, and counts in DORA and priors', async () => {
    const dora = async () =>
      dataOf(
        await gql(world.tenant.apiToken, INCIDENTS_DORA, {
          serviceId: world.tenant.serviceId,
          from: new Date(startedAt - 6 * HOUR).toISOString(),
          to: new Date(startedAt + HOUR).toISOString(),
        }),
      ).dora;
    await rollbacksJudged(hookline.app);
    const before = await dora();
    const marked = dataOf(
      await gql(world.tenant.apiToken, MARK_SUSPECT, { incidentId: incident.id, deployId: deploys.old!, verdict: 'CAUSED' }),
    ).markSuspect;
    // old: 1 × 1 × (0.5 × (0.85 × 2^−9 + 0.15 × 2^−0.5) + settled(3 h) × 0.25 × 0.5), settled(3 h) = 0.5 + 0.5 × 2^(−2/6) = 0.89685:
    //   0.05386 + 0.11211 = 0.166, between payments and staging.
    expect(marked.suspects.map(suspectSummary)).toEqual([
      expect.objectContaining({ deployId: deploys.prod, rank: 1, verdict: 'CAUSED' }),
      {
        deployId: deploys.old,
        rank: 3,
        score: 0.166,
        verdict: 'CAUSED',
        reasons: [
          { code: 'same_service', detail: 'same service (checkout)' },
          { code: 'environment_match', detail: 'same environment (production)' },
          { code: 'recency', detail: 'deployed 3 h before the incident, before its 2 h look-back: a person named it' },
          { code: 'change_size', detail: 'change size unknown (no commits sent)' },
        ],
      },
      expect.objectContaining({ deployId: deploys.staging, rank: 4, verdict: null }),
      expect.objectContaining({ deployId: deploys.payments, rank: 2, verdict: 'DISMISSED' }),
    ]);
    const after = await dora();
    expect(after.deployCount).toBe(before.deployCount);
    expect(Math.round(after.changeFailureRate! * after.deployCount)).toBe(Math.round(before.changeFailureRate! * before.deployCount) + 1);

    // Another incident of checkout learns from both CAUSED verdicts of this one.
    const next = dataOf(
      await gql(world.tenant.apiToken, OPEN_INCIDENT, {
        serviceId: world.tenant.serviceId,
        title: 'Again',
        environment: 'production',
        startedAt: at(0),
      }),
    ).openIncident;
    const prod = next.suspects.find((suspect) => suspect.deploy?.id === deploys.prod)!;
    expect(prod.reasons.at(-1)).toEqual({
      code: 'prior',
      detail: 'past verdicts on checkout deploys: 2 caused, 0 dismissed (score × 1.07)',
    });
    await gql(world.tenant.apiToken, RESOLVE_INCIDENT, { id: next.id });
  });

  it("keeps every incident query and mutation inside the caller's organization", async () => {
    const id = incident.id;
    const before = await hookline.app.database.prisma.incident.findUniqueOrThrow({ where: { id }, include: { suspects: true } });
    const events = await eventCount(world.tenant.organizationId);
    const theirs = dataOf(
      await gql(stranger.apiToken, OPEN_INCIDENT, { serviceId: stranger.serviceId, title: 'Theirs', startedAt: at(0) }),
    ).openIncident;
    // Their correlation sees only their own deploy.
    expect(theirs.suspects.map((suspect) => suspect.deploy!.id)).toEqual([deploys.theirs]);

    const notFound = (response: GraphqlResponse<unknown>, what: string, which: string) =>
      expect(refusalOf(response)).toEqual(
        expect.objectContaining({ message: `${what} ${which} not found`, extensions: { code: 'NOT_FOUND' } }),
      );
    expect(dataOf(await gql(stranger.apiToken, INCIDENT, { id })).incident).toBeNull();
    notFound(await gql(stranger.apiToken, ACKNOWLEDGE_INCIDENT, { id }), 'Incident', id);
    notFound(await gql(stranger.apiToken, RESOLVE_INCIDENT, { id }), 'Incident', id);
    notFound(await gql(stranger.apiToken, MARK_SUSPECT, { incidentId: id, deployId: deploys.prod!, verdict: 'DISMISSED' }), 'Incident', id);
    notFound(
      await gql(stranger.apiToken, OPEN_INCIDENT, { serviceId: world.tenant.serviceId, title: 'Sneaky' }),
      'Service',
      world.tenant.serviceId,
    );
    const list = dataOf(await gql(stranger.apiToken, INCIDENTS_LIST, { first: 50 }));
    expect(list.incidents.edges.map((edge) => edge.node.id)).toEqual([theirs.id]);
    expect(dataOf(await gql(stranger.apiToken, INCIDENTS_LIST, { first: 50, serviceId: world.tenant.serviceId })).incidents.edges).toEqual(
      [],
    );
    expect(dataOf(await gql(stranger.apiToken, SERVICE_INCIDENTS, { id: world.tenant.serviceId })).service).toBeNull();
    expect(dataOf(await gql(stranger.apiToken, DEPLOY_SUSPECT_IN, { id: deploys.prod! })).deploy).toBeNull();

    // And the other way round.
    expect(dataOf(await gql(world.tenant.apiToken, INCIDENT, { id: theirs.id })).incident).toBeNull();
    notFound(await gql(world.tenant.apiToken, RESOLVE_INCIDENT, { id: theirs.id }), 'Incident', theirs.id);
    notFound(
      await gql(world.tenant.apiToken, MARK_SUSPECT, { incidentId: theirs.id, deployId: deploys.theirs!, verdict: 'CAUSED' }),
      'Incident',
      theirs.id,
    );

    // Nothing changed, nothing emitted.
    expect(await hookline.app.database.prisma.incident.findUniqueOrThrow({ where: { id }, include: { suspects: true } })).toEqual(before);
    expect(await eventCount(world.tenant.organizationId)).toBe(events);
    expect((await hookline.app.database.prisma.incident.findUniqueOrThrow({ where: { id: theirs.id } })).status).toBe('OPEN');
  });
});

describe('incidents', () => {
  it('lists incidents most recently opened first, by status and service, page by page', async () => {
    const { tenant, payments } = await setUp('/listed', ['deploy.ingested']);
    const open = async (serviceId: string, title: string) =>
      dataOf(await gql(tenant.apiToken, OPEN_INCIDENT, { serviceId, title })).openIncident.id;
    const ids: Record<string, string> = {};
    for (const [name, serviceId] of [
      ['first', tenant.serviceId],
      ['second', payments.id],
      ['third', tenant.serviceId],
      ['fourth', tenant.serviceId],
      ['fifth', payments.id],
    ] as const) {
      ids[name] = await open(serviceId, name);
      // Distinct openedAt (millisecond precision), so the expected order is the creation order:
      // the next one is opened once the clock has moved past this one's.
      const { openedAt } = await hookline.app.database.prisma.incident.findUniqueOrThrow({ where: { id: ids[name]! } });
      await eventually(async () => (Date.now() > openedAt.getTime() ? true : undefined));
    }
    await gql(tenant.apiToken, ACKNOWLEDGE_INCIDENT, { id: ids.third! });
    await gql(tenant.apiToken, RESOLVE_INCIDENT, { id: ids.first! });
    await gql(tenant.apiToken, RESOLVE_INCIDENT, { id: ids.fifth! });

    const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    const list = async (variables: { status?: 'OPEN' | 'ACKNOWLEDGED' | 'RESOLVED'; serviceId?: string; first?: number }) => {
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const data: IncidentsListQuery = dataOf(await gql(tenant.apiToken, INCIDENTS_LIST, { first: 50, ...variables, after }));
        pages++;
        seen.push(...data.incidents.edges.map((edge) => names[edge.node.id]!));
        if (!data.incidents.pageInfo.hasNextPage) break;
        after = data.incidents.pageInfo.endCursor ?? null;
      }
      return { seen, pages };
    };
    expect(await list({ first: 2 })).toEqual({ seen: ['fifth', 'fourth', 'third', 'second', 'first'], pages: 3 });
    expect((await list({ status: 'OPEN' })).seen).toEqual(['fourth', 'second']);
    expect((await list({ status: 'ACKNOWLEDGED' })).seen).toEqual(['third']);
    expect((await list({ status: 'RESOLVED', first: 1 })).seen).toEqual(['fifth', 'first']);
    expect((await list({ serviceId: payments.id })).seen).toEqual(['fifth', 'second']);
    expect((await list({ serviceId: tenant.serviceId, status: 'OPEN' })).seen).toEqual(['fourth']);
    expect((await list({ serviceId: 'nope' })).seen).toEqual([]);

    const service = dataOf(await gql(tenant.apiToken, SERVICE_INCIDENTS, { id: tenant.serviceId })).service!;
    expect(service.incidents.edges.map((edge) => names[edge.node.id])).toEqual(['fourth', 'third', 'first']);
    const resolved = dataOf(await gql(tenant.apiToken, SERVICE_INCIDENTS, { id: payments.id, status: 'RESOLVED' })).service!;
    expect(resolved.incidents.edges.map((edge) => edge.node)).toEqual([{ id: ids.fifth, status: 'RESOLVED' }]);
  });
});

describe('suspects stay current while the incident is open', () => {
  it('a deploy reported after the incident opened, dated before its start, joins the suspects; not once it is resolved, nor one dated after the start', async () => {
    const { tenant } = await setUp('/late', ['deploy.ingested']);
    const startedAt = Math.floor(Date.now() / 1000) * 1000 - 30 * MINUTE;
    const at = (offsetMs: number) => new Date(startedAt + offsetMs).toISOString();
    const early = await ingest(hookline, tenant.deployToken, {
      commit_sha: 'early',
      environment: 'production',
      deployed_at: at(-90 * MINUTE),
    });
    const open = (title: string) =>
      gql(tenant.apiToken, OPEN_INCIDENT, { serviceId: tenant.serviceId, title, environment: 'production', startedAt: at(0) });
    const incident = dataOf(await open('Late report')).openIncident;
    const resolved = dataOf(await open('Already resolved')).openIncident;
    await resolve(tenant.apiToken, resolved.id);
    expect(incident.suspects.map((suspect) => suspect.deploy!.id)).toEqual([early]);

    // The pipeline's report arrives now, 30 min after the start, with its real time.
    const late = await ingest(hookline, tenant.deployToken, {
      commit_sha: 'late',
      environment: 'production',
      deployed_at: at(-4 * MINUTE),
    });
    const after = await ingest(hookline, tenant.deployToken, { commit_sha: 'after', environment: 'production', deployed_at: at(MINUTE) });
    const current = dataOf(await gql(tenant.apiToken, INCIDENT, { id: incident.id })).incident!;
    expect(current.suspects.map((suspect) => [suspect.deploy!.id, suspect.rank])).toEqual([
      [late, 1],
      [early, 2],
    ]);
    expect(current.suspects[0]!.reasons).toContainEqual({
      code: 'last_before_incident',
      detail: 'last deploy of checkout to production before the incident',
    });
    // The early deploy is no longer the last one.
    expect(current.suspects[1]!.reasons.map((reason) => reason.code)).not.toContain('last_before_incident');
    expect(current.suspects.map((suspect) => suspect.deploy!.id)).not.toContain(after);
    const unchanged = dataOf(await gql(tenant.apiToken, INCIDENT, { id: resolved.id })).incident!;
    expect(unchanged.suspects.map((suspect) => suspect.deploy!.id)).toEqual([early]);
  });
});

describe('look-back per incident', () => {
  const OPEN_WITH_LOOKBACK = graphql(`
    mutation OpenIncidentWithLookback($serviceId: ID!, $startedAt: DateTime, $lookbackHours: Int) {
      openIncident(serviceId: $serviceId, title: "Slow leak", startedAt: $startedAt, lookbackHours: $lookbackHours) {
        id lookbackHours suspects { deploy { id } reasons { code detail } }
      }
    }
  `);
  const SET_LOOKBACK = graphql(`
    mutation SetIncidentLookback($id: ID!, $lookbackHours: Int) {
      setIncidentLookback(id: $id, lookbackHours: $lookbackHours) { id lookbackHours suspects { deploy { id } } }
    }
  `);

  it('ranks the deploys of its own window, widens or resets it later, and late reports join it by that window', async () => {
    const { tenant } = await setUp('/lookback', ['test.ping']);
    const startedAt = Math.floor(Date.now() / 1000) * 1000 - HOUR;
    const at = (offsetMs: number) => new Date(startedAt + offsetMs).toISOString();
    const leak = await ingest(hookline, tenant.deployToken, { commit_sha: 'leak', environment: 'production', deployed_at: at(-30 * HOUR) });
    const recent = await ingest(hookline, tenant.deployToken, { commit_sha: 'recent', environment: 'production', deployed_at: at(-HOUR) });
    const ids = (incident: { suspects: { deploy?: { id: string } | null }[] }) => incident.suspects.map((s) => s.deploy!.id);

    // The server's look-back here is 2 h.
    const usual = dataOf(await gql(tenant.apiToken, OPEN_WITH_LOOKBACK, { serviceId: tenant.serviceId, startedAt: at(0) })).openIncident;
    expect(usual.lookbackHours).toBe(2);
    expect(ids(usual)).toEqual([recent]);

    const wide = dataOf(
      await gql(tenant.apiToken, OPEN_WITH_LOOKBACK, { serviceId: tenant.serviceId, startedAt: at(0), lookbackHours: 36 }),
    ).openIncident;
    expect(wide.lookbackHours).toBe(36);
    expect(ids(wide)).toEqual([recent, leak]);
    expect(wide.suspects[1]!.reasons).toContainEqual({
      code: 'recency',
      detail: 'deployed 30 h before the incident: it ran 30 h without trouble first',
    });

    // A late report inside the incident's own window (beyond the server's) joins it.
    const late = await ingest(hookline, tenant.deployToken, { commit_sha: 'late', environment: 'production', deployed_at: at(-20 * HOUR) });
    expect(ids(dataOf(await gql(tenant.apiToken, INCIDENT, { id: wide.id })).incident!)).toEqual([recent, late, leak]);
    expect(ids(dataOf(await gql(tenant.apiToken, INCIDENT, { id: usual.id })).incident!)).toEqual([recent]);

    const widened = dataOf(await gql(tenant.apiToken, SET_LOOKBACK, { id: usual.id, lookbackHours: 48 })).setIncidentLookback;
    expect(widened).toEqual({
      id: usual.id,
      lookbackHours: 48,
      suspects: [{ deploy: { id: recent } }, { deploy: { id: late } }, { deploy: { id: leak } }],
    });
    const reset = dataOf(await gql(tenant.apiToken, SET_LOOKBACK, { id: usual.id, lookbackHours: null })).setIncidentLookback;
    expect(reset).toEqual({ id: usual.id, lookbackHours: 2, suspects: [{ deploy: { id: recent } }] });

    for (const lookbackHours of [0, 721]) {
      const refused = refusalOf(await gql(tenant.apiToken, OPEN_WITH_LOOKBACK, { serviceId: tenant.serviceId, lookbackHours }));
      expect(refused.extensions).toEqual({
        code: 'BAD_USER_INPUT',
        fields: [{ field: 'lookbackHours', message: 'must be 1 to 720 hours' }],
      });
      const notSet = refusalOf(await gql(tenant.apiToken, SET_LOOKBACK, { id: usual.id, lookbackHours }));
      expect(notSet.extensions).toEqual({
        code: 'BAD_USER_INPUT',
        fields: [{ field: 'lookbackHours', message: 'must be 1 to 720 hours' }],
      });
    }
    const stranger = await hookline.createTenant('checkout');
    const hidden = refusalOf(await gql(stranger.apiToken, SET_LOOKBACK, { id: usual.id, lookbackHours: 5 }));
    expect(hidden).toEqual(expect.objectContaining({ message: `Incident ${usual.id} not found`, extensions: { code: 'NOT_FOUND' } }));
  });
});

describe('incidents on several services', () => {
  const OPEN_SHARED = graphql(`
    mutation OpenSharedIncident($serviceId: ID!, $affectedServiceIds: [ID!]) {
      openIncident(serviceId: $serviceId, title: "Shared outage", affectedServiceIds: $affectedServiceIds) {
        id affectedServices { id name } suspects { deploy { id } reasons { code detail } }
      }
    }
  `);

  it("keeps every affected service, ranks their own and upstream changes, lists it under each, and refuses services not the organization's", async () => {
    const { tenant, payments } = await setUp('/shared', ['test.ping']);
    const stranger = await hookline.createTenant('checkout');
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();
    const paymentsDeploy = await ingest(hookline, payments.deployToken, { commit_sha: 'pay', deployed_at: minutesAgo(5) });

    const alone = dataOf(await gql(tenant.apiToken, OPEN_SHARED, { serviceId: tenant.serviceId })).openIncident;
    expect(alone.affectedServices).toEqual([{ id: tenant.serviceId, name: 'checkout' }]);
    expect(alone.suspects[0]!.reasons[0]).toEqual({ code: 'other_service', detail: 'other service (payments) of the organization' });

    const shared = dataOf(
      await gql(tenant.apiToken, OPEN_SHARED, {
        serviceId: tenant.serviceId,
        affectedServiceIds: [payments.id, payments.id.toUpperCase(), tenant.serviceId],
      }),
    ).openIncident;
    expect(shared.affectedServices).toEqual([
      { id: tenant.serviceId, name: 'checkout' },
      { id: payments.id, name: 'payments' },
    ]);
    expect(shared.suspects).toEqual([
      {
        deploy: { id: paymentsDeploy },
        reasons: expect.arrayContaining([{ code: 'same_service', detail: 'affected service (payments)' }]),
      },
    ]);
    const listed = dataOf(await gql(tenant.apiToken, INCIDENTS_LIST, { first: 10, serviceId: payments.id })).incidents.edges.map(
      (edge) => edge.node.id,
    );
    expect(listed).toEqual([shared.id]);

    const refused = refusalOf(
      await gql(tenant.apiToken, OPEN_SHARED, {
        serviceId: tenant.serviceId,
        affectedServiceIds: [stranger.serviceId, 'nope', payments.id],
      }),
    );
    expect(refused.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'affectedServiceIds[1]', message: 'is not a service of this organization' }],
    });
    const foreign = refusalOf(
      await gql(tenant.apiToken, OPEN_SHARED, { serviceId: tenant.serviceId, affectedServiceIds: [stranger.serviceId, payments.id] }),
    );
    expect(foreign.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'affectedServiceIds[0]', message: 'is not a service of this organization' }],
    });
  });
});
