// The destination policy (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE) is the one configured now,
// at every attempt: an endpoint made while a deployment allowed http or private destinations
// gets, after a restart that no longer allows them, failed attempts that say why, and no
// signed request leaves. Such failures count like any other: retried, then FAILED, one more
// in the endpoint's failures in a row.
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, LOCAL_RECEIVERS } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const MAX_RETRIES = 1;

// The endpoint is made while local development settings allowed a plain-http receiver on loopback.
const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, ROLE: 'api' }, receiver: true });
let endpointId: string;

beforeAll(async () => {
  const url = `${hookline.receiver.url}/hook`;
  endpointId = (await createEndpoint(hookline, hookline.tenant.apiToken, { url, name: 'Local receiver', eventTypes: ['deploy.ingested'] }))
    .id;
  await hookline.running.close();
});

/** Restarted with `environment`, one deploy ingested: its delivery once it has finished. */
async function deliverAfterRestart(environment: Record<string, string>) {
  const running: RunningApp = await hookline.startApp({
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    DELIVERY_MAX_RETRIES: String(MAX_RETRIES),
    DELIVERY_BACKOFF_BASE_MS: '50',
    DELIVERY_BACKOFF_FACTOR: '1',
    ...environment,
  });
  try {
    const response = await postDeploy(running.baseUrl, hookline.tenant.deployToken, { commit_sha: 'a1b2c3d4', environment: 'production' });
    expect(response.status).toBe(200);
    const { prisma } = running.app.database;
    const delivery = await eventually(
      async () => {
        const found = await prisma.delivery.findFirst({
          where: { endpointId, status: { not: 'PENDING' } },
          orderBy: { createdAt: 'desc' },
        });
        return found ?? undefined;
      },
      20_000,
      'the delivery finished',
    );
    const attempts = await prisma.deliveryAttempt.findMany({ where: { deliveryId: delivery.id }, orderBy: { number: 'asc' } });
    const endpoint = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    await prisma.delivery.deleteMany({ where: { endpointId } });
    return { delivery, attempts, endpoint };
  } finally {
    await running.close();
  }
}

describe('an http:// endpoint after a restart with WEBHOOK_ALLOW_HTTP off', () => {
  it('gets failed attempts that say why, and no request', async () => {
    const { delivery, attempts, endpoint } = await deliverAfterRestart({ WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE: 'true' });
    expect(hookline.receiver.requests).toHaveLength(0);
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 1 + MAX_RETRIES });
    expect(
      attempts.map(({ number, succeeded, responseStatus, responseBody, error }) => ({
        number,
        succeeded,
        responseStatus,
        responseBody,
        error,
      })),
    ).toEqual(
      [1, 2].map((number) => ({
        number,
        succeeded: false,
        responseStatus: null,
        responseBody: null,
        error:
          'refused to send to an http:// URL: url must use https (http is allowed only where WEBHOOK_ALLOW_HTTP=true, for local development)',
      })),
    );
    // It counts like any delivery that failed: one more in a row, toward disabling the endpoint.
    expect(endpoint).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 1 });
  });
});

describe('a loopback endpoint after a restart with WEBHOOK_ALLOW_PRIVATE off', () => {
  it('gets failed attempts that say why, and no request', async () => {
    const { delivery, attempts, endpoint } = await deliverAfterRestart({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'false' });
    expect(hookline.receiver.requests).toHaveLength(0);
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 1 + MAX_RETRIES });
    expect(attempts.map((attempt) => attempt.error)).toEqual(
      Array(1 + MAX_RETRIES).fill('refused to connect to 127.0.0.1: not a public address'),
    );
    expect(endpoint).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 2 });
  });

  it('is delivered again once the settings allow it', async () => {
    const { delivery, endpoint } = await deliverAfterRestart(LOCAL_RECEIVERS);
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
    expect(hookline.receiver.requests).toHaveLength(1);
    expect(endpoint).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 0 });
  });
});
