// What receivers answer can never break the recording of outcomes: bodies that are not UTF-8
// text (NUL bytes, Latin-1), compressed bodies, and an outcome PostgreSQL refuses (its delivery
// deleted while the attempt was in flight), each in one group-commit batch with another
// organization's healthy deliveries. Real receivers on loopback; the batch is forced: the
// first outcome's write is held on a row lock while every other attempt finishes, so all of
// them are written together by the next write.
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith, LOCAL_RECEIVERS } from './support/app.ts';
import { eventually, type ReceivedRequest, type Receiver, type Responder } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

const MAX_RETRIES = 1;

const DELIVERY_ATTEMPTS = graphql(`
  query DeliveryAttempts($id: ID!) {
    delivery(id: $id) {
      status attemptCount
      attempts { number succeeded responseStatus responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded error }
    }
  }
`);

const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    DELIVERY_TIMEOUT_MS: '2000',
    DELIVERY_MAX_RETRIES: String(MAX_RETRIES),
    DELIVERY_BACKOFF_BASE_MS: '50',
    DELIVERY_BACKOFF_FACTOR: '1',
  },
  tenant: false,
});
let lockClient: pg.Client;

beforeAll(async () => {
  lockClient = new pg.Client({ connectionString: hookline.database.url });
  await lockClient.connect();
});

afterAll(async () => {
  await lockClient?.end();
});

/** Attempts this app has finished (recorded or not), from its Prometheus metrics. */
async function attemptsFinished(): Promise<number> {
  const text = await (await fetch(`${hookline.baseUrl}/metrics`)).text();
  return [...text.matchAll(/^hookline_delivery_attempt_duration_seconds_count\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

const deliveryIdOf = (request: ReceivedRequest) => request.headers['x-service-delivery'] as string;

/**
 * Holds the first outcome's write on a row lock until `attempts` attempts have finished, so that
 * the outcomes of all the others wait in the recorder and are written together by its next
 * write. Receivers answer through `answer`, which waits until the write is held.
 */
function batchGate(gateReceiver: Receiver, attempts: number) {
  let held!: () => void;
  const writeHeld = new Promise<void>((resolve) => (held = resolve));
  gateReceiver.respond(async (request, response) => {
    await lockClient.query('BEGIN');
    await lockClient.query('SELECT 1 FROM deliveries WHERE id = $1 FOR UPDATE', [deliveryIdOf(request)]);
    response.end('ok');
    // The recorder's write of this outcome now waits for the lock.
    await eventually(async () => {
      const { rows } = await lockClient.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return rows.length > 0 ? true : undefined;
    });
    held();
  });
  return {
    /** Answers once the first write is held. */
    answer:
      (respond: Responder): Responder =>
      async (request, response) => {
        await writeHeld;
        respond(request, response);
      },
    /** Lets the held write go once every attempt has finished. */
    async release() {
      await writeHeld;
      await eventually(async () => ((await attemptsFinished()) >= attempts ? true : undefined), 20_000, `${attempts} attempts finished`);
      await lockClient.query('COMMIT');
    },
  };
}

/** Every delivery of these endpoints, once none is PENDING. */
async function settled(endpointIds: string[]) {
  return eventually(
    async () => {
      const deliveries = await hookline.app.database.prisma.delivery.findMany({ where: { endpointId: { in: endpointIds } } });
      return deliveries.length === endpointIds.length && deliveries.every((delivery) => delivery.status !== 'PENDING')
        ? deliveries
        : undefined;
    },
    20_000,
    'every delivery finished',
  );
}

describe('bodies that are not UTF-8 text, in one batch with another organization', () => {
  it('stores each outcome once: no delivery is sent twice, and the bodies read back through GraphQL', async () => {
    const x = await hookline.createTenant();
    const y = await hookline.createTenant();
    const gate = await hookline.startReceiver();
    const xReceiver = await hookline.startReceiver();
    const yReceiver = await hookline.startReceiver();
    const gzipped = gzipSync(JSON.stringify({ received: true }));
    expect(gzipped.includes(0)).toBe(true);

    const xEndpoints = {
      nulOk: (
        await createEndpoint(hookline, x.apiToken, { url: `${xReceiver.url}/nul-ok`, name: 'NUL 200', eventTypes: ['deploy.ingested'] })
      ).id,
      nul500: (
        await createEndpoint(hookline, x.apiToken, { url: `${xReceiver.url}/nul-500`, name: 'NUL 500', eventTypes: ['deploy.ingested'] })
      ).id,
      gzip: (await createEndpoint(hookline, x.apiToken, { url: `${xReceiver.url}/gzip`, name: 'gzip', eventTypes: ['deploy.ingested'] }))
        .id,
      latin1: (
        await createEndpoint(hookline, x.apiToken, { url: `${xReceiver.url}/latin1`, name: 'Latin-1', eventTypes: ['deploy.ingested'] })
      ).id,
    };
    const yEndpoints = [
      (await createEndpoint(hookline, y.apiToken, { url: `${gate.url}/gate`, name: 'Gate', eventTypes: ['deploy.ingested'] })).id,
      (await createEndpoint(hookline, y.apiToken, { url: `${yReceiver.url}/one`, name: 'Y one', eventTypes: ['deploy.ingested'] })).id,
      (await createEndpoint(hookline, y.apiToken, { url: `${yReceiver.url}/two`, name: 'Y two', eventTypes: ['deploy.ingested'] })).id,
    ];
    // Every first attempt, and the retry of the 500.
    const { release, answer } = batchGate(gate, 4 + 3);
    xReceiver.respond(
      answer(({ path }, response) => {
        if (path === '/nul-ok') response.end(Buffer.from('ok\0done'));
        else if (path === '/nul-500') response.writeHead(500).end(Buffer.from('error\0detail'));
        else if (path === '/gzip') response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(gzipped);
        else response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('caf\xe9', 'latin1'));
      }),
    );
    yReceiver.respond(answer((_request, response) => response.end('ok')));

    await ingest(hookline, y.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    await ingest(hookline, x.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    await release();
    const settledOrTimedOut = await settled([...Object.values(xEndpoints), ...yEndpoints]).catch((error: Error) => error);

    // The other organization's deliveries are recorded, each after its one request.
    const yDeliveries = await hookline.app.database.prisma.delivery.findMany({ where: { endpointId: { in: yEndpoints } } });
    expect(yDeliveries.map(({ status, attemptCount }) => ({ status, attemptCount }))).toEqual(
      yEndpoints.map(() => ({ status: 'SUCCEEDED', attemptCount: 1 })),
    );
    const requestsTo = (receiver: Receiver, path: string) => receiver.requests.filter((request) => request.path === path).length;
    expect(requestsTo(gate, '/gate')).toBe(1);
    expect(requestsTo(yReceiver, '/one')).toBe(1);
    expect(requestsTo(yReceiver, '/two')).toBe(1);
    // Exactly the attempts the outcomes call for reached the receivers: none was made again.
    if (settledOrTimedOut instanceof Error) throw settledOrTimedOut;
    expect(requestsTo(xReceiver, '/nul-ok')).toBe(1);
    expect(requestsTo(xReceiver, '/nul-500')).toBe(1 + MAX_RETRIES);
    expect(requestsTo(xReceiver, '/gzip')).toBe(1);
    expect(requestsTo(xReceiver, '/latin1')).toBe(1);
    const byEndpoint = new Map(settledOrTimedOut.map((delivery) => [delivery.endpointId, delivery]));
    expect(byEndpoint.get(xEndpoints.nul500)).toMatchObject({ status: 'FAILED', attemptCount: 1 + MAX_RETRIES });

    const attemptsOf = async (endpointId: string) => {
      const { delivery } = dataOf(
        await requestGraphqlWith(hookline.baseUrl, x.apiToken, DELIVERY_ATTEMPTS, { id: byEndpoint.get(endpointId)!.id }),
      );
      return delivery!;
    };
    const stored = (responseStatus: number, responseBody: string, rest: Partial<Record<string, unknown>> = {}) => ({
      succeeded: responseStatus === 200,
      responseStatus,
      responseBody,
      responseBodyBase64: null,
      responseContentEncoding: null,
      responseBodyDecoded: false,
      error: null,
      ...rest,
    });
    // NUL bytes, and bytes of another charset, are written \xNN; the exact bytes are there too.
    expect(await attemptsOf(xEndpoints.nulOk)).toEqual({
      status: 'SUCCEEDED',
      attemptCount: 1,
      attempts: [{ number: 1, ...stored(200, 'ok\\x00done', { responseBodyBase64: Buffer.from('ok\0done').toString('base64') }) }],
    });
    expect((await attemptsOf(xEndpoints.nul500)).attempts).toEqual(
      [1, 2].map((number) => ({
        number,
        ...stored(500, 'error\\x00detail', { responseBodyBase64: Buffer.from('error\0detail').toString('base64') }),
      })),
    );
    expect((await attemptsOf(xEndpoints.latin1)).attempts).toEqual([
      { number: 1, ...stored(200, 'caf\\xe9', { responseBodyBase64: Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('base64') }) },
    ]);
    // A compressed body is stored decoded, and says so.
    expect(await attemptsOf(xEndpoints.gzip)).toEqual({
      status: 'SUCCEEDED',
      attemptCount: 1,
      attempts: [{ number: 1, ...stored(200, '{"received":true}', { responseContentEncoding: 'gzip', responseBodyDecoded: true }) }],
    });
    // Every attempt, succeeded, retried or failed, keeps its delivery's endpoint (the charts read attempts by it).
    const { rows: endpointsKept } = await lockClient.query(
      `SELECT a.endpoint_id = d.endpoint_id AS kept FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
       WHERE d.endpoint_id = ANY ($1::uuid[])`,
      [[...Object.values(xEndpoints), ...yEndpoints]],
    );
    expect(endpointsKept).toEqual(Array.from({ length: 5 + 3 }, () => ({ kept: true })));
  });
});

describe('an outcome the database refuses, in one batch with another organization', () => {
  it('costs no other outcome: the rest of the batch is written, and nothing is sent twice', async () => {
    const x = await hookline.createTenant();
    const y = await hookline.createTenant();
    const gate = await hookline.startReceiver();
    const xReceiver = await hookline.startReceiver();
    const yReceiver = await hookline.startReceiver();
    (await createEndpoint(hookline, x.apiToken, { url: `${xReceiver.url}/doomed`, name: 'Doomed', eventTypes: ['deploy.ingested'] })).id;
    const yEndpoints = [
      (await createEndpoint(hookline, y.apiToken, { url: `${gate.url}/gate`, name: 'Gate', eventTypes: ['deploy.ingested'] })).id,
      (await createEndpoint(hookline, y.apiToken, { url: `${yReceiver.url}/one`, name: 'Y one', eventTypes: ['deploy.ingested'] })).id,
      (await createEndpoint(hookline, y.apiToken, { url: `${yReceiver.url}/two`, name: 'Y two', eventTypes: ['deploy.ingested'] })).id,
    ];
    const { release, answer } = batchGate(gate, 4);
    // An operator removes organization X while its attempt is in flight: recording that attempt
    // now violates its foreign key, in the batch that also carries Y's outcomes.
    xReceiver.respond(
      answer(async (_request, response) => {
        await hookline.app.database.pool.query('DELETE FROM organizations WHERE id = $1', [x.organizationId]);
        response.end('ok');
      }),
    );
    yReceiver.respond(answer((_request, response) => response.end('ok')));

    await ingest(hookline, y.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    await ingest(hookline, x.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    await release();
    const settledOrTimedOut = await settled(yEndpoints).catch((error: Error) => error);

    const yDeliveries = await hookline.app.database.prisma.delivery.findMany({ where: { endpointId: { in: yEndpoints } } });
    expect(yDeliveries.map(({ status, attemptCount }) => ({ status, attemptCount }))).toEqual(
      yEndpoints.map(() => ({ status: 'SUCCEEDED', attemptCount: 1 })),
    );
    if (settledOrTimedOut instanceof Error) throw settledOrTimedOut;
    expect(gate.requests).toHaveLength(1);
    expect(yReceiver.requests.map((request) => request.path).sort()).toEqual(['/one', '/two']);
    expect(xReceiver.requests).toHaveLength(1);
  });
});
