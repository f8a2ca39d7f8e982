// WebhookEndpoint.chart: an endpoint's deliveries by hour or day, with exact counts and latency
// percentiles over deliveries and attempts stored at known times (an attempt in the bucket it
// started in, however long after its delivery was made).
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { useHookline } from './support/fixture.ts';

const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, ROLE: 'api' } });
let endpointId: string;

const HOUR = 3_600_000;
/** A whole UTC hour, two days ago: the window starts there. */
const start = new Date(Math.floor((Date.now() - 48 * HOUR) / HOUR) * HOUR);

interface Bucket {
  start: string;
  deliveries: number;
  succeeded: number;
  failed: number;
  successRate: number | null;
  attempts: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

beforeAll(async () => {
  // No worker: the stored deliveries stay as written.
  const prisma = hookline.app.database.prisma;
  const endpoint = await prisma.webhookEndpoint.create({
    data: {
      organizationId: hookline.tenant.organizationId,
      url: 'https://hooks.example.test/charts',
      name: 'charts',
      signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    },
  });
  endpointId = endpoint.id;
  // Each delivery is made with its event, at its time (it references the event by id and time).
  const eventAt = (createdAt: Date) =>
    prisma.event.create({ data: { organizationId: hookline.tenant.organizationId, type: 'test.ping', data: {}, createdAt } });
  // Hour 0: two succeeded (100 and 300 ms), one failed after two attempts (1000 ms each).
  // Hour 1: nothing. Hour 2: one still pending, not attempted.
  const deliveries: { at: number; status: 'SUCCEEDED' | 'FAILED' | 'PENDING'; durations: number[] }[] = [
    { at: 5, status: 'SUCCEEDED', durations: [100] },
    { at: 10, status: 'SUCCEEDED', durations: [300] },
    { at: 20, status: 'FAILED', durations: [1000, 1000] },
    { at: 125, status: 'PENDING', durations: [] },
  ];
  for (const { at, status, durations } of deliveries) {
    const createdAt = new Date(start.getTime() + at * 60_000);
    const event = await eventAt(createdAt);
    await prisma.delivery.create({
      data: {
        organizationId: hookline.tenant.organizationId,
        eventId: event.id,
        endpointId,
        eventType: 'test.ping',
        status,
        attemptCount: durations.length,
        createdAt,
        attempts: {
          create: durations.map((durationMs, index) => ({
            endpointId,
            number: index + 1,
            succeeded: status === 'SUCCEEDED',
            startedAt: new Date(createdAt.getTime() + index * 60_000),
            durationMs,
            responseStatus: status === 'SUCCEEDED' ? 200 : 500,
          })),
        },
      },
    });
  }
  // Made 20 days before the window and resent in its hour 1: its last attempt counts there, where it started.
  const longAgo = new Date(start.getTime() - 20 * 24 * HOUR);
  const resentAt = new Date(start.getTime() + 70 * 60_000);
  const event = await eventAt(longAgo);
  await prisma.delivery.create({
    data: {
      organizationId: hookline.tenant.organizationId,
      eventId: event.id,
      endpointId,
      eventType: 'test.ping',
      status: 'SUCCEEDED',
      attemptCount: 2,
      createdAt: longAgo,
      attempts: {
        create: [
          { endpointId, number: 1, succeeded: false, startedAt: longAgo, durationMs: 5000, responseStatus: 500 },
          { endpointId, number: 2, succeeded: true, startedAt: resentAt, durationMs: 40, responseStatus: 200 },
        ],
      },
    },
  });
});

async function chart(
  variables: Record<string, unknown>,
): Promise<{ buckets?: Bucket[]; errors?: { message: string; extensions: { code: string } }[] }> {
  const response = await fetch(`${hookline.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    body: JSON.stringify({
      query: `query($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) {
        chart(interval: $interval, from: $from, to: $to) { start deliveries succeeded failed successRate attempts latencyP50Ms latencyP95Ms } } }`,
      variables: { id: endpointId, ...variables },
    }),
  });
  const body = (await response.json()) as {
    data?: { webhookEndpoint: { chart: Bucket[] } | null };
    errors?: { message: string; extensions: { code: string } }[];
  };
  return { buckets: body.data?.webhookEndpoint?.chart, errors: body.errors };
}

describe('WebhookEndpoint.chart', () => {
  it('counts deliveries and attempts by hour, with latency percentiles, empty hours included, an attempt where it started', async () => {
    const { buckets, errors } = await chart({
      interval: 'HOUR',
      from: start.toISOString(),
      to: new Date(start.getTime() + 3 * HOUR).toISOString(),
    });
    expect(errors).toBeUndefined();
    expect(buckets).toEqual([
      // p95 of 100, 300, 1000, 1000 (interpolated): 1000.
      {
        start: start.toISOString(),
        deliveries: 3,
        succeeded: 2,
        failed: 1,
        successRate: 2 / 3,
        attempts: 4,
        latencyP50Ms: 650,
        latencyP95Ms: 1000,
      },
      // The resend of a delivery made 20 days before.
      {
        start: new Date(start.getTime() + HOUR).toISOString(),
        deliveries: 0,
        succeeded: 0,
        failed: 0,
        successRate: null,
        attempts: 1,
        latencyP50Ms: 40,
        latencyP95Ms: 40,
      },
      {
        start: new Date(start.getTime() + 2 * HOUR).toISOString(),
        deliveries: 1,
        succeeded: 0,
        failed: 0,
        successRate: null,
        attempts: 0,
        latencyP50Ms: null,
        latencyP95Ms: null,
      },
    ]);
  });

  it('counts by UTC day, and refuses a window of more buckets than it answers', async () => {
    const day = new Date(Math.floor(start.getTime() / (24 * HOUR)) * 24 * HOUR);
    const { buckets } = await chart({ interval: 'DAY', from: day.toISOString(), to: new Date(day.getTime() + 24 * HOUR).toISOString() });
    // The 4 deliveries fall in one or two UTC days depending on the hour the test runs.
    expect(buckets).toHaveLength(1);
    expect(buckets![0]!.start).toBe(day.toISOString());
    expect(buckets![0]!.deliveries).toBe(start.getUTCHours() <= 21 ? 4 : 3);

    const tooLong = await chart({
      interval: 'HOUR',
      from: start.toISOString(),
      to: new Date(start.getTime() + 15 * 24 * HOUR).toISOString(),
    });
    expect(tooLong.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(tooLong.errors?.[0]?.message).toContain('at most 336 hours');
  });
});
