// `subscription { deliveryUpdated }` as a dashboard uses it: a real graphql-ws client against an
// api-only app, while a delivery worker runs in a separate process (`npm start` with
// ROLE=worker), so every change reaches the subscriber through PostgreSQL LISTEN/NOTIFY.
//
// A subscription has no "subscribed" acknowledgement in graphql-ws, so each subscriber is
// proven live by a change it must see (a test.ping to one of its endpoints); and "sees nothing
// of X" is asserted after a barrier: a change committed after X's last one has reached the
// subscriber, which gets changes in commit order.
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import type { OnDeliveryUpdatedSubscription } from './gql/graphql.ts';
import { type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { eventually } from './support/receiver.ts';
import {
  deliveryChangeOf,
  connectGraphqlWs,
  ping as pingEndpoint,
  subscribe as subscribeOn,
  untilLive as untilLiveOn,
  type Subscriber as GenericSubscriber,
} from './support/graphql-ws.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

const ON_DELIVERY_UPDATED = graphql(`
  subscription OnDeliveryUpdated($endpointId: ID) {
    deliveryUpdated(endpointId: $endpointId) {
      id
      status
      attemptCount
      event { type }
      endpoint { id }
      attempts { number succeeded responseStatus }
    }
  }
`);

type Update = OnDeliveryUpdatedSubscription['deliveryUpdated'];

/** Delivery settings of both processes: quick retries, so a failing delivery ends within seconds. */
const DELIVERY_SETTINGS = {
  ...LOCAL_RECEIVERS,
  DELIVERY_BACKOFF_BASE_MS: '100',
  DELIVERY_BACKOFF_FACTOR: '2',
  DELIVERY_MAX_RETRIES: '2',
};
const UNAUTHORIZED_CLOSE_CODE = 4401;

const hookline = useHookline({ environment: { ROLE: 'api', ...DELIVERY_SETTINGS }, tenant: false, receiver: true });
const clients: Client[] = [];

beforeAll(async () => {
  hookline.receiver.respond((request, response) => {
    if (request.path.startsWith('/failing')) response.statusCode = 500;
    response.end(request.path.startsWith('/failing') ? 'down for maintenance' : 'ok');
  });
  await hookline.startProcess('worker', DELIVERY_SETTINGS).ready;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
});

// ---------------------------------------------------------------------------------------
// Helpers

type Subscriber = GenericSubscriber<Update> & {
  /** The updates of one delivery, in order. */
  of(deliveryId: string): Update[];
};

function subscribe(apiToken: string | undefined, variables: { endpointId?: string } = {}): Subscriber {
  const client = connectGraphqlWs(hookline.baseUrl, apiToken);
  clients.push(client);
  const subscriber = subscribeOn(client, ON_DELIVERY_UPDATED, variables, (data) => data.deliveryUpdated);
  return Object.assign(subscriber, { of: (deliveryId: string) => subscriber.updates.filter((update) => update.id === deliveryId) });
}

/** A deploy.ingested endpoint at `path` on the receiver: its id. */
async function endpointAt(tenant: Tenant, path: string): Promise<string> {
  return (
    await createEndpoint(hookline, tenant.apiToken, { url: `${hookline.receiver.url}${path}`, name: path, eventTypes: ['deploy.ingested'] })
  ).id;
}

const ping = (tenant: Tenant, endpointId: string) => pingEndpoint(hookline.baseUrl, tenant, endpointId);

const untilLive = (subscriber: Subscriber, tenant: Tenant, endpointId: string) =>
  untilLiveOn(subscriber, hookline.baseUrl, tenant, endpointId, (update, deliveryId) => update.id === deliveryId);

function ingestDeploy(tenant: Tenant): Promise<string> {
  return ingest(hookline, tenant.deployToken, { commit_sha: `sha-${Math.random().toString(36).slice(2)}`, environment: 'production' });
}

/** The id of the deploy.ingested delivery to `endpointId`, as the subscriber first sees it. */
function deployDeliveryTo(subscriber: Subscriber, endpointId: string): Promise<string> {
  return subscriber.waitFor(
    () => subscriber.updates.find((update) => update.event.type === 'deploy.ingested' && update.endpoint.id === endpointId)?.id,
    `a deploy.ingested delivery to ${endpointId}`,
  );
}

const summary = (update: Update) => ({
  status: update.status,
  attemptCount: update.attemptCount,
  responseStatuses: update.attempts.map((attempt) => attempt.responseStatus),
});

/** Waits until the delivery has `status` in the database (what the worker committed). */
function statusInDatabase(deliveryId: string, status: string): Promise<true> {
  return eventually(
    async () => {
      const { rows } = await hookline.app.database.pool.query<{ status: string }>('SELECT status FROM deliveries WHERE id = $1', [
        deliveryId,
      ]);
      return rows[0]?.status === status ? true : undefined;
    },
    15_000,
    `delivery ${deliveryId} ${status} in the database`,
  );
}

// ---------------------------------------------------------------------------------------

describe('subscription deliveryUpdated', () => {
  it('streams PENDING (0 attempts) then SUCCEEDED (1) for a delivery a worker in another process sends', async () => {
    const tenant = await hookline.createTenant();
    const endpointId = await endpointAt(tenant, '/succeeding');
    const subscriber = subscribe(tenant.apiToken);
    await untilLive(subscriber, tenant, endpointId);

    await ingestDeploy(tenant);
    const deliveryId = await deployDeliveryTo(subscriber, endpointId);
    await subscriber.waitFor(() => subscriber.of(deliveryId).find((update) => update.status === 'SUCCEEDED'), 'SUCCEEDED', 15_000);

    expect(subscriber.of(deliveryId).map(summary)).toEqual([
      { status: 'PENDING', attemptCount: 0, responseStatuses: [] },
      { status: 'SUCCEEDED', attemptCount: 1, responseStatuses: [200] },
    ]);
    expect(subscriber.of(deliveryId)[1]!.attempts).toEqual([{ number: 1, succeeded: true, responseStatus: 200 }]);
    expect(subscriber.errors).toEqual([]);
  });

  it('streams every attempt of a failing delivery in order, then FAILED with the failed attempts', async () => {
    const tenant = await hookline.createTenant();
    const endpointId = await endpointAt(tenant, '/failing');
    const subscriber = subscribe(tenant.apiToken);
    await untilLive(subscriber, tenant, endpointId);

    await ingestDeploy(tenant);
    const deliveryId = await deployDeliveryTo(subscriber, endpointId);
    await subscriber.waitFor(() => subscriber.of(deliveryId).find((update) => update.status === 'FAILED'), 'FAILED', 20_000);

    // DELIVERY_MAX_RETRIES 2: three attempts, each answered 500.
    expect(subscriber.of(deliveryId).map(summary)).toEqual([
      { status: 'PENDING', attemptCount: 0, responseStatuses: [] },
      { status: 'PENDING', attemptCount: 1, responseStatuses: [500] },
      { status: 'PENDING', attemptCount: 2, responseStatuses: [500, 500] },
      { status: 'FAILED', attemptCount: 3, responseStatuses: [500, 500, 500] },
    ]);
    expect(subscriber.of(deliveryId).at(-1)!.attempts).toEqual([
      { number: 1, succeeded: false, responseStatus: 500 },
      { number: 2, succeeded: false, responseStatus: 500 },
      { number: 3, succeeded: false, responseStatus: 500 },
    ]);

    // A change is shown as it was, even when the row has moved on by the time it is read: a
    // notification of the first retry, arriving after the delivery FAILED, still shows PENDING
    // with one attempt (as a slow read of a quick PENDING → SUCCEEDED pair would).
    const { pool } = hookline.app.database;
    await pool.query('SELECT pg_notify($1, $2)', [
      'hookline_delivery',
      JSON.stringify(await deliveryChangeOf(pool, deliveryId, { status: 'PENDING', attemptCount: 1 })),
    ]);
    await subscriber.waitFor(() => (subscriber.of(deliveryId).length === 5 ? true : undefined), 'the replayed change');
    expect(summary(subscriber.of(deliveryId)[4]!)).toEqual({ status: 'PENDING', attemptCount: 1, responseStatuses: [500] });
    expect(subscriber.errors).toEqual([]);
  });

  it("gives an endpoint's subscriber only that endpoint's deliveries, and another organization nothing", async () => {
    const tenant = await hookline.createTenant();
    const endpointA = await endpointAt(tenant, '/a');
    const endpointB = await endpointAt(tenant, '/b');
    const stranger = await hookline.createTenant('theirs');
    const strangerEndpoint = await endpointAt(stranger, '/theirs');

    const onlyA = subscribe(tenant.apiToken, { endpointId: endpointA });
    const everything = subscribe(tenant.apiToken);
    const outsider = subscribe(stranger.apiToken);
    await Promise.all([
      untilLive(onlyA, tenant, endpointA),
      untilLive(everything, tenant, endpointA),
      untilLive(outsider, stranger, strangerEndpoint),
    ]);

    await ingestDeploy(tenant); // one delivery to A, one to B
    const [deliveryA, deliveryB] = await Promise.all([deployDeliveryTo(everything, endpointA), deployDeliveryTo(everything, endpointB)]);
    await Promise.all([statusInDatabase(deliveryA, 'SUCCEEDED'), statusInDatabase(deliveryB, 'SUCCEEDED')]);

    // Barriers: a change committed after B's last one. Each subscriber gets changes in commit
    // order, so once it has its barrier, it has had every change it was ever going to get before.
    const barrierA = await ping(tenant, endpointA);
    const barrierStranger = await ping(stranger, strangerEndpoint);
    await Promise.all([
      onlyA.waitFor(() => onlyA.of(barrierA)[0], 'barrier on A'),
      everything.waitFor(() => everything.of(barrierA)[0], 'barrier on A (unfiltered)'),
      outsider.waitFor(() => outsider.of(barrierStranger)[0], "barrier on the stranger's endpoint"),
    ]);

    expect(onlyA.of(deliveryA).map(summary)).toEqual([
      { status: 'PENDING', attemptCount: 0, responseStatuses: [] },
      { status: 'SUCCEEDED', attemptCount: 1, responseStatuses: [200] },
    ]);
    expect(onlyA.of(deliveryB)).toEqual([]);
    expect(new Set(onlyA.updates.map((update) => update.endpoint.id))).toEqual(new Set([endpointA]));
    // The unfiltered subscriber of the same organization did get B's changes.
    expect(everything.of(deliveryB).map((update) => update.status)).toEqual(['PENDING', 'SUCCEEDED']);
    // The other organization's subscriber got its own pings only.
    expect(new Set(outsider.updates.map((update) => update.endpoint.id))).toEqual(new Set([strangerEndpoint]));
    expect(new Set(outsider.updates.map((update) => update.event.type))).toEqual(new Set(['test.ping']));
    for (const subscriber of [onlyA, everything, outsider]) expect(subscriber.errors).toEqual([]);
  });

  it("refuses an endpoint filter that is not one of the caller's endpoints with NOT_FOUND", async () => {
    const tenant = await hookline.createTenant();
    const stranger = await hookline.createTenant('theirs');
    const strangerEndpoint = await endpointAt(stranger, '/theirs');
    for (const endpointId of [strangerEndpoint, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const subscriber = subscribe(tenant.apiToken, { endpointId });
      await subscriber.waitFor(() => (subscriber.completed ? true : undefined), `completion for ${endpointId}`);
      expect(subscriber.updates).toEqual([]);
      expect(subscriber.errors).toHaveLength(1);
      expect(subscriber.errors[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    }
  });

  it('closes the connection with 4401 for a bad or missing API token', async () => {
    for (const apiToken of [`hla_${'x'.repeat(40)}`, 'not-a-token', undefined]) {
      const subscriber = subscribe(apiToken);
      const closed = await subscriber.waitFor(() => subscriber.errors[0] as { code?: number } | undefined, `refusal of ${apiToken}`);
      expect(closed.code).toBe(UNAUTHORIZED_CLOSE_CODE);
      expect(subscriber.updates).toEqual([]);
    }
  });
});
