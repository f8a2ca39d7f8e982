// Webhook endpoints and deliveries through GraphQL, as a dashboard uses them: endpoint
// management, test events reaching a real receiver, retries, and tenant isolation.
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import type { WebhookEndpointDeliveriesQuery, WebhookEndpointsPageQuery } from './gql/graphql.ts';
import { dataOf, errorOf, requestGraphql, type GraphqlResponse, type RunningApp, type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { eventually, type ReceivedRequest, TIMER_SLACK_MS } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

// Fragments: the operations below spread them.
graphql(`
  fragment WebhookEndpointParts on WebhookEndpoint {
    id url name status eventTypes consecutiveFailures disabledAt disabledReason createdAt updatedAt
  }
`);
graphql(`
  fragment DeliveryParts on Delivery {
    id status attemptCount nextAttemptAt lastAttemptAt createdAt updatedAt
    event { id type createdAt data }
    endpoint { id name }
    attempts { id number succeeded startedAt durationMs responseStatus responseBody error }
  }
`);
const CREATE_WEBHOOK_ENDPOINT = graphql(`
  mutation CreateWebhookEndpoint($url: String!, $name: String!, $eventTypes: [String!]) {
    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes) { signingSecret endpoint { ...WebhookEndpointParts } }
  }
`);
const UPDATE_WEBHOOK_ENDPOINT = graphql(`
  mutation UpdateWebhookEndpoint($id: ID!, $url: String, $name: String, $eventTypes: [String!]) {
    updateWebhookEndpoint(id: $id, url: $url, name: $name, eventTypes: $eventTypes) { ...WebhookEndpointParts }
  }
`);
const SET_WEBHOOK_ENDPOINT_ACTIVE = graphql(`
  mutation SetWebhookEndpointActive($id: ID!, $active: Boolean!) {
    setWebhookEndpointActive(id: $id, active: $active) { ...WebhookEndpointParts }
  }
`);
const DELETE_WEBHOOK_ENDPOINT = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }
`);
const ROTATE_WEBHOOK_SECRET = graphql(`
  mutation RotateWebhookSecret($id: ID!) {
    rotateWebhookSecret(id: $id) { signingSecret endpoint { ...WebhookEndpointParts } }
  }
`);
const SEND_TEST_EVENT = graphql(`
  mutation SendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { ...DeliveryParts } }
`);
const RETRY_DELIVERY = graphql(`
  mutation RetryDelivery($id: ID!) { retryDelivery(id: $id) { ...DeliveryParts } }
`);
const WEBHOOK_ENDPOINT = graphql(`
  query WebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ...WebhookEndpointParts } }
`);
const WEBHOOK_ENDPOINT_DELIVERIES = graphql(`
  query WebhookEndpointDeliveries($id: ID!, $status: DeliveryStatus, $first: Int, $after: String) {
    webhookEndpoint(id: $id) {
      id
      deliveries(status: $status, first: $first, after: $after) {
        edges { cursor node { id status attemptCount event { type } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);
const WEBHOOK_ENDPOINTS_PAGE = graphql(`
  query WebhookEndpointsPage($first: Int, $after: String) {
    webhookEndpoints(first: $first, after: $after) {
      edges { node { id name createdAt } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
const DELIVERY = graphql(`
  query Delivery($id: ID!) { delivery(id: $id) { ...DeliveryParts } }
`);
const WEBHOOK_ENDPOINT_TYPE_FIELDS = graphql(`
  query WebhookEndpointTypeFields { __type(name: "WebhookEndpoint") { fields { name } } }
`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const EVENT_TYPES_MESSAGE =
  'must be one of deploy.ingested, incident.opened, incident.acknowledged, incident.resolved, test.ping, endpoint.disabled';

/** Lets http:// and loopback destinations through, and fails a delivery at its first failed attempt. */
const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    DELIVERY_MAX_RETRIES: '0',
    DELIVERY_BACKOFF_BASE_MS: '50',
    DELIVERY_BACKOFF_FACTOR: '2',
  },
  receiver: true,
});
/** Production destination rules; api role only, so its worker never picks up the other app's jobs. */
let strict: RunningApp;
let stranger: Tenant;
/** How the receiver answers, by request path (default: 200 "ok" at once). */
const answers = new Map<string, (request: ReceivedRequest, response: ServerResponse) => void>();

beforeAll(async () => {
  strict = await hookline.startApp({ ROLE: 'api' });
  stranger = await hookline.createTenant('theirs');
  hookline.receiver.respond((request, response) => {
    const answer = answers.get(request.path);
    if (answer) answer(request, response);
    else response.end('ok');
  });
});

/** Answers after a pause, so that what a mutation returns is what it did, not the attempt after it. */
function answerLater(status: number, body: string, delayMs = 400) {
  return (_request: ReceivedRequest, response: ServerResponse) => {
    setTimeout(() => {
      response.statusCode = status;
      response.end(body);
    }, delayMs);
  };
}

/** The single error of a failed operation. */
function expectNotFound(response: GraphqlResponse<unknown>, message: string) {
  expect(response.body.data ?? null).toBeNull();
  expect(errorOf(response)).toEqual(expect.objectContaining({ message, extensions: { code: 'NOT_FOUND' } }));
}

/** An endpoint through the mutation this file tests, with every field it answers. */
async function newEndpoint(name: string, path = `/${name}`, token = hookline.tenant.apiToken, eventTypes?: string[]) {
  const response = await requestGraphql(hookline.baseUrl, token, CREATE_WEBHOOK_ENDPOINT, {
    url: `${hookline.receiver.url}${path}`,
    name,
    eventTypes,
  });
  return dataOf(response).createWebhookEndpoint;
}

async function deliveryNow(id: string, token = hookline.tenant.apiToken) {
  return dataOf(await requestGraphql(hookline.baseUrl, token, DELIVERY, { id })).delivery;
}

/** Polls `delivery(id)` until it has the status. */
function deliveryWithStatus(id: string, status: string) {
  return eventually(
    async () => {
      const delivery = await deliveryNow(id);
      return delivery?.status === status ? delivery : undefined;
    },
    15_000,
    `delivery ${id} ${status}`,
  );
}

function endpointRow(id: string) {
  return hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
}

describe('createWebhookEndpoint', () => {
  it('creates an ACTIVE endpoint and returns its signing secret once', async () => {
    const created = await newEndpoint('Receiver', '/created', hookline.tenant.apiToken, [
      'deploy.ingested',
      'test.ping',
      'deploy.ingested',
    ]);
    expect(created.signingSecret).toMatch(SECRET);
    expect(created.endpoint).toEqual({
      id: expect.stringMatching(UUID),
      url: `${hookline.receiver.url}/created`,
      name: 'Receiver',
      status: 'ACTIVE',
      eventTypes: ['deploy.ingested', 'test.ping'],
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await endpointRow(created.endpoint.id)).signingSecret).toBe(created.signingSecret);

    // No field of the type gives the secret back (only its expiry and the audit of reveals); reading the endpoint shows no trace of it.
    const fields =
      dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT_TYPE_FIELDS)).__type?.fields ?? [];
    expect(fields.map((field) => field.name)).toContain('url');
    expect(fields.filter((field) => /secret/i.test(field.name)).map((field) => field.name)).toEqual([
      'previousSecretExpiresAt',
      'secretReveals',
    ]);
    const read = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT, { id: created.endpoint.id });
    expect(dataOf(read).webhookEndpoint).toEqual(created.endpoint);
    expect(JSON.stringify(read.body)).not.toContain(created.signingSecret.slice(6));
  });

  it('gives every endpoint its own secret, and no event filter means all events', async () => {
    const [first, second] = [await newEndpoint('One', '/one'), await newEndpoint('Two', '/two')];
    expect(first.signingSecret).not.toBe(second.signingSecret);
    expect(first.endpoint.eventTypes).toEqual([]);
  });

  it('refuses bad input with BAD_USER_INPUT naming every field at fault', async () => {
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_WEBHOOK_ENDPOINT, {
      url: 'not a url',
      name: '   ',
      eventTypes: ['deploy.ingested', 'nope'],
    });
    expect(response.body.data).toBeNull();
    const error = errorOf(response);
    expect(error.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'url', message: 'must be a valid absolute URL' },
        { field: 'name', message: 'must be 1 to 200 characters' },
        { field: 'eventTypes[1]', message: EVENT_TYPES_MESSAGE },
      ],
    });
    expect(error.message).toContain('name must be 1 to 200 characters');

    const tooLong = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_WEBHOOK_ENDPOINT, {
      url: `https://example.com/${'x'.repeat(2048)}`,
      name: 'x'.repeat(201),
    });
    expect(errorOf(tooLong).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'url', message: 'must be at most 2048 characters long' },
        { field: 'name', message: 'must be 1 to 200 characters' },
      ],
    });
    expect(await hookline.app.database.prisma.webhookEndpoint.count({ where: { name: { startsWith: 'xxx' } } })).toBe(0);
  });

  it('refuses text PostgreSQL cannot store (NUL, an unpaired surrogate), and port 0, with BAD_USER_INPUT', async () => {
    const notStorable = 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters';
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_WEBHOOK_ENDPOINT, {
      url: `${hookline.receiver.url}/\ud800`,
      name: 'Not storable\u0000',
    });
    expect(response.body.data).toBeNull();
    expect(errorOf(response).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'url', message: notStorable },
        { field: 'name', message: notStorable },
      ],
    });
    const portZero = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, CREATE_WEBHOOK_ENDPOINT, {
      url: 'https://hooks.example.com:0/',
      name: 'Port zero',
    });
    expect(errorOf(portZero).extensions).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'url', message: 'must not use port 0' }] });
    expect(await hookline.app.database.prisma.webhookEndpoint.count({ where: { name: { in: ['Not storable', 'Port zero'] } } })).toBe(0);
  });

  it('refuses http:// and private destinations unless the deployment allows them', async () => {
    const cases = [
      ['http://example.com/hook', 'must use https (http is allowed only where WEBHOOK_ALLOW_HTTP=true, for local development)'],
      [
        'https://127.0.0.1/hook',
        'must not point to a private, loopback, link-local or other non-public address (allowed only where WEBHOOK_ALLOW_PRIVATE=true, for local development)',
      ],
      [
        'https://[::ffff:10.0.0.1]/hook',
        'must not point to a private, loopback, link-local or other non-public address (allowed only where WEBHOOK_ALLOW_PRIVATE=true, for local development)',
      ],
      [
        'https://2130706433/hook',
        'must not point to a private, loopback, link-local or other non-public address (allowed only where WEBHOOK_ALLOW_PRIVATE=true, for local development)',
      ],
      ['https://localhost:8443/hook', 'must not point to localhost (allowed only where WEBHOOK_ALLOW_PRIVATE=true, for local development)'],
    ] as const;
    for (const [url, message] of cases) {
      const response = await requestGraphql(strict.baseUrl, hookline.tenant.apiToken, CREATE_WEBHOOK_ENDPOINT, { url, name: 'refused' });
      expect(errorOf(response).extensions, url).toEqual({ code: 'BAD_USER_INPUT', fields: [{ field: 'url', message }] });
    }
    const allowed = await requestGraphql(strict.baseUrl, hookline.tenant.apiToken, CREATE_WEBHOOK_ENDPOINT, {
      url: 'https://hooks.example.com/hookline',
      name: 'public',
    });
    expect(dataOf(allowed).createWebhookEndpoint.endpoint.url).toBe('https://hooks.example.com/hookline');
    expect(await hookline.app.database.prisma.webhookEndpoint.count({ where: { name: 'refused' } })).toBe(0);
  });
});

describe('updateWebhookEndpoint', () => {
  it('changes only the given fields', async () => {
    const { endpoint } = await newEndpoint('Before', '/before', hookline.tenant.apiToken, ['deploy.ingested']);
    const renamed = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE_WEBHOOK_ENDPOINT, {
      id: endpoint.id,
      name: '  After  ',
    });
    expect(dataOf(renamed).updateWebhookEndpoint).toEqual({ ...endpoint, name: 'After', updatedAt: expect.any(String) });

    const moved = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE_WEBHOOK_ENDPOINT, {
      id: endpoint.id,
      url: `${hookline.receiver.url}/after`,
      eventTypes: [],
    });
    expect(dataOf(moved).updateWebhookEndpoint).toEqual(
      expect.objectContaining({ name: 'After', url: `${hookline.receiver.url}/after`, eventTypes: [], status: 'ACTIVE' }),
    );
    const read = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT, { id: endpoint.id }),
    ).webhookEndpoint;
    expect(read).toEqual(dataOf(moved).updateWebhookEndpoint);
  });

  it('refuses bad input with BAD_USER_INPUT and changes nothing', async () => {
    const { endpoint } = await newEndpoint('Stays', '/stays');
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE_WEBHOOK_ENDPOINT, {
      id: endpoint.id,
      url: 'ftp://example.com',
      name: '',
      eventTypes: ['incident.opened', 'incident.exploded'],
    });
    expect(response.body.data).toBeNull();
    expect(errorOf(response).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'url', message: 'must use https or http' },
        { field: 'name', message: 'must be 1 to 200 characters' },
        { field: 'eventTypes[1]', message: EVENT_TYPES_MESSAGE },
      ],
    });
    const read = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT, { id: endpoint.id }),
    ).webhookEndpoint;
    expect(read).toEqual(endpoint);
  });

  it('refuses a name or url PostgreSQL cannot store with BAD_USER_INPUT and changes nothing', async () => {
    const { endpoint } = await newEndpoint('Unchanged', '/unchanged');
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE_WEBHOOK_ENDPOINT, {
      id: endpoint.id,
      url: `${hookline.receiver.url}/\u0000`,
      name: 'Changed\udc00',
    });
    expect(errorOf(response).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'url', message: 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters' },
        { field: 'name', message: 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters' },
      ],
    });
    const read = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT, { id: endpoint.id }),
    ).webhookEndpoint;
    expect(read).toEqual(endpoint);
  });

  it('treats an unknown or malformed id as NOT_FOUND', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE_WEBHOOK_ENDPOINT, { id, name: 'x' });
      expectNotFound(response, `Webhook endpoint ${id} not found`);
    }
  });
});

describe('webhookEndpoints', () => {
  it("lists the organization's endpoints newest first, page by page", async () => {
    const lister = await hookline.createTenant('lister');
    const created: string[] = [];
    for (let i = 1; i <= 5; i++) created.push((await newEndpoint(`endpoint ${i}`, '/listed', lister.apiToken)).endpoint.id);

    const seen: WebhookEndpointsPageQuery['webhookEndpoints']['edges'][number]['node'][] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const data: WebhookEndpointsPageQuery = dataOf(
        await requestGraphql(hookline.baseUrl, lister.apiToken, WEBHOOK_ENDPOINTS_PAGE, { first: 2, after }),
      );
      pages++;
      expect(data.webhookEndpoints.edges.length).toBeLessThanOrEqual(2);
      seen.push(...data.webhookEndpoints.edges.map((edge) => edge.node));
      if (!data.webhookEndpoints.pageInfo.hasNextPage) break;
      after = data.webhookEndpoints.pageInfo.endCursor ?? null;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((node) => node.id))).toEqual(new Set(created));
    const times = seen.map((node) => Date.parse(node.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Created one after the other, so (to the millisecond) newest first is creation order reversed.
    if (new Set(times).size === times.length) expect(seen.map((node) => node.id)).toEqual([...created].reverse());
  });
});

describe('setWebhookEndpointActive', () => {
  it('pauses an endpoint (no test events) and brings it back', async () => {
    const { endpoint } = await newEndpoint('Pausable', '/pausable');
    const paused = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SET_WEBHOOK_ENDPOINT_ACTIVE, {
      id: endpoint.id,
      active: false,
    });
    expect(dataOf(paused).setWebhookEndpointActive).toEqual(expect.objectContaining({ id: endpoint.id, status: 'INACTIVE' }));

    const refused = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id });
    expect(refused.body.data).toBeNull();
    expect(errorOf(refused)).toEqual(
      expect.objectContaining({
        message: 'Endpoint is INACTIVE; activate it to send a test event',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    );
    expect(await hookline.app.database.prisma.delivery.count({ where: { endpointId: endpoint.id } })).toBe(0);

    const resumed = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SET_WEBHOOK_ENDPOINT_ACTIVE, {
      id: endpoint.id,
      active: true,
    });
    expect(dataOf(resumed).setWebhookEndpointActive).toEqual(expect.objectContaining({ status: 'ACTIVE', consecutiveFailures: 0 }));
  });

  it('re-enables a DISABLED endpoint and resets its failure count', async () => {
    const { endpoint } = await newEndpoint('Disabled', '/disabled');
    await hookline.app.database.prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { status: 'DISABLED', consecutiveFailures: 10, disabledAt: new Date(), disabledReason: '10 consecutive deliveries failed' },
    });
    const before = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT, { id: endpoint.id }),
    ).webhookEndpoint;
    expect(before).toEqual(
      expect.objectContaining({
        status: 'DISABLED',
        consecutiveFailures: 10,
        disabledAt: expect.any(String),
        disabledReason: '10 consecutive deliveries failed',
      }),
    );
    const enabled = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SET_WEBHOOK_ENDPOINT_ACTIVE, {
      id: endpoint.id,
      active: true,
    });
    expect(dataOf(enabled).setWebhookEndpointActive).toEqual(
      expect.objectContaining({ status: 'ACTIVE', consecutiveFailures: 0, disabledAt: null, disabledReason: null }),
    );
  });
});

describe('deleteWebhookEndpoint', () => {
  it('removes the endpoint from every query and mutation', async () => {
    const { endpoint } = await newEndpoint('Doomed', '/doomed');
    const deleted = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DELETE_WEBHOOK_ENDPOINT, { id: endpoint.id });
    expect(dataOf(deleted).deleteWebhookEndpoint).toBe(endpoint.id);

    expect(
      dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT, { id: endpoint.id })).webhookEndpoint,
    ).toBeNull();
    const list = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINTS_PAGE, { first: 100 }));
    expect(list.webhookEndpoints.edges.map((edge) => edge.node.id)).not.toContain(endpoint.id);

    const message = `Webhook endpoint ${endpoint.id} not found`;
    const { id } = endpoint;
    expectNotFound(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DELETE_WEBHOOK_ENDPOINT, { id }), message);
    expectNotFound(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE_WEBHOOK_ENDPOINT, { id, name: 'back' }),
      message,
    );
    expectNotFound(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SET_WEBHOOK_ENDPOINT_ACTIVE, { id, active: true }),
      message,
    );
    expectNotFound(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, ROTATE_WEBHOOK_SECRET, { id }), message);
    expectNotFound(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: id }), message);
    expect((await endpointRow(id)).name).toBe('Doomed');
  });
});

describe('rotateWebhookSecret', () => {
  it('returns a new secret; the next attempt verifies with the new one (and, during the grace period, the old)', async () => {
    const created = await newEndpoint('Rotating', '/rotating');
    const rotated = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, ROTATE_WEBHOOK_SECRET, { id: created.endpoint.id });
    const { signingSecret, endpoint } = dataOf(rotated).rotateWebhookSecret;
    expect(signingSecret).toMatch(SECRET);
    expect(signingSecret).not.toBe(created.signingSecret);
    expect(endpoint).toEqual({ ...created.endpoint, updatedAt: expect.any(String) });

    const sent = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id });
    const deliveryId = dataOf(sent).sendTestEvent.id;
    const [request] = await hookline.receiver.waitForRequests(1, { path: '/rotating' });
    const headers = request!.headers as Record<string, string>;
    expect(headers['x-service-delivery']).toBe(deliveryId);
    expect(headers['x-service-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(signingSecret).verify(request!.body, headers)).toEqual(JSON.parse(request!.body));
    expect(new Webhook(created.signingSecret).verify(request!.body, headers)).toEqual(JSON.parse(request!.body));
  });
});

describe('sendTestEvent', () => {
  it('queues a test.ping delivery that reaches the receiver and then shows SUCCEEDED with its attempt', async () => {
    answers.set('/ping', answerLater(200, 'pong'));
    // Subscribed to other events only: a test reaches the endpoint anyway.
    const { endpoint, signingSecret } = await newEndpoint('Ping', '/ping', hookline.tenant.apiToken, ['incident.opened']);
    const sent = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id });
    const delivery = dataOf(sent).sendTestEvent;
    expect(delivery).toEqual({
      id: expect.stringMatching(UUID),
      status: 'PENDING',
      attemptCount: 0,
      nextAttemptAt: expect.any(String),
      lastAttemptAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      event: {
        id: expect.stringMatching(UUID),
        type: 'test.ping',
        createdAt: expect.any(String),
        data: { endpoint: { id: endpoint.id, name: 'Ping', url: `${hookline.receiver.url}/ping` }, message: 'Test event from Hookline' },
      },
      endpoint: { id: endpoint.id, name: 'Ping' },
      attempts: [],
    });

    const [request] = await hookline.receiver.waitForRequests(1, { path: '/ping' });
    const headers = request!.headers as Record<string, string>;
    expect(headers['x-service-event']).toBe('test.ping');
    expect(headers['x-service-delivery']).toBe(delivery.id);
    const body = new Webhook(signingSecret).verify(request!.body, headers);
    expect(body).toEqual({
      id: delivery.event.id,
      type: 'test.ping',
      timestamp: delivery.event.createdAt,
      createdAt: delivery.event.createdAt,
      organizationId: hookline.tenant.organizationId,
      data: delivery.event.data,
    });

    const succeeded = await deliveryWithStatus(delivery.id, 'SUCCEEDED');
    expect(succeeded).toEqual(
      expect.objectContaining({ attemptCount: 1, nextAttemptAt: null, lastAttemptAt: expect.any(String), event: delivery.event }),
    );
    expect(succeeded!.attempts).toEqual([
      {
        id: expect.stringMatching(UUID),
        number: 1,
        succeeded: true,
        startedAt: expect.any(String),
        durationMs: expect.any(Number),
        responseStatus: 200,
        responseBody: 'pong',
        error: null,
      },
    ]);
    expect(succeeded!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(300 - TIMER_SLACK_MS);

    // The endpoint lists it, filtered by status.
    for (const [status, expected] of [
      [undefined, [delivery.id]],
      ['SUCCEEDED', [delivery.id]],
      ['FAILED', []],
    ] as const) {
      const data = dataOf(
        await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT_DELIVERIES, { id: endpoint.id, status }),
      );
      expect(
        data.webhookEndpoint!.deliveries.edges.map((edge) => edge.node.id),
        String(status),
      ).toEqual(expected);
    }
  });

  it('treats an unknown or malformed endpoint id as NOT_FOUND', async () => {
    for (const endpointId of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expectNotFound(
        await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId }),
        `Webhook endpoint ${endpointId} not found`,
      );
    }
  });
});

describe('webhookEndpoint.deliveries', () => {
  it('pages through deliveries newest first', async () => {
    const { endpoint } = await newEndpoint('Paged', '/paged');
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      sent.push(
        dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id })).sendTestEvent
          .id,
      );
    }
    await hookline.receiver.waitForRequests(3, { path: '/paged' });
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const data: WebhookEndpointDeliveriesQuery = dataOf(
        await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WEBHOOK_ENDPOINT_DELIVERIES, { id: endpoint.id, first: 2, after }),
      );
      const connection = data.webhookEndpoint!.deliveries;
      seen.push(...connection.edges.map((edge) => edge.node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor ?? null;
    }
    expect(new Set(seen)).toEqual(new Set(sent));
    const rows = await hookline.app.database.prisma.delivery.findMany({
      where: { endpointId: endpoint.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    expect(seen).toEqual(rows.map((row) => row.id));
  });
});

describe('retryDelivery', () => {
  it('refuses a SUCCEEDED delivery with BAD_USER_INPUT', async () => {
    const { endpoint } = await newEndpoint('Fine', '/fine');
    const sent = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id }),
    ).sendTestEvent;
    await deliveryWithStatus(sent.id, 'SUCCEEDED');
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, RETRY_DELIVERY, { id: sent.id });
    expect(response.body.data).toBeNull();
    expect(errorOf(response)).toEqual(
      expect.objectContaining({
        message: 'Only a FAILED or CANCELLED delivery can be retried; this one is SUCCEEDED',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    );
    expect((await deliveryNow(sent.id))!.attempts).toHaveLength(1);
  });

  it('queues a new attempt of a FAILED delivery under the same delivery id', async () => {
    answers.set('/flaky', (_request, response) => {
      response.statusCode = 500;
      response.end('broken');
    });
    const { endpoint } = await newEndpoint('Flaky', '/flaky');
    const sent = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id }),
    ).sendTestEvent;
    const failed = await deliveryWithStatus(sent.id, 'FAILED');
    expect(failed!.attempts).toEqual([
      expect.objectContaining({ number: 1, succeeded: false, responseStatus: 500, responseBody: 'broken' }),
    ]);
    expect((await endpointRow(endpoint.id)).consecutiveFailures).toBe(1);

    answers.set('/flaky', answerLater(204, ''));
    const retried = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, RETRY_DELIVERY, { id: sent.id });
    expect(dataOf(retried).retryDelivery).toEqual(
      expect.objectContaining({ id: sent.id, status: 'PENDING', attemptCount: 1, nextAttemptAt: expect.any(String) }),
    );

    const [first, second] = await hookline.receiver.waitForRequests(2, { path: '/flaky' });
    expect(second!.headers['x-service-delivery']).toBe(sent.id);
    expect(first!.headers['x-service-delivery']).toBe(sent.id);
    expect(second!.body).toBe(first!.body);

    const succeeded = await deliveryWithStatus(sent.id, 'SUCCEEDED');
    expect(succeeded!.attemptCount).toBe(2);
    expect(succeeded!.attempts.map((attempt) => [attempt.number, attempt.succeeded, attempt.responseStatus])).toEqual([
      [1, false, 500],
      [2, true, 204],
    ]);
    expect((await endpointRow(endpoint.id)).consecutiveFailures).toBe(0);
  });

  it('refuses a delivery whose endpoint is INACTIVE, and treats unknown ids as NOT_FOUND', async () => {
    answers.set('/down', (_request, response) => {
      response.statusCode = 503;
      response.end();
    });
    const { endpoint } = await newEndpoint('Down', '/down');
    const sent = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id }),
    ).sendTestEvent;
    await deliveryWithStatus(sent.id, 'FAILED');
    await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SET_WEBHOOK_ENDPOINT_ACTIVE, { id: endpoint.id, active: false });
    const refused = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, RETRY_DELIVERY, { id: sent.id });
    expect(errorOf(refused)).toEqual(
      expect.objectContaining({
        message: 'The endpoint is INACTIVE; activate it first',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    );
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expectNotFound(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, RETRY_DELIVERY, { id }), `Delivery ${id} not found`);
    }
  });
});

describe('delivery', () => {
  it('still shows a delivery, and its endpoint, after the endpoint is deleted', async () => {
    const { endpoint } = await newEndpoint('Gone', '/gone');
    const sent = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id }),
    ).sendTestEvent;
    await deliveryWithStatus(sent.id, 'SUCCEEDED');
    await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DELETE_WEBHOOK_ENDPOINT, { id: endpoint.id });
    expect(await deliveryNow(sent.id)).toEqual(
      expect.objectContaining({ id: sent.id, status: 'SUCCEEDED', endpoint: { id: endpoint.id, name: 'Gone' } }),
    );
  });

  it('is null for an unknown or malformed id', async () => {
    expect(await deliveryNow('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await deliveryNow('nope')).toBeNull();
  });
});

describe('tenant isolation', () => {
  it('gives another organization null or NOT_FOUND for every id, and changes nothing', async () => {
    answers.set('/isolated', (_request, response) => {
      response.statusCode = 500;
      response.end();
    });
    const { endpoint } = await newEndpoint('Isolated', '/isolated');
    const sent = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: endpoint.id }),
    ).sendTestEvent;
    await deliveryWithStatus(sent.id, 'FAILED');
    const rowBefore = await endpointRow(endpoint.id);
    const requestsBefore = hookline.receiver.requests.length;

    const theirs = stranger.apiToken;
    const { id } = endpoint;
    const message = `Webhook endpoint ${id} not found`;
    expect(dataOf(await requestGraphql(hookline.baseUrl, theirs, WEBHOOK_ENDPOINT, { id })).webhookEndpoint).toBeNull();
    expect(dataOf(await requestGraphql(hookline.baseUrl, theirs, WEBHOOK_ENDPOINT_DELIVERIES, { id })).webhookEndpoint).toBeNull();
    expect(await deliveryNow(sent.id, theirs)).toBeNull();
    const theirList = dataOf(await requestGraphql(hookline.baseUrl, theirs, WEBHOOK_ENDPOINTS_PAGE, { first: 100 }));
    expect(theirList.webhookEndpoints.edges).toEqual([]);

    expectNotFound(
      await requestGraphql(hookline.baseUrl, theirs, UPDATE_WEBHOOK_ENDPOINT, { id, name: 'hijacked', url: 'https://evil.example.com' }),
      message,
    );
    expectNotFound(await requestGraphql(hookline.baseUrl, theirs, SET_WEBHOOK_ENDPOINT_ACTIVE, { id, active: false }), message);
    expectNotFound(await requestGraphql(hookline.baseUrl, theirs, ROTATE_WEBHOOK_SECRET, { id }), message);
    expectNotFound(await requestGraphql(hookline.baseUrl, theirs, SEND_TEST_EVENT, { endpointId: id }), message);
    expectNotFound(await requestGraphql(hookline.baseUrl, theirs, RETRY_DELIVERY, { id: sent.id }), `Delivery ${sent.id} not found`);
    expectNotFound(await requestGraphql(hookline.baseUrl, theirs, DELETE_WEBHOOK_ENDPOINT, { id }), message);

    expect(await endpointRow(endpoint.id)).toEqual(rowBefore);
    expect(await deliveryNow(sent.id)).toEqual(expect.objectContaining({ status: 'FAILED', attemptCount: 1 }));
    expect(await hookline.app.database.prisma.delivery.count({ where: { endpointId: endpoint.id } })).toBe(1);
    expect(await hookline.app.database.prisma.delivery.count({ where: { organizationId: stranger.organizationId } })).toBe(0);
    // Nothing was queued for it either: its one job (the attempt made) is all there is, and done,
    // so no request can reach the receiver after this point.
    const { rows: jobs } = await hookline.app.database.pool.query(`SELECT state FROM pgboss.job WHERE data->>'deliveryId' = $1`, [sent.id]);
    expect(jobs).toEqual([{ state: 'completed' }]);
    expect(hookline.receiver.requests.length).toBe(requestsBefore);
  });
});

describe('authentication', () => {
  it('refuses every query and mutation without a valid API token', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const token of [undefined, `hla_${'x'.repeat(40)}`, hookline.tenant.deployToken]) {
      const responses: GraphqlResponse<unknown>[] = [
        await requestGraphql(hookline.baseUrl, token, WEBHOOK_ENDPOINTS_PAGE, { first: 1 }),
        await requestGraphql(hookline.baseUrl, token, WEBHOOK_ENDPOINT, { id }),
        await requestGraphql(hookline.baseUrl, token, DELIVERY, { id }),
        await requestGraphql(hookline.baseUrl, token, CREATE_WEBHOOK_ENDPOINT, { url: 'https://example.com', name: 'x' }),
        await requestGraphql(hookline.baseUrl, token, UPDATE_WEBHOOK_ENDPOINT, { id, name: 'x' }),
        await requestGraphql(hookline.baseUrl, token, SET_WEBHOOK_ENDPOINT_ACTIVE, { id, active: true }),
        await requestGraphql(hookline.baseUrl, token, DELETE_WEBHOOK_ENDPOINT, { id }),
        await requestGraphql(hookline.baseUrl, token, ROTATE_WEBHOOK_SECRET, { id }),
        await requestGraphql(hookline.baseUrl, token, SEND_TEST_EVENT, { endpointId: id }),
        await requestGraphql(hookline.baseUrl, token, RETRY_DELIVERY, { id }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(401);
        expect(errorOf(response).extensions?.code).toBe('UNAUTHENTICATED');
      }
    }
    expect(await hookline.app.database.prisma.webhookEndpoint.count({ where: { name: 'x' } })).toBe(0);
  });
});
