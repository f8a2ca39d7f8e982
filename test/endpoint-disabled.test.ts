// Receiver signals: a 410 Gone answer disables its endpoint at once (no retry), with the reason
// recorded; whenever an endpoint is disabled automatically (410 or too many failed deliveries in
// a row), an `endpoint.disabled` event goes to the organization's other endpoints subscribed to
// it, signed like any webhook, and to nobody else.
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith, type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

const ENDPOINT = graphql(`
  query DisabledEndpoint($id: ID!) {
    webhookEndpoint(id: $id) { id status disabledAt disabledReason consecutiveFailures deliveries(first: 10) { edges { node { status attemptCount } } } }
  }
`);

const DISABLE_AFTER = 2;
const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    DELIVERY_MAX_RETRIES: '0',
    ENDPOINT_DISABLE_AFTER_FAILURES: String(DISABLE_AFTER),
  },
  tenant: false,
  receiver: true,
});

beforeAll(async () => {
  hookline.receiver.respond((request, response) => {
    if (request.path.startsWith('/gone')) response.writeHead(410).end('gone');
    else if (request.path.startsWith('/broken')) response.writeHead(500).end('broken');
    else response.end('ok');
  });
});

async function endpoint(tenant: Tenant, path: string, eventTypes?: string[]): Promise<{ id: string; secret: string; url: string }> {
  const url = `${hookline.receiver.url}${path}`;
  const created = await createEndpoint(hookline, tenant.apiToken, { url, name: path, eventTypes });
  return { id: created.id, secret: created.signingSecret, url };
}

/** The org's endpoint.disabled events, oldest first. */
function alertEvents(tenant: Tenant) {
  return hookline.app.database.prisma.event.findMany({
    where: { organizationId: tenant.organizationId, type: 'endpoint.disabled' },
    include: { deliveries: true },
    orderBy: { createdAt: 'asc' },
  });
}

/** Once the alert receiver at `path` has its `count`th request: all of them, verified. */
async function alertsAt(path: string, secret: string, count: number) {
  const requests = await hookline.receiver.waitForRequests(count, { path });
  return requests.map((request) => {
    expect(request.headers['x-service-event']).toBe('endpoint.disabled');
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
      id: string;
      type: string;
      organizationId: string;
      data: { endpoint: { id: string; url: string; name: string | null }; reason: string; disabledAt: string };
    };
  });
}

describe('410 Gone', () => {
  it('disables the endpoint at once with the reason, and alerts the endpoints subscribed to endpoint.disabled', async () => {
    const tenant = await hookline.createTenant();
    const neighbour = await hookline.createTenant();
    const gone = await endpoint(tenant, '/gone-a', ['deploy.ingested', 'endpoint.disabled']);
    const alerts = await endpoint(tenant, '/alerts-a', ['endpoint.disabled']);
    await endpoint(tenant, '/deploys-a', ['deploy.ingested']);
    await endpoint(neighbour, '/alerts-neighbour', ['endpoint.disabled']);

    await ingest(hookline, tenant.deployToken, { commit_sha: 'aaa111', environment: 'production' });
    const [alert] = await alertsAt('/alerts-a', alerts.secret, 1);
    const state = dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, ENDPOINT, { id: gone.id }));
    expect(state.webhookEndpoint).toMatchObject({
      status: 'DISABLED',
      disabledReason: 'the receiver answered 410 Gone',
      consecutiveFailures: 1,
    });
    // No retry: one attempt, the delivery FAILED (DELIVERY_MAX_RETRIES would not matter).
    expect(state.webhookEndpoint!.deliveries.edges.map((edge) => edge.node)).toEqual([{ status: 'FAILED', attemptCount: 1 }]);
    expect(hookline.receiver.requests.filter((request) => request.path === '/gone-a')).toHaveLength(1);

    const [event] = await alertEvents(tenant);
    expect(alert).toEqual({
      id: event!.id,
      type: 'endpoint.disabled',
      timestamp: event!.createdAt.toISOString(),
      createdAt: event!.createdAt.toISOString(),
      organizationId: tenant.organizationId,
      data: {
        endpoint: { id: gone.id, url: gone.url, name: '/gone-a' },
        reason: 'the receiver answered 410 Gone',
        disabledAt: state.webhookEndpoint!.disabledAt,
      },
    });
    // Delivered to the subscribed endpoint only: not to the disabled one, not to one without the type.
    expect(event!.deliveries.map((delivery) => delivery.endpointId)).toEqual([alerts.id]);
    await eventually(async () => {
      const delivery = await hookline.app.database.prisma.delivery.findFirstOrThrow({ where: { eventId: event!.id } });
      return delivery.status === 'SUCCEEDED' ? true : undefined;
    });
    expect(hookline.receiver.requests.filter((request) => request.path === '/deploys-a')).toHaveLength(1);
    expect(hookline.receiver.requests.filter((request) => request.path === '/alerts-neighbour')).toHaveLength(0);
    expect(await alertEvents(neighbour)).toEqual([]);
  });
});

describe('consecutive failures', () => {
  it(`disabling after ${DISABLE_AFTER} FAILED deliveries sends endpoint.disabled once`, async () => {
    const tenant = await hookline.createTenant();
    const broken = await endpoint(tenant, '/broken-b', ['deploy.ingested']);
    const alerts = await endpoint(tenant, '/alerts-b', ['endpoint.disabled']);
    await ingest(hookline, tenant.deployToken, { commit_sha: 'bbb111', environment: 'production' });
    await hookline.receiver.waitForRequests(1, { path: '/broken-b' });
    await eventually(async () => {
      const found = await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: broken.id } });
      return found.consecutiveFailures === 1 ? true : undefined;
    });
    await ingest(hookline, tenant.deployToken, { commit_sha: 'bbb222', environment: 'production' });
    const [alert] = await alertsAt('/alerts-b', alerts.secret, 1);
    expect(alert!.data).toMatchObject({
      endpoint: { id: broken.id, url: broken.url, name: '/broken-b' },
      reason: `${DISABLE_AFTER} consecutive deliveries failed`,
    });
    expect(Date.parse(alert!.data.disabledAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await alertEvents(tenant)).toHaveLength(1);
    const state = dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, ENDPOINT, { id: broken.id }));
    expect(state.webhookEndpoint).toMatchObject({ status: 'DISABLED', disabledReason: `${DISABLE_AFTER} consecutive deliveries failed` });
  });
});
