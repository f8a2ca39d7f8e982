// The pruning of webhook history (domain/webhooks/retention.ts: whole months dropped) and of the audit log
// (domain/shared/audit.ts, its own AUDIT_RETENTION_DAYS), hourly at minute 17 (UTC) and at a
// worker process's start. Every worker process runs this job; a run holds an advisory lock, so one
// process prunes at a time and the others, finding it held, skip their pass: as every worker wakes
// at minute 17, one of them prunes each hour, whatever their number. A run that fails is not
// retried: the next one does the same work. Each run says what it deleted in one log line and in
// the metrics.
import type pg from 'pg';
import { runHoldingLock } from '../db/advisory-lock.ts';
import { pruneAuditLog } from '../domain/shared/audit.ts';
import { historyStartsAt, pruneHistory } from '../domain/webhooks/retention.ts';
import type { Metrics } from '../metrics.ts';
import type { BackgroundJob } from './scheduler.ts';

/** Hourly, at this minute (UTC): a run then finds an hour's worth of history to delete. */
export const PRUNE_MINUTE = 17;
/** Rows one statement deletes at most: each batch is a transaction of a few milliseconds. */
export const PRUNE_BATCH_SIZE = 1000;
/** A run stops starting batches of the audit log after this long (a first run on a year of it); the next goes on. */
const RUN_BUDGET_MS = 5 * 60_000;
/** Held by the process pruning, in every Hookline process sharing the database. */
const PRUNE_LOCK = 'hookline.prune-history';

/** Milliseconds from `now` to the next minute PRUNE_MINUTE of an hour (UTC). */
export function msUntilNextPruning(now: Date): number {
  const next = new Date(now);
  next.setUTCMinutes(PRUNE_MINUTE, 0, 0);
  if (next <= now) next.setUTCHours(next.getUTCHours() + 1);
  return next.getTime() - now.getTime();
}

export interface PruneHistoryOptions {
  pool: pg.Pool;
  /** PostgreSQL itself (not a transaction pooler), for the lock's session. */
  databaseUrl: string;
  metrics: Metrics;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
  retentionDays: number;
  /** Days of audit log kept. */
  auditRetentionDays: number;
}

export function pruneHistoryJob({
  pool,
  databaseUrl,
  metrics,
  log,
  retentionDays,
  auditRetentionDays,
}: PruneHistoryOptions): BackgroundJob {
  async function run(): Promise<void> {
    const started = performance.now();
    const cutoff = historyStartsAt(retentionDays);
    const deadline = Date.now() + RUN_BUDGET_MS;
    const result = await pruneHistory(pool, { cutoff });
    const auditCutoff = historyStartsAt(auditRetentionDays);
    const audit = await pruneAuditLog(pool, { cutoff: auditCutoff, batchSize: PRUNE_BATCH_SIZE, deadline });
    const seconds = (performance.now() - started) / 1000;
    metrics.historyPruned.inc({ table: 'deliveries' }, result.deliveries);
    metrics.historyPruned.inc({ table: 'delivery_attempts' }, result.attempts);
    metrics.historyPruned.inc({ table: 'events' }, result.events);
    metrics.historyPruned.inc({ table: 'audit_entries' }, audit.entries);
    const complete = result.busy === null && audit.complete;
    metrics.historyPruneRuns.observe({ result: complete ? 'complete' : 'partial' }, seconds);
    const months = result.months.length === 0 ? 'no month' : `${result.months.join(', ')}`;
    const kept = result.keptPending.length === 0 ? '' : ` (kept for their PENDING deliveries: ${result.keptPending.join(', ')})`;
    const busy = result.busy === null ? '' : `; ${result.busy} and later left for the next run (the tables were busy)`;
    log.info(
      {
        ...result,
        complete,
        auditEntries: audit.entries,
        cutoff: cutoff.toISOString(),
        auditCutoff: auditCutoff.toISOString(),
        retentionDays,
        auditRetentionDays,
        durationMs: Math.round(seconds * 1000),
      },
      `pruned webhook history older than ${retentionDays} days: dropped ${months}${kept}, ${result.deliveries} deliveries, ` +
        `${result.attempts} attempts, ${result.events} events${busy}; ${audit.entries} audit entries older than ${auditRetentionDays} days` +
        `${audit.complete ? '' : ' (time budget used up: the next run goes on)'}`,
    );
  }

  return {
    name: 'prune-history',
    msUntilNextPass: msUntilNextPruning,
    async pass() {
      const started = performance.now();
      try {
        await runHoldingLock(databaseUrl, PRUNE_LOCK, run);
      } catch (error) {
        metrics.historyPruneRuns.observe({ result: 'failed' }, (performance.now() - started) / 1000);
        log.error({ err: error }, 'pruning webhook history failed; the next run tries again');
      }
    },
  };
}
