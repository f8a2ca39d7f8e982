// A PENDING delivery whose job pg-boss dropped (cancelled, or deleted past its retention) is
// never stuck: the endpoint shows it as overdue, resend, retry and recover queue it again (and
// still refuse one whose attempt is queued), and every worker process looks for such
// deliveries and queues them itself, each exactly once however many workers look.
import { describe, expect, it } from 'vitest';
import { DELIVER_QUEUE } from '../src/delivery/queue.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith, type RunningApp, type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { eventually, type Receiver } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';

const ENDPOINT_QUEUE = graphql(`
  query EndpointQueue($id: ID!) { webhookEndpoint(id: $id) { pendingRetries overdueDeliveries } }
`);
const RESEND = graphql(`
  mutation ResendStranded($id: ID!) { resendDelivery(id: $id) { id status attemptCount } }
`);
const RETRY = graphql(`
  mutation RetryStranded($id: ID!) { retryDelivery(id: $id) { id status attemptCount } }
`);
const RECOVER = graphql(`
  mutation RecoverStranded($endpointId: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $endpointId, since: $since) { queued hasMore nextSince } }
`);

/** No worker: deliveries wait with their jobs until a test starts one. */
const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, ROLE: 'api', INGEST_RATE_LIMIT_PER_MINUTE: 'off' }, tenant: false });

/** A tenant with one endpoint at a receiver of its own. */
async function endpointWithReceiver(): Promise<{ tenant: Tenant; receiver: Receiver; endpointId: string }> {
  const tenant = await hookline.createTenant();
  const receiver = await hookline.startReceiver();
  const { id } = await createEndpoint(hookline, tenant.apiToken, {
    url: `${receiver.url}/hook`,
    name: 'Hook',
    eventTypes: ['deploy.ingested'],
  });
  return { tenant, receiver, endpointId: id };
}

/** Ingests `count` deploys; returns their deliveries' ids, oldest first, each PENDING with its job. */
async function deliveriesOf(tenant: Tenant, endpointId: string, count: number): Promise<string[]> {
  for (let i = 0; i < count; i++) {
    await ingest(hookline, tenant.deployToken, { commit_sha: `abc${i}def`, environment: 'production' });
  }
  const deliveries = await hookline.app.database.prisma.delivery.findMany({
    where: { endpointId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  expect(deliveries.map((delivery) => delivery.status)).toEqual(Array(count).fill('PENDING'));
  return deliveries.map((delivery) => delivery.id);
}

/** Jobs not finished yet (created, retry, active) of each delivery. */
async function unfinishedJobs(deliveryIds: string[]): Promise<number[]> {
  return Promise.all(
    deliveryIds.map(async (deliveryId) => {
      const jobs = await hookline.app.boss.findJobs(DELIVER_QUEUE, { data: { deliveryId } });
      return jobs.filter((job) => ['created', 'retry', 'active'].includes(job.state)).length;
    }),
  );
}

/** Drops the deliveries' jobs as pg-boss can: the first cancelled, the others deleted (as retention does). */
async function loseJobs(deliveryIds: string[]): Promise<void> {
  for (const [index, deliveryId] of deliveryIds.entries()) {
    const jobs = await hookline.app.boss.findJobs(DELIVER_QUEUE, { data: { deliveryId } });
    expect(jobs).toHaveLength(1);
    if (index === 0) await hookline.app.boss.cancel(DELIVER_QUEUE, jobs[0]!.id);
    else await hookline.app.boss.deleteJob(DELIVER_QUEUE, jobs[0]!.id);
  }
  expect(await unfinishedJobs(deliveryIds)).toEqual(deliveryIds.map(() => 0));
}

/** Each receiver's requests, by delivery id. */
function requestsByDelivery(receiver: Receiver): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of receiver.requests) {
    const id = request.headers['x-service-delivery'] as string;
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

async function allSucceeded(deliveryIds: string[]): Promise<void> {
  await eventually(
    async () => {
      const deliveries = await hookline.app.database.prisma.delivery.findMany({ where: { id: { in: deliveryIds } } });
      return deliveries.every((delivery) => delivery.status === 'SUCCEEDED' && delivery.attemptCount === 1) ? true : undefined;
    },
    20_000,
    'every delivery SUCCEEDED after one attempt',
  );
}

describe('a PENDING delivery whose job was dropped', () => {
  it('shows as overdue, and resend, retry and recover queue it again, while one whose attempt is queued is refused', async () => {
    const { tenant, receiver, endpointId } = await endpointWithReceiver();
    const since = new Date(Date.now() - 1000);
    const [resent, retried, recovered, queued] = (await deliveriesOf(tenant, endpointId, 4)) as [string, string, string, string];
    await loseJobs([resent, retried, recovered]);
    // Five minutes later, nothing has happened to any of them.
    await hookline.app.database.pool.query(`UPDATE deliveries SET next_attempt_at = now() - interval '5 minutes' WHERE endpoint_id = $1`, [
      endpointId,
    ]);
    const queueOf = async () =>
      dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, ENDPOINT_QUEUE, { id: endpointId })).webhookEndpoint;
    expect(await queueOf()).toEqual({ pendingRetries: 0, overdueDeliveries: 4 });

    // Its attempt is queued (only late): sending it again would send it twice.
    const refused = await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RESEND, { id: queued });
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors?.[0]).toMatchObject({
      message:
        'Only a SUCCEEDED or FAILED or CANCELLED delivery can be resent; this one is PENDING, and its next attempt is queued already',
      extensions: { code: 'BAD_USER_INPUT' },
    });

    expect(dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RESEND, { id: resent })).resendDelivery).toEqual({
      id: resent,
      status: 'PENDING',
      attemptCount: 0,
    });
    expect(dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RETRY, { id: retried })).retryDelivery).toEqual({
      id: retried,
      status: 'PENDING',
      attemptCount: 0,
    });
    expect(
      dataOf(await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RECOVER, { endpointId, since: since.toISOString() }))
        .recoverDeliveries,
    ).toEqual({
      queued: 1,
      hasMore: false,
      nextSince: null,
    });
    // Each has exactly one attempt queued now, and is due: none is overdue.
    expect(await unfinishedJobs([resent, retried, recovered, queued])).toEqual([1, 1, 1, 1]);
    await hookline.app.database.pool.query(`UPDATE deliveries SET next_attempt_at = now() WHERE id = $1`, [queued]);
    expect(await queueOf()).toEqual({ pendingRetries: 0, overdueDeliveries: 0 });
    // Asked again, each is refused: its attempt is queued.
    for (const id of [resent, retried]) {
      const again = await requestGraphqlWith(hookline.baseUrl, tenant.apiToken, RESEND, { id });
      expect(again.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect(await unfinishedJobs([resent, retried])).toEqual([1, 1]);

    const worker = await hookline.startApp({ ...LOCAL_RECEIVERS, ROLE: 'worker' });
    try {
      await allSucceeded([resent, retried, recovered, queued]);
    } finally {
      await worker.close();
    }
    expect(requestsByDelivery(receiver)).toEqual({ [resent]: 1, [retried]: 1, [recovered]: 1, [queued]: 1 });
  });

  it('is queued again by the workers on their own, once, logged and counted', async () => {
    const { tenant, receiver, endpointId } = await endpointWithReceiver();
    const deliveryIds = await deliveriesOf(tenant, endpointId, 3);
    await loseJobs(deliveryIds);
    const requeuedBy = async (baseUrl: string) => {
      const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
      return Number(/^hookline_deliveries_requeued_total (\d+)$/m.exec(metrics)?.[1]);
    };

    // A worker process finds them when it starts, and says so.
    const environment = { ...LOCAL_RECEIVERS, DELIVERY_RECONCILE_INTERVAL_MS: '100' };
    const workerProcess = hookline.startProcess('worker', { ...environment, LOG_FORMAT: 'json' });
    let beside: RunningApp | undefined;
    try {
      const address = await workerProcess.ready;
      await allSucceeded(deliveryIds);
      expect(requestsByDelivery(receiver)).toEqual(Object.fromEntries(deliveryIds.map((id) => [id, 1])));
      expect(await requeuedBy(address)).toBe(3);
      const lines = workerProcess
        .output()
        .split('\n')
        .filter((line) => line.includes('requeued'))
        .map((line) => JSON.parse(line));
      expect(lines.flatMap((line) => line.deliveryIds).sort()).toEqual([...deliveryIds].sort());
      for (const line of lines) {
        expect(line).toMatchObject({
          level: 40,
          msg: expect.stringMatching(/^requeued \d PENDING deliver(y|ies) whose attempt was no longer queued$/),
        });
      }

      // With a second worker looking every 100 ms too, 20 more (stored without their jobs) are
      // each queued again by one of them, once.
      beside = await hookline.startApp({ ...environment, ROLE: 'worker' });
      const event = await hookline.app.database.prisma.event.create({
        data: { organizationId: tenant.organizationId, type: 'deploy.ingested', data: {} },
      });
      const more = await hookline.app.database.prisma.delivery.createManyAndReturn({
        data: Array.from({ length: 20 }, () => ({
          organizationId: tenant.organizationId,
          eventId: event.id,
          createdAt: event.createdAt,
          eventType: event.type,
          endpointId,
          status: 'PENDING' as const,
        })),
        select: { id: true },
      });
      const moreIds = more.map((delivery) => delivery.id);
      await allSucceeded(moreIds);
      expect(requestsByDelivery(receiver)).toEqual(Object.fromEntries([...deliveryIds, ...moreIds].map((id) => [id, 1])));
      expect((await requeuedBy(address)) + (await requeuedBy(beside.baseUrl))).toBe(3 + 20);
      // One job each: a second would have been a second attempt, or a stale job at best.
      const { rows } = await hookline.app.database.pool.query<{ jobs: number }>(
        `SELECT count(j.id)::int AS jobs FROM unnest($1::text[]) AS d(id) LEFT JOIN pgboss.job j ON j.name = $2 AND j.data->>'deliveryId' = d.id GROUP BY d.id`,
        [moreIds, DELIVER_QUEUE],
      );
      expect(rows.map((row) => row.jobs)).toEqual(moreIds.map(() => 1));
    } finally {
      await Promise.all([workerProcess.stop(), beside?.close()]);
    }
  });
});
