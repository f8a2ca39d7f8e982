// The delivery worker: takes attempt jobs from pg-boss, sends each signed attempt, records it,
// and schedules the next attempt (a new job) or ends the delivery. Any number of workers may
// run: pg-boss hands a job to one of them, and every write checks the attempt number.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { Job } from 'pg-boss';
import packageJson from '../../package.json' with { type: 'json' };
import { webhookBody } from '../domain/events.ts';
import type { Metrics } from '../metrics.ts';
import { attemptDelivery, type AttemptResult } from './attempt.ts';
import { nextAttemptDelayMs } from './backoff.ts';
import { createGuardedFetch, type DestinationPolicy, type Resolver } from './destination.ts';
import { DELIVER_QUEUE, enqueueAttempts, transaction, type DeliverJob } from './queue.ts';
import { webhookHeaders } from './signing.ts';
import {
  attemptValues,
  CANCEL_DELIVERY_SQL,
  LOAD_DELIVERIES_SQL,
  RECORD_FAILURE_SQL,
  RECORD_RETRY_SQL,
  RECORD_SUCCESSES_SQL,
  successValues,
  type DeliveryToSend,
  type SucceededAttempt,
} from './store.ts';

export interface DeliveryPolicy {
  timeoutMs: number;
  maxRetries: number;
  backoffBaseMs: number;
  backoffFactor: number;
  disableAfterFailures: number;
  destination: DestinationPolicy;
}

export interface WorkerDependencies {
  pool: pg.Pool;
  boss: PgBoss;
  metrics: Metrics;
  policy: DeliveryPolicy;
  log: { warn(object: object, message: string): void };
  /** DNS for outbound connections; the system resolver unless a test brings its own. */
  resolve?: Resolver;
  pollingIntervalSeconds: number;
}

/** Jobs fetched at once, and fetch loops per process. */
const BATCH_SIZE = 20;
const FETCH_LOOPS = 10;
/** The most attempts one worker process makes at the same time. */
export const MAX_ATTEMPTS_IN_FLIGHT = BATCH_SIZE * FETCH_LOOPS;

function secretsFor(delivery: DeliveryToSend, now: Date): string[] {
  const previousValid = delivery.previousSigningSecret && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > now;
  return previousValid ? [delivery.signingSecret, delivery.previousSigningSecret!] : [delivery.signingSecret];
}

export async function startDeliveryWorker(deps: WorkerDependencies): Promise<void> {
  const { pool, boss, metrics, policy } = deps;
  const send = createGuardedFetch(policy.destination, { timeoutMs: policy.timeoutMs, resolve: deps.resolve });

  /** A failed attempt: schedules the next one, or ends the delivery FAILED. */
  async function recordFailure(delivery: DeliveryToSend, attempt: number, result: AttemptResult): Promise<void> {
    const values = attemptValues(delivery.id, attempt, result);
    if (attempt <= policy.maxRetries) {
      const delayMs = nextAttemptDelayMs({
        attempt,
        baseMs: policy.backoffBaseMs,
        factor: policy.backoffFactor,
        status: result.status,
        retryAfterHeader: result.retryAfter,
        now: new Date(),
      });
      const dueAt = new Date(Date.now() + delayMs);
      await transaction(pool, async (client) => {
        const { rowCount } = await client.query(RECORD_RETRY_SQL, [...values, dueAt]);
        if (rowCount) await enqueueAttempts(boss, client, [{ deliveryId: delivery.id, attempt: attempt + 1, startAfter: dueAt }]);
      });
      metrics.deliveries.inc({ outcome: 'retrying' });
      return;
    }
    const reason = `${policy.disableAfterFailures} consecutive deliveries failed`;
    const { rows } = await pool.query<{ justDisabled: boolean }>(RECORD_FAILURE_SQL, [...values, policy.disableAfterFailures, reason]);
    metrics.deliveries.inc({ outcome: 'failed' });
    if (rows[0]?.justDisabled) deps.log.warn({ endpointId: delivery.endpointId }, `endpoint disabled: ${reason}`);
  }

  /** Makes the attempt; a success is returned to be recorded with the batch's others. */
  async function deliver(delivery: DeliveryToSend, attempt: number): Promise<SucceededAttempt | undefined> {
    // Finished, or this attempt was made already (a job repeated after a worker died).
    if (delivery.status !== 'PENDING' || delivery.attemptCount !== attempt - 1) return undefined;
    if (delivery.endpointDeleted || delivery.endpointStatus !== 'ACTIVE') {
      await pool.query(CANCEL_DELIVERY_SQL, [delivery.id]);
      metrics.deliveries.inc({ outcome: 'cancelled' });
      return undefined;
    }
    const now = new Date();
    const body = webhookBody({
      id: delivery.eventId,
      type: delivery.eventType,
      organizationId: delivery.organizationId,
      createdAt: delivery.eventCreatedAt,
      data: delivery.eventData,
    });
    const headers = webhookHeaders({
      deliveryId: delivery.id,
      eventType: delivery.eventType,
      timestamp: Math.floor(now.getTime() / 1000),
      body,
      secrets: secretsFor(delivery, now),
      version: packageJson.version,
    });
    const result = await attemptDelivery(send, { url: delivery.url, body, headers, timeoutMs: policy.timeoutMs });
    metrics.attemptDuration.observe({ result: result.succeeded ? 'success' : 'failure' }, result.durationMs / 1000);
    if (result.succeeded) return { deliveryId: delivery.id, attempt, result };
    await recordFailure(delivery, attempt, result);
    return undefined;
  }

  await boss.work<DeliverJob>(
    DELIVER_QUEUE,
    {
      batchSize: BATCH_SIZE,
      localConcurrency: FETCH_LOOPS,
      pollingIntervalSeconds: deps.pollingIntervalSeconds,
      notifyPollingIntervalSeconds: deps.pollingIntervalSeconds,
      // A backlog (after an outage, or retries falling due) sends no NOTIFY: keep fetching
      // while batches come back full instead of sleeping between them.
      burstWhenBatchFull: true,
    },
    async (jobs: Job<DeliverJob>[]) => {
      const { rows } = await pool.query<DeliveryToSend>(LOAD_DELIVERIES_SQL, [jobs.map((job) => job.data.deliveryId)]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      // A failure here fails the whole batch, and pg-boss hands it out again: every write
      // above is guarded by the attempt number, so what already happened is not redone.
      const succeeded = await Promise.all(
        jobs.map(async (job) => {
          const delivery = byId.get(job.data.deliveryId);
          return delivery ? deliver(delivery, job.data.attempt) : undefined;
        }),
      );
      const successes = succeeded.filter((attempt) => attempt !== undefined);
      if (successes.length > 0) {
        await pool.query(RECORD_SUCCESSES_SQL, successValues(successes));
        metrics.deliveries.inc({ outcome: 'succeeded' }, successes.length);
      }
    },
  );
}
