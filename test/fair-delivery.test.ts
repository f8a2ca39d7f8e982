// One worker, many tenants: receivers that hang must not cost anyone else their deliveries.
// The organizations holding slots share all but a tenth of the worker's (the headroom, kept for
// one more), each endpoint has at most DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT attempts at once,
// and an endpoint whose attempts keep timing out is left alone (its circuit opens) until one
// probe attempt after a cooldown.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_RECEIVERS, type RunningApp, type Tenant } from './support/app.ts';
import type { TestDatabase } from './support/database.ts';
import { eventually, TIMER_SLACK_MS, type Receiver } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

// A database and an app for each test (their state is what the tests measure), closed after it.
const hookline = useHookline({ app: false });
let database: TestDatabase;
let app: RunningApp | undefined;
const receivers: Receiver[] = [];
/** Answers a hanging receiver has not given yet, ended before the receivers close. */
const unanswered: ServerResponse[] = [];

beforeEach(async () => {
  database = await hookline.createDatabase();
});

afterEach(async () => {
  for (const response of unanswered.splice(0)) response.destroy();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  await app?.close();
  app = undefined;
  await database.drop();
});

async function start(environment: Record<string, string>): Promise<RunningApp> {
  app = await hookline.startApp({ ...LOCAL_RECEIVERS, INGEST_RATE_LIMIT_PER_MINUTE: 'off', ...environment }, database.url);
  return app;
}

async function receiver(): Promise<Receiver> {
  const started = await hookline.startReceiver();
  receivers.push(started);
  return started;
}

interface DeliveryRow {
  id: string;
  status: string;
  attemptCount: number;
  jobStates: string[];
}

/** An endpoint named Receiver at `url`: its id. */
async function endpointAt(tenant: Tenant, url: string): Promise<string> {
  return (await createEndpoint(app!, tenant.apiToken, { url, name: 'Receiver' })).id;
}

async function deliveriesOf(endpointId: string): Promise<DeliveryRow[]> {
  const { rows } = await app!.app.database.pool.query<DeliveryRow>(
    `SELECT d.id, d.status, d.attempt_count AS "attemptCount",
            array(SELECT j.state::text FROM pgboss.job j WHERE j.name = 'deliver' AND j.data->>'deliveryId' = d.id::text ORDER BY j.created_on) AS "jobStates"
     FROM deliveries d WHERE d.endpoint_id = $1 ORDER BY d.created_at, d.id`,
    [endpointId],
  );
  return rows;
}

async function attemptsOf(endpointId: string): Promise<number> {
  const { rows } = await app!.app.database.pool.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1',
    [endpointId],
  );
  return rows[0]!.count;
}

describe('a tenant whose receivers hang', () => {
  const CONCURRENCY = 8;

  it('holds at most its share of the worker, and another tenant is delivered to at once', async () => {
    await start({
      DELIVERY_CONCURRENCY: String(CONCURRENCY),
      // Longer than the test: a hanging attempt holds its slot throughout.
      DELIVERY_TIMEOUT_MS: '120000',
    });
    const x = await hookline.createTenant('flood', app!.app);
    const y = await hookline.createTenant('calm', app!.app);
    const hanging = await receiver();
    hanging.respond((_request, response) => unanswered.push(response));
    const healthy = await receiver();
    for (let index = 0; index < 10; index++) await endpointAt(x, `${hanging.url}/x/${index}`);
    const yEndpoint = await endpointAt(y, `${healthy.url}/y`);

    // 20 of X's deliveries hang: alone, X may hold all slots but the headroom (a tenth, at least
    // one), kept for an organization that holds none.
    await ingest(app!, x.deployToken, { commit_sha: 'x-1' });
    await ingest(app!, x.deployToken, { commit_sha: 'x-2' });
    await hanging.waitForRequests(CONCURRENCY - 1);

    // Y's deliveries arrive one after another, while X's attempts keep hanging.
    for (let index = 1; index <= 3; index++) {
      await ingest(app!, y.deployToken, { commit_sha: `y-${index}` });
      await healthy.waitForRequests(index, { timeoutMs: 15_000 });
    }
    await eventually(
      async () => ((await deliveriesOf(yEndpoint)).every((row) => row.status === 'SUCCEEDED') ? true : undefined),
      15_000,
      "Y's deliveries SUCCEEDED",
    );
    expect(hanging.requests).toHaveLength(CONCURRENCY - 1);
  }, 60_000);
});

describe('an endpoint', () => {
  it('has at most DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT attempts in flight', async () => {
    await start({ DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT: '3' });
    const tenant = await hookline.createTenant('checkout', app!.app);
    const counting = await receiver();
    let inFlight = 0;
    let mostInFlight = 0;
    counting.respond((_request, response) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // Held a while, so that attempts sent together overlap.
      setTimeout(() => {
        inFlight--;
        response.end('ok');
      }, 300);
    });
    const endpointId = await endpointAt(tenant, `${counting.url}/hooks`);

    await Promise.all(Array.from({ length: 12 }, (_, index) => ingest(app!, tenant.deployToken, { commit_sha: `sha-${index}` })));
    const rows = await eventually(
      async () => {
        const found = await deliveriesOf(endpointId);
        return found.length === 12 && found.every((row) => row.status === 'SUCCEEDED') ? found : undefined;
      },
      30_000,
      '12 deliveries SUCCEEDED',
    );
    expect(rows.map((row) => row.attemptCount)).toEqual(Array(12).fill(1));
    expect(counting.requests).toHaveLength(12);
    expect(mostInFlight).toBe(3);
  }, 60_000);

  it('whose attempts keep timing out waits without attempts, is probed after the cooldown, and resumes when it answers', async () => {
    const TIMEOUT_MS = 300;
    const COOLDOWN_MS = 1500;
    await start({
      DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT: '1',
      DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
      DELIVERY_CIRCUIT_BREAKER_TIMEOUTS: '2',
      DELIVERY_CIRCUIT_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
      // The timed-out deliveries' retries fall due long after the test.
      DELIVERY_BACKOFF_BASE_MS: '600000',
    });
    const tenant = await hookline.createTenant('checkout', app!.app);
    const flaky = await receiver();
    flaky.respond((_request, response) => unanswered.push(response));
    const endpointId = await endpointAt(tenant, `${flaky.url}/hooks`);
    for (let index = 1; index <= 4; index++) await ingest(app!, tenant.deployToken, { commit_sha: `sha-${index}` });

    // Two attempts time out, one after the other (one in flight at a time): the circuit opens.
    // The third request is the probe, a cooldown after the second attempt timed out.
    const [, second, probe] = await flaky.waitForRequests(3, { timeoutMs: 30_000 });
    expect(probe!.receivedAt - second!.receivedAt).toBeGreaterThanOrEqual(TIMEOUT_MS + COOLDOWN_MS - TIMER_SLACK_MS);
    const [first, timedOut, probed, waiting] = await deliveriesOf(endpointId);
    expect(await attemptsOf(endpointId)).toBe(2);
    expect([first!.attemptCount, timedOut!.attemptCount, probed!.attemptCount, waiting!.attemptCount]).toEqual([1, 1, 0, 0]);
    expect(probe!.headers['webhook-id']).toBe(probed!.id);
    // The fourth waits in the queue, holding no slot.
    expect(waiting!.jobStates).toEqual(['created']);

    // The probe is answered: the circuit closes and the fourth is delivered, at its first attempt.
    flaky.respond((_request, response) => response.end('ok'));
    unanswered.pop()!.end('ok');
    const rows = await eventually(
      async () => {
        const found = await deliveriesOf(endpointId);
        return found[2]!.status === 'SUCCEEDED' && found[3]!.status === 'SUCCEEDED' ? found : undefined;
      },
      15_000,
      'the probed and the waiting delivery SUCCEEDED',
    );
    expect(rows.map((row) => [row.status, row.attemptCount])).toEqual([
      ['PENDING', 1],
      ['PENDING', 1],
      ['SUCCEEDED', 1],
      ['SUCCEEDED', 1],
    ]);
    expect(await attemptsOf(endpointId)).toBe(4);
  }, 60_000);
});
