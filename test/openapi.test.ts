// The OpenAPI 3.1 document of the REST routes (/api/openapi.json, committed as openapi.json):
// valid by a real OpenAPI validator, and true to what the server does. Real requests over HTTP
// give every documented answer; each answer's status, body and headers are checked against the
// document with ajv.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAlertSource } from '../src/domain/ingest/alert-sources.ts';
import { documentChecker, pointer, type DocumentChecker, type OpenApiDocument } from './support/openapi.ts';
import { useHookline } from './support/fixture.ts';

const root = path.resolve(import.meta.dirname, '..');
const INGEST_TEST_LIMIT = 4;

const hookline = useHookline({ environment: { INGEST_TEST_RATE_LIMIT_PER_MINUTE: String(INGEST_TEST_LIMIT) } });
let alertmanagerToken: string;
let pagerDutyToken: string;
let documentText: string;
let document: OpenApiDocument;
let checker: DocumentChecker;
/** The endpoint the "new endpoint" case made, which the cases on /api/webhooks/endpoints/{id} read, change and delete. */
let createdEndpointId: string | undefined;

beforeAll(async () => {
  alertmanagerToken = (
    await createAlertSource(hookline.app.database.prisma, hookline.tenant.organizationId, { name: 'Prometheus', kind: 'ALERTMANAGER' })
  ).token;
  pagerDutyToken = (
    await createAlertSource(hookline.app.database.prisma, hookline.tenant.organizationId, { name: 'Datadog', kind: 'PAGERDUTY_EVENTS' })
  ).token;
  documentText = await readFile(path.join(root, 'openapi.json'), 'utf8');
  document = JSON.parse(documentText);
  checker = documentChecker(document);
});

interface Case {
  name: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  /** As documented; `{id}` stands for the endpoint the "new endpoint" case made, `?…` is left out of the lookup. */
  path: string;
  /** Which token the request carries, if any (a PagerDuty routing_key is in the body: PAGERDUTY_TOKEN there). */
  credential?: 'deploy' | 'api' | 'alertmanager';
  /** Content-Type of the body; application/json unless said. */
  contentType?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
}

function requestHeaders({ credential, contentType, headers, body }: Case): Record<string, string> {
  return {
    ...(body === undefined ? {} : { 'content-type': contentType ?? 'application/json' }),
    ...(credential === 'deploy' ? { 'x-deploy-token': hookline.tenant.deployToken } : {}),
    ...(credential === 'api' ? { authorization: `Bearer ${hookline.tenant.apiToken}` } : {}),
    ...(credential === 'alertmanager' ? { authorization: `Bearer ${alertmanagerToken}` } : {}),
    ...headers,
  };
}

/** Asks the server, then checks the answer against the document's response for its status. */
async function checkAgainstDocument(request: Case) {
  const { method, body, status } = request;
  const route = request.path.split('?')[0]!;
  const url = `${hookline.baseUrl}${request.path.replace('{id}', createdEndpointId ?? 'none-made-yet')}`;
  const response = await fetch(url, {
    method: method.toUpperCase(),
    headers: requestHeaders(request),
    body: body?.replace('PAGERDUTY_TOKEN', pagerDutyToken),
  });
  const text = await response.text();
  expect(response.status, text).toBe(status);
  checker.expectDocumented(route, method, response, text);
  return { response, text };
}

const json = (value: unknown) => JSON.stringify(value);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(documentText));
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
    // The validator does look: a response without its required description fails.
    const broken = JSON.parse(documentText);
    delete broken.paths['/healthz'].get.responses['200'].description;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has no component that nothing refers to (linters flag those as stale)', () => {
    const references = new Set(documentText.match(/"#\/components\/[^"]+"/g)?.map((reference) => reference.slice(1, -1)));
    const components = Object.entries(document.components as Record<string, Record<string, unknown>>).flatMap(([kind, entries]) =>
      Object.keys(entries).map((name) => `#/components/${kind}/${name}`),
    );
    // Security schemes are named by the operations' `security`, not by $ref.
    expect(components.filter((component) => !component.includes('/securitySchemes/') && !references.has(component))).toEqual([]);
  });

  it('is served at /api/openapi.json exactly as committed', async () => {
    const response = await fetch(`${hookline.baseUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(document);
  });

  it('describes the REST routes, their credentials, error shape and rate-limit headers', () => {
    expect(Object.fromEntries(Object.entries(document.paths).map(([route, item]) => [route, Object.keys(item)]))).toEqual({
      '/api/ingest/deploy': ['post'],
      '/api/ingest/deploy/test': ['post'],
      '/api/ingest/deploy/latest': ['get'],
      '/api/ingest/change': ['post'],
      '/api/ingest/alerts/alertmanager': ['post'],
      '/api/ingest/alerts/pagerduty/v2/enqueue': ['post'],
      '/api/ingest/github': ['post'],
      '/api/webhooks/endpoints': ['get', 'post'],
      '/api/webhooks/endpoints/{id}': ['parameters', 'get', 'patch', 'delete'],
      '/ci/hookline-deploy.mjs': ['get'],
      '/ci/hookline-deploy.gitlab-ci.yml': ['get'],
      '/healthz': ['get'],
      '/readyz': ['get'],
      '/metrics': ['get'],
      '/api/openapi.json': ['get'],
      '/api/auth/sign-in': ['post'],
      '/api/auth/sign-out': ['post'],
      '/api/auth/setup': ['post'],
      '/api/auth/invites/accept': ['post'],
    });
    expect(document.paths['/api/ingest/deploy']!.post!.security).toEqual([{ deployToken: [] }]);
    expect(document.paths['/api/webhooks/endpoints']!.post!.security).toEqual([{ apiToken: [] }, { sessionCookie: [] }]);
    expect(Object.keys(document.components.headers).sort()).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'Set-Cookie',
    ]);
    // The error schema is not vacuous: a body of another shape fails it.
    const validate = checker.schemaAt(
      `#/paths/${pointer('/api/ingest/deploy')}/post/responses/401/content/${pointer('application/json')}/schema`,
    );
    expect(validate({ error: { code: 'invalid_deploy_token', message: 'X-Deploy-Token is missing' } })).toBe(true);
    expect(validate({ error: { code: 'rate_limited', message: 'Slow down' } })).toBe(false);
    expect(validate({ message: 'Unauthorized' })).toBe(false);
  });
});

describe('real answers match the document', () => {
  const deploy = {
    commit_sha: 'a1b2c3d',
    environment: 'production',
    commits: [{ sha: 'a1b2c3d', message: 'Fix', timestamp: '2026-11-21T10:00:00Z' }],
  };
  const endpoint = { url: 'https://hooks.example.com/hookline', name: 'Alerts', eventTypes: ['deploy.ingested'] };
  const ALERTMANAGER = '/api/ingest/alerts/alertmanager';
  const PAGERDUTY = '/api/ingest/alerts/pagerduty/v2/enqueue';
  const alertGroup = (status: 'firing' | 'resolved') => ({
    version: '4',
    groupKey: '{}:{alertname="HighLatency"}',
    status,
    alerts: ['checkout', 'nowhere'].map((service) => ({
      status,
      labels: { alertname: 'HighLatency', service },
      annotations: { summary: 'p99 above 2 s' },
      startsAt: '2026-11-21T10:00:00Z',
      endsAt: status === 'resolved' ? '2026-11-21T10:20:00Z' : '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example.com/graph',
      fingerprint: `f${service}`,
    })),
  });
  const pagerDutyTrigger = {
    routing_key: 'PAGERDUTY_TOKEN',
    event_action: 'trigger',
    payload: { summary: 'Disk full', source: 'db-1', component: 'checkout', severity: 'error' },
  };
  const cases: Case[] = [
    {
      name: 'new deploy',
      method: 'post',
      path: '/api/ingest/deploy',
      credential: 'deploy',
      headers: { 'x-idempotency-key': 'openapi-1' },
      body: json(deploy),
      status: 200,
    },
    {
      name: 'duplicate deploy',
      method: 'post',
      path: '/api/ingest/deploy',
      credential: 'deploy',
      headers: { 'x-idempotency-key': 'openapi-1' },
      body: json(deploy),
      status: 200,
    },
    {
      name: 'invalid deploy',
      method: 'post',
      path: '/api/ingest/deploy',
      credential: 'deploy',
      body: json({ commits: 'many' }),
      status: 400,
    },
    {
      name: 'deploy, malformed JSON',
      method: 'post',
      path: '/api/ingest/deploy',
      credential: 'deploy',
      body: '{"commit_sha":',
      status: 400,
    },
    {
      name: 'deploy, bad idempotency key',
      method: 'post',
      path: '/api/ingest/deploy',
      credential: 'deploy',
      headers: { 'x-idempotency-key': 'k'.repeat(256) },
      body: json(deploy),
      status: 400,
    },
    { name: 'deploy without token', method: 'post', path: '/api/ingest/deploy', body: json(deploy), status: 401 },
    {
      name: 'deploy as text',
      method: 'post',
      path: '/api/ingest/deploy',
      credential: 'deploy',
      contentType: 'text/plain',
      body: 'deployed',
      status: 415,
    },
    {
      name: 'deploy too large',
      method: 'post',
      path: '/api/ingest/deploy',
      credential: 'deploy',
      body: json({ commit_sha: 'x', description: 'x'.repeat(102_400) }),
      status: 413,
    },
    { name: 'latest deploy', method: 'get', path: '/api/ingest/deploy/latest?environment=production', credential: 'deploy', status: 200 },
    {
      name: 'latest deploy, none yet',
      method: 'get',
      path: '/api/ingest/deploy/latest?environment=nowhere',
      credential: 'deploy',
      status: 200,
    },
    {
      name: 'latest deploy, environment twice',
      method: 'get',
      path: '/api/ingest/deploy/latest?environment=a&environment=b',
      credential: 'deploy',
      status: 400,
    },
    { name: 'latest deploy without token', method: 'get', path: '/api/ingest/deploy/latest', status: 401 },
    {
      name: 'new change',
      method: 'post',
      path: '/api/ingest/change',
      credential: 'deploy',
      body: json({ kind: 'feature_flag', summary: 'checkout-v2 on' }),
      status: 200,
    },
    {
      name: 'invalid change',
      method: 'post',
      path: '/api/ingest/change',
      credential: 'deploy',
      body: json({ kind: 'Deploy!' }),
      status: 400,
    },
    { name: 'change without token', method: 'post', path: '/api/ingest/change', body: '{}', status: 401 },
    {
      name: 'change as text',
      method: 'post',
      path: '/api/ingest/change',
      credential: 'deploy',
      contentType: 'text/plain',
      body: 'x',
      status: 415,
    },
    { name: 'change too large', method: 'post', path: '/api/ingest/change', credential: 'deploy', body: 'x'.repeat(102_401), status: 413 },
    // The test route's own limit (INGEST_TEST_LIMIT): four answers, then 429 (a 413 comes before the limit).
    { name: 'test, valid', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: json(deploy), status: 200 },
    { name: 'test, invalid', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: json({}), status: 400 },
    {
      name: 'test as text',
      method: 'post',
      path: '/api/ingest/deploy/test',
      credential: 'deploy',
      contentType: 'text/plain',
      body: 'x',
      status: 415,
    },
    { name: 'test without token', method: 'post', path: '/api/ingest/deploy/test', body: json(deploy), status: 401 },
    { name: 'test, rate-limited', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: json(deploy), status: 429 },
    {
      name: 'test too large',
      method: 'post',
      path: '/api/ingest/deploy/test',
      credential: 'deploy',
      body: 'x'.repeat(102_401),
      status: 413,
    },
    { name: 'alerts', method: 'post', path: ALERTMANAGER, credential: 'alertmanager', body: json(alertGroup('firing')), status: 200 },
    {
      name: 'alerts resolved',
      method: 'post',
      path: ALERTMANAGER,
      credential: 'alertmanager',
      body: json(alertGroup('resolved')),
      status: 200,
    },
    { name: 'alerts, invalid', method: 'post', path: ALERTMANAGER, credential: 'alertmanager', body: json({ alerts: 'all' }), status: 400 },
    { name: 'alerts without token', method: 'post', path: ALERTMANAGER, body: json(alertGroup('firing')), status: 401 },
    {
      name: 'alerts as text',
      method: 'post',
      path: ALERTMANAGER,
      credential: 'alertmanager',
      contentType: 'text/plain',
      body: 'x',
      status: 415,
    },
    { name: 'alerts too large', method: 'post', path: ALERTMANAGER, credential: 'alertmanager', body: 'x'.repeat(102_401), status: 413 },
    { name: 'PagerDuty trigger', method: 'post', path: PAGERDUTY, body: json(pagerDutyTrigger), status: 202 },
    {
      name: 'PagerDuty, invalid',
      method: 'post',
      path: PAGERDUTY,
      body: json({ routing_key: 'PAGERDUTY_TOKEN', event_action: 'resolve' }),
      status: 400,
    },
    {
      name: 'PagerDuty, unknown routing_key',
      method: 'post',
      path: PAGERDUTY,
      body: json({ ...pagerDutyTrigger, routing_key: 'R0UT1NGKEY' }),
      status: 401,
    },
    { name: 'PagerDuty as text', method: 'post', path: PAGERDUTY, contentType: 'text/plain', body: 'x', status: 415 },
    { name: 'PagerDuty too large', method: 'post', path: PAGERDUTY, body: 'x'.repeat(102_401), status: 413 },
    {
      name: 'GitHub webhook without the service',
      method: 'post',
      path: '/api/ingest/github',
      body: json({}),
      headers: { 'x-github-event': 'ping' },
      status: 400,
    },
    {
      name: 'GitHub webhook unsigned',
      method: 'post',
      path: `/api/ingest/github?service=${crypto.randomUUID()}`,
      body: json({}),
      headers: { 'x-github-event': 'ping' },
      status: 401,
    },
    { name: 'GitHub webhook too large', method: 'post', path: '/api/ingest/github', body: 'x'.repeat(102_401), status: 413 },
    { name: 'new endpoint', method: 'post', path: '/api/webhooks/endpoints', credential: 'api', body: json(endpoint), status: 201 },
    {
      name: 'invalid endpoint',
      method: 'post',
      path: '/api/webhooks/endpoints',
      credential: 'api',
      body: json({ url: 'http://127.0.0.1/' }),
      status: 400,
    },
    { name: 'endpoint, malformed JSON', method: 'post', path: '/api/webhooks/endpoints', credential: 'api', body: '{', status: 400 },
    { name: 'endpoint without token', method: 'post', path: '/api/webhooks/endpoints', body: json(endpoint), status: 401 },
    {
      name: 'endpoint as text',
      method: 'post',
      path: '/api/webhooks/endpoints',
      credential: 'api',
      contentType: 'text/plain',
      body: endpoint.url,
      status: 415,
    },
    {
      name: 'endpoint too large',
      method: 'post',
      path: '/api/webhooks/endpoints',
      credential: 'api',
      body: json({ ...endpoint, name: 'x'.repeat(1_048_576) }),
      status: 413,
    },
    { name: 'the deploy script', method: 'get', path: '/ci/hookline-deploy.mjs', status: 200 },
    { name: 'the GitLab CI template', method: 'get', path: '/ci/hookline-deploy.gitlab-ci.yml', status: 200 },
    { name: 'endpoints, a page', method: 'get', path: '/api/webhooks/endpoints?limit=1', credential: 'api', status: 200 },
    { name: 'endpoints, bad cursor', method: 'get', path: '/api/webhooks/endpoints?after=nope', credential: 'api', status: 400 },
    { name: 'endpoints without token', method: 'get', path: '/api/webhooks/endpoints', status: 401 },
    { name: 'endpoint, read', method: 'get', path: '/api/webhooks/endpoints/{id}', credential: 'api', status: 200 },
    { name: 'endpoint, read without token', method: 'get', path: '/api/webhooks/endpoints/{id}', status: 401 },
    {
      name: 'endpoint, change',
      method: 'patch',
      path: '/api/webhooks/endpoints/{id}',
      credential: 'api',
      body: json({ name: 'Renamed', timeoutMs: null }),
      status: 200,
    },
    {
      name: 'endpoint, invalid change',
      method: 'patch',
      path: '/api/webhooks/endpoints/{id}',
      credential: 'api',
      body: json({ url: 'ftp://x' }),
      status: 400,
    },
    {
      name: 'endpoint, change without token',
      method: 'patch',
      path: '/api/webhooks/endpoints/{id}',
      body: json({ name: 'x' }),
      status: 401,
    },
    {
      name: 'endpoint, change as text',
      method: 'patch',
      path: '/api/webhooks/endpoints/{id}',
      credential: 'api',
      contentType: 'text/plain',
      body: 'x',
      status: 415,
    },
    {
      name: 'endpoint, change too large',
      method: 'patch',
      path: '/api/webhooks/endpoints/{id}',
      credential: 'api',
      body: json({ name: 'x'.repeat(1_048_576) }),
      status: 413,
    },
    { name: 'endpoint, delete without token', method: 'delete', path: '/api/webhooks/endpoints/{id}', status: 401 },
    { name: 'endpoint, delete', method: 'delete', path: '/api/webhooks/endpoints/{id}', credential: 'api', status: 204 },
    { name: 'endpoint, read after delete', method: 'get', path: '/api/webhooks/endpoints/{id}', credential: 'api', status: 404 },
    {
      name: 'endpoint, change after delete',
      method: 'patch',
      path: '/api/webhooks/endpoints/{id}',
      credential: 'api',
      body: json({ name: 'x' }),
      status: 404,
    },
    { name: 'endpoint, delete after delete', method: 'delete', path: '/api/webhooks/endpoints/{id}', credential: 'api', status: 404 },
    { name: 'health', method: 'get', path: '/healthz', status: 200 },
    { name: 'readiness', method: 'get', path: '/readyz', status: 200 },
    { name: 'metrics', method: 'get', path: '/metrics', status: 200 },
    { name: 'the document itself', method: 'get', path: '/api/openapi.json', status: 200 },
    {
      name: 'sign-in, wrong password',
      method: 'post',
      path: '/api/auth/sign-in',
      body: json({ email: 'nobody@example.com', password: 'x' }),
      status: 401,
    },
    { name: 'sign-in, not an object', method: 'post', path: '/api/auth/sign-in', body: json({ email: 1 }), status: 400 },
    {
      name: 'sign-in from another site',
      method: 'post',
      path: '/api/auth/sign-in',
      headers: { origin: 'https://evil.example' },
      body: json({ email: 'nobody@example.com', password: 'x' }),
      status: 403,
    },
    { name: 'sign-out without a session', method: 'post', path: '/api/auth/sign-out', status: 204 },
    {
      name: 'set-up, unknown link',
      method: 'post',
      path: '/api/auth/setup',
      body: json({ token: 'nope', email: 'a@example.com', name: 'A', password: 'a long enough password' }),
      status: 410,
    },
    { name: 'set-up, short password', method: 'post', path: '/api/auth/setup', body: json({ token: 'x', password: 'short' }), status: 400 },
    {
      name: 'invite, unknown link',
      method: 'post',
      path: '/api/auth/invites/accept',
      body: json({ token: 'nope', name: 'A', password: 'a long enough password' }),
      status: 410,
    },
  ];

  // In order (not concurrent): the test route's rate limit counts the answers before.
  it.each(cases)('$name → $status', async (request) => {
    const { text } = await checkAgainstDocument(request);
    if (request.name === 'new endpoint') createdEndpointId = JSON.parse(text).id;
  });

  it('gave every documented operation at least one real request', () => {
    const operations = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method} ${route}`),
    );
    expect(new Set(cases.map(({ method, path }) => `${method} ${path.split('?')[0]}`))).toEqual(new Set(operations));
  });

  it('429 carries Retry-After and the RateLimit headers, as documented', async () => {
    const { response } = await checkAgainstDocument({
      name: 'again',
      method: 'post',
      path: '/api/ingest/deploy/test',
      credential: 'deploy',
      body: json(deploy),
      status: 429,
    });
    expect(response.headers.get('ratelimit-limit')).toBe(String(INGEST_TEST_LIMIT));
    expect(response.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
