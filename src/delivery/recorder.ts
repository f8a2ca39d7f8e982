// Records what attempts did, as they finish, and completes their jobs in the same transaction.
// Outcomes that finish while a write is in progress are written together by the next one
// (group commit): one attempt alone is written at once, and under load each write carries many,
// so no attempt ever waits for a slower one, and the database sees a few commits per second
// rather than one per attempt. While the database is unreachable, outcomes are kept and written
// when it is back; they are few (at most the attempts in flight, since nothing new is fetched).
import type pg from 'pg';
import type { Job, PgBoss } from 'pg-boss';
import { isDatabaseUnavailable } from '../db/availability.ts';
import type { Metrics } from '../metrics.ts';
import type { AttemptResult } from './attempt.ts';
import { transaction } from '../db/transaction.ts';
import { attemptQueue, completeAttempts, type DeliverJob } from './queue.ts';
import {
  attemptValues,
  CANCEL_DELIVERIES_SQL,
  RECORD_FAILURE_SQL,
  RECORD_RETRIES_SQL,
  RECORD_SUCCESSES_SQL,
  retryValues,
  successValues,
  type RetryingAttempt,
  type SucceededAttempt,
} from './store.ts';

export type Outcome =
  | ({ kind: 'succeeded' } & SucceededAttempt)
  | ({ kind: 'retrying' } & RetryingAttempt)
  /** The last attempt failed: the delivery is FAILED. */
  | { kind: 'failed'; deliveryId: string; endpointId: string; attempt: number; result: AttemptResult; gone: boolean }
  /** Its endpoint is no longer live: the delivery is CANCELLED without an attempt. */
  | { kind: 'cancelled'; deliveryId: string }
  /** Its endpoint's rate limit gives it a later turn: the attempt is queued again for then, not made nor counted. */
  | { kind: 'throttled'; deliveryId: string; attempt: number; slotAt: Date }
  /** Nothing to record (the delivery finished, or this attempt was made already): only the job ends. */
  | { kind: 'stale' };

export interface RecorderOptions {
  pool: pg.Pool;
  boss: PgBoss;
  metrics: Metrics;
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** Consecutive failed deliveries that disable an endpoint. */
  disableAfterFailures: number;
  /** The most outcomes one transaction writes. */
  maxBatch?: number;
}

export interface Recorder {
  /** Resolves once the outcome is stored and its job completed (or given up on: see below). */
  record(job: Job<DeliverJob>, outcome: Outcome): Promise<void>;
  /** For shutdown: from `graceMs` on, outcomes that cannot be written are given up on rather than kept. */
  giveUpAfter(graceMs: number): void;
}

interface Entry {
  job: Job<DeliverJob>;
  outcome: Outcome;
  stored: () => void;
}

const RETRY_DELAY_MS = { first: 100, max: 2000 };

/** Why an endpoint whose receiver answered 410 Gone is disabled (Standard Webhooks: stop sending). */
export const GONE_REASON = 'the receiver answered 410 Gone';

export function createRecorder(options: RecorderOptions): Recorder {
  const { pool, boss, metrics, log } = options;
  const queue = attemptQueue(boss);
  const maxBatch = options.maxBatch ?? 500;
  const waiting: Entry[] = [];
  let writing: Promise<void> | undefined;
  let giveUpAt = Number.POSITIVE_INFINITY;

  async function write(entries: Entry[]): Promise<{ disabledEndpoints: { endpointId: string; reason: string }[] }> {
    const of = <K extends Outcome['kind']>(kind: K) =>
      entries.map((entry) => entry.outcome).filter((outcome): outcome is Extract<Outcome, { kind: K }> => outcome.kind === kind);
    const succeeded = of('succeeded');
    const retrying = of('retrying');
    const failed = of('failed');
    const cancelled = of('cancelled');
    const throttled = of('throttled');
    const disabledEndpoints: { endpointId: string; reason: string }[] = [];
    await transaction(pool, async (client) => {
      if (succeeded.length > 0) await client.query(RECORD_SUCCESSES_SQL, successValues(succeeded));
      if (retrying.length > 0) {
        const { rows } = await client.query<{ deliveryId: string; attempt: number; nextAttemptAt: Date }>(RECORD_RETRIES_SQL, retryValues(retrying));
        await queue.enqueue(client, rows.map((row) => ({ deliveryId: row.deliveryId, attempt: row.attempt + 1, startAfter: row.nextAttemptAt })));
      }
      // One at a time: each counts a failure on its endpoint and may disable it.
      for (const failure of failed) {
        const reason = failure.gone ? GONE_REASON : `${options.disableAfterFailures} consecutive deliveries failed`;
        const values = [...attemptValues(failure.deliveryId, failure.attempt, failure.result), options.disableAfterFailures, reason, failure.gone];
        const { rows } = await client.query<{ justDisabled: boolean; alertDeliveryIds: string[] }>(RECORD_FAILURE_SQL, values);
        if (!rows[0]?.justDisabled) continue;
        disabledEndpoints.push({ endpointId: failure.endpointId, reason });
        await queue.enqueue(client, rows[0].alertDeliveryIds.map((deliveryId) => ({ deliveryId, attempt: 1 })));
      }
      if (cancelled.length > 0) await client.query(CANCEL_DELIVERIES_SQL, [cancelled.map((outcome) => outcome.deliveryId)]);
      await queue.enqueue(client, throttled.map(({ deliveryId, attempt, slotAt }) => ({ deliveryId, attempt, startAfter: slotAt, slotAt })));
      await completeAttempts(boss, client, entries.map((entry) => entry.job));
    });
    if (succeeded.length > 0) metrics.deliveries.inc({ outcome: 'succeeded' }, succeeded.length);
    if (retrying.length > 0) metrics.deliveries.inc({ outcome: 'retrying' }, retrying.length);
    if (failed.length > 0) metrics.deliveries.inc({ outcome: 'failed' }, failed.length);
    if (cancelled.length > 0) metrics.deliveries.inc({ outcome: 'cancelled' }, cancelled.length);
    return { disabledEndpoints };
  }

  /** Writes one batch, waiting out an unreachable database; any other error drops it (its jobs expire and come back). */
  async function writeUntilStored(entries: Entry[]): Promise<void> {
    for (let delay = RETRY_DELAY_MS.first; ; delay = Math.min(delay * 2, RETRY_DELAY_MS.max)) {
      try {
        const { disabledEndpoints } = await write(entries);
        for (const { endpointId, reason } of disabledEndpoints) log.warn({ endpointId }, `endpoint disabled: ${reason}`);
        return;
      } catch (error) {
        const retry = isDatabaseUnavailable(error) && Date.now() + delay < giveUpAt;
        const message = retry
          ? 'database unavailable: delivery outcomes are kept and written when it is back'
          : 'delivery outcomes not recorded; their jobs expire and the attempts are made again';
        if (!retry) {
          log.error({ err: error, outcomes: entries.length }, message);
          return;
        }
        if (delay === RETRY_DELAY_MS.first) log.warn({ err: error, outcomes: entries.length }, message);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async function writeWaiting(): Promise<void> {
    // Outcomes of attempts that finish in this same turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length > 0) {
      const entries = waiting.splice(0, maxBatch);
      await writeUntilStored(entries);
      for (const entry of entries) entry.stored();
    }
    writing = undefined;
  }

  return {
    record(job, outcome) {
      return new Promise((stored) => {
        waiting.push({ job, outcome, stored });
        writing ??= writeWaiting();
      });
    },
    giveUpAfter(graceMs) {
      giveUpAt = Date.now() + graceMs;
    },
  };
}
