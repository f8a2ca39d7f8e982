// A receiver that answers its headers and then stalls the body must not hold up anyone else:
// DELIVERY_TIMEOUT_MS bounds the whole attempt (connect to last byte), and each attempt is
// recorded as it finishes, so a healthy endpoint's deliveries never wait for (or repeat
// because of) a stalled endpoint's attempts made at the same time by the same worker.
import { beforeAll, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { post, postDeploy } from './support/http.ts';
import { eventually, type Receiver, TIMER_SLACK_MS } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const DEPLOYS = 40;
const TIMEOUT_MS = 1000;

const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
    DELIVERY_MAX_RETRIES: '0',
    // Every stalled delivery fails; none may be cancelled by the endpoint being disabled.
    ENDPOINT_DISABLE_AFTER_FAILURES: String(DEPLOYS + 1),
    // Every stalled attempt is made: the circuit breaker (test/fair-delivery.test.ts) stays closed,
    // and the endpoint keeps 10 attempts in flight (its limit is not halved by the timeouts).
    DELIVERY_CIRCUIT_BREAKER_TIMEOUTS: String(DEPLOYS + 1),
    DELIVERY_MIN_IN_FLIGHT_PER_ENDPOINT: '10',
  },
});
let healthy: Receiver;
let stalled: Receiver;

beforeAll(async () => {
  healthy = await hookline.startReceiver();
  stalled = await hookline.startReceiver();
  // Status and headers at once, a first chunk of body, then nothing: the socket stays open.
  stalled.respond((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('processing');
  });
});

async function addEndpoint(url: string, name: string): Promise<string> {
  const response = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
    body: JSON.stringify({ url, name }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
  });
  expect(response.status).toBe(201);
  return response.body.id;
}

interface DeliveryRow {
  id: string;
  status: string;
  attemptCount: number;
  jobStates: string[];
}

async function deliveriesOf(endpointId: string): Promise<DeliveryRow[]> {
  const { rows } = await hookline.app.database.pool.query<DeliveryRow>(
    `SELECT d.id, d.status, d.attempt_count AS "attemptCount",
            array(SELECT j.state::text FROM pgboss.job j WHERE j.name = 'deliver' AND j.data->>'deliveryId' = d.id::text) AS "jobStates"
     FROM deliveries d WHERE d.endpoint_id = $1`,
    [endpointId],
  );
  return rows;
}

it('a healthy endpoint gets each delivery once, within seconds, while another stalls every answer', async () => {
  const healthyEndpoint = await addEndpoint(`${healthy.url}/hooks`, 'Healthy');
  const stalledEndpoint = await addEndpoint(`${stalled.url}/hooks`, 'Stalled');

  const ingested = Date.now();
  for (let index = 0; index < DEPLOYS; index++) {
    const response = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: `sha-${index}` });
    expect(response.status).toBe(200);
  }

  // Well before the stalled attempts time out, every healthy delivery is recorded SUCCEEDED
  // and its job is complete: nothing can send it again.
  const done = await eventually(
    async () => {
      const rows = await deliveriesOf(healthyEndpoint);
      const finished =
        rows.length === DEPLOYS && rows.every((row) => row.status === 'SUCCEEDED' && row.jobStates.every((state) => state === 'completed'));
      return finished ? rows : undefined;
    },
    TIMEOUT_MS * 5,
    `all ${DEPLOYS} healthy deliveries SUCCEEDED with their jobs completed`,
  );
  console.log(`[slow receivers] ${DEPLOYS} healthy deliveries recorded ${Date.now() - ingested} ms after the first ingest`);
  expect(done.map((row) => row.attemptCount)).toEqual(Array(DEPLOYS).fill(1));
  expect(done.map((row) => row.jobStates)).toEqual(Array(DEPLOYS).fill(['completed']));

  // The stalled attempts end at the timeout, as failures that say what happened.
  await eventually(
    async () => ((await deliveriesOf(stalledEndpoint)).filter((row) => row.status === 'FAILED').length === DEPLOYS ? true : undefined),
    30_000,
    `all ${DEPLOYS} stalled deliveries FAILED`,
  );
  const { rows: attempts } = await hookline.app.database.pool.query<{ durationMs: number; responseStatus: number | null; error: string }>(
    `SELECT a.duration_ms AS "durationMs", a.response_status AS "responseStatus", a.error
     FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
    [stalledEndpoint],
  );
  expect(attempts).toHaveLength(DEPLOYS);
  for (const attempt of attempts) {
    expect(attempt.responseStatus).toBe(200);
    expect(attempt.error).toBe(`answer (status 200) not complete within ${TIMEOUT_MS} ms`);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - TIMER_SLACK_MS);
  }

  // Each healthy delivery arrived exactly once.
  const arrivals = healthy.requests.map((request) => request.headers['webhook-id']);
  expect(arrivals).toHaveLength(DEPLOYS);
  expect(new Set(arrivals)).toEqual(new Set(done.map((row) => row.id)));
}, 60_000);
