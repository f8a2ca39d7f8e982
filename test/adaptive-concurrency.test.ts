// Each endpoint's attempts in flight follow its receiver, through a real worker: a backlog to a
// receiver that answers 2xx quickly is sent with more and more attempts at once (up to
// DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT); one that answers 503 gets fewer and fewer (down to
// DELIVERY_MIN_IN_FLIGHT_PER_ENDPOINT). The deliveries are queued first (an api-only app),
// then one worker takes the backlog.
import { afterEach, expect, it } from 'vitest';
import { LOCAL_RECEIVERS, type RunningApp } from './support/app.ts';
import type { Receiver } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, ROLE: 'api', INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
let worker: RunningApp | undefined;

afterEach(async () => {
  await worker?.close();
  worker = undefined;
});

/** A receiver that answers `status` after `holdMs`; `inFlightAtArrival[i]` is how many it held when request i arrived (itself included). */
async function receiverHolding(holdMs: number, status: number): Promise<{ receiver: Receiver; inFlightAtArrival: number[] }> {
  const receiver = await hookline.startReceiver();
  const inFlightAtArrival: number[] = [];
  let inFlight = 0;
  receiver.respond((_request, response) => {
    inFlightAtArrival.push(++inFlight);
    setTimeout(() => {
      inFlight--;
      response.statusCode = status;
      response.end();
    }, holdMs);
  });
  return { receiver, inFlightAtArrival };
}

async function queueDeploys(receiver: Receiver, name: string, deploys: number): Promise<void> {
  const tenant = await hookline.createTenant(name);
  await createEndpoint(hookline.running, tenant.apiToken, { url: `${receiver.url}/hooks`, name });
  for (let index = 0; index < deploys; index++) await ingest(hookline.running, tenant.deployToken, { commit_sha: `${name}-${index}` });
}

it('a receiver answering 2xx quickly gets more attempts at once than the initial 10, up to the maximum', async () => {
  const DEPLOYS = 200;
  const { receiver, inFlightAtArrival } = await receiverHolding(100, 200);
  await queueDeploys(receiver, 'fast', DEPLOYS);
  worker = await hookline.startApp({ ...LOCAL_RECEIVERS, ROLE: 'worker', DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT: '30' });
  await receiver.waitForRequests(DEPLOYS, { timeoutMs: 60_000 });
  expect(Math.max(...inFlightAtArrival)).toBeGreaterThan(10);
  expect(Math.max(...inFlightAtArrival)).toBeLessThanOrEqual(30);
}, 120_000);

it('a receiver answering 503 gets fewer attempts at once, down to the minimum', async () => {
  const DEPLOYS = 40;
  const { receiver, inFlightAtArrival } = await receiverHolding(200, 503);
  await queueDeploys(receiver, 'struggling', DEPLOYS);
  worker = await hookline.startApp({
    ...LOCAL_RECEIVERS,
    ROLE: 'worker',
    DELIVERY_MAX_RETRIES: '0',
    ENDPOINT_DISABLE_AFTER_FAILURES: String(DEPLOYS + 1),
  });
  const requests = await receiver.waitForRequests(DEPLOYS, { timeoutMs: 60_000 });
  expect(requests).toHaveLength(DEPLOYS);
  // The first ten went together (the initial limit); each failure of a request sent after the
  // last halving halves it again (10, 5, 2, 1), so from the 18th request on it is 1.
  expect(Math.max(...inFlightAtArrival.slice(0, 10))).toBeGreaterThan(5);
  expect(Math.max(...inFlightAtArrival.slice(25))).toBe(1);
}, 120_000);
