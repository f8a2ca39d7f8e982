// Hostile values on every route and mutation that takes JSON or times, through real HTTP and a
// real database: NUL and unpaired surrogates (as values and as keys), nesting thousands deep,
// numbers JSON can write but no double holds (1e400), and dates at and past the documented range.
// Whatever arrives, the answer is below 500, a refusal names the field at fault, and a request
// that is refused stores nothing.
import { createRequire } from 'node:module';
import { sign } from '@octokit/webhooks-methods';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAlertSource } from '../src/domain/ingest/alert-sources.ts';
import { rotateGitHubWebhookSecret } from '../src/domain/ingest/github-deployments.ts';
import { post, type HttpResult } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const hookline = useHookline({
  environment: {
    INGEST_RATE_LIMIT_PER_MINUTE: '100000000',
    INGEST_TEST_RATE_LIMIT_PER_MINUTE: '100000000',
    MUTATION_RATE_LIMIT_PER_MINUTE: '100000000',
  },
});

let alertmanagerToken: string;
let pagerDutyToken: string;
let gitHubSecret: string;

beforeAll(async () => {
  const prisma = hookline.app.database.prisma;
  const { organizationId, serviceId } = hookline.tenant;
  alertmanagerToken = (await createAlertSource(prisma, organizationId, { name: 'Prometheus', kind: 'ALERTMANAGER' })).token;
  pagerDutyToken = (await createAlertSource(prisma, organizationId, { name: 'Datadog', kind: 'PAGERDUTY_EVENTS' })).token;
  gitHubSecret = (await rotateGitHubWebhookSecret(prisma, organizationId, serviceId)).secret;
});

// ---------------------------------------------------------------------------------------
// Bodies as text, so that they can hold what JSON.stringify cannot write: number literals past
// a double's range, and nesting deeper than its recursion allows. A placeholder value such as
// `\u0001number:1e400\u0001` or `\u0001arrays:5000\u0001` becomes that text in the body (and
// keeps fast-check's counterexamples short).

const placeholder = (kind: 'number' | 'arrays' | 'objects', text: string | number) => `\u0001${kind}:${text}\u0001`;
const PLACEHOLDER = /"\\u0001(number|arrays|objects):([^\\]*)\\u0001"/g;

function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(PLACEHOLDER, (_, kind: string, text: string) => {
    if (kind === 'number') return text;
    const depth = Number(text);
    return kind === 'arrays' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  });
}

const hostileText = fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800', '\u0000\ud83d');
const hugeNumber = fc.constantFrom('1e400', '-1e400', '1e309', '123456789e999').map((literal) => placeholder('number', literal));
const deepValue = fc
  .tuple(fc.constantFrom('arrays' as const, 'objects' as const), fc.integer({ min: 33, max: 6_000 }))
  .map(([kind, depth]) => placeholder(kind, depth));
/** JSON with hostile strings as values and as keys, deep nesting and huge numbers mixed in. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    hostileText,
    hugeNumber,
    deepValue,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 5 }), hostileText), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Dates at the edges: before 1970, year 1 (Alertmanager's "no time"), year 0, past 9999, and plain ones. */
const extremeDate = fc.constantFrom(
  '0001-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+00:01',
  '1969-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-23:59',
  '+275760-09-13T00:00:00.000Z',
);
const recentDate = fc.integer({ min: 1, max: 600 }).map((minutes) => new Date(Date.now() - minutes * 60_000).toISOString());

/** Mostly a plausible value, so that whole payloads are often valid; now and then a hostile one. */
const mostly = <T>(plausible: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 8, arbitrary: plausible },
    { weight: 1, arbitrary: hostileText },
    { weight: 1, arbitrary: hostileJson },
    { weight: 1, arbitrary: hugeNumber },
  );
const text = mostly(fc.string({ maxLength: 20 }));
const time = fc.oneof({ weight: 3, arbitrary: recentDate }, { weight: 2, arbitrary: extremeDate }, { weight: 1, arbitrary: text });

// ---------------------------------------------------------------------------------------
// What each route is sent

const uniqueId = () => fc.integer({ min: 1, max: 2 ** 40 });

const deployPayload = fc.record(
  {
    commit_sha: mostly(fc.stringMatching(/^[0-9a-f]{7,40}$/)),
    commit_message: text,
    environment: mostly(fc.constantFrom('production', 'staging')),
    deployed_at: time,
    commits: mostly(
      fc.array(fc.record({ sha: mostly(fc.stringMatching(/^[0-9a-f]{7}$/)), message: text, timestamp: time }), { maxLength: 3 }),
    ),
  },
  { requiredKeys: ['commit_sha'] },
);

const changePayload = fc.record(
  {
    kind: mostly(fc.constantFrom('feature_flag', 'config')),
    summary: mostly(fc.constant('new-checkout-flow on')),
    changed_at: time,
    subject: text,
    // Mostly plain JSON: hostile values in both fields at once left about one payload in thirty valid.
    previous: fc.oneof({ weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) }, { weight: 1, arbitrary: hostileJson }),
    value: fc.oneof({ weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) }, { weight: 1, arbitrary: hostileJson }),
  },
  { requiredKeys: ['kind', 'summary'] },
);

// Keys are mostly plausible too: at even odds, with up to three keys per map on each of two
// maps per alert, a whole valid payload came about once in a hundred, and a run of 150 could
// miss the side of requests that are taken.
const key = (plausible: fc.Arbitrary<string>) => fc.oneof({ weight: 8, arbitrary: plausible }, { weight: 1, arbitrary: hostileText });
const labels = fc.dictionary(key(fc.constantFrom('alertname', 'severity', 'env')), text, { maxKeys: 3 });
const alertmanagerPayload = fc.record({
  groupKey: mostly(fc.constant('{}:{alertname="HighErrorRate"}')),
  alerts: fc.array(
    fc.record({
      status: mostly(fc.constantFrom('firing', 'resolved')),
      labels: labels.map((more) => ({ service: 'checkout', ...more })),
      annotations: fc.dictionary(key(fc.string({ maxLength: 5 })), text, { maxKeys: 3 }),
      startsAt: time,
      endsAt: fc.oneof(fc.constant('0001-01-01T00:00:00Z'), time),
      fingerprint: uniqueId().map(String),
    }),
    { minLength: 1, maxLength: 2 },
  ),
});

const pagerDutyPayload = fc.record({
  event_action: mostly(fc.constantFrom('trigger', 'acknowledge', 'resolve')),
  dedup_key: mostly(uniqueId().map((id) => `dedup-${id}`)),
  payload: fc.record(
    {
      summary: mostly(fc.constant('Checkout error rate above 5%')),
      source: mostly(fc.constant('checkout')),
      severity: mostly(fc.constantFrom('critical', 'error', 'warning', 'info')),
      timestamp: time,
      component: text,
      custom_details: hostileJson,
    },
    { requiredKeys: ['summary', 'source', 'severity'] },
  ),
});

// The shape of GitHub's own example, with the fields Hookline reads made hostile.
const webhookExamples: WebhookDefinition[] = createRequire(import.meta.url)('@octokit/webhooks-examples');
const gitHubExample = (webhookExamples.find((event) => event.name === 'deployment_status')!.examples as Record<string, any>[]).find(
  (example) => example.deployment_status.state === 'success',
)!;
const gitHubPayload = fc
  .record({
    id: mostly(uniqueId()),
    description: text,
    createdAt: time,
    sha: mostly(fc.stringMatching(/^[0-9a-f]{40}$/)),
    environment: text,
  })
  .map(({ id, description, createdAt, sha, environment }) => ({
    ...gitHubExample,
    deployment_status: { ...gitHubExample.deployment_status, id, description, created_at: createdAt },
    deployment: { ...gitHubExample.deployment, sha, environment },
  }));

const endpointPayload = fc.record(
  {
    url: mostly(fc.constant('https://hooks.example.com/hostile')),
    name: text,
    eventTypes: mostly(fc.constant(['deploy.ingested'])),
    headers: mostly(fc.constant([{ name: 'X-Team', value: 'payments' }])),
  },
  { requiredKeys: ['url', 'name'] },
);

const OPEN_INCIDENT = `mutation Open($serviceId: ID!, $title: String!, $startedAt: DateTime, $environment: String) {
  openIncident(serviceId: $serviceId, title: $title, startedAt: $startedAt, environment: $environment) { id }
}`;
const CREATE_SERVICE = 'mutation Create($name: String!) { createService(name: $name) { service { id } } }';
const CREATE_ENDPOINT = `mutation Endpoint($url: String!, $name: String!, $headers: [WebhookHeaderInput!]) {
  createWebhookEndpoint(url: $url, name: $name, headers: $headers) { endpoint { id } }
}`;
const graphqlOperation = fc.oneof(
  fc.record({
    query: fc.constant(OPEN_INCIDENT),
    variables: fc.record({
      serviceId: fc.constant('service'),
      title: mostly(fc.constant('Checkout is down')),
      startedAt: time,
      environment: text,
    }),
  }),
  fc.record({ query: fc.constant(CREATE_SERVICE), variables: fc.record({ name: text }) }),
  fc.record({
    query: fc.constant(CREATE_ENDPOINT),
    variables: fc.record({
      url: mostly(fc.constant('https://hooks.example.com/hostile')),
      name: text,
      headers: mostly(fc.array(fc.record({ name: mostly(fc.constant('X-Team')), value: text }), { maxLength: 2 })),
    }),
  }),
);

// ---------------------------------------------------------------------------------------
// Sending and judging

const json = { 'content-type': 'application/json' };
const ROUTES = {
  deploy: {
    payload: deployPayload,
    send: (body: string) => postTo('/api/ingest/deploy', body, { 'x-deploy-token': hookline.tenant.deployToken }),
  },
  'deploy test': {
    payload: deployPayload,
    send: (body: string) => postTo('/api/ingest/deploy/test', body, { 'x-deploy-token': hookline.tenant.deployToken }),
  },
  change: {
    payload: changePayload,
    send: (body: string) => postTo('/api/ingest/change', body, { 'x-deploy-token': hookline.tenant.deployToken }),
  },
  alertmanager: {
    payload: alertmanagerPayload,
    send: (body: string) => postTo('/api/ingest/alerts/alertmanager', body, { authorization: `Bearer ${alertmanagerToken}` }),
  },
  pagerduty: {
    payload: pagerDutyPayload.map((event) => ({ routing_key: pagerDutyToken, ...event })),
    send: (body: string) => postTo('/api/ingest/alerts/pagerduty/v2/enqueue', body),
  },
  github: {
    payload: gitHubPayload,
    send: async (body: string) =>
      postTo(`/api/ingest/github?service=${hookline.tenant.serviceId}`, body, {
        'x-github-event': 'deployment_status',
        'x-hub-signature-256': await sign(gitHubSecret, body),
      }),
  },
  endpoints: {
    payload: endpointPayload,
    send: (body: string) => postTo('/api/webhooks/endpoints', body, { authorization: `Bearer ${hookline.tenant.apiToken}` }),
  },
  graphql: {
    payload: graphqlOperation.map((operation) =>
      operation.query === OPEN_INCIDENT
        ? { ...operation, variables: { ...operation.variables, serviceId: hookline.tenant.serviceId } }
        : operation,
    ),
    send: (body: string) => postTo('/graphql', body, { authorization: `Bearer ${hookline.tenant.apiToken}` }),
  },
} satisfies Record<string, { payload: fc.Arbitrary<unknown>; send(body: string): Promise<HttpResult> }>;

function postTo(path: string, body: string, headers: Record<string, string> = {}) {
  return post(`${hookline.baseUrl}${path}`, { body, headers: { ...json, ...headers } });
}

/** Every table a request on these routes may write to. */
async function storedRows() {
  const { rows } = await hookline.app.database.pool.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM deploys)::int AS deploys, (SELECT count(*) FROM commits)::int AS commits,
            (SELECT count(*) FROM change_events)::int AS changes, (SELECT count(*) FROM incidents)::int AS incidents,
            (SELECT count(*) FROM alerts)::int AS alerts, (SELECT count(*) FROM services)::int AS services,
            (SELECT count(*) FROM webhook_endpoints)::int AS endpoints, (SELECT count(*) FROM events)::int AS events`,
  );
  return rows[0]!;
}

/** Whether the request was refused, in each route's own terms (GraphQL answers 200 with errors). */
function refused(answer: HttpResult): boolean {
  if (answer.status >= 400) return true;
  return Array.isArray(answer.body?.errors) && answer.body.errors.length > 0;
}

describe('one example of each hostile value, each refused with the field named', () => {
  it("PagerDuty custom_details: NUL, an unpaired surrogate, a NUL key, 5,000 deep → 400 in PagerDuty's shape", async () => {
    const cases: [unknown, string][] = [
      [{ note: 'a\u0000b' }, 'payload.custom_details.note'],
      [{ note: '\ud800' }, 'payload.custom_details.note'],
      [{ 'a\u0000': 'x' }, 'payload.custom_details'],
      ['\udfff', 'payload.custom_details'],
      [placeholder('objects', 5_000), 'payload.custom_details'],
    ];
    for (const [customDetails, field] of cases) {
      const before = await storedRows();
      const body = jsonText({
        routing_key: pagerDutyToken,
        event_action: 'trigger',
        payload: { summary: 'Checkout error rate above 5%', source: 'checkout', severity: 'critical', custom_details: customDetails },
      });
      const answer = await ROUTES.pagerduty.send(body);
      expect(answer.status, body.slice(0, 200)).toBe(400);
      expect(answer.body).toEqual({
        status: 'invalid event',
        message: 'Event object is invalid',
        errors: [expect.stringMatching(`^${field.replaceAll('.', '\\.')}[ .]`)],
      });
      expect(await storedRows()).toEqual(before);
    }
  });

  it('change events: NUL, an unpaired surrogate, 5,000 deep and 1e400 in value or previous → 400 naming it', async () => {
    const cases: [string, string][] = [
      ['{"kind":"config","summary":"pool size","value":"a\\u0000b"}', 'value'],
      ['{"kind":"config","summary":"pool size","previous":{"\\u0000":1}}', 'previous'],
      ['{"kind":"config","summary":"pool size","value":["\\udc00"]}', 'value[0]'],
      [`{"kind":"config","summary":"pool size","value":${'['.repeat(5_000)}${']'.repeat(5_000)}}`, 'value'],
      ['{"kind":"config","summary":"pool size","value":1e400}', 'value'],
      ['{"kind":"config","summary":"pool size","previous":{"limit":-1e400}}', 'previous.limit'],
    ];
    for (const [body, field] of cases) {
      const before = await storedRows();
      const answer = await ROUTES.change.send(body);
      expect(answer.status, body.slice(0, 200)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      expect(answer.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
      expect(await storedRows()).toEqual(before);
    }
  });

  it('year 1 (minus the look-back, year 0) in PagerDuty, Alertmanager and openIncident → 400 / BAD_USER_INPUT', async () => {
    const before = await storedRows();
    const pagerDuty = await ROUTES.pagerduty.send(
      jsonText({
        routing_key: pagerDutyToken,
        event_action: 'trigger',
        payload: { summary: 'Down', source: 'checkout', severity: 'critical', timestamp: '0001-01-01T00:00:00Z' },
      }),
    );
    expect(pagerDuty.status).toBe(400);
    expect(pagerDuty.body.errors).toEqual(['payload.timestamp must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z']);

    const alertmanager = await ROUTES.alertmanager.send(
      jsonText({ groupKey: 'g', alerts: [{ status: 'firing', labels: { service: 'checkout' }, startsAt: '0001-01-01T00:00:00Z' }] }),
    );
    expect(alertmanager.status).toBe(400);
    expect(alertmanager.body.error.details).toEqual([
      { field: 'alerts[0].startsAt', message: 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z' },
    ]);

    const opened = await ROUTES.graphql.send(
      jsonText({
        query: OPEN_INCIDENT,
        variables: { serviceId: hookline.tenant.serviceId, title: 'Down', startedAt: '0001-01-01T00:00:00Z' },
      }),
    );
    expect(opened.status).toBe(200);
    expect(opened.body.data).toBeNull();
    expect(opened.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'startedAt', message: 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z' }],
    });
    expect(await storedRows()).toEqual(before);
  });

  it("Alertmanager's zero endsAt (0001-01-01T00:00:00Z, Go's zero time) still means no end", async () => {
    const answer = await ROUTES.alertmanager.send(
      jsonText({
        groupKey: 'zero-end',
        alerts: [{ status: 'firing', labels: { service: 'checkout' }, startsAt: new Date().toISOString(), endsAt: '0001-01-01T00:00:00Z' }],
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.incidents).toEqual([{ incident_id: expect.any(String), action: 'opened' }]);
  });
});

describe('generated hostile requests on every route that takes JSON', () => {
  // Runs per route: a few hundred reach every hostile kind on every field several times over.
  const RUNS = 150;
  for (const [route, { payload, send }] of Object.entries(ROUTES)) {
    it(`${route}: no 5xx, and nothing stored when refused`, { timeout: 300_000 }, async () => {
      // Each answer's status and code, so that a run that never reached one side says what it got.
      const outcomes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(payload, async (value) => {
          const body = jsonText(value);
          const before = await storedRows();
          const answer = await send(body);
          expect(answer.status, body.slice(0, 300)).toBeLessThan(500);
          const outcome = `${refused(answer) ? 'refused' : 'taken'} ${answer.status} ${answer.body?.error?.code ?? answer.body?.errors?.[0]?.extensions?.code ?? ''}`;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if (refused(answer)) expect(await storedRows()).toEqual(before);
        }),
        { numRuns: RUNS },
      );
      // The generators reach both sides: hostile requests refused, plausible ones taken.
      const sides = new Set([...outcomes.keys()].map((outcome) => outcome.split(' ')[0]));
      expect([...sides].sort(), JSON.stringify(Object.fromEntries(outcomes))).toEqual(['refused', 'taken']);
    });
  }
});
