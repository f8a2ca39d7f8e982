// What the dashboard's webhook pages read besides the endpoints themselves, through GraphQL over
// HTTP: the destination rules of this server (the URL hint follows them), and each endpoint's
// deliveries retrying now (PENDING after at least one failed attempt), seen with a real receiver.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql, type RunningApp, type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { eventually, type Receiver } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const DESTINATION_POLICY = graphql(`
  query WebhookDestinationPolicy { webhookDestinationPolicy { allowHttp allowPrivate } }
`);
const SEND_TEST = graphql(`
  mutation SendRetryingTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id status attemptCount } }
`);
const PENDING_RETRIES = graphql(`
  query PendingRetries($id: ID!) {
    webhookEndpoint(id: $id) { id consecutiveFailures pendingRetries deliveries { edges { node { id status attemptCount } } } }
  }
`);

const hookline = useHookline({ app: false });

describe('webhookDestinationPolicy', () => {
  it('says which destinations this server accepts, from WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE', async () => {
    for (const [environment, expected] of [
      [{}, { allowHttp: false, allowPrivate: false }],
      [{ WEBHOOK_ALLOW_HTTP: 'true' }, { allowHttp: true, allowPrivate: false }],
      [LOCAL_RECEIVERS, { allowHttp: true, allowPrivate: true }],
    ] as const) {
      const running = await hookline.startApp({ ROLE: 'api', ...environment });
      try {
        const tenant = await hookline.createTenant('checkout', running.app);
        expect(
          dataOf(await requestGraphql(running.baseUrl, tenant.apiToken, DESTINATION_POLICY)).webhookDestinationPolicy,
          JSON.stringify(environment),
        ).toEqual(expected);
        const anonymous = await requestGraphql(running.baseUrl, undefined, DESTINATION_POLICY);
        expect(anonymous.status).toBe(401);
        expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      } finally {
        await running.close();
      }
    }
  });
});

describe('WebhookEndpoint.pendingRetries', () => {
  let running: RunningApp;
  let tenant: Tenant;
  let receiver: Receiver;
  /** Requests the receiver holds unanswered until the test answers them. */
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    // Retries a minute apart: a delivery whose attempt failed stays PENDING for the whole test.
    running = await hookline.startApp({ ...LOCAL_RECEIVERS, DELIVERY_BACKOFF_BASE_MS: '60000', DELIVERY_TIMEOUT_MS: '20000' });
    tenant = await hookline.createTenant('checkout', running.app);
    receiver = await hookline.startReceiver();
    receiver.respond((_request, response) => held.push(response));
  });

  afterAll(async () => {
    for (const response of held.splice(0)) response.writeHead(500).end();
    await receiver?.close();
    await running?.close();
  });

  async function pendingRetries(id: string) {
    return dataOf(await requestGraphql(running.baseUrl, tenant.apiToken, PENDING_RETRIES, { id })).webhookEndpoint!;
  }

  it('counts the PENDING deliveries whose last attempt failed, not a first attempt still in flight', async () => {
    const endpointId = (
      await createEndpoint(running, tenant.apiToken, { url: `${receiver.url}/down`, name: 'Down', eventTypes: ['test.ping'] })
    ).id;
    const sent = await Promise.all(
      [1, 2].map(async () => dataOf(await requestGraphql(running.baseUrl, tenant.apiToken, SEND_TEST, { endpointId })).sendTestEvent),
    );
    expect(sent.map((delivery) => [delivery.status, delivery.attemptCount])).toEqual([
      ['PENDING', 0],
      ['PENDING', 0],
    ]);

    // Both first attempts are at the receiver, unanswered: pending, but nothing has failed yet.
    await receiver.waitForRequests(2, { path: '/down' });
    expect(await pendingRetries(endpointId)).toMatchObject({ pendingRetries: 0, consecutiveFailures: 0 });

    // One fails: one delivery is retrying now, and none has FAILED for good.
    held.shift()!.writeHead(500, { 'content-type': 'text/plain' }).end('down');
    const one = await eventually(
      async () => {
        const endpoint = await pendingRetries(endpointId);
        return endpoint.pendingRetries === 1 ? endpoint : undefined;
      },
      10_000,
      'one delivery retrying',
    );
    expect(one.consecutiveFailures).toBe(0);
    expect(one.deliveries.edges.map(({ node }) => node.status)).toEqual(['PENDING', 'PENDING']);

    // The other succeeds: it no longer counts, the failed one still does.
    held.shift()!.writeHead(200).end('ok');
    await eventually(
      async () => {
        const endpoint = await pendingRetries(endpointId);
        return endpoint.deliveries.edges.some(({ node }) => node.status === 'SUCCEEDED') ? endpoint : undefined;
      },
      10_000,
      'the second delivery SUCCEEDED',
    );
    expect((await pendingRetries(endpointId)).pendingRetries).toBe(1);
  });
});
