// Signing-secret control through GraphQL: rotation with a chosen grace period (both signatures
// during it, only the new one without it), and revealing the current secret with an audit trail,
// checked on real deliveries with the standardwebhooks library.
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { dataOf, LOCAL_RECEIVERS, requestGraphqlWith, type Tenant } from './support/app.ts';
import type { ReceivedRequest } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

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

const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, DELIVERY_MAX_RETRIES: '0' }, receiver: true });
let stranger: Tenant;

beforeAll(async () => {
  stranger = await hookline.createTenant('theirs');
});

let endpointCount = 0;
/** An endpoint at a path of its own on the receiver. */
async function newEndpoint(apiToken = hookline.tenant.apiToken) {
  const path = `/secrets-${++endpointCount}`;
  const created = await createEndpoint(hookline, apiToken, { url: hookline.receiver.url + path, name: path });
  return { id: created.id, secret: created.signingSecret, path };
}

/** Sends a test event to the endpoint and returns the request the receiver got. */
async function deliveredTest(endpoint: { id: string; path: string }): Promise<ReceivedRequest> {
  const before = hookline.receiver.requests.filter((request) => request.path === endpoint.path).length;
  const sent = dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST, { endpointId: endpoint.id }));
  const requests = await hookline.receiver.waitForRequests(before + 1, { path: endpoint.path });
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
    const endpoint = await newEndpoint();
    const before = Date.now();
    const rotated = dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE, { id: endpoint.id }));
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
    const endpoint = await newEndpoint();
    const before = Date.now();
    const rotated = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 3600 }),
    );
    const expiresAt = Date.parse(rotated.rotateWebhookSecret.endpoint.previousSecretExpiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);

    const request = await deliveredTest(endpoint);
    expect(verifies(rotated.rotateWebhookSecret.signingSecret, request)).toBe(true);
    expect(verifies(endpoint.secret, request)).toBe(true);
  });

  it('with 0, stops the previous secret at once: only the new one verifies', async () => {
    const endpoint = await newEndpoint();
    // A first rotation with the default grace, then one with none: neither older secret signs any more.
    const first = dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE, { id: endpoint.id }));
    const rotated = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 0 }),
    );
    expect(rotated.rotateWebhookSecret.endpoint.previousSecretExpiresAt).toBeNull();

    const request = await deliveredTest(endpoint);
    expect(headersOf(request)['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(rotated.rotateWebhookSecret.signingSecret, request)).toBe(true);
    expect(verifies(first.rotateWebhookSecret.signingSecret, request)).toBe(false);
    expect(verifies(endpoint.secret, request)).toBe(false);
  });

  it('refuses a grace period outside 0..604800 and changes nothing', async () => {
    const endpoint = await newEndpoint();
    for (const gracePeriodSeconds of [-1, 604_801]) {
      const response = await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE, {
        id: endpoint.id,
        gracePeriodSeconds,
      });
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
    const endpoint = await newEndpoint();
    const response = await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 0 });
    expect(response.body.data).toBeNull();
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const request = await deliveredTest(endpoint);
    expect(verifies(endpoint.secret, request)).toBe(true);
  });
});

describe('revealWebhookSecret', () => {
  it('returns the current secret, which verifies deliveries, and records who revealed it', async () => {
    const endpoint = await newEndpoint();
    const rotated = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE, { id: endpoint.id, gracePeriodSeconds: 0 }),
    );
    const before = Date.now();
    const revealed = dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, REVEAL, { id: endpoint.id }));
    expect(revealed.revealWebhookSecret).toEqual({
      signingSecret: rotated.rotateWebhookSecret.signingSecret,
      endpoint: { id: endpoint.id },
    });
    expect(verifies(revealed.revealWebhookSecret.signingSecret, await deliveredTest(endpoint))).toBe(true);

    dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, REVEAL, { id: endpoint.id }));
    const reveals = dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, REVEALS, { id: endpoint.id }))
      .webhookEndpoint!.secretReveals;
    expect(reveals).toHaveLength(2);
    const token = await hookline.app.database.prisma.apiToken.findFirstOrThrow({
      where: { organizationId: hookline.tenant.organizationId },
    });
    for (const reveal of reveals) {
      expect(reveal.apiToken).toEqual({ id: token.id, prefix: hookline.tenant.apiToken.slice(0, 12) });
      expect(Date.parse(reveal.revealedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(Date.parse(reveals[0]!.revealedAt)).toBeGreaterThanOrEqual(Date.parse(reveals[1]!.revealedAt));
  });

  it("refuses another organization's endpoint and records nothing", async () => {
    const endpoint = await newEndpoint();
    const response = await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, REVEAL, { id: endpoint.id });
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(JSON.stringify(response.body)).not.toContain(endpoint.secret);
    expect(await hookline.app.database.prisma.secretReveal.count({ where: { endpointId: endpoint.id } })).toBe(0);
    // Nor can the stranger read the audit list.
    const theirs = await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, REVEALS, { id: endpoint.id });
    expect(theirs.body).toEqual({ data: { webhookEndpoint: null } });
  });

  it('refuses a request without an API token', async () => {
    const endpoint = await newEndpoint();
    const response = await requestGraphqlWith(hookline.baseUrl, undefined, REVEAL, { id: endpoint.id });
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await hookline.app.database.prisma.secretReveal.count({ where: { endpointId: endpoint.id } })).toBe(0);
  });
});
