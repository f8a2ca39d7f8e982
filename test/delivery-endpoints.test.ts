// Which endpoints get deliveries, end to end: automatic disabling after consecutive failed
// deliveries, INACTIVE and deleted endpoints, the event-type filter, and the destination guard
// at creation (REST) and at every attempt. "Nothing was sent" is always checked behind a
// barrier: a later event that another endpoint is seen to receive, or the attempt's own record.
import dns from 'node:dns/promises';
import os from 'node:os';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import type { TestDatabase } from './support/database.ts';
import { dataOf, requestGraphql, type RunningApp, type Tenant } from './support/app.ts';
import { post } from './support/http.ts';
import { eventually, type ReceivedRequest, type Receiver } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, deliveryWhen, ingest } from './support/operations.ts';

const SET_ENDPOINT_ACTIVE = graphql(`
  mutation DeliveryEndpointsSetActive($id: ID!, $active: Boolean!) {
    setWebhookEndpointActive(id: $id, active: $active) { status consecutiveFailures disabledAt disabledReason }
  }
`);
const DELETE_ENDPOINT = graphql(`
  mutation DeliveryEndpointsDelete($id: ID!) { deleteWebhookEndpoint(id: $id) }
`);

const DISABLE_AFTER = 10;

interface Stack {
  database: TestDatabase;
  running: RunningApp;
}

// Three apps, each on a database of its own; the fixture closes them, then the receivers.
const hookline = useHookline({ app: false });

async function startStack(environment: Record<string, string>): Promise<Stack> {
  const database = await hookline.createDatabase();
  const running = await hookline.startApp(
    {
      WEBHOOK_ALLOW_HTTP: 'true',
      INGEST_RATE_LIMIT_PER_MINUTE: 'off',
      DELIVERY_BACKOFF_BASE_MS: '100',
      DELIVERY_BACKOFF_FACTOR: '2',
      DELIVERY_TIMEOUT_MS: '10000',
      ...environment,
    },
    database.url,
  );
  return { database, running };
}

/**
 * Every delivery fails after one attempt; ten in a row disable the endpoint. Failures halve an
 * endpoint's attempts in flight down to the minimum: 2 here, so that two can be in flight at once.
 */
let oneShot: Stack;
/** One retry per delivery, to see what a queued retry meets. */
let retrying: Stack;
/** The destination guard on: no private or loopback destinations. */
let guarded: Stack;
const receivers: Receiver[] = [];

beforeAll(async () => {
  [oneShot, retrying, guarded] = await Promise.all([
    startStack({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      DELIVERY_MAX_RETRIES: '0',
      ENDPOINT_DISABLE_AFTER_FAILURES: String(DISABLE_AFTER),
      DELIVERY_MIN_IN_FLIGHT_PER_ENDPOINT: '2',
    }),
    startStack({ WEBHOOK_ALLOW_PRIVATE: 'true', DELIVERY_MAX_RETRIES: '1' }),
    startStack({ WEBHOOK_ALLOW_PRIVATE: 'false', DELIVERY_MAX_RETRIES: '2' }),
  ]);
});

afterAll(async () => {
  // Before the apps close (first): they finish attempts in flight, which may be held by a receiver.
  for (const receiver of receivers) receiver.respond((_request, response) => response.end('ok'));
});

async function newReceiver(): Promise<Receiver> {
  const receiver = await hookline.startReceiver();
  receivers.push(receiver);
  return receiver;
}

function createEndpointRequest(stack: Stack, tenant: Tenant, body: unknown) {
  return post(`${stack.running.baseUrl}/api/webhooks/endpoints`, {
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
  });
}

/** Creates an endpoint through REST as a customer would. */
function toPath(receiver: Receiver, path: string): ReceivedRequest[] {
  return receiver.requests.filter((request) => request.path === path);
}

function deliveryIdOf(request: ReceivedRequest): string {
  return request.headers['x-service-delivery'] as string;
}

function deliveriesOf(stack: Stack, endpointId: string) {
  return stack.running.app.database.prisma.delivery.findMany({
    where: { endpointId },
    include: { attempts: { orderBy: { number: 'asc' } }, event: true },
    orderBy: { createdAt: 'asc' },
  });
}

function endpointRow(stack: Stack, id: string) {
  return stack.running.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
}

/** Keeps every answer open until the test releases it. */
function holdAnswers(receiver: Receiver) {
  const held = new Map<string, ServerResponse>();
  receiver.respond((request, response) => held.set(deliveryIdOf(request), response));
  return {
    release(deliveryId: string, status: number, text = 'held') {
      const response = held.get(deliveryId);
      if (!response) throw new Error(`no held request of delivery ${deliveryId}`);
      held.delete(deliveryId);
      response.writeHead(status).end(text);
    },
    releaseAll(status: number) {
      for (const id of [...held.keys()]) this.release(id, status);
    },
  };
}

/**
 * A barrier: a new endpoint on `path` (subscribed to deploys) is seen to receive a deploy
 * ingested now. Anything the worker would have sent for that deploy to other endpoints of
 * the organization has been decided by then (the deliveries are made in the ingest transaction).
 */
async function barrier(stack: Stack, tenant: Tenant, receiver: Receiver, path: string): Promise<string> {
  await createEndpoint(stack.running, tenant.apiToken, {
    url: `${receiver.url}${path}`,
    name: `Barrier ${path}`,
    eventTypes: ['deploy.ingested'],
  });
  const deployId = await ingest(stack.running, tenant.deployToken, { commit_sha: 'barrier' });
  const [request] = await receiver.waitForRequests(1, { path });
  expect(JSON.parse(request!.body).data.deploy.id).toBe(deployId);
  return deployId;
}

describe('automatic disabling', () => {
  it(`${DISABLE_AFTER} failed deliveries in a row disable the endpoint; nothing more is sent until it is activated again`, async () => {
    const { running } = oneShot;
    const tenant = await hookline.createTenant('checkout', running.app);
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(oneShot.running, tenant.apiToken, { url: `${receiver.url}/flaky`, name: 'Flaky' });
    receiver.respond((request, response) => {
      if (request.path === '/flaky') response.writeHead(500).end('down');
      else response.end('ok');
    });

    for (let i = 0; i < DISABLE_AFTER; i++) await ingest(oneShot.running, tenant.deployToken, { commit_sha: `sha-${i}` });
    const disabled = await eventually(async () => {
      const row = await endpointRow(oneShot, endpoint.id);
      return row.status === 'DISABLED' ? row : undefined;
    });
    expect(disabled.consecutiveFailures).toBe(DISABLE_AFTER);
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    expect(disabled.disabledReason).toEqual(expect.stringMatching(/\S/));
    const deliveries = await deliveriesOf(oneShot, endpoint.id);
    expect(deliveries).toHaveLength(DISABLE_AFTER);
    for (const delivery of deliveries) {
      expect(delivery.status).toBe('FAILED');
      expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, succeeded: false, responseStatus: 500 })]);
    }
    expect(toPath(receiver, '/flaky')).toHaveLength(DISABLE_AFTER);

    // Disabled: a new deploy makes no delivery for it, and nothing reaches it.
    await barrier(oneShot, tenant, receiver, '/barrier');
    expect(toPath(receiver, '/flaky')).toHaveLength(DISABLE_AFTER);
    expect(await deliveriesOf(oneShot, endpoint.id)).toHaveLength(DISABLE_AFTER);

    // Activated again.
    const activated = await requestGraphql(running.baseUrl, tenant.apiToken, SET_ENDPOINT_ACTIVE, { id: endpoint.id, active: true });
    expect(dataOf(activated).setWebhookEndpointActive).toEqual({
      status: 'ACTIVE',
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
    });
    receiver.respond((_request, response) => response.end('ok'));
    const deployId = await ingest(oneShot.running, tenant.deployToken, { commit_sha: 'after-activation' });
    const requests = await receiver.waitForRequests(DISABLE_AFTER + 1, { path: '/flaky' });
    const last = requests.at(-1)!;
    expect(JSON.parse(last.body).data.deploy.id).toBe(deployId);
    const delivery = await deliveryWhen(oneShot.running.app, deliveryIdOf(last), (delivery) => delivery.status !== 'PENDING', 15_000);
    expect(delivery.status).toBe('SUCCEEDED');
    expect(await endpointRow(oneShot, endpoint.id)).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 0 });
  });

  it('disabling cancels the endpoint’s pending deliveries, and their late answers change nothing', async () => {
    const { running } = oneShot;
    const tenant = await hookline.createTenant('checkout', running.app);
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(oneShot.running, tenant.apiToken, { url: `${receiver.url}/flaky`, name: 'Flaky' });
    receiver.respond((_request, response) => response.writeHead(500).end('down'));

    // Nine failed deliveries...
    for (let i = 1; i < DISABLE_AFTER; i++) await ingest(oneShot.running, tenant.deployToken, { commit_sha: `sha-${i}` });
    await eventually(async () => ((await endpointRow(oneShot, endpoint.id)).consecutiveFailures === DISABLE_AFTER - 1 ? true : undefined));
    // ...then two more, both in flight, their answers held.
    const hold = holdAnswers(receiver);
    try {
      await ingest(oneShot.running, tenant.deployToken, { commit_sha: 'tenth' });
      const tenth = deliveryIdOf((await receiver.waitForRequests(DISABLE_AFTER))[DISABLE_AFTER - 1]!);
      await ingest(oneShot.running, tenant.deployToken, { commit_sha: 'eleventh' });
      const eleventh = deliveryIdOf((await receiver.waitForRequests(DISABLE_AFTER + 1))[DISABLE_AFTER]!);

      // The tenth fails: the endpoint is disabled and the eleventh, still pending, is cancelled.
      hold.release(tenth, 500);
      await eventually(async () => ((await endpointRow(oneShot, endpoint.id)).status === 'DISABLED' ? true : undefined));
      const cancelled = await running.app.database.prisma.delivery.findFirstOrThrow({ where: { id: eleventh } });
      expect(cancelled.status).toBe('CANCELLED');

      // Its attempt ends later: recorded, but the delivery stays CANCELLED and is not counted.
      hold.release(eleventh, 500);
      const late = await deliveryWhen(oneShot.running.app, eleventh, (delivery) => delivery.attempts.length === 1, 15_000);
      expect(late.status).toBe('CANCELLED');
      expect(await endpointRow(oneShot, endpoint.id)).toMatchObject({ status: 'DISABLED', consecutiveFailures: DISABLE_AFTER });
    } finally {
      hold.releaseAll(500);
    }
  });
});

describe('INACTIVE and deleted endpoints', () => {
  it('a retry queued while ACTIVE is CANCELLED, not sent, once the endpoint is INACTIVE; new events make no delivery for it', async () => {
    const { running } = retrying;
    const tenant = await hookline.createTenant('checkout', running.app);
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(retrying.running, tenant.apiToken, { url: `${receiver.url}/paused`, name: 'Paused' });
    const hold = holdAnswers(receiver);
    try {
      await ingest(retrying.running, tenant.deployToken, { commit_sha: 'a1b2c3d4' });
      const [first] = await receiver.waitForRequests(1, { path: '/paused' });
      const deliveryId = deliveryIdOf(first!);
      // Paused while attempt 1 is in flight; attempt 1 then fails, so a retry is queued.
      const paused = await requestGraphql(running.baseUrl, tenant.apiToken, SET_ENDPOINT_ACTIVE, { id: endpoint.id, active: false });
      expect(dataOf(paused).setWebhookEndpointActive).toMatchObject({ status: 'INACTIVE' });
      hold.release(deliveryId, 500);

      const delivery = await deliveryWhen(retrying.running.app, deliveryId, (delivery) => delivery.status !== 'PENDING', 15_000);
      expect(delivery.status).toBe('CANCELLED');
      expect(delivery.attemptCount).toBe(1);
      expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, succeeded: false, responseStatus: 500 })]);
      // The retry's job ran (it is what cancelled the delivery) and sent nothing.
      const jobs = await running.app.database.pool.query(
        `SELECT (data->>'attempt')::int AS attempt FROM pgboss.job WHERE data->>'deliveryId' = $1 ORDER BY 1`,
        [deliveryId],
      );
      expect(jobs.rows).toEqual([{ attempt: 1 }, { attempt: 2 }]);
      expect(toPath(receiver, '/paused')).toHaveLength(1);
    } finally {
      hold.releaseAll(500);
    }

    // While INACTIVE, a new deploy makes no delivery for it at all.
    receiver.respond((_request, response) => response.end('ok'));
    await barrier(retrying, tenant, receiver, '/barrier');
    expect(await deliveriesOf(retrying, endpoint.id)).toHaveLength(1);
    expect(toPath(receiver, '/paused')).toHaveLength(1);
    expect(await endpointRow(retrying, endpoint.id)).toMatchObject({ status: 'INACTIVE' });
  });

  it('a deleted endpoint: its pending delivery is CANCELLED with no retry queued, and new events make no delivery for it', async () => {
    const { running } = retrying;
    const prisma = running.app.database.prisma;
    const tenant = await hookline.createTenant('checkout', running.app);
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(retrying.running, tenant.apiToken, { url: `${receiver.url}/gone`, name: 'Gone' });
    const hold = holdAnswers(receiver);
    let deliveryId = '';
    try {
      await ingest(retrying.running, tenant.deployToken, { commit_sha: 'a1b2c3d4' });
      const [first] = await receiver.waitForRequests(1, { path: '/gone' });
      deliveryId = deliveryIdOf(first!);
      const deleted = await requestGraphql(running.baseUrl, tenant.apiToken, DELETE_ENDPOINT, { id: endpoint.id });
      expect(dataOf(deleted).deleteWebhookEndpoint).toBe(endpoint.id);
      expect((await prisma.delivery.findFirstOrThrow({ where: { id: deliveryId } })).status).toBe('CANCELLED');
      hold.release(deliveryId, 500);
    } finally {
      hold.releaseAll(500);
    }

    // The failed attempt is recorded; the delivery stays CANCELLED and no retry is queued (the
    // record and the retry's job are one transaction, so once the attempt shows, that is final).
    const delivery = await deliveryWhen(retrying.running.app, deliveryId, (delivery) => delivery.attempts.length === 1, 15_000);
    expect(delivery.status).toBe('CANCELLED');
    const jobs = await running.app.database.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'deliveryId' = $1`, [
      deliveryId,
    ]);
    expect(jobs.rows[0].n).toBe(1);

    receiver.respond((_request, response) => response.end('ok'));
    await barrier(retrying, tenant, receiver, '/barrier');
    expect(await deliveriesOf(retrying, endpoint.id)).toHaveLength(1);
    expect(toPath(receiver, '/gone')).toHaveLength(1);
    expect(await endpointRow(retrying, endpoint.id)).toMatchObject({ deletedAt: expect.any(Date) });
  });
});

describe('event-type filter', () => {
  it('an endpoint subscribed to incident.opened gets no deploy.ingested; one subscribed to deploy.ingested does', async () => {
    const tenant = await hookline.createTenant('checkout', oneShot.running.app);
    const receiver = await newReceiver();
    const incidents = await createEndpoint(oneShot.running, tenant.apiToken, {
      url: `${receiver.url}/incidents`,
      name: 'Incidents',
      eventTypes: ['incident.opened'],
    });
    const deploys = await createEndpoint(oneShot.running, tenant.apiToken, {
      url: `${receiver.url}/deploys`,
      name: 'Deploys',
      eventTypes: ['deploy.ingested'],
    });

    const deployId = await ingest(oneShot.running, tenant.deployToken, { commit_sha: 'a1b2c3d4' });
    const [request] = await receiver.waitForRequests(1, { path: '/deploys' });
    expect(request!.headers['x-service-event']).toBe('deploy.ingested');
    expect(JSON.parse(request!.body)).toMatchObject({ type: 'deploy.ingested', data: { deploy: { id: deployId } } });

    expect(toPath(receiver, '/incidents')).toEqual([]);
    expect(await deliveriesOf(oneShot, incidents.id)).toEqual([]);
    const delivered = await deliveriesOf(oneShot, deploys.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.event.type).toBe('deploy.ingested');
  });
});

describe('destination guard (WEBHOOK_ALLOW_PRIVATE false)', () => {
  it('a name that resolves to loopback is accepted at creation and refused at every attempt', async () => {
    const hostname = os.hostname();
    // Precondition: this machine's name resolves (via /etc/hosts) to loopback addresses only.
    const addresses = await dns.lookup(hostname, { all: true });
    expect(addresses.length).toBeGreaterThan(0);
    for (const { address } of addresses) expect(address).toMatch(/^(127\.|::1$|::ffff:127\.)/);

    const { running } = guarded;
    const tenant = await hookline.createTenant('checkout', running.app);
    const receiver = await newReceiver();
    const port = new URL(receiver.url).port;
    const endpoint = await createEndpoint(guarded.running, tenant.apiToken, { url: `http://${hostname}:${port}/ssrf`, name: 'Rebinding' });

    await ingest(guarded.running, tenant.deployToken, { commit_sha: 'a1b2c3d4' });
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(guarded, endpoint.id);
      return rows.length === 1 && rows[0]!.status !== 'PENDING' ? rows : undefined;
    });
    // DELIVERY_MAX_RETRIES 2 here: three attempts, each refused before connecting.
    expect(delivery!.status).toBe('FAILED');
    expect(delivery!.attempts).toHaveLength(3);
    for (const attempt of delivery!.attempts) {
      expect(attempt).toMatchObject({ succeeded: false, responseStatus: null, responseBody: null });
      expect(attempt.error).toContain('not a public address');
    }
    expect(receiver.requests).toEqual([]);
  });

  it('creation refuses literal private, loopback and other non-public addresses and localhost with 400 validation_failed', async () => {
    const { running } = guarded;
    const tenant = await hookline.createTenant('checkout', running.app);
    const receiver = await newReceiver();
    const port = new URL(receiver.url).port;
    const refused = [
      `http://127.0.0.1:${port}/`,
      'http://[::1]/',
      'http://10.0.0.1/',
      'http://2130706433/',
      'http://localhost/',
      `http://localhost:${port}/hooks`,
      'https://0x7f.1/',
      'https://[::ffff:127.0.0.1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://192.168.1.10/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
    ];
    for (const url of refused) {
      const response = await createEndpointRequest(guarded, tenant, { url, name: 'Internal' });
      expect(response.status, url).toBe(400);
      expect(response.body, url).toEqual({
        error: { code: 'validation_failed', message: expect.any(String), details: [{ field: 'url', message: expect.any(String) }] },
      });
    }
    expect(await running.app.database.prisma.webhookEndpoint.count({ where: { organizationId: tenant.organizationId } })).toBe(0);
  });
});
