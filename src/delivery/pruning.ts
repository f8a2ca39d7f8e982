// The scheduled pruning of webhook history (domain/webhooks/retention.ts): a pg-boss schedule sends one
// job an hour, whichever processes are running, and one worker process takes it. The queue's
// `stately` policy holds at most one job waiting and one running, so a slow run never piles up
// others behind it. Each run says what it deleted in one log line and in the metrics.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { historyStartsAt, pruneHistory } from '../domain/webhooks/retention.ts';
import type { Metrics } from '../metrics.ts';

export const PRUNE_QUEUE = 'prune-history';
/** Hourly, at minute 17 (UTC): a run then finds an hour's worth of history to delete. */
export const PRUNE_SCHEDULE = '17 * * * *';
/** Rows one statement deletes at most: each batch is a transaction of a few milliseconds. */
export const PRUNE_BATCH_SIZE = 1000;
/** A run stops starting batches after this long (a first run on a year of history); the next goes on. */
const RUN_BUDGET_MS = 5 * 60_000;

export interface PruningOptions {
  pool: pg.Pool;
  boss: PgBoss;
  metrics: Metrics;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
  retentionDays: number;
  /** How often this process looks for a pruning job. */
  pollIntervalSeconds: number;
}

export interface Pruning {
  /** Stops taking jobs; resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

export async function startPruning({ pool, boss, metrics, log, retentionDays, pollIntervalSeconds }: PruningOptions): Promise<Pruning> {
  const queueOptions = {
    // A run ends within its budget; a job active much longer lost its process.
    expireInSeconds: RUN_BUDGET_MS / 1000 + 60,
    // A failed run is not retried: the next hour's run does the same work.
    retryLimit: 0,
    deleteAfterSeconds: 7 * 24 * 3600,
  } as const;
  // The policy is set once, at creation; the rest follows this process's settings.
  await boss.createQueue(PRUNE_QUEUE, { ...queueOptions, policy: 'stately' });
  await boss.updateQueue(PRUNE_QUEUE, queueOptions);
  // The same schedule from every process: stored once, each occurrence sent once.
  await boss.schedule(PRUNE_QUEUE, PRUNE_SCHEDULE, null, { tz: 'UTC' });

  async function run(): Promise<void> {
    const started = performance.now();
    const cutoff = historyStartsAt(retentionDays);
    try {
      const result = await pruneHistory(pool, { cutoff, batchSize: PRUNE_BATCH_SIZE, deadline: Date.now() + RUN_BUDGET_MS });
      const seconds = (performance.now() - started) / 1000;
      metrics.historyPruned.inc({ table: 'deliveries' }, result.deliveries);
      metrics.historyPruned.inc({ table: 'delivery_attempts' }, result.attempts);
      metrics.historyPruned.inc({ table: 'events' }, result.events);
      metrics.historyPruneRuns.observe({ result: result.complete ? 'complete' : 'partial' }, seconds);
      log.info(
        { ...result, cutoff: cutoff.toISOString(), retentionDays, durationMs: Math.round(seconds * 1000) },
        `pruned webhook history older than ${retentionDays} days: ${result.deliveries} deliveries, ${result.attempts} attempts, ` +
          `${result.events} events in ${result.batches} batches${result.complete ? '' : ' (time budget used up: the next run goes on)'}`,
      );
    } catch (error) {
      metrics.historyPruneRuns.observe({ result: 'failed' }, (performance.now() - started) / 1000);
      log.error({ err: error }, 'pruning webhook history failed; the next run tries again');
      throw error;
    }
  }

  const workerId = await boss.work(PRUNE_QUEUE, { batchSize: 1, pollingIntervalSeconds: pollIntervalSeconds }, run);
  return {
    stop: () => boss.offWork(PRUNE_QUEUE, { id: workerId, wait: true }),
  };
}
