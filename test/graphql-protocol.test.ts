// The two transports of /graphql keep their protocols whatever the other one saw: GraphQL over
// HTTP as graphql-http's audits check it (before and after WebSocket traffic), and graphql-ws,
// where a malformed operation fails alone rather than taking its socket down.
import { serverAudits } from 'graphql-http';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../src/db/admin.ts';
import { graphql } from './gql/index.ts';
import type { RunningApp } from './support/app.ts';
import { connectGraphqlWs, deliveryChangeOf, ping, subscribe, untilLive } from './support/graphql-ws.ts';
import { post } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const PROTOCOL_DELIVERY_UPDATED = graphql(`
  subscription ProtocolDeliveryUpdated($endpointId: ID) {
    deliveryUpdated(endpointId: $endpointId) { id status }
  }
`);

const hookline = useHookline({ environment: { ROLE: 'api' } });
/** Sees WebSocket traffic first, then the audits: nothing of it has been parsed over HTTP before. */
/** Sees HTTP only. */
let httpOnly: RunningApp;
let endpointId: string;
const clients: Client[] = [];

beforeAll(async () => {
  // api only: a test.ping's new delivery is a change subscribers see, no worker needed.
  httpOnly = await hookline.startApp({ ROLE: 'api' });
  endpointId = (await createEndpoint(hookline, hookline.tenant.apiToken, { url: 'https://hooks.example.com/protocol', name: 'protocol' }))
    .id;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
});

/** Every graphql-http server audit (MUST, SHOULD and MAY) that did not pass, with its reason. */
async function failedAudits(running: RunningApp): Promise<{ id: string; name: string; reason: string }[]> {
  const withToken = (input: RequestInfo | URL, init: RequestInit = {}) =>
    fetch(input, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${hookline.tenant.apiToken}` },
    });
  const failed = [];
  for (const audit of serverAudits({ url: `${running.baseUrl}/graphql`, fetchFn: withToken })) {
    const result = await audit.fn();
    if (result.status !== 'ok') failed.push({ id: result.id, name: result.name, reason: result.reason });
  }
  return failed;
}

describe('GraphQL over HTTP and over WebSocket', () => {
  it('passes every graphql-http server audit without WebSocket traffic', async () => {
    expect(await failedAudits(httpOnly)).toEqual([]);
  });

  it('answers a syntax error in one subscribe message with an error for that operation only', async () => {
    const client = connectGraphqlWs(hookline.baseUrl, hookline.tenant.apiToken);
    clients.push(client);
    const live = subscribe(client, PROTOCOL_DELIVERY_UPDATED, { endpointId }, (data) => data.deliveryUpdated);
    await untilLive(live, hookline.baseUrl, hookline.tenant, endpointId, (update, deliveryId) => update.id === deliveryId);

    // The same text as graphql-http's parse-failure audits (run on this app only after this), on the same socket.
    const broken = subscribe(client, '{', {}, (data) => data);
    const errors = await broken.waitFor(() => broken.errors[0], 'the error of the malformed operation');
    expect(errors).toEqual([
      {
        message: 'Syntax Error: Expected Name, found <EOF>.',
        locations: [{ line: 1, column: 2 }],
        extensions: { code: 'GRAPHQL_PARSE_FAILED' },
      },
    ]);
    expect(broken.updates).toEqual([]);

    // The socket and its other subscription live on.
    const after = await ping(hookline.baseUrl, hookline.tenant, endpointId);
    await live.waitFor(() => live.updates.find((update) => update.id === after), 'a change after the malformed operation');
    expect(live.errors).toEqual([]);
  });

  it('masks an unexpected error of one change as over HTTP, and the subscription goes on', async () => {
    const client = connectGraphqlWs(hookline.baseUrl, hookline.tenant.apiToken);
    clients.push(client);
    const live = subscribe(client, PROTOCOL_DELIVERY_UPDATED, { endpointId }, (data) => data.deliveryUpdated);
    await untilLive(live, hookline.baseUrl, hookline.tenant, endpointId, (update, deliveryId) => update.id === deliveryId);

    // The database refuses the load of one change: its table is gone for a moment.
    const change = await deliveryChangeOf(hookline.app.database.pool, live.updates[0]!.id, { status: 'PENDING', attemptCount: 0 });
    await adminQuery(hookline.database.url, 'ALTER TABLE deliveries RENAME TO deliveries_away');
    try {
      await adminQuery(hookline.database.url, `SELECT pg_notify('hookline_delivery', '${JSON.stringify(change)}')`);
      await live.waitFor(() => live.errors[0], 'the error of the change');
    } finally {
      await adminQuery(hookline.database.url, 'ALTER TABLE deliveries_away RENAME TO deliveries');
    }
    expect(live.errors).toEqual([
      {
        message: 'Unexpected error.',
        locations: [expect.any(Object)],
        path: ['deliveryUpdated'],
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      },
    ]);
    const after = await ping(hookline.baseUrl, hookline.tenant, endpointId);
    await live.waitFor(() => live.updates.find((update) => update.id === after), 'a change after the error');
  });

  it('passes every graphql-http server audit after that WebSocket traffic', async () => {
    expect(await failedAudits(hookline.running)).toEqual([]);
  });
});

describe('what /graphql does not take', () => {
  const query = JSON.stringify({ query: '{ viewer { id } }' });
  const send = (headers: Record<string, string>, body = query) =>
    post(`${httpOnly.baseUrl}/graphql`, { body, headers: { authorization: `Bearer ${hookline.tenant.apiToken}`, ...headers } });
  const unsupported = { error: { code: 'unsupported_media_type', message: 'Content-Type must be application/json' } };

  it.each(['text/plain', 'text/plain; charset=utf-8', 'application/xml', 'application/graphql'])(
    'a POST body of %s → 415 in the error shape',
    async (contentType) => {
      const response = await send({ 'content-type': contentType }, contentType.endsWith('json') ? query : '{ viewer { id } }');
      expect(response.status).toBe(415);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.body).toEqual(unsupported);
    },
  );

  it('a declared charset other than UTF-8 → 415, and bytes that are not UTF-8 → 400 invalid_json (never U+FFFD)', async () => {
    for (const charset of ['iso-8859-1', 'utf-16', 'latin1']) {
      const response = await send({ 'content-type': `application/json; charset=${charset}` });
      expect(response.status, charset).toBe(415);
      expect(response.body).toEqual({ error: { code: 'unsupported_media_type', message: 'Content-Type charset must be utf-8' } });
    }
    const latin1 = Buffer.from(JSON.stringify({ query: '{ viewer { id } } # Zoë' }), 'latin1');
    const notUtf8 = await post(`${httpOnly.baseUrl}/graphql`, {
      body: latin1,
      headers: { authorization: `Bearer ${hookline.tenant.apiToken}`, 'content-type': 'application/json' },
    });
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body).toEqual({ error: { code: 'invalid_json', message: 'Body is not valid UTF-8' } });
    expect((await send({ 'content-type': 'application/json; charset=UTF-8' })).status).toBe(200);
  });

  it('an Accept that allows no GraphQL response type → 406 in the error shape', async () => {
    const response = await send({ 'content-type': 'application/json', accept: 'image/png' });
    expect(response.status).toBe(406);
    expect(response.body).toEqual({
      error: { code: 'not_acceptable', message: 'Accept must allow application/graphql-response+json or application/json' },
    });
  });
});
