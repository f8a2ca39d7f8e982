// Signing-secret control through GraphQL: rotation with a chosen grace period (both signatures
// during it, only the new one without it), and revealing the current secret with an audit trail,
// checked on real deliveries with the standardwebhooks library.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { graphql } from './gql/index.ts';
import { createTenant, dataOf, LOCAL_RECEIVERS, requestGraphqlWith, startApp, type RunningApp, type Tenant } from './support/app.ts';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/receiver.ts';

const CREATE_ENDPOINT = graphql(`
  mutation SecretsCreateEndpoint($url: String!, $name: String!) {
    createWebhookEndpoint(url: $url, name: $name) { signingSecret endpoint { id } }
  }
`);
const ROTATE = graphql(`
  mutation SecretsRotate($id: ID!, $gracePeriodSeconds: Int) {
    rotateWebhookSecret(id: $id, gracePeriodSeconds: $gracePeriodSeconds) { signingSecret endpoint { id previousSecretExpiresAt } }
  }
`);
const REVEAL = graphql(`
  mutation SecretsReveal($id: ID!) {
    revealWebhookSecret(id: $id) { signingSecret endpoint { id } }
  }
`);
const REVEALS = graphql(`
  query SecretsReveals($id: ID!) {
    webhookEndpoint(id: $id) { id secretReveals { id revealedAt apiToken { id prefix } } }
  }
`);
const SEND_TEST = graphql(`
  mutation SecretsSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }
`);

let database: TestDatabase;
let running: RunningApp;
let tenant: Tenant;
let stranger: Tenant;
let receiver: Receiver;

beforeAll(async () => {
  database = await createTestDatabase();
  running = await startApp(database.url, { ...LOCAL_RECEIVERS, DELIVERY_MAX_RETRIES: '0' });
  tenant = await createTenant(running.app, 'checkout');
  stranger = await createTenant(running.app, 'theirs');
  receiver = await startReceiver();
});

afterAll(async () => {
  await running?.close();
  await receiver?.close();
  await database?.drop();
});

let endpointCount = 0;
async function createEndpoint(apiToken = tenant.apiToken) {
  const path = `/secrets-${++endpointCount}`;
  const created = dataOf(await requestGraphqlWith(running.baseUrl, apiToken, CREATE_ENDPOINT, { url: receiver.url + path, name: path }));
  return { id: created.createWebhookEndpoint.endpoint.id, secret: created.createWebhookEndpoint.signingSecret, path };
}

/** Sends a test event to the endpoint and returns the request the receiver got. */
async function deliveredTest(endpoint: { id: string; path: string }): Promise<ReceivedRequest> {
  const before = receiver.requests.filter((request) => request.path === endpoint.path).length;
  const sent = dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, SEND_TEST, { endpointId: endpoint.id }));
  const requests = await receiver.waitForRequests(before + 1, { path: endpoint.path });
  const request = requests[before]!;
  expect(request.headers['webhook-id']).toBe(sent.sendTestEvent.id);
  return request;
}

const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;
const verifies = (secret: string, request: ReceivedRequest) => {
  try {
    new Webhook(secret).verify(request.body, headersOf(request));
    return true;
  } catch {
    return false;
  }
};

describe('rotateWebhookSecret', () => {
  it('keeps the previous secret signing for 24 hours by default: both verify', async () => {
    const endpoint = await createEndpoint();
    const before = Date.now();
    const rotated = dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, ROTATE, { id: endpoint.id }));
    const { signingSecret, endpoint: after } = rotated.rotateWebhookSecret;
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(signingSecret).not.toBe(endpoint.secret);
    const expiresAt = Date.parse(after.previousSecretExpiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);

    const request = await deliveredTest(endpoint);
    expect(headersOf(request)['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(headersOf(request)['x-service-signature']).toBe(headersOf(request)['webhook-signature']);
    expect(verifies(signingSecret, request)).toBe(true);
    expect(verifies(endpoint.secret, request)).toBe(true);
  });

  it('takes the grace period the user chooses', async () => {
    const endpoint = await createEndpoint();
    const before = Date.now();
    const rotated = dataOf(
      await requestGraphqlWith(running.baseUrl, tenant.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 3600 }),
    );
    const expiresAt = Date.parse(rotated.rotateWebhookSecret.endpoint.previousSecretExpiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);

    const request = await deliveredTest(endpoint);
    expect(verifies(rotated.rotateWebhookSecret.signingSecret, request)).toBe(true);
    expect(verifies(endpoint.secret, request)).toBe(true);
  });

  it('with 0, stops the previous secret at once: only the new one verifies', async () => {
    const endpoint = await createEndpoint();
    // A first rotation with the default grace, then one with none: neither older secret signs any more.
    const first = dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, ROTATE, { id: endpoint.id }));
    const rotated = dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 0 }));
    expect(rotated.rotateWebhookSecret.endpoint.previousSecretExpiresAt).toBeNull();

    const request = await deliveredTest(endpoint);
    expect(headersOf(request)['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(rotated.rotateWebhookSecret.signingSecret, request)).toBe(true);
    expect(verifies(first.rotateWebhookSecret.signingSecret, request)).toBe(false);
    expect(verifies(endpoint.secret, request)).toBe(false);
  });

  it('refuses a grace period outside 0..604800 and changes nothing', async () => {
    const endpoint = await createEndpoint();
    for (const gracePeriodSeconds of [-1, 604_801]) {
      const response = await requestGraphqlWith(running.baseUrl, tenant.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds });
      expect(response.status).toBe(200);
      expect(response.body.data).toBeNull();
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors![0]!.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        fields: [{ field: 'gracePeriodSeconds', message: 'must be a whole number from 0 to 604800' }],
      });
    }
    const request = await deliveredTest(endpoint);
    expect(headersOf(request)['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(endpoint.secret, request)).toBe(true);
  });

  it("refuses another organization's endpoint as not found, and its secret stays", async () => {
    const endpoint = await createEndpoint();
    const response = await requestGraphqlWith(running.baseUrl, stranger.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 0 });
    expect(response.body.data).toBeNull();
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const request = await deliveredTest(endpoint);
    expect(verifies(endpoint.secret, request)).toBe(true);
  });
});

describe('revealWebhookSecret', () => {
  it('returns the current secret, which verifies deliveries, and records who revealed it', async () => {
    const endpoint = await createEndpoint();
    const rotated = dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 0 }));
    const before = Date.now();
    const revealed = dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, REVEAL, { id: endpoint.id }));
    expect(revealed.revealWebhookSecret).toEqual({
      signingSecret: rotated.rotateWebhookSecret.signingSecret,
      endpoint: { id: endpoint.id },
    });
    expect(verifies(revealed.revealWebhookSecret.signingSecret, await deliveredTest(endpoint))).toBe(true);

    dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, REVEAL, { id: endpoint.id }));
    const reveals = dataOf(await requestGraphqlWith(running.baseUrl, tenant.apiToken, REVEALS, { id: endpoint.id })).webhookEndpoint!
      .secretReveals;
    expect(reveals).toHaveLength(2);
    const token = await running.app.database.prisma.apiToken.findFirstOrThrow({ where: { organizationId: tenant.organizationId } });
    for (const reveal of reveals) {
      expect(reveal.apiToken).toEqual({ id: token.id, prefix: tenant.apiToken.slice(0, 12) });
      expect(Date.parse(reveal.revealedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(Date.parse(reveals[0]!.revealedAt)).toBeGreaterThanOrEqual(Date.parse(reveals[1]!.revealedAt));
  });

  it("refuses another organization's endpoint and records nothing", async () => {
    const endpoint = await createEndpoint();
    const response = await requestGraphqlWith(running.baseUrl, stranger.apiToken, REVEAL, { id: endpoint.id });
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(JSON.stringify(response.body)).not.toContain(endpoint.secret);
    expect(await running.app.database.prisma.secretReveal.count({ where: { endpointId: endpoint.id } })).toBe(0);
    // Nor can the stranger read the audit list.
    const theirs = await requestGraphqlWith(running.baseUrl, stranger.apiToken, REVEALS, { id: endpoint.id });
    expect(theirs.body).toEqual({ data: { webhookEndpoint: null } });
  });

  it('refuses a request without an API token', async () => {
    const endpoint = await createEndpoint();
    const response = await requestGraphqlWith(running.baseUrl, undefined, REVEAL, { id: endpoint.id });
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await running.app.database.prisma.secretReveal.count({ where: { endpointId: endpoint.id } })).toBe(0);
  });
});
