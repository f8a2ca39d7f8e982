// Resend and Recover through GraphQL against a real receiver: a receiver that fails, then
// recovers and gets the same deliveries again (same webhook-id, verified with standardwebhooks),
// live in `deliveryUpdated`; the bound per recover call; what is refused (PENDING, an endpoint
// that is not ACTIVE, another organization's deliveries).
import type { ServerResponse } from 'node:http';
import type { Client } from 'graphql-ws';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { withDatabaseBefore } from './support/database.ts';
import { dataOf, requestGraphqlWith, type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { connectGraphqlWs, subscribe, untilLive } from './support/graphql-ws.ts';
import { eventually, type Receiver, type ReceivedRequest } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, deliveryWhen, ingest } from './support/operations.ts';

const RESEND = graphql(`
  mutation RecoveryResend($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }
`);
const RECOVER = graphql(`
  mutation RecoveryRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {
    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }
  }
`);
const SET_ACTIVE = graphql(`
  mutation RecoverySetActive($id: ID!, $active: Boolean!) { setWebhookEndpointActive(id: $id, active: $active) { id status } }
`);
const ON_UPDATE = graphql(`
  subscription RecoveryDeliveryUpdated($endpointId: ID) { deliveryUpdated(endpointId: $endpointId) { id status attemptCount } }
`);

// No retries: a failed first attempt ends its delivery FAILED at once.
const hookline = useHookline({
  environment: { ...LOCAL_RECEIVERS, INGEST_RATE_LIMIT_PER_MINUTE: 'off', DELIVERY_MAX_RETRIES: '0' },
  tenant: false,
});
const clients: Client[] = [];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
});

async function endpointAt(tenant: Tenant, path: string): Promise<{ receiver: Receiver; id: string; secret: string }> {
  const receiver = await hookline.startReceiver();
  const created = await createEndpoint(hookline, tenant.apiToken, { url: `${receiver.url}${path}`, name: path });
  return { receiver, id: created.id, secret: created.signingSecret };
}

const idOf = (request: ReceivedRequest) => request.headers['webhook-id'] as string;

describe('recoverDeliveries after a receiver outage', () => {
  it('re-sends the FAILED deliveries of the window as new attempts of the same deliveries, live in the log', async () => {
    const tenant = await hookline.createTenant();
    const { receiver, id: endpointId, secret } = await endpointAt(tenant, '/outage');
    receiver.respond((_request, response) => response.writeHead(503).end('down'));
    const before = new Date(Date.now() - 1000);
    for (const sha of ['aaa111', 'bbb222', 'ccc333'])
      await ingest(hookline, tenant.deployToken, { commit_sha: sha, environment: 'production' });
    const failedRequests = await receiver.waitForRequests(3, { path: '/outage' });
    const failedIds = failedRequests.map(idOf).sort();
    for (const id of failedIds) await deliveryWhen(hookline.app, id, (delivery) => delivery.status === 'FAILED');

    const client = connectGraphqlWs(hookline.baseUrl, tenant.apiToken);
    clients.push(client);
    const log = subscribe(client, ON_UPDATE, { endpointId }, (data) => data.deliveryUpdated);
    receiver.respond((_request, response) => response.end('ok'));
    await untilLive(log, hookline.baseUrl, tenant, endpointId, (update, deliveryId) => update.id === deliveryId);

    const recovered = dataOf(
      await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, {
        endpointId,
        since: before.toISOString(),
        until: new Date().toISOString(),
      }),
    );
    expect(recovered.recoverDeliveries).toEqual({ queued: 3, hasMore: false, nextSince: null });

    // The pings that proved the log live went there too: only the three recovered ones count.
    const again = await eventually(
      async () => {
        const resent = receiver.requests.slice(3).filter((request) => failedIds.includes(idOf(request)));
        return resent.length >= 3 ? resent : undefined;
      },
      15_000,
      'the recovered deliveries',
    );
    expect(again.map(idOf).sort()).toEqual(failedIds);
    for (const request of again) {
      expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(request.body));
      const first = failedRequests.find((failed) => idOf(failed) === idOf(request))!;
      expect(request.body).toBe(first.body);
      expect(request.headers['x-service-delivery']).toBe(idOf(request));
    }
    for (const id of failedIds) {
      const delivery = await deliveryWhen(hookline.app, id, (found) => found.status === 'SUCCEEDED');
      expect(delivery.attempts.map((attempt) => [attempt.number, attempt.responseStatus])).toEqual([
        [1, 503],
        [2, 200],
      ]);
      // The log saw each go PENDING again, then SUCCEEDED.
      await log.waitFor(
        () => (log.updates.some((update) => update.id === id && update.status === 'SUCCEEDED') ? true : undefined),
        `SUCCEEDED ${id}`,
      );
      const seen = log.updates.filter((update) => update.id === id).map((update) => `${update.status}/${update.attemptCount}`);
      expect(seen).toEqual(['PENDING/1', 'SUCCEEDED/2']);
    }

    // Nothing left to recover: a second call queues nothing.
    const second = dataOf(
      await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, { endpointId, since: before.toISOString() }),
    );
    expect(second.recoverDeliveries).toEqual({ queued: 0, hasMore: false, nextSince: null });
  });

  it('counts the attempts in flight when their endpoint is disabled: one that got through stays delivered, the others are recovered under new attempt numbers', async () => {
    const tenant = await hookline.createTenant();
    const { receiver, id: endpointId } = await endpointAt(tenant, '/gone');
    // Every request is held until the test answers it, so all three attempts are in flight at once.
    const held: { request: ReceivedRequest; response: ServerResponse }[] = [];
    receiver.respond((request, response) => held.push({ request, response }));
    const before = new Date(Date.now() - 1000);
    for (const sha of ['ddd111', 'eee222', 'fff333'])
      await ingest(hookline, tenant.deployToken, { commit_sha: sha, environment: 'production' });
    await receiver.waitForRequests(3, { path: '/gone' });
    const [gone, refused, delivered] = held.map(({ request }) => idOf(request)) as [string, string, string];

    // 410 Gone disables the endpoint at once: the two other deliveries are cancelled mid-flight.
    held[0]!.response.writeHead(410).end('gone');
    await eventually(
      async () => {
        const endpoint = await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
        return endpoint.status === 'DISABLED' ? true : undefined;
      },
      15_000,
      'the endpoint disabled',
    );
    held[1]!.response.writeHead(503).end('down');
    held[2]!.response.writeHead(200).end('ok');
    // An attempt made is counted whatever became of its delivery meanwhile; one that got through delivered it.
    const cancelled = await deliveryWhen(hookline.app, refused, (delivery) => delivery.attemptCount === 1);
    expect([cancelled.status, cancelled.attempts.map((attempt) => [attempt.number, attempt.responseStatus])]).toEqual([
      'CANCELLED',
      [[1, 503]],
    ]);
    const succeeded = await deliveryWhen(hookline.app, delivered, (delivery) => delivery.attemptCount === 1);
    expect([succeeded.status, succeeded.attempts.map((attempt) => [attempt.number, attempt.responseStatus])]).toEqual([
      'SUCCEEDED',
      [[1, 200]],
    ]);

    receiver.respond((_request, response) => response.end('ok'));
    dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, SET_ACTIVE, { id: endpointId, active: true }));
    const recovered = dataOf(
      await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, { endpointId, since: before.toISOString() }),
    );
    expect(recovered.recoverDeliveries).toEqual({ queued: 2, hasMore: false, nextSince: null });
    for (const [id, first] of [
      [gone, 410],
      [refused, 503],
    ] as const) {
      const delivery = await deliveryWhen(hookline.app, id, (found) => found.status === 'SUCCEEDED');
      expect(delivery.attempts.map((attempt) => [attempt.number, attempt.responseStatus])).toEqual([
        [1, first],
        [2, 200],
      ]);
    }
    expect(receiver.requests.map(idOf).filter((id) => id === delivered)).toHaveLength(1);
  });

  it('counts, on upgrade, the attempts stored while their deliveries were cancelled, so they can be recovered', async () => {
    await withDatabaseBefore('_attempts_counted_while_cancelled', async (client, migrateRest) => {
      const organizationId = (await client.query(`INSERT INTO organizations (name) VALUES ('before') RETURNING id`)).rows[0].id;
      const endpointId = (
        await client.query(
          `INSERT INTO webhook_endpoints (organization_id, url, name, signing_secret, event_types) VALUES ($1, 'https://h.example.test', 'h', 's', '{}') RETURNING id`,
          [organizationId],
        )
      ).rows[0].id;
      const eventId = (
        await client.query(`INSERT INTO events (organization_id, type, data) VALUES ($1, 'test.ping', '{}') RETURNING id`, [organizationId])
      ).rows[0].id;
      // name: status and count as stored, then the attempts stored (number, HTTP status).
      const stored: Record<string, [string, number, [number, number][]]> = {
        cancelledRefused: ['CANCELLED', 0, [[1, 503]]],
        cancelledDelivered: ['CANCELLED', 0, [[1, 200]]],
        pendingDelivered: ['PENDING', 0, [[1, 200]]],
        pendingRefused: [
          'PENDING',
          1,
          [
            [1, 503],
            [2, 503],
          ],
        ],
        failed: ['FAILED', 1, [[1, 503]]],
        cancelledUntried: ['CANCELLED', 0, []],
      };
      const ids: Record<string, string> = {};
      for (const [name, [status, attemptCount, attempts]] of Object.entries(stored)) {
        ids[name] = (
          await client.query(
            `INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, created_at)
             SELECT $1, $2, $3, 'test.ping', $4, $5, created_at FROM events WHERE id = $2 RETURNING id`,
            [organizationId, eventId, endpointId, status, attemptCount],
          )
        ).rows[0].id;
        for (const [number, responseStatus] of attempts)
          await client.query(
            `INSERT INTO delivery_attempts (delivery_id, number, succeeded, started_at, duration_ms, response_status) VALUES ($1, $2, $3, now(), 5, $4)`,
            [ids[name], number, responseStatus === 200, responseStatus],
          );
      }
      await migrateRest();
      const { rows } = await client.query(`SELECT id, status, attempt_count FROM deliveries`);
      const after = Object.fromEntries(
        Object.entries(ids).map(([name, id]) => {
          const row = rows.find((found) => found.id === id)!;
          return [name, [row.status, row.attempt_count]];
        }),
      );
      expect(after).toEqual({
        cancelledRefused: ['CANCELLED', 1],
        cancelledDelivered: ['SUCCEEDED', 1],
        pendingDelivered: ['SUCCEEDED', 1],
        pendingRefused: ['PENDING', 2],
        failed: ['FAILED', 1],
        cancelledUntried: ['CANCELLED', 0],
      });
    });
  });

  it('queues at most 1000 per call and says where the next call starts', async () => {
    const tenant = await hookline.createTenant();
    const { receiver, id: endpointId } = await endpointAt(tenant, '/many');
    // 1001 CANCELLED deliveries, each of its own event, a millisecond apart (as after a long pause).
    const { pool } = hookline.app.database;
    const start = new Date(Date.now() - 3600_000);
    await pool.query(
      `WITH event AS (
         INSERT INTO events (organization_id, type, data, created_at)
         SELECT $1, 'test.ping', '{}', $3::timestamptz + n * interval '1 millisecond' FROM generate_series(0, 1000) AS n
         RETURNING id, created_at)
       INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, created_at)
       SELECT $1, event.id, $2, 'test.ping', 'CANCELLED', event.created_at FROM event`,
      [tenant.organizationId, endpointId, start],
    );
    const first = dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, { endpointId, since: start.toISOString() }));
    expect(first.recoverDeliveries).toEqual({ queued: 1000, hasMore: true, nextSince: new Date(start.getTime() + 1000).toISOString() });
    const second = dataOf(
      await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, { endpointId, since: first.recoverDeliveries.nextSince! }),
    );
    expect(second.recoverDeliveries).toEqual({ queued: 1, hasMore: false, nextSince: null });
    await receiver.waitForRequests(1001, { path: '/many', timeoutMs: 60_000 });
    expect(new Set(receiver.requests.map(idOf)).size).toBe(1001);
  });

  it('refuses a window whose until is not after since, naming the field, and queues nothing', async () => {
    const tenant = await hookline.createTenant();
    const { receiver, id: endpointId } = await endpointAt(tenant, '/window');
    const at = new Date().toISOString();
    for (const until of [at, new Date(Date.parse(at) - 1000).toISOString()]) {
      const refused = await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, { endpointId, since: at, until });
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors?.[0]).toMatchObject({
        message: 'until must be later than since',
        extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'until', message: 'must be later than since' }] },
      });
    }
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('resendDelivery', () => {
  it('re-sends a SUCCEEDED delivery with the same webhook-id; a PENDING one is refused', async () => {
    const tenant = await hookline.createTenant();
    const { receiver, id: endpointId, secret } = await endpointAt(tenant, '/resend');
    await ingest(hookline, tenant.deployToken, { commit_sha: 'ddd444', environment: 'production' });
    const [original] = await receiver.waitForRequests(1, { path: '/resend' });
    const deliveryId = idOf(original!);
    await deliveryWhen(hookline.app, deliveryId, (delivery) => delivery.status === 'SUCCEEDED');

    // The receiver holds its answer: the resent delivery stays PENDING meanwhile.
    const held: ServerResponse[] = [];
    receiver.respond((_request, response) => held.push(response));
    const resent = dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RESEND, { id: deliveryId }));
    expect(resent.resendDelivery).toEqual({ id: deliveryId, status: 'PENDING', attemptCount: 1 });
    const [, again] = await receiver.waitForRequests(2, { path: '/resend' });
    expect(idOf(again!)).toBe(deliveryId);
    expect(again!.body).toBe(original!.body);
    expect(new Webhook(secret).verify(again!.body, again!.headers as Record<string, string>)).toEqual(JSON.parse(original!.body));

    const pending = await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RESEND, { id: deliveryId });
    expect(pending.body.errors?.[0]).toMatchObject({
      message:
        'Only a SUCCEEDED or FAILED or CANCELLED delivery can be resent; this one is PENDING, and its next attempt is queued already',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    held.forEach((response) => response.end('ok'));
    const delivery = await deliveryWhen(hookline.app, deliveryId, (found) => found.status === 'SUCCEEDED' && found.attemptCount === 2);
    expect(delivery.attempts.map((attempt) => attempt.succeeded)).toEqual([true, true]);

    // An endpoint that is not ACTIVE gets nothing: both are refused with the reason.
    dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, SET_ACTIVE, { id: endpointId, active: false }));
    const paused = await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RESEND, { id: deliveryId });
    expect(paused.body.errors?.[0]).toMatchObject({
      message: 'The endpoint is INACTIVE; activate it first',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const recover = await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, { endpointId, since: new Date(0).toISOString() });
    expect(recover.body.errors?.[0]).toMatchObject({
      message: 'The endpoint is INACTIVE; activate it first',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(receiver.requests).toHaveLength(2);
  });

  it("refuses another organization's delivery and endpoint as not found, and changes nothing", async () => {
    const owner = await hookline.createTenant();
    const other = await hookline.createTenant();
    const { receiver, id: endpointId } = await endpointAt(owner, '/private');
    await ingest(hookline, owner.deployToken, { commit_sha: 'eee555', environment: 'production' });
    const [request] = await receiver.waitForRequests(1, { path: '/private' });
    const deliveryId = idOf(request!);
    await deliveryWhen(hookline.app, deliveryId, (delivery) => delivery.status === 'SUCCEEDED');

    const resend = await requestGraphqlWith(hookline.baseUrl, other.apiToken, RESEND, { id: deliveryId });
    expect(resend.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const recover = await requestGraphqlWith(hookline.baseUrl, other.apiToken, RECOVER, { endpointId, since: new Date(0).toISOString() });
    expect(recover.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    const delivery = await hookline.app.database.prisma.delivery.findFirstOrThrow({ where: { id: deliveryId } });
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
    expect(receiver.requests).toHaveLength(1);
  });
});
