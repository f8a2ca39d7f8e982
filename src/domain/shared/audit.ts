// The audit log: every change made through GraphQL or REST writes one entry (who, what, which
// object, when, from where) in the transaction of the change, so there is never a change without
// its entry nor an entry without its change. Ingest (deploys, changes, alerts, GitHub) records
// data rather than changing configuration: its rows are their own record and it writes no entry.
// An entry never holds a secret: summaries name things by their names and ids, never by a URL
// (a webhook URL may carry a token in its path), a header, a token or a signing secret.
import type pg from 'pg';
import sql from 'sql-template-tag';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import { joinedTransaction } from '../../db/transaction.ts';
import { storedActor, type Actor } from './actors.ts';

/** The address and user agent of the request a change came with (null when unknown). */
export interface RequestSource {
  ip: string | null;
  userAgent: string | null;
}

/** Where a change comes from: the organization, who made it, and the request's address and user agent. */
export interface ChangeOrigin extends RequestSource {
  organizationId: string;
  actor: Actor;
}

/** What an entry says of a change: the object changed (null: none in particular) and a sentence for people. */
export interface AuditSubject {
  objectId: string | null;
  summary: string;
}

/** Longer user agents are cut: an entry records where a change came from, not whatever a client sends. */
export const USER_AGENT_MAX_LENGTH = 512;
export const SUMMARY_MAX_LENGTH = 1000;

/** A name as summaries quote it. */
export const quoted = (name: string | null | undefined) => (name == null ? '(unnamed)' : JSON.stringify(name));

/**
 * Runs `change` in one transaction with the audit entry `describe` makes of its result. `change`
 * gets a PrismaClient whose work (its own transactions included) joins that transaction. `action`
 * is `<type>.<verb>`, e.g. webhookEndpoint.delete.
 */
export function auditedChange<T>(
  prisma: PrismaClient,
  origin: ChangeOrigin,
  action: string,
  change: (prisma: PrismaClient) => Promise<T>,
  describe: (result: T) => AuditSubject,
): Promise<T> {
  // The change runs as long as it did on its own (statement timeouts still bound each statement);
  // Prisma's 5-second default would fail a large recovery that used to succeed.
  return prisma.$transaction(
    async (tx) => {
      const result = await change(joinedTransaction(tx));
      await recordAuditEntry(tx, origin, action, describe(result));
      return result;
    },
    { maxWait: 30_000, timeout: 120_000 },
  );
}

/** Writes one entry in `tx`, the transaction of the change it records. */
export async function recordAuditEntry(tx: Prisma.TransactionClient, origin: ChangeOrigin, action: string, subject: AuditSubject) {
  const actor = storedActor(origin.actor);
  await tx.auditEntry.create({
    data: {
      organizationId: origin.organizationId,
      actorKind: actor.kind,
      actorId: actor.id,
      action,
      objectId: subject.objectId,
      summary: subject.summary.slice(0, SUMMARY_MAX_LENGTH),
      ip: origin.ip,
      userAgent: origin.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
    },
  });
}

export interface AuditLogFilter {
  actorId?: string | null;
  action?: string | null;
  objectId?: string | null;
  from?: Date | null;
  to?: Date | null;
}

/** The organization's entries a filter selects: from inclusive, to exclusive. */
export function auditLogWhere(organizationId: string, filter: AuditLogFilter): Prisma.AuditEntryWhereInput {
  return {
    organizationId,
    ...(filter.actorId != null ? { actorId: filter.actorId } : {}),
    ...(filter.action != null ? { action: filter.action } : {}),
    ...(filter.objectId != null ? { objectId: filter.objectId } : {}),
    ...(filter.from != null || filter.to != null
      ? { at: { ...(filter.from != null ? { gte: filter.from } : {}), ...(filter.to != null ? { lt: filter.to } : {}) } }
      : {}),
  };
}

/**
 * Deletes entries older than `cutoff`, `batchSize` per statement (each its own short transaction),
 * until none is left or `deadline` passes. Returns how many went and whether all did.
 */
export async function pruneAuditLog(
  pool: pg.Pool,
  { cutoff, batchSize, deadline = Infinity }: { cutoff: Date; batchSize: number; deadline?: number },
): Promise<{ entries: number; complete: boolean }> {
  let entries = 0;
  for (;;) {
    if (Date.now() > deadline) return { entries, complete: false };
    const { rows } = await pool.query<{ deleted: number }>(
      sql`WITH doomed AS (SELECT id FROM audit_entries WHERE at < ${cutoff} ORDER BY at LIMIT ${batchSize}),
               deleted AS (DELETE FROM audit_entries a USING doomed WHERE a.id = doomed.id RETURNING 1)
          SELECT count(*)::int AS deleted FROM deleted`,
    );
    const deleted = rows[0]!.deleted;
    entries += deleted;
    if (deleted < batchSize) return { entries, complete: true };
  }
}
