// Signed webhook deliveries end to end: REST endpoint creation, ingest, the pg-boss worker,
// a real receiver on loopback, and verification with the standardwebhooks library.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { post, postDeploy } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    DELIVERY_BACKOFF_BASE_MS: '50',
    DELIVERY_BACKOFF_FACTOR: '2',
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
  },
  receiver: true,
});

function createEndpoint(body: unknown, token = hookline.tenant.apiToken) {
  return post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
}

describe('POST /api/webhooks/endpoints', () => {
  it('creates an active endpoint and returns its signing secret once', async () => {
    const response = await createEndpoint({ url: `${hookline.receiver.url}/hooks`, name: 'Receiver', eventTypes: ['deploy.ingested'] });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      url: `${hookline.receiver.url}/hooks`,
      name: 'Receiver',
      status: 'ACTIVE',
      eventTypes: ['deploy.ingested'],
      signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
    });
  });

  it('refuses a bad token, and reports every invalid field', async () => {
    const unauthorized = await createEndpoint({ url: 'https://example.com', name: 'x' }, `hla_${'x'.repeat(40)}`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({
      error: { code: 'invalid_api_token', message: 'Send "Authorization: Bearer <API token>" with a valid API token, or sign in' },
    });
    const invalid = await createEndpoint({ url: 'ftp://example.com', name: '', eventTypes: ['deploy.ingested', 'nope'] });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      error: {
        code: 'validation_failed',
        message: 'The endpoint is invalid',
        details: [
          { field: 'url', message: 'must use https or http' },
          { field: 'name', message: 'must be 1 to 200 characters' },
          {
            field: 'eventTypes[1]',
            message:
              'must be one of deploy.ingested, incident.opened, incident.acknowledged, incident.resolved, test.ping, endpoint.disabled',
          },
        ],
      },
    });
  });
});

describe('POST /api/webhooks/endpoints: input PostgreSQL or a socket cannot use', () => {
  const NOT_STORABLE = 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters';

  async function endpointCount() {
    return hookline.app.database.prisma.webhookEndpoint.count({ where: { organizationId: hookline.tenant.organizationId } });
  }

  it('refuses NUL and unpaired surrogates, naming the field', async () => {
    const before = await endpointCount();
    const response = await createEndpoint({ url: `${hookline.receiver.url}/\ud800`, name: 'Receiver\u0000' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        code: 'validation_failed',
        message: 'The endpoint is invalid',
        details: [
          { field: 'url', message: NOT_STORABLE },
          { field: 'name', message: NOT_STORABLE },
        ],
      },
    });
    expect(await endpointCount()).toBe(before);
  });

  it('refuses port 0, which no connection can reach', async () => {
    for (const url of ['https://hooks.example.com:0/hook', 'http://127.0.0.1:0/hook']) {
      const response = await createEndpoint({ url, name: 'Port zero' });
      expect(response.status, url).toBe(400);
      expect(response.body.error.details).toEqual([{ field: 'url', message: 'must not use port 0' }]);
    }
  });

  it('lists at most 20 invalid fields, however many there are', async () => {
    const eventTypes = Array.from({ length: 80_000 }, (_, index) => `nope.${index}`);
    const response = await createEndpoint({ url: `${hookline.receiver.url}/hooks`, name: 'Many', eventTypes });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toHaveLength(20);
    expect(response.body.error.details[19].field).toBe('eventTypes[19]');
    expect(JSON.stringify(response.body).length).toBeLessThan(10_000);
  });

  it('refuses a declared charset other than UTF-8 with 415', async () => {
    const before = await endpointCount();
    const response = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      body: Buffer.from(JSON.stringify({ url: `${hookline.receiver.url}/hooks`, name: 'Zoë' }), 'latin1'),
      headers: { 'content-type': 'application/json; charset=iso-8859-1', authorization: `Bearer ${hookline.tenant.apiToken}` },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ error: { code: 'unsupported_media_type', message: 'Content-Type charset must be utf-8' } });
    expect(await endpointCount()).toBe(before);
  });

  it('refuses a body declared as another media type with 415', async () => {
    const before = await endpointCount();
    for (const contentType of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded']) {
      const response = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
        body: JSON.stringify({ url: `${hookline.receiver.url}/hooks`, name: 'Plain' }),
        headers: { 'content-type': contentType, authorization: `Bearer ${hookline.tenant.apiToken}` },
      });
      expect(response.status, contentType).toBe(415);
      expect(response.body).toEqual({ error: { code: 'unsupported_media_type', message: 'Content-Type must be application/json' } });
    }
    expect(await endpointCount()).toBe(before);
  });
});

describe('deploy.ingested', () => {
  it('reaches the endpoint signed, verifiable under both header sets, with the deploy', async () => {
    const endpoint = await createEndpoint({ url: `${hookline.receiver.url}/deploys`, name: 'Deploys' });
    const ingest = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
      commit_sha: 'abc123',
      environment: 'production',
      commits: [{ sha: 'abc123', author: 'ada', timestamp: '2026-11-20T10:00:00+01:00' }],
    });
    expect(ingest.body.status).toBe('accepted');

    const [request] = await hookline.receiver.waitForRequests(1, { path: '/deploys' });
    const headers = request!.headers as Record<string, string>;
    const body = JSON.parse(request!.body);
    // The Standard Webhooks envelope's name for when the event happened, beside our older one.
    expect(body.timestamp).toBe(body.createdAt);
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      type: 'deploy.ingested',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      createdAt: expect.any(String),
      organizationId: hookline.tenant.organizationId,
      data: {
        deploy: {
          id: ingest.body.deploy_id,
          service: { id: hookline.tenant.serviceId, name: 'checkout' },
          commitSha: 'abc123',
          commitMessage: null,
          branch: null,
          deployedBy: null,
          environment: 'production',
          version: null,
          description: null,
          url: null,
          deployedAt: expect.any(String),
          receivedAt: expect.any(String),
          commits: [{ sha: 'abc123', message: null, author: 'ada', timestamp: '2026-11-20T09:00:00.000Z' }],
        },
      },
    });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('Hookline-Webhooks/0.1.0');
    expect(headers['x-service-event']).toBe('deploy.ingested');
    expect(headers['x-service-delivery']).toMatch(UUID);
    expect(headers['webhook-id']).toBe(headers['x-service-delivery']);

    const verifier = new Webhook(endpoint.body.signingSecret);
    expect(verifier.verify(request!.body, headers)).toEqual(body);
    expect(
      verifier.verify(request!.body, {
        'webhook-id': headers['x-service-delivery']!,
        'webhook-timestamp': headers['x-service-timestamp']!,
        'webhook-signature': headers['x-service-signature']!,
      }),
    ).toEqual(body);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request!.body, headers)).toThrow();

    const delivery = await eventually(async () => {
      const row = await hookline.app.database.prisma.delivery.findFirst({
        where: { id: headers['x-service-delivery']! },
        include: { attempts: true },
      });
      return row?.status === 'SUCCEEDED' ? row : undefined;
    });
    expect(delivery.attemptCount).toBe(1);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ number: 1, succeeded: true, responseStatus: 200, responseBody: 'ok', error: null }),
    ]);
  });
});

describe('several workers', () => {
  it('never send one attempt twice: 100 deliveries over two worker processes arrive exactly once each', async () => {
    const second = await hookline.startApp({ ROLE: 'worker', ...LOCAL_RECEIVERS });
    try {
      const tenantOfTheirOwn = await hookline.createTenant('fan-out');
      await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
        body: JSON.stringify({ url: `${hookline.receiver.url}/fan-out`, name: 'Fan-out' }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tenantOfTheirOwn.apiToken}` },
      });
      const ingests = await Promise.all(
        Array.from({ length: 100 }, (_, i) => postDeploy(hookline.baseUrl, tenantOfTheirOwn.deployToken, { commit_sha: `sha-${i}` })),
      );
      expect(ingests.every((response) => response.body.status === 'accepted')).toBe(true);
      await hookline.receiver.waitForRequests(100, { path: '/fan-out', timeoutMs: 20_000 });
      // Everything has arrived once; give a late duplicate the chance to show up, bounded by
      // the moment every delivery is recorded as SUCCEEDED.
      await eventually(async () => {
        const pending = await hookline.app.database.prisma.delivery.count({
          where: { organizationId: tenantOfTheirOwn.organizationId, status: { not: 'SUCCEEDED' } },
        });
        return pending === 0 ? true : undefined;
      });
      const ids = hookline.receiver.requests.filter((r) => r.path === '/fan-out').map((r) => r.headers['x-service-delivery']);
      expect(ids).toHaveLength(100);
      expect(new Set(ids).size).toBe(100);
    } finally {
      await second.close();
    }
  });

  it('reports delivery outcomes and queue depth on /metrics, exactly', async () => {
    // A database and an app of its own, so that every delivery the metrics count is this test's.
    const own = await hookline.createDatabase();
    const app = await hookline.startApp({ ...LOCAL_RECEIVERS, INGEST_RATE_LIMIT_PER_MINUTE: 'off' }, own.url);
    const held = await hookline.startReceiver();
    const answers: (() => void)[] = [];
    held.respond((_request, response) => answers.push(() => response.end('ok')));
    try {
      const theirs = await hookline.createTenant('metrics', app.app);
      await post(`${app.baseUrl}/api/webhooks/endpoints`, {
        body: JSON.stringify({ url: `${held.url}/held`, name: 'Held' }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${theirs.apiToken}` },
      });
      for (let i = 0; i < 3; i++) expect((await postDeploy(app.baseUrl, theirs.deployToken, { commit_sha: `held-${i}` })).status).toBe(200);
      await held.waitForRequests(3);
      const scrape = async () => (await fetch(`${app.baseUrl}/metrics`)).text();

      // Three attempts in flight: three deliveries waiting, none finished.
      let text = await scrape();
      expect(text).toMatch(/^hookline_delivery_queue_depth 3$/m);
      expect(text).not.toMatch(/hookline_delivery_attempt_outcomes_total\{outcome="succeeded"\}/);

      for (const answer of answers) answer();
      text = await eventually(async () => {
        const scraped = await scrape();
        return /^hookline_delivery_attempt_outcomes_total\{outcome="succeeded"\} 3$/m.test(scraped) ? scraped : undefined;
      });
      expect(text).toMatch(/^hookline_delivery_queue_depth 0$/m);
      expect(text).toMatch(/^hookline_delivery_attempt_duration_seconds_count\{result="success"\} 3$/m);
    } finally {
      await app.close();
      await held.close();
      await own.drop();
    }
  });
});
