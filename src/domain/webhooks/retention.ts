// Retention of webhook history: deliveries (with their attempts and the answers kept in them)
// and events (with their payloads) older than RETENTION_DAYS are deleted, a small batch per
// statement, so no statement holds its row locks for long and ingest and the workers go on
// meanwhile. A PENDING delivery is never deleted, however old (its attempts are still to come),
// nor the event it carries. Deploys, their commits, change events and incidents are not webhook
// history: DORA and the ranking of suspects read them for any period asked, so they are kept.
import type pg from 'pg';
import sql, { type Sql } from 'sql-template-tag';

const MS_PER_DAY = 86_400_000;

/** The earliest time from which deliveries and events are kept. */
export function historyStartsAt(retentionDays: number, now = new Date()): Date {
  return new Date(now.getTime() - retentionDays * MS_PER_DAY);
}

/**
 * A batch of the organization's oldest finished deliveries before the cutoff,
 * locked (skipping any row another transaction holds: a worker recording an outcome), then their
 * attempts and themselves. The organization's (organization_id, created_at) index serves the
 * scan. FOR UPDATE re-reads a row changed since the statement began, so a delivery made PENDING
 * meanwhile (a retry) is not taken.
 */
function pruneDeliveries(organizationId: string, cutoff: Date, batchSize: number): Sql {
  return sql`
WITH doomed AS (
  SELECT id FROM deliveries
  WHERE organization_id = ${organizationId}::uuid AND created_at < ${cutoff} AND status <> 'PENDING'
  ORDER BY created_at
  LIMIT ${batchSize}
  FOR UPDATE SKIP LOCKED
), attempts AS (
  DELETE FROM delivery_attempts a USING doomed WHERE a.delivery_id = doomed.id RETURNING 1
), deleted AS (
  DELETE FROM deliveries d USING doomed WHERE d.id = doomed.id RETURNING 1
)
SELECT (SELECT count(*) FROM deleted)::int AS deliveries, (SELECT count(*) FROM attempts)::int AS attempts`;
}

/**
 * A batch of the organization's oldest events before the cutoff that no delivery carries any more. The lock keeps a delivery from being added to one while it goes.
 */
function pruneEvents(organizationId: string, cutoff: Date, batchSize: number): Sql {
  return sql`
WITH doomed AS (
  SELECT e.id FROM events e
  WHERE e.organization_id = ${organizationId}::uuid AND e.created_at < ${cutoff}
    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
  ORDER BY e.created_at
  LIMIT ${batchSize}
  FOR UPDATE SKIP LOCKED
), deleted AS (
  DELETE FROM events e USING doomed WHERE e.id = doomed.id RETURNING 1
)
SELECT count(*)::int AS events FROM deleted`;
}

export interface PruneOptions {
  /** Rows older than this go. */
  cutoff: Date;
  /** Rows one statement deletes at most. */
  batchSize: number;
  /** A run stops starting batches past this time; the next run goes on where it stopped. */
  deadline?: number;
}

export interface PruneResult {
  deliveries: number;
  attempts: number;
  events: number;
  /** Statements run, each its own short transaction. */
  batches: number;
  /** False when the deadline came first: older rows are left for the next run. */
  complete: boolean;
}

/** Deletes webhook history older than `cutoff`, organization by organization, in batches. */
export async function pruneHistory(pool: pg.Pool, { cutoff, batchSize, deadline = Infinity }: PruneOptions): Promise<PruneResult> {
  const result: PruneResult = { deliveries: 0, attempts: 0, events: 0, batches: 0, complete: true };
  const { rows: organizations } = await pool.query<{ id: string }>('SELECT id FROM organizations ORDER BY id');
  // Deliveries first: an event goes once no delivery carries it.
  for (const { id } of organizations) {
    for (;;) {
      if (Date.now() >= deadline) return { ...result, complete: false };
      const { rows } = await pool.query<{ deliveries: number; attempts: number }>(pruneDeliveries(id, cutoff, batchSize));
      result.batches++;
      result.deliveries += rows[0]!.deliveries;
      result.attempts += rows[0]!.attempts;
      if (rows[0]!.deliveries < batchSize) break;
    }
    for (;;) {
      if (Date.now() >= deadline) return { ...result, complete: false };
      const { rows } = await pool.query<{ events: number }>(pruneEvents(id, cutoff, batchSize));
      result.batches++;
      result.events += rows[0]!.events;
      if (rows[0]!.events < batchSize) break;
    }
  }
  return result;
}
