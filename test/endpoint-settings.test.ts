// Per-endpoint settings through GraphQL against a real receiver: custom headers reach it (and
// the signature still verifies), refused headers are named field by field, the endpoint's own
// timeout applies, and a rate limit spaces attempts out across two worker processes without
// dropping or counting any, while an endpoint without a limit is not slowed.
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql, requestGraphqlWith, LOCAL_RECEIVERS } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { eventually, TIMER_SLACK_MS } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const CREATE = graphql(`
  mutation SettingsCreateEndpoint(
    $url: String!
    $name: String!
    $eventTypes: [String!]
    $headers: [WebhookHeaderInput!]
    $timeoutMs: Int
    $rateLimitPerSecond: Int
  ) {
    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {
      signingSecret
      endpoint { id headers { name value } timeoutMs rateLimitPerSecond }
    }
  }
`);
const UPDATE = graphql(`
  mutation SettingsUpdateEndpoint($id: ID!, $headers: [WebhookHeaderInput!], $timeoutMs: Int, $rateLimitPerSecond: Int) {
    updateWebhookEndpoint(id: $id, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {
      id name headers { name value } timeoutMs rateLimitPerSecond
    }
  }
`);
const SEND_TEST = graphql(`
  mutation SettingsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }
`);
const POLICY = graphql(`
  query SettingsPolicy { webhookDestinationPolicy { minTimeoutMs maxTimeoutMs maxRateLimitPerSecond } }
`);

const SERVER_TIMEOUT_MS = 5000;
const SETTINGS = {
  ...LOCAL_RECEIVERS,
  INGEST_RATE_LIMIT_PER_MINUTE: 'off',
  DELIVERY_TIMEOUT_MS: String(SERVER_TIMEOUT_MS),
  DELIVERY_MAX_RETRIES: '0',
};

const hookline = useHookline({ environment: SETTINGS, receiver: true });

beforeAll(async () => {
  await hookline.startProcess('worker', SETTINGS).ready;
});

async function create(variables: {
  path: string;
  eventTypes?: string[];
  headers?: { name: string; value: string }[];
  timeoutMs?: number;
  rateLimitPerSecond?: number;
}) {
  const { path, ...settings } = variables;
  return dataOf(
    await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, {
      url: `${hookline.receiver.url}${path}`,
      name: path,
      ...settings,
    }),
  ).createWebhookEndpoint;
}

describe('custom headers', () => {
  it('arrive with every attempt beside the signed ones, and can be replaced', async () => {
    const headers = [
      { name: 'Authorization', value: 'Bearer receiver-token' },
      { name: 'X-Tenant', value: 'acme eu-1' },
    ];
    const created = await create({ path: '/headers', headers });
    expect(created.endpoint).toMatchObject({ headers, timeoutMs: null, rateLimitPerSecond: null });
    const endpointId = created.endpoint.id;
    await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST, { endpointId });
    const [request] = await hookline.receiver.waitForRequests(1, { path: '/headers' });
    expect(request!.headers).toMatchObject({
      authorization: 'Bearer receiver-token',
      'x-tenant': 'acme eu-1',
      'content-type': 'application/json',
    });
    expect(request!.headers['user-agent']).toMatch(/^Hookline-Webhooks\//);
    expect(new Webhook(created.signingSecret).verify(request!.body, request!.headers as Record<string, string>)).toEqual(
      JSON.parse(request!.body),
    );

    const updated = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, UPDATE, {
        id: endpointId,
        headers: [{ name: 'X-Other', value: '1' }],
      }),
    );
    expect(updated.updateWebhookEndpoint).toMatchObject({ name: '/headers', headers: [{ name: 'X-Other', value: '1' }] });
    await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST, { endpointId });
    const [, second] = await hookline.receiver.waitForRequests(2, { path: '/headers' });
    expect(second!.headers['x-other']).toBe('1');
    expect(second!.headers.authorization).toBeUndefined();
    // An explicit null clears them.
    const cleared = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE, { id: endpointId, headers: null }));
    expect(cleared.updateWebhookEndpoint.headers).toEqual([]);
  });

  it('refuses reserved, hop-by-hop and malformed headers with a message per field', async () => {
    const response = await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, {
      url: `${hookline.receiver.url}/refused`,
      name: 'Refused',
      headers: [
        { name: 'webhook-id', value: 'x' },
        { name: 'X-Service-Signature', value: 'x' },
        { name: 'Connection', value: 'close' },
        { name: 'Host', value: 'example.com' },
        { name: 'Content-Type', value: 'text/plain' },
        { name: 'Transfer-Encoding', value: 'chunked' },
        { name: 'bad name', value: 'x' },
        { name: 'X-Injected', value: 'a\r\nX-Evil: 1' },
        { name: 'X-Tenant', value: 'a' },
        { name: 'x-tenant', value: 'b' },
      ],
      timeoutMs: SERVER_TIMEOUT_MS + 1,
      rateLimitPerSecond: 0,
    });
    expect(response.body.data).toBeNull();
    expect(response.body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [
        { field: 'headers[0].name', message: 'must not start with webhook- or x-service-: Hookline sets those' },
        { field: 'headers[1].name', message: 'must not start with webhook- or x-service-: Hookline sets those' },
        { field: 'headers[2].name', message: 'connection is set by Hookline or by the connection and cannot be changed' },
        { field: 'headers[3].name', message: 'host is set by Hookline or by the connection and cannot be changed' },
        { field: 'headers[4].name', message: 'content-type is set by Hookline or by the connection and cannot be changed' },
        { field: 'headers[5].name', message: 'transfer-encoding is set by Hookline or by the connection and cannot be changed' },
        { field: 'headers[6].name', message: "must be a header name (letters, digits and !#$%&'*+-.^_`|~)" },
        { field: 'headers[7].value', message: 'must be visible ASCII characters, spaces or tabs (no line breaks)' },
        { field: 'headers[9].name', message: 'repeats the header x-tenant' },
        { field: 'timeoutMs', message: `must be 100 to ${SERVER_TIMEOUT_MS} milliseconds (the server maximum)` },
        { field: 'rateLimitPerSecond', message: 'must be 1 to 1000 deliveries per second' },
      ],
    });
    const tooMany = await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, {
      url: `${hookline.receiver.url}/refused`,
      name: 'Refused',
      headers: Array.from({ length: 21 }, (_, i) => ({ name: `X-H${i}`, value: 'v' })),
    });
    expect(tooMany.body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'headers', message: 'must hold at most 20 headers' }],
    });
    expect(
      await hookline.app.database.prisma.webhookEndpoint.count({
        where: { organizationId: hookline.tenant.organizationId, name: 'Refused' },
      }),
    ).toBe(0);
  });
});

describe('timeout', () => {
  it("applies the endpoint's own timeout, bounded by the server's", async () => {
    const policy = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, POLICY));
    expect(policy.webhookDestinationPolicy).toEqual({ minTimeoutMs: 100, maxTimeoutMs: SERVER_TIMEOUT_MS, maxRateLimitPerSecond: 1000 });
    const created = await create({ path: '/slow', timeoutMs: 300 });
    expect(created.endpoint.timeoutMs).toBe(300);
    const held: ServerResponse[] = [];
    hookline.receiver.respond((request, response) => (request.path === '/slow' ? held.push(response) : response.end('ok')));
    const { sendTestEvent } = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST, { endpointId: created.endpoint.id }),
    );
    const delivery = await eventually(async () => {
      const found = await hookline.app.database.prisma.delivery.findFirstOrThrow({
        where: { id: sendTestEvent.id },
        include: { attempts: true },
      });
      return found.status === 'FAILED' ? found : undefined;
    });
    held.forEach((response) => response.end('late'));
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ succeeded: false, responseStatus: null, error: 'connected, but no answer within 300 ms' });
    expect(delivery.attempts[0]!.durationMs).toBeGreaterThanOrEqual(300 - TIMER_SLACK_MS);
    // null: back to the server's timeout.
    const cleared = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, UPDATE, { id: created.endpoint.id, timeoutMs: null }),
    );
    expect(cleared.updateWebhookEndpoint.timeoutMs).toBeNull();
  });
});

describe('rate limit', () => {
  it('20 deliveries at 5 per second take at least 3.8 s across two workers, none dropped or counted twice; an endpoint without a limit is not slowed', async () => {
    hookline.receiver.respond((_request, response) => response.end('ok'));
    const limited = await create({ path: '/limited', eventTypes: ['deploy.ingested'], rateLimitPerSecond: 5 });
    expect(limited.endpoint.rateLimitPerSecond).toBe(5);
    const unlimitedEndpoint = await create({ path: '/unlimited', eventTypes: ['deploy.ingested'] });
    for (let i = 0; i < 20; i++) {
      expect(
        (await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: `sha${i}`, environment: 'production' })).status,
      ).toBe(200);
    }
    const unlimited = await hookline.receiver.waitForRequests(20, { path: '/unlimited' });
    const requests = await hookline.receiver.waitForRequests(20, { path: '/limited', timeoutMs: 20_000 });
    const times = requests.map((request) => request.receivedAt);
    const span = times.at(-1)! - times[0]!;
    // 19 turns 200 ms apart (3.8 s), less the jitter of when each attempt actually starts.
    expect(span).toBeGreaterThanOrEqual(3600);
    // Spread out, not bunched: turns are 200 ms apart; an attempt made late (a busy machine) may
    // come close to the next one, so a one-second window holds the limit plus that jitter at most.
    const busiestSecond = Math.max(...times.map((start) => times.filter((time) => time >= start && time < start + 1000).length));
    expect(busiestSecond, `receipts at ${times.map((time) => time - times[0]!).join(', ')} ms`).toBeLessThanOrEqual(7);
    // The endpoint without a limit is never held to turns: none was ever claimed for it (a
    // comparison of waits would judge the machine's load, not the limiter).
    expect(unlimited).toHaveLength(20);
    const turns = await hookline.app.database.prisma.webhookEndpoint.findMany({
      where: { id: { in: [limited.endpoint.id, unlimitedEndpoint.endpoint.id] } },
      select: { id: true, rateLimitNextSlotAt: true },
    });
    expect(turns.find((endpoint) => endpoint.id === unlimitedEndpoint.endpoint.id)?.rateLimitNextSlotAt).toBeNull();
    expect(turns.find((endpoint) => endpoint.id === limited.endpoint.id)?.rateLimitNextSlotAt).toBeInstanceOf(Date);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(20);
    const deliveries = await eventually(async () => {
      const found = await hookline.app.database.prisma.delivery.findMany({ where: { endpointId: limited.endpoint.id } });
      return found.every((delivery) => delivery.status === 'SUCCEEDED') ? found : undefined;
    });
    expect(deliveries).toHaveLength(20);
    // A delayed attempt is not an attempt: each delivery made exactly one.
    expect(deliveries.map((delivery) => delivery.attemptCount)).toEqual(Array(20).fill(1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(hookline.receiver.requests.filter((request) => request.path === '/limited')).toHaveLength(20);
  });
});
