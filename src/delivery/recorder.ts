// Records what attempts did, as they finish, and completes their jobs in the same transaction.
// Outcomes that finish while a write is in progress are written together by the next one
// (group commit): one attempt alone is written at once, and under load each write carries many,
// so no attempt ever waits for a slower one, and the database sees a few commits per second
// rather than one per attempt. While the database is unreachable, outcomes are kept and written
// when it is back; they are few (at most the attempts in flight, since nothing new is fetched).
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { isDatabaseUnavailable } from '../db/availability.ts';
import type { Metrics } from '../metrics.ts';
import type { AttemptResult } from './attempt.ts';
import { transaction } from '../db/transaction.ts';
import { firstAttempts } from '../domain/webhooks/outbox.ts';
import { attemptQueue, completeAttempts, type AttemptJob } from './queue.ts';
import {
  cancelDeliveries,
  deferDeliveries,
  recordFailure,
  recordRetries,
  recordSuccesses,
  type DeliveryKey,
  type RetryingAttempt,
  type SucceededAttempt,
} from './store.ts';

export type Outcome =
  | ({ kind: 'succeeded' } & SucceededAttempt)
  | ({ kind: 'retrying' } & RetryingAttempt)
  /** The last attempt failed: the delivery is FAILED. */
  | ({ kind: 'failed'; endpointId: string; attempt: number; result: AttemptResult; gone: boolean } & DeliveryKey)
  /** Its endpoint is no longer live: the delivery is CANCELLED without an attempt. */
  | ({ kind: 'cancelled' } & DeliveryKey)
  /** Its endpoint's rate limit gives it a later turn: the attempt is queued again for then, not made nor counted. */
  | ({ kind: 'throttled'; attempt: number; slotAt: Date } & DeliveryKey)
  /** Its endpoint's circuit is open: the attempt is queued again for when it may probe, not made nor counted. */
  | ({ kind: 'paused'; attempt: number; until: Date } & DeliveryKey)
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
  record(job: AttemptJob, outcome: Outcome): Promise<void>;
  /** For shutdown: from `graceMs` on, outcomes that cannot be written are given up on rather than kept. */
  giveUpAfter(graceMs: number): void;
}

interface Entry {
  job: AttemptJob;
  outcome: Outcome;
  stored: () => void;
}

const RETRY_DELAY_MS = { first: 100, max: 2000 };

/** Why an endpoint whose receiver answered 410 Gone is disabled (Standard Webhooks: stop sending). */
export const GONE_REASON = 'the receiver answered 410 Gone';

/** The error recorded for a failed attempt whose answer (body, error text) the database refused. */
const ANSWER_NOT_STORED = "the database refused what was recorded of this attempt's answer; it is left out";

/** The outcome without the receiver's answer (body, error text), or undefined when it has none to leave out. */
function withoutAnswer(outcome: Outcome): Outcome | undefined {
  if (!('result' in outcome)) return undefined;
  const error = outcome.kind === 'succeeded' ? null : ANSWER_NOT_STORED;
  return { ...outcome, result: { ...outcome.result, body: null, error } } as Outcome;
}

export function createRecorder(options: RecorderOptions): Recorder {
  const { pool, boss, metrics, log } = options;
  const queue = attemptQueue(boss);
  const maxBatch = options.maxBatch ?? 500;
  const waiting: Entry[] = [];
  // biome-ignore lint/correctness/noUnusedVariables: read by `writing ??=` in record(), which starts one write at a time
  let writing: Promise<void> | undefined;
  let giveUpAt = Number.POSITIVE_INFINITY;
  /** Whether the batch being stored was refused and is being written in parts (logged once per batch). */
  let splitting = false;

  async function write(entries: Entry[]): Promise<{ disabledEndpoints: { endpointId: string; reason: string }[] }> {
    const of = <K extends Outcome['kind']>(kind: K) =>
      entries.map((entry) => entry.outcome).filter((outcome): outcome is Extract<Outcome, { kind: K }> => outcome.kind === kind);
    const succeeded = of('succeeded');
    const retrying = of('retrying');
    const failed = of('failed');
    const cancelled = of('cancelled');
    // Attempts put off (a rate limit's later turn, an open circuit): queued again for then, not counted.
    const deferred = [
      ...of('throttled').map(({ deliveryId, deliveryCreatedAt, attempt, slotAt }) => ({
        deliveryId,
        deliveryCreatedAt,
        attempt,
        startAfter: slotAt,
        slotAt,
      })),
      ...of('paused').map(({ deliveryId, deliveryCreatedAt, attempt, until }) => ({
        deliveryId,
        deliveryCreatedAt,
        attempt,
        startAfter: until,
      })),
    ];
    const disabledEndpoints: { endpointId: string; reason: string }[] = [];
    await transaction(pool, async (client) => {
      if (succeeded.length > 0) await client.query(recordSuccesses(succeeded));
      if (retrying.length > 0) {
        const { rows } = await client.query<DeliveryKey & { attempt: number; nextAttemptAt: Date }>(recordRetries(retrying));
        await queue.enqueue(
          client,
          rows.map((row) => ({
            deliveryId: row.deliveryId,
            deliveryCreatedAt: row.deliveryCreatedAt,
            attempt: row.attempt + 1,
            startAfter: row.nextAttemptAt,
          })),
        );
      }
      // One at a time: each counts a failure on its endpoint and may disable it.
      for (const failure of failed) {
        const reason = failure.gone ? GONE_REASON : `${options.disableAfterFailures} consecutive deliveries failed`;
        const { rows } = await client.query<{ justDisabled: boolean; alertCreatedAt: Date | null; alertDeliveryIds: string[] }>(
          recordFailure(failure, { afterFailures: options.disableAfterFailures, reason, gone: failure.gone }),
        );
        if (!rows[0]?.justDisabled) continue;
        disabledEndpoints.push({ endpointId: failure.endpointId, reason });
        await queue.enqueue(client, firstAttempts({ createdAt: rows[0].alertCreatedAt, deliveryIds: rows[0].alertDeliveryIds }));
      }
      if (cancelled.length > 0) await client.query(cancelDeliveries(cancelled));
      if (deferred.length > 0) {
        await client.query(deferDeliveries(deferred));
        await queue.enqueue(client, deferred);
      }
      await completeAttempts(
        boss,
        client,
        entries.map((entry) => entry.job),
      );
    });
    if (succeeded.length > 0) metrics.deliveries.inc({ outcome: 'succeeded' }, succeeded.length);
    if (retrying.length > 0) metrics.deliveries.inc({ outcome: 'retrying' }, retrying.length);
    if (failed.length > 0) metrics.deliveries.inc({ outcome: 'failed' }, failed.length);
    if (cancelled.length > 0) metrics.deliveries.inc({ outcome: 'cancelled' }, cancelled.length);
    return { disabledEndpoints };
  }

  /**
   * Writes `entries` in one transaction, waiting out an unreachable database (until shutdown
   * gives up). Resolves with the error that stopped it, or undefined once stored.
   */
  async function writeWhileUnavailable(entries: Entry[]): Promise<unknown> {
    for (let delay = RETRY_DELAY_MS.first; ; delay = Math.min(delay * 2, RETRY_DELAY_MS.max)) {
      try {
        const { disabledEndpoints } = await write(entries);
        for (const { endpointId, reason } of disabledEndpoints) log.warn({ endpointId }, `endpoint disabled: ${reason}`);
        return undefined;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || Date.now() + delay >= giveUpAt) return error;
        if (delay === RETRY_DELAY_MS.first)
          log.warn(
            { err: error, outcomes: entries.length },
            'database unavailable: delivery outcomes are kept and written when it is back',
          );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * Stores a batch. A batch PostgreSQL refuses is split in halves, each written on its own,
   * down to the one outcome at fault, so no other delivery is touched by it (its outcome
   * lost, its attempt made again). That outcome is stored without the receiver's answer if it
   * can be; if not, its job is left to expire and the attempt is made again.
   */
  async function store(entries: Entry[]): Promise<void> {
    const error = await writeWhileUnavailable(entries);
    if (error === undefined) return;
    if (isDatabaseUnavailable(error)) {
      log.error(
        { err: error, outcomes: entries.length },
        'database unavailable at shutdown: delivery outcomes not recorded; their jobs expire and the attempts are made again',
      );
      return;
    }
    if (entries.length > 1) {
      if (!splitting)
        log.warn(
          { err: error, outcomes: entries.length },
          'a batch of delivery outcomes was refused; writing it in parts to find the outcome at fault',
        );
      splitting = true;
      const half = Math.ceil(entries.length / 2);
      await store(entries.slice(0, half));
      await store(entries.slice(half));
      return;
    }
    const [entry] = entries as [Entry];
    const deliveryId = 'deliveryId' in entry.outcome ? entry.outcome.deliveryId : entry.job.data.deliveryId;
    const bare = withoutAnswer(entry.outcome);
    if (bare && (await writeWhileUnavailable([{ ...entry, outcome: bare }])) === undefined) {
      log.warn({ err: error, deliveryId }, "delivery outcome recorded without the receiver's answer, which the database refused");
      return;
    }
    log.error({ err: error, deliveryId }, 'delivery outcome not recorded; its job expires and the attempt is made again');
  }

  async function writeWaiting(): Promise<void> {
    // Outcomes of attempts that finish in this same turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length > 0) {
      const entries = waiting.splice(0, maxBatch);
      splitting = false;
      await store(entries);
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
