// Finds PENDING deliveries that have lost their attempt and queues it again. Every write that
// leaves a delivery PENDING queues its attempt in the same transaction, but pg-boss can still
// drop a job: it fails one whose holder died too often (its retry limit), and deletes one left
// waiting past its retention. Such a delivery would stay PENDING forever, its endpoint looking
// healthy; this job, run by every worker process now and then, gives it back its attempt.
// A pass examines a bounded number of PENDING deliveries, going on where the last one stopped, so
// that its cost follows what it examines whatever the backlog: a backlog larger than one pass's
// share is walked over several passes, then again from its start.
// Several processes may run it at once: a delivery is requeued only if it is still as the pass
// read it (its updated_at, which every write of a delivery moves on).
import sql, { raw, type Sql } from 'sql-template-tag';
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { transaction } from '../db/transaction.ts';
import { attemptQueue, queuedAttemptCondition } from '../delivery/queue.ts';
import type { Metrics } from '../metrics.ts';
import type { BackgroundJob } from './scheduler.ts';

/** PENDING deliveries one pass examines at most: a backlog larger than this takes several passes. */
export const DELIVERIES_EXAMINED_PER_PASS = 5000;

/** The most deliveries one pass requeues (the next pass takes the rest). */
const MAX_PER_PASS = 1000;

/** A place in the walk: organizations by id, each one's PENDING deliveries by creation time and id. */
interface WalkPosition {
  organizationId: string;
  createdAt: Date;
  deliveryId: string;
}

interface PassResult {
  /** createdAt: an ISO time (json_build_object's). */
  requeued: { deliveryId: string; createdAt: string; attemptCount: number }[];
  /** PENDING deliveries examined, and those of them found stranded (requeued unless changed meanwhile). */
  examined: number;
  stranded: number;
  /** The last delivery examined (nulls when none was). */
  organizationId: string | null;
  createdAt: Date | null;
  deliveryId: string | null;
}

/**
 * Requeues the stranded deliveries among the `examined` PENDING ones after `from` (from the start
 * when null): those due with no unfinished job, `limit` at most, each only if still as read.
 * The walk reads one delivery per step, the next after the last in the (organization_id, status,
 * created_at, id) index, moving to the next organization holding one when an organization has no
 * more: each step is a probe of one row whatever the planner believes an organization holds (a
 * range per organization may be read whole and sorted instead). Each due one is then checked by a
 * probe of its own in pg-boss's job table (queuedAttemptCondition). Setting the (unchanged)
 * status announces the change: workers wake.
 */
function requeueStranded(from: WalkPosition | null, examined: number, limit: number): Sql {
  return sql`
WITH RECURSIVE walk (organization_id, created_at, id, updated_at, next_attempt_at) AS (
  SELECT coalesce(${from?.organizationId ?? null}::uuid, '00000000-0000-0000-0000-000000000000'), coalesce(${from?.createdAt ?? null}::timestamptz, '-infinity'),
         coalesce(${from?.deliveryId ?? null}::uuid, '00000000-0000-0000-0000-000000000000'), NULL::timestamptz, NULL::timestamptz
  UNION ALL
  SELECT next.* FROM walk w CROSS JOIN LATERAL (
    (SELECT d.organization_id, d.created_at, d.id, d.updated_at, d.next_attempt_at FROM deliveries d
     WHERE d.organization_id = w.organization_id AND d.status = 'PENDING' AND (d.created_at, d.id) > (w.created_at, w.id)
     ORDER BY d.created_at, d.id LIMIT 1)
    UNION ALL
    (SELECT first.* FROM organizations o CROSS JOIN LATERAL (
       SELECT d.organization_id, d.created_at, d.id, d.updated_at, d.next_attempt_at FROM deliveries d
       WHERE d.organization_id = o.id AND d.status = 'PENDING' ORDER BY d.created_at, d.id LIMIT 1
     ) first
     WHERE o.id > w.organization_id ORDER BY o.id LIMIT 1)
    LIMIT 1
  ) next
), examined AS (
  SELECT * FROM walk OFFSET 1 LIMIT ${examined}
), stranded AS (
  SELECT e.id, e.created_at, e.updated_at FROM examined e
  WHERE (e.next_attempt_at IS NULL OR e.next_attempt_at <= now()) AND NOT ${queuedAttemptCondition(raw('e.id'))}
  LIMIT ${limit}
), requeued AS (
  UPDATE deliveries d SET status = 'PENDING', next_attempt_at = now(), updated_at = now()
  FROM stranded s
  WHERE d.id = s.id AND d.created_at = s.created_at AND d.status = 'PENDING' AND d.updated_at = s.updated_at
  RETURNING d.id, d.created_at, d.attempt_count
), last AS (
  SELECT e.organization_id, e.created_at, e.id FROM examined e ORDER BY e.organization_id DESC, e.created_at DESC, e.id DESC LIMIT 1
)
SELECT coalesce((SELECT json_agg(json_build_object('deliveryId', r.id, 'createdAt', r.created_at, 'attemptCount', r.attempt_count)) FROM requeued r), '[]') AS requeued,
       counted.examined, (SELECT count(*)::int FROM stranded) AS stranded,
       l.organization_id AS "organizationId", l.created_at AS "createdAt", l.id AS "deliveryId"
FROM (SELECT count(*)::int AS examined FROM examined) counted LEFT JOIN last l ON true`;
}

export interface RequeueStrandedDeliveriesOptions {
  pool: pg.Pool;
  boss: PgBoss;
  metrics: Metrics;
  log: { warn(object: object, message: string): void };
  intervalMs: number;
}

/** Requeues the stranded deliveries of the next part of the walk, `intervalMs` after each pass ends. */
export function requeueStrandedDeliveriesJob({ pool, boss, metrics, log, intervalMs }: RequeueStrandedDeliveriesOptions): BackgroundJob {
  const queue = attemptQueue(boss);

  // Where the next pass starts: each worker process walks the backlog on its own.
  let from: WalkPosition | null = null;

  async function pass(): Promise<void> {
    try {
      const result = await transaction(pool, async (client) => {
        const { rows } = await client.query<PassResult>(requeueStranded(from, DELIVERIES_EXAMINED_PER_PASS, MAX_PER_PASS));
        const passed = rows[0]!;
        await queue.enqueue(
          client,
          passed.requeued.map(({ deliveryId, createdAt, attemptCount }) => ({
            deliveryId,
            deliveryCreatedAt: new Date(createdAt),
            attempt: attemptCount + 1,
          })),
        );
        return passed;
      });
      // A pass that found as many as it requeues at most walks the same deliveries again (those it
      // requeued have their job now); one that reached the end of the walk starts over.
      if (result.stranded < MAX_PER_PASS) {
        const { organizationId, createdAt, deliveryId } = result;
        from =
          result.examined === DELIVERIES_EXAMINED_PER_PASS && organizationId && createdAt && deliveryId
            ? { organizationId, createdAt, deliveryId }
            : null;
      }
      const { requeued } = result;
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

  return { name: 'requeue-stranded-deliveries', msUntilNextPass: () => intervalMs, pass };
}
