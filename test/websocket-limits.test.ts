// What one GraphQL WebSocket client may hold of an api process: message size, operations per
// socket, sockets per organization, and unsent messages of a client that does not read. Real
// sockets to a real app; each limit is lowered by its setting so that reaching it is cheap.
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import type { Tenant } from './support/app.ts';
import { connectGraphqlWs, deliveryChangeOf, ping, subscribe, untilLive, type Subscriber } from './support/graphql-ws.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const LIMITS_DELIVERY_UPDATED = graphql(`
  subscription LimitsDeliveryUpdated($endpointId: ID) {
    deliveryUpdated(endpointId: $endpointId) { id status event { type data } }
  }
`);

type Update = { id: string; status: string; event: { type: string; data: unknown } };

const LIMITS = {
  WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: '3',
  WS_MAX_CONNECTIONS_PER_ORGANIZATION: '2',
};

const hookline = useHookline({ environment: { ROLE: 'api', ...LIMITS }, tenant: false });
const clients: Client[] = [];

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
});

function connect(tenant: Tenant, options: Parameters<typeof connectGraphqlWs>[2] = {}): Client {
  const client = connectGraphqlWs(hookline.baseUrl, tenant.apiToken, options);
  clients.push(client);
  return client;
}

const subscribeTo = (client: Client, endpointId?: string) =>
  subscribe(client, LIMITS_DELIVERY_UPDATED, { endpointId }, (data) => data.deliveryUpdated as Update);

const live = (subscriber: Subscriber<Update>, tenant: Tenant, endpointId: string) =>
  untilLive(subscriber, hookline.baseUrl, tenant, endpointId, (update, deliveryId) => update.id === deliveryId);

/** The close code and reason of a raw socket, once it closes. */
const closeOf = (socket: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );

describe('GraphQL WebSocket limits', () => {
  it('closes the socket with 1009 on a message over 1 MiB, before reading it (even a connection_init with a valid token)', async () => {
    const tenant = await hookline.createTenant();
    const socket = new WebSocket(`${hookline.baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: string[] = [];
    socket.on('message', (data) => messages.push(String(data)));
    const closed = closeOf(socket);
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(
      JSON.stringify({
        type: 'connection_init',
        payload: { authorization: `Bearer ${tenant.apiToken}`, padding: 'x'.repeat(1024 * 1024) },
      }),
    );
    expect(await closed).toEqual({ code: 1009, reason: '' });
    expect(messages).toEqual([]);
  });

  it('runs at most WS_MAX_SUBSCRIPTIONS_PER_CONNECTION operations on one socket; one more fails alone', async () => {
    const tenant = await hookline.createTenant();
    const endpointId = (await createEndpoint(hookline, tenant.apiToken, { url: 'https://hooks.example.com/limits', name: 'limits' })).id;
    const client = connect(tenant);
    const allowed = [subscribeTo(client), subscribeTo(client, endpointId), subscribeTo(client)];
    for (const subscriber of allowed) await live(subscriber, tenant, endpointId);

    const refused = subscribeTo(client);
    const errors = await refused.waitFor(() => refused.errors[0], 'the refusal');
    expect(errors).toEqual([
      { message: 'Too many operations on this connection: at most 3 at once', extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', max: 3 } },
    ]);
    // The others on the socket go on.
    const after = await ping(hookline.baseUrl, tenant, endpointId);
    for (const subscriber of allowed)
      await subscriber.waitFor(() => subscriber.updates.find((update) => update.id === after), 'a change after the refusal');
    expect(allowed.flatMap((subscriber) => subscriber.errors)).toEqual([]);
    expect(refused.updates).toEqual([]);
  });

  it('accepts at most WS_MAX_CONNECTIONS_PER_ORGANIZATION sockets of one organization (4029), and counts closed ones out', async () => {
    const tenant = await hookline.createTenant();
    const endpointId = (await createEndpoint(hookline, tenant.apiToken, { url: 'https://hooks.example.com/limits', name: 'limits' })).id;
    const first = connect(tenant);
    const second = connect(tenant);
    const subscribers = [subscribeTo(first), subscribeTo(second)];
    for (const subscriber of subscribers) await live(subscriber, tenant, endpointId);

    const third = subscribeTo(connect(tenant));
    const closed = await third.waitFor(
      () => third.errors[0] as { code: number; reason: string } | undefined,
      'the refusal of a third socket',
    );
    expect({ code: closed.code, reason: closed.reason }).toEqual({
      code: 4029,
      reason: 'Too many connections: at most 2 per organization',
    });

    // Another organization is not held back by this one.
    const stranger = await hookline.createTenant('theirs');
    const strangerEndpoint = (
      await createEndpoint(hookline, stranger.apiToken, { url: 'https://hooks.example.com/limits', name: 'limits' })
    ).id;
    await live(subscribeTo(connect(stranger)), stranger, strangerEndpoint);

    // A socket that closes frees its place (once the server has seen the close: until then, 4029).
    await first.dispose();
    for (let attempt = 1; ; attempt++) {
      const replacement = subscribeTo(connect(tenant));
      const outcome = await Promise.race([
        live(replacement, tenant, endpointId).then(() => 'live'),
        replacement.waitFor(() => replacement.errors[0], 'a refusal').then(() => 'refused'),
      ]);
      if (outcome === 'live') break;
      expect(attempt).toBeLessThan(5);
    }
  });

  it('does not count sockets that close while their token is being checked', async () => {
    const tenant = await hookline.createTenant();
    const endpointId = (await createEndpoint(hookline, tenant.apiToken, { url: 'https://hooks.example.com/limits', name: 'limits' })).id;
    for (let n = 0; n < 10; n++) {
      const socket = new WebSocket(`${hookline.baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${tenant.apiToken}` } }));
      const closed = closeOf(socket);
      socket.terminate();
      await closed;
    }
    // Both places (WS_MAX_CONNECTIONS_PER_ORGANIZATION 2) are still free.
    for (const subscriber of [subscribeTo(connect(tenant)), subscribeTo(connect(tenant))]) await live(subscriber, tenant, endpointId);
  });

  it('closes a socket that does not read with 4008 once WS_MAX_BUFFERED_BYTES wait for it, without delaying another subscriber', async () => {
    const tenant = await hookline.createTenant();
    const endpointId = (await createEndpoint(hookline, tenant.apiToken, { url: 'https://hooks.example.com/limits', name: 'limits' })).id;
    let slowSocket: WebSocket | undefined;
    const slow = subscribeTo(connect(tenant, { on: { connected: (socket) => (slowSocket = socket as WebSocket) } }), endpointId);
    const fast = subscribeTo(connect(tenant), endpointId);
    await live(slow, tenant, endpointId);
    await live(fast, tenant, endpointId);

    // A change of about 80 KB (a deploy with 100 long commit messages in its event), notified
    // again and again while the slow client reads nothing: far more than the socket buffers hold.
    const commits = Array.from({ length: 100 }, (_, n) => ({ sha: `c${n}`, message: `${n} `.padEnd(780, 'x') }));
    expect((await postDeploy(hookline.baseUrl, tenant.deployToken, { commit_sha: 'big', commits })).status).toBe(200);
    const deliveryId = await fast.waitFor(
      () => fast.updates.find((update) => update.event.type === 'deploy.ingested')?.id,
      'the big delivery',
    );
    slowSocket!.pause();
    const { pool } = hookline.app.database;
    const change = await deliveryChangeOf(pool, deliveryId, { status: 'PENDING', attemptCount: 0 });
    // About 12 MB in all: three times what the socket buffers held here, plus the default
    // WS_MAX_BUFFERED_BYTES (1 MiB). In rounds of 400 KB, each sent once the fast subscriber has
    // the previous one: it shares this process with the server, so a burst of megabytes written
    // while it cannot read would make it a slow subscriber too.
    const rounds = 30;
    const perRound = 5;
    const ofDelivery = () => fast.updates.filter((update) => update.id === deliveryId).length;
    for (let round = 0; round < rounds; round++) {
      // Each with its own `n`: PostgreSQL sends identical notifications of one transaction once.
      await pool.query(
        `SELECT pg_notify('hookline_delivery', jsonb_set($1::jsonb, '{n}', to_jsonb(n))::text) FROM generate_series($2::int, $3::int) AS n`,
        [JSON.stringify(change), round * perRound, round * perRound + perRound - 1],
      );
      const expected = 1 + (round + 1) * perRound;
      await fast.waitFor(() => (ofDelivery() >= expected ? true : undefined), `round ${round + 1} to the fast subscriber`);
    }
    const repeats = rounds * perRound;

    // The fast subscriber got every one, and nothing more: a barrier committed after them comes next.
    const barrier = await ping(hookline.baseUrl, tenant, endpointId);
    await fast.waitFor(() => fast.updates.find((update) => update.id === barrier), 'the barrier');
    expect(ofDelivery()).toBe(repeats + 1);
    expect(fast.errors).toEqual([]);

    // The slow one, once it reads again, finds what was sent before the limit, then the close.
    slowSocket!.resume();
    const closed = await slow.waitFor(() => slow.errors[0] as { code: number; reason: string } | undefined, 'the close of the slow socket');
    expect({ code: closed.code, reason: closed.reason }).toEqual({
      code: 4008,
      reason: 'Subscriber too slow: re-read and subscribe again',
    });
    expect(slow.updates.length).toBeLessThan(repeats);
  }, 90_000); // 12 MB to the fast subscriber, in 30 rounds: slow on a busy machine
});
