// Delivery attempts and retries end to end: ingest over HTTP, the pg-boss worker, a real
// receiver on loopback. What counts as a failed attempt (5xx, timeout, redirect), the backoff
// between attempts, Retry-After, what is recorded of each attempt, and signing during a secret
// rotation. Backoffs are tiny (100 ms × 2^n); pg-boss looks for due retries every ~0.5 s.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { rotateSigningSecret } from '../src/domain/webhooks/endpoints.ts';
import { type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { type ReceivedRequest, type Receiver, TIMER_SLACK_MS } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, deliveryWhen, ingest } from './support/operations.ts';

const BACKOFF_BASE_MS = 100;
const BACKOFF_FACTOR = 2;
const MAX_RETRIES = 5;
const TIMEOUT_MS = 500;
/** The backoff's jitter is ±20 %: no retry may come sooner than this after attempt `n`. */
const backoffLowerBoundMs = (n: number) => BACKOFF_BASE_MS * BACKOFF_FACTOR ** (n - 1) * 0.8;

const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
    DELIVERY_MAX_RETRIES: String(MAX_RETRIES),
    DELIVERY_BACKOFF_BASE_MS: String(BACKOFF_BASE_MS),
    DELIVERY_BACKOFF_FACTOR: String(BACKOFF_FACTOR),
  },
  tenant: false,
});

function headersOf(request: ReceivedRequest): Record<string, string> {
  return request.headers as Record<string, string>;
}

/** The delivery with its attempts, once `done` says it has reached the state waited for. */
describe('an endpoint that keeps failing, then recovers', () => {
  /** An endpoint of a tenant of its own, at `/unstable` of a receiver of its own. */
  async function unstableEndpoint(): Promise<{ tenant: Tenant; receiver: Receiver; endpoint: { id: string; signingSecret: string } }> {
    const tenant = await hookline.createTenant();
    const receiver = await hookline.startReceiver();
    const endpoint = await createEndpoint(hookline, tenant.apiToken, { url: `${receiver.url}/unstable`, name: 'Unstable' });
    return { tenant, receiver, endpoint };
  }

  it('answering 500: six attempts of one delivery, signed each time, with growing gaps, then FAILED', async () => {
    const { tenant, receiver, endpoint } = await unstableEndpoint();
    // More than 4 KB once (attempt 3), to see the stored body cut to its first 4096 bytes.
    const large = Array.from({ length: 600 }, (_, i) => `line ${String(i).padStart(3, '0')}\n`).join('');
    expect(Buffer.byteLength(large)).toBeGreaterThan(4096);
    const answers: string[] = [];
    receiver.respond((_request, response) => {
      const text = answers.length === 2 ? large : `server error ${answers.length + 1}`;
      answers.push(text);
      response.writeHead(500, { 'content-type': 'text/plain' }).end(text);
    });

    await ingest(hookline, tenant.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    const requests = await receiver.waitForRequests(1 + MAX_RETRIES, { path: '/unstable', timeoutMs: 20_000 });
    const deliveryId = headersOf(requests[0]!)['x-service-delivery']!;
    const delivery = await deliveryWhen(hookline.app, deliveryId, (delivery) => delivery.status !== 'PENDING');

    // One delivery: the same id on every attempt, in both header sets, and the same body.
    for (const request of requests) {
      const headers = headersOf(request);
      expect(headers['x-service-delivery']).toBe(deliveryId);
      expect(headers['webhook-id']).toBe(deliveryId);
      expect(headers['webhook-timestamp']).toBe(headers['x-service-timestamp']);
      expect(headers['webhook-signature']).toBe(headers['x-service-signature']);
      expect(request.body).toBe(requests[0]!.body);
      // Each attempt is signed with its own timestamp, and the signature verifies.
      const timestamp = Number(headers['x-service-timestamp']);
      expect(Math.abs(timestamp - request.receivedAt / 1000)).toBeLessThanOrEqual(2);
      expect(new Webhook(endpoint.signingSecret).verify(request.body, headers)).toEqual(JSON.parse(request.body));
    }
    const timestamps = requests.map((request) => Number(headersOf(request)['x-service-timestamp']));
    for (let i = 1; i < timestamps.length; i++) expect(timestamps[i]).toBeGreaterThanOrEqual(timestamps[i - 1]!);
    // The attempts span more than 2.4 s (the sum of the lower bounds): the last timestamp is a later second.
    expect(timestamps.at(-1)).toBeGreaterThan(timestamps[0]!);

    // Gap n (between attempts n and n+1) is at least the backoff for attempt n, and they grow.
    const gaps = requests.slice(1).map((request, i) => request.receivedAt - requests[i]!.receivedAt);
    gaps.forEach((gap, i) =>
      expect(gap, `gap after attempt ${i + 1}: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(backoffLowerBoundMs(i + 1)),
    );
    expect(gaps.at(-1)!, `gaps ${gaps.join(', ')} ms`).toBeGreaterThan(gaps[0]!);

    // What is recorded: FAILED after six attempts, each with status and body (first 4 KB).
    expect(delivery.status).toBe('FAILED');
    expect(delivery.attemptCount).toBe(1 + MAX_RETRIES);
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts.map((attempt) => attempt.number)).toEqual([1, 2, 3, 4, 5, 6]);
    delivery.attempts.forEach((attempt, i) => {
      expect(attempt).toMatchObject({ succeeded: false, responseStatus: 500, responseBody: answers[i]!.slice(0, 4096) });
    });
    expect(Buffer.byteLength(delivery.attempts[2]!.responseBody!)).toBe(4096);
    // Attempts start in order, each after the one before.
    for (let i = 1; i < delivery.attempts.length; i++) {
      expect(delivery.attempts[i]!.startedAt.getTime()).toBeGreaterThan(delivery.attempts[i - 1]!.startedAt.getTime());
    }
    // No further attempt is queued: exactly one pg-boss job per attempt made.
    const jobs = await hookline.app.database.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'deliveryId' = $1`, [
      deliveryId,
    ]);
    expect(jobs.rows[0].n).toBe(1 + MAX_RETRIES);
    expect(receiver.requests.filter((request) => request.path === '/unstable')).toHaveLength(1 + MAX_RETRIES);

    // A FAILED delivery counts one consecutive failure on its endpoint.
    expect(delivery.endpoint).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 1 });
  });

  it('honours Retry-After on a 429 when it is longer than the backoff; a success resets the failure count', async () => {
    const { tenant, receiver, endpoint } = await unstableEndpoint();
    // As after one delivery that ended FAILED (the test above shows how an endpoint gets there).
    await hookline.app.database.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { consecutiveFailures: 1 } });
    let answered = 0;
    receiver.respond((_request, response) => {
      answered += 1;
      if (answered === 1) response.writeHead(429, { 'retry-after': '2' }).end('slow down');
      else response.end('thanks');
    });
    const seen = receiver.requests.length;

    await ingest(hookline, tenant.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    await receiver.waitForRequests(seen + 2, { path: '/unstable' });
    const [first, second] = receiver.requests.slice(seen);
    const deliveryId = headersOf(first!)['x-service-delivery']!;
    expect(headersOf(second!)['x-service-delivery']).toBe(deliveryId);
    // The backoff alone would retry after ~100 ms (next poll ~0.5 s); the receiver asked for 2 s.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(2000);

    const delivery = await deliveryWhen(hookline.app, deliveryId, (delivery) => delivery.status !== 'PENDING');
    expect(delivery.status).toBe('SUCCEEDED');
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ number: 1, succeeded: false, responseStatus: 429, responseBody: 'slow down' }),
      expect.objectContaining({ number: 2, succeeded: true, responseStatus: 200, responseBody: 'thanks', error: null }),
    ]);
    expect(delivery.endpoint.consecutiveFailures).toBe(0);
  });
});

describe('what else counts as a failed attempt', () => {
  it('no answer within DELIVERY_TIMEOUT_MS: a failed attempt without status, retried', async () => {
    const tenant = await hookline.createTenant();
    const receiver = await hookline.startReceiver();
    await createEndpoint(hookline, tenant.apiToken, { url: `${receiver.url}/slow`, name: 'Slow' });
    let answered = 0;
    receiver.respond((_request, response) => {
      answered += 1;
      // The first attempt never gets an answer (the connection is closed with the receiver).
      if (answered > 1) response.end('ok');
    });

    await ingest(hookline, tenant.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    const requests = await receiver.waitForRequests(2, { path: '/slow' });
    const deliveryId = headersOf(requests[0]!)['x-service-delivery']!;
    expect(headersOf(requests[1]!)['x-service-delivery']).toBe(deliveryId);
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(TIMEOUT_MS - TIMER_SLACK_MS + backoffLowerBoundMs(1));

    const delivery = await deliveryWhen(hookline.app, deliveryId, (delivery) => delivery.status !== 'PENDING');
    expect(delivery.status).toBe('SUCCEEDED');
    const [timedOut, succeeded] = delivery.attempts;
    expect(timedOut).toMatchObject({ number: 1, succeeded: false, responseStatus: null, responseBody: null });
    expect(timedOut!.error).toMatch(new RegExp(`within ${TIMEOUT_MS} ms`));
    expect(timedOut!.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - TIMER_SLACK_MS);
    expect(succeeded).toMatchObject({ number: 2, succeeded: true, responseStatus: 200 });
  });

  it('a 301 with Location: a failed attempt, and the redirect is not followed', async () => {
    const tenant = await hookline.createTenant();
    const receiver = await hookline.startReceiver();
    await createEndpoint(hookline, tenant.apiToken, { url: `${receiver.url}/moved`, name: 'Moved' });
    receiver.respond((request, response) => {
      const redirectsSoFar = receiver.requests.filter((r) => r.path === '/moved').length;
      if (request.path === '/moved' && redirectsSoFar === 1) response.writeHead(301, { location: `${receiver.url}/target` }).end('moved');
      else response.end('ok');
    });

    await ingest(hookline, tenant.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    // Attempt 2 comes only after attempt 1 was over: a followed redirect would have arrived before it.
    const requests = await receiver.waitForRequests(2, { path: '/moved' });
    const deliveryId = headersOf(requests[0]!)['x-service-delivery']!;
    const delivery = await deliveryWhen(hookline.app, deliveryId, (delivery) => delivery.status !== 'PENDING');
    expect(receiver.requests.filter((request) => request.path === '/target')).toEqual([]);

    expect(delivery.status).toBe('SUCCEEDED');
    const [redirected] = delivery.attempts;
    expect(redirected).toMatchObject({ number: 1, succeeded: false, responseStatus: 301 });
    expect(redirected!.error).toMatch(/redirect/i);
    expect(delivery.attempts[1]).toMatchObject({ number: 2, succeeded: true, responseStatus: 200 });
  });
});

it('stores at most the first 4096 bytes of a multi-byte answer, cut at a character boundary', async () => {
  const tenant = await hookline.createTenant();
  const receiver = await hookline.startReceiver();
  await createEndpoint(hookline, tenant.apiToken, { url: `${receiver.url}/utf8`, name: 'UTF-8' });
  // 4095 ASCII bytes, then 3-byte characters: byte 4096 is the first byte of a '€'.
  const text = 'a'.repeat(4095) + '€'.repeat(10);
  let answered = 0;
  receiver.respond((_request, response) => {
    answered += 1;
    if (answered === 1) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
    else response.end('ok');
  });

  await ingest(hookline, tenant.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
  const [request] = await receiver.waitForRequests(1, { path: '/utf8' });
  const delivery = await deliveryWhen(
    hookline.app,
    headersOf(request!)['x-service-delivery']!,
    (delivery) => delivery.attempts.length >= 1,
  );
  const stored = delivery.attempts[0]!.responseBody!;
  expect(Buffer.byteLength(stored)).toBeLessThanOrEqual(4096);
  expect(text.startsWith(stored)).toBe(true);
  expect(stored).toBe('a'.repeat(4095));
});

describe('secret rotation', () => {
  it('signs with the new and the previous secret during the grace period', async () => {
    const tenant = await hookline.createTenant();
    const receiver = await hookline.startReceiver();
    const endpoint = await createEndpoint(hookline, tenant.apiToken, { url: `${receiver.url}/rotated`, name: 'Rotated' });
    // No REST route rotates a secret (a GraphQL mutation will): the domain function stands in.
    const rotated = await rotateSigningSecret(hookline.app.database.prisma, tenant.organizationId, endpoint.id);
    const newSecret = rotated!.signingSecret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.signingSecret);

    await ingest(hookline, tenant.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    const [request] = await receiver.waitForRequests(1, { path: '/rotated' });
    const headers = headersOf(request!);
    const signatures = headers['x-service-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['webhook-signature']).toBe(headers['x-service-signature']);

    const body = JSON.parse(request!.body);
    // A receiver on either secret verifies the same request unchanged.
    expect(new Webhook(newSecret).verify(request!.body, headers)).toEqual(body);
    expect(new Webhook(endpoint.signingSecret).verify(request!.body, headers)).toEqual(body);
    // Newest first: each signature is the one of its own secret.
    const only = (signature: string) => ({ ...headers, 'webhook-signature': signature });
    expect(new Webhook(newSecret).verify(request!.body, only(signatures[0]!))).toEqual(body);
    expect(new Webhook(endpoint.signingSecret).verify(request!.body, only(signatures[1]!))).toEqual(body);
    expect(() => new Webhook(newSecret).verify(request!.body, only(signatures[1]!))).toThrow();
  });
});
