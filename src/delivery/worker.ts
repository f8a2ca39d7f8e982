// The delivery worker: keeps up to DELIVERY_CONCURRENCY attempts in flight, each a pg-boss job
// (fetched by the dispatcher), sends each signed attempt, and hands its outcome to the
// recorder, which stores it and completes the job in one transaction; a failed attempt's next
// attempt is a new job written there too. Any number of workers may run: pg-boss hands a job
// to one of them, and every write checks the attempt number. An endpoint's rate limit is kept
// by turns claimed in PostgreSQL while a batch is read (store.ts): an attempt whose turn is
// later goes back to the queue for then, without counting as an attempt.
import type pg from 'pg';
import type { Job, PgBoss } from 'pg-boss';
import packageJson from '../../package.json' with { type: 'json' };
import { webhookBody } from '../domain/events.ts';
import type { Metrics } from '../metrics.ts';
import { attemptDelivery } from './attempt.ts';
import { nextAttemptDelayMs } from './backoff.ts';
import type { DestinationPolicy } from '../domain/destinations.ts';
import type { Resolver } from './destination.ts';
import { startDispatcher } from './dispatcher.ts';
import { fetchAttempts, type DeliverJob } from './queue.ts';
import { createRecorder, type Outcome } from './recorder.ts';
import { webhookHeaders } from './signing.ts';
import { createWebhookTransport } from './transport.ts';
import { LOAD_DELIVERIES_SQL, type DeliveryToSend } from './store.ts';

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
  /** Attempts in flight at most (DELIVERY_CONCURRENCY). */
  concurrency: number;
  /** How often an idle worker looks for attempts that fell due (retries); new work wakes it at once. */
  pollIntervalMs: number;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** DNS for outbound connections; the system resolver unless a test brings its own. */
  resolve?: Resolver;
}

export interface DeliveryWorker {
  /** New work may be waiting (a delivery became PENDING): look now rather than at the next poll. */
  wake(): void;
  /** Stops taking jobs; resolves once the attempts in flight are made and recorded. */
  stop(): Promise<void>;
}

/** Jobs fetched in one round trip at most, whatever the free slots. */
const MAX_FETCH = 100;
/** A rate-limited attempt whose turn is at most this far off is made now (clock and timer granularity). */
const TURN_SLACK_MS = 5;

function secretsFor(delivery: DeliveryToSend, now: Date): string[] {
  const previousValid = delivery.previousSigningSecret && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > now;
  return previousValid ? [delivery.signingSecret, delivery.previousSigningSecret!] : [delivery.signingSecret];
}

export function startDeliveryWorker(deps: WorkerDependencies): DeliveryWorker {
  const { pool, boss, metrics, policy, log } = deps;
  const send = createWebhookTransport(policy.destination, { timeoutMs: policy.timeoutMs, resolve: deps.resolve });
  const recorder = createRecorder({ pool, boss, metrics, log, disableAfterFailures: policy.disableAfterFailures });

  /** Timers that wake the dispatcher when a throttled attempt's turn comes (pg-boss is polled, not pushed). */
  const turnTimers = new Set<NodeJS.Timeout>();
  function wakeAt(time: Date): void {
    const timer = setTimeout(() => {
      turnTimers.delete(timer);
      dispatcher.wake();
    }, time.getTime() - Date.now() + TURN_SLACK_MS);
    turnTimers.add(timer);
  }

  /** Makes the attempt the job asks for, if it is still due, and says what became of it. */
  async function attempt(delivery: DeliveryToSend | undefined, job: DeliverJob): Promise<Outcome> {
    const number = job.attempt;
    // Gone with its organization, finished, or this attempt was made already (a job repeated after a worker died).
    if (!delivery || delivery.status !== 'PENDING' || delivery.attemptCount !== number - 1) return { kind: 'stale' };
    if (delivery.endpointDeleted || delivery.endpointStatus !== 'ACTIVE') return { kind: 'cancelled', deliveryId: delivery.id };
    const slotAt = job.slotAt ? new Date(job.slotAt) : delivery.slotAt;
    if (slotAt && slotAt.getTime() - Date.now() > TURN_SLACK_MS) {
      wakeAt(slotAt);
      return { kind: 'throttled', deliveryId: delivery.id, attempt: number, slotAt };
    }
    const timeoutMs = delivery.timeoutMs ?? policy.timeoutMs;
    const now = new Date();
    const body = webhookBody({
      id: delivery.eventId,
      type: delivery.eventType,
      organizationId: delivery.organizationId,
      createdAt: delivery.eventCreatedAt,
      data: delivery.eventData,
      example: delivery.eventExample,
    });
    const signed = webhookHeaders({
      deliveryId: delivery.id,
      eventType: delivery.eventType,
      timestamp: Math.floor(now.getTime() / 1000),
      body,
      secrets: secretsFor(delivery, now),
      version: packageJson.version,
    });
    // The endpoint's own headers never share a name with Hookline's (they are refused when set).
    const headers = delivery.customHeaders.length === 0 ? signed : { ...Object.fromEntries(delivery.customHeaders.map((header) => [header.name, header.value])), ...signed };
    const result = await attemptDelivery(send, { url: delivery.url, body, headers, timeoutMs });
    metrics.attemptDuration.observe({ result: result.succeeded ? 'success' : 'failure' }, result.durationMs / 1000);
    if (result.succeeded) return { kind: 'succeeded', deliveryId: delivery.id, attempt: number, result };
    // 410 Gone: the receiver asks for no more deliveries (no retry; the endpoint is disabled).
    const gone = result.status === 410;
    if (gone || number > policy.maxRetries) return { kind: 'failed', deliveryId: delivery.id, endpointId: delivery.endpointId, attempt: number, result, gone };
    const delayMs = nextAttemptDelayMs({
      attempt: number,
      baseMs: policy.backoffBaseMs,
      factor: policy.backoffFactor,
      status: result.status,
      retryAfterHeader: result.retryAfter,
      now: new Date(),
    });
    return { kind: 'retrying', deliveryId: delivery.id, attempt: number, nextAttemptAt: new Date(Date.now() + delayMs), result };
  }

  /** The deliveries of a fetched batch are read in one query; each job then goes its own way. */
  function run(jobs: Job<DeliverJob>[]): Promise<void>[] {
    if (jobs.length === 0) return [];
    const unclaimed = jobs.filter((job) => !job.data.slotAt).map((job) => job.data.deliveryId);
    const deliveries = pool.query<DeliveryToSend>(LOAD_DELIVERIES_SQL, [jobs.map((job) => job.data.deliveryId), unclaimed]).then(
      ({ rows }) => new Map(rows.map((row) => [row.id, row])),
    );
    return jobs.map(async (job) => {
      let byId: Map<string, DeliveryToSend>;
      try {
        byId = await deliveries;
      } catch (error) {
        // Left active: the job expires and pg-boss hands it out again.
        if (job === jobs[0]) log.warn({ err: error, jobs: jobs.length }, 'could not read the deliveries of fetched jobs; they will be retried');
        return;
      }
      await recorder.record(job, await attempt(byId.get(job.data.deliveryId), job.data));
    });
  }

  const dispatcher = startDispatcher({
    concurrency: deps.concurrency,
    maxBatch: MAX_FETCH,
    pollIntervalMs: deps.pollIntervalMs,
    fetch: (count) => fetchAttempts(boss, count),
    run,
    onFetchError: (error) => log.warn({ err: error }, 'could not fetch delivery jobs; trying again'),
  });

  return {
    wake: () => dispatcher.wake(),
    async stop() {
      // Attempts in flight end within the timeout; their outcomes get as long again to be written.
      recorder.giveUpAfter(2 * policy.timeoutMs);
      turnTimers.forEach((timer) => clearTimeout(timer));
      await dispatcher.stop();
    },
  };
}
