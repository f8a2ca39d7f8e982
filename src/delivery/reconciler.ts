// Finds PENDING deliveries that have lost their attempt and queues it again. Every write that
// leaves a delivery PENDING queues its attempt in the same transaction, but pg-boss can still
// drop a job: it fails one whose holder died too often (its retry limit), and deletes one left
// waiting past its retention. Such a delivery would stay PENDING forever, its endpoint looking
// healthy; this pass, run by every worker process now and then, gives it back its attempt.
// Several processes may run it at once: a delivery is requeued only if it is still as the pass
// read it (its updated_at, which every write of a delivery moves on).
import type { Statement } from '../db/statement.ts';
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { transaction } from '../db/transaction.ts';
import type { Metrics } from '../metrics.ts';
import { runPeriodically, type Periodic } from '../periodic.ts';
import { attemptQueue, queuedAttemptCondition } from './queue.ts';

/** The most deliveries one pass requeues (the next pass takes the rest). */
const MAX_PER_PASS = 1000;

/**
 * Up to `limit` PENDING deliveries that are due and have no job, requeued now. Organizations are
 * read one by one so each one's PENDING deliveries come from the (organization_id, status) index,
 * not a scan of every delivery. Setting the (unchanged) status announces the change: workers wake.
 */
function requeueStranded(limit: number): Statement {
  return {
    text: `
WITH stranded AS (
  SELECT d.id, d.updated_at
  FROM organizations o
  CROSS JOIN LATERAL (
    SELECT d.id, d.updated_at FROM deliveries d
    WHERE d.organization_id = o.id AND d.status = 'PENDING' AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= now())
  ) d
  WHERE NOT ${queuedAttemptCondition('d.id')}
  LIMIT $1
)
UPDATE deliveries d SET status = 'PENDING', next_attempt_at = now(), updated_at = now()
FROM stranded s
WHERE d.id = s.id AND d.status = 'PENDING' AND d.updated_at = s.updated_at
RETURNING d.id AS "deliveryId", d.attempt_count AS "attemptCount"`,
    values: [limit],
  };
}

export interface ReconcilerOptions {
  pool: pg.Pool;
  boss: PgBoss;
  metrics: Metrics;
  log: { warn(object: object, message: string): void };
  intervalMs: number;
}

export type Reconciler = Periodic;

/** Runs a pass at once, then every `intervalMs`. */
export function startReconciler({ pool, boss, metrics, log, intervalMs }: ReconcilerOptions): Reconciler {
  const queue = attemptQueue(boss);

  async function pass(): Promise<void> {
    try {
      const requeued = await transaction(pool, async (client) => {
        const { rows } = await client.query<{ deliveryId: string; attemptCount: number }>(requeueStranded(MAX_PER_PASS));
        await queue.enqueue(
          client,
          rows.map(({ deliveryId, attemptCount }) => ({ deliveryId, attempt: attemptCount + 1 })),
        );
        return rows;
      });
      if (requeued.length > 0) {
        metrics.deliveriesRequeued.inc(requeued.length);
        log.warn(
          { deliveries: requeued.length, deliveryIds: requeued.slice(0, 10).map((row) => row.deliveryId) },
          `requeued ${requeued.length} PENDING ${requeued.length === 1 ? 'delivery' : 'deliveries'} whose attempt was no longer queued`,
        );
      }
    } catch (error) {
      log.warn({ err: error }, 'could not look for PENDING deliveries without a queued attempt; trying again at the next pass');
    }
  }

  return runPeriodically(pass, intervalMs);
}
