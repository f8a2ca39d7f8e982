// The transactional outbox: an event, its deliveries (one per live, subscribed endpoint) and
// their queue jobs, written by the caller's transaction together with whatever caused them.
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import type { Statement } from '../../db/statement.ts';
import sql, { raw, type Sql } from 'sql-template-tag';
import type { AttemptQueue, QueuedAttempt } from './attempt-queue.ts';
import { subscribedEndpointCondition, type EventType } from './events.ts';

/** What a change that emits events needs: the database, and the queue its deliveries go to. */
export interface Outbox {
  prisma: PrismaClient;
  queue: AttemptQueue;
}

/**
 * SQL fragment: the CTEs `event`, the one row `eventRow` selects (organization_id, type, data),
 * and `delivery`, one per endpoint `e` of its organization that `endpoints` accepts. The
 * deliveries are made at their event's time: they reference it by (id, created_at).
 */
export function eventWithDeliveries(eventRow: Sql, endpoints: Sql): Sql {
  return sql`event AS (
  INSERT INTO events (organization_id, type, data) ${eventRow} RETURNING id, organization_id, type, created_at
), delivery AS (
  INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, created_at)
  SELECT event.organization_id, event.id, e.id, event.type, event.created_at
  FROM event JOIN webhook_endpoints e ON e.organization_id = event.organization_id
  WHERE ${endpoints}
  RETURNING id, created_at
)`;
}

/** SQL fragment: what eventWithDeliveries wrote, as "eventId", "createdAt" (the event's and its deliveries') and "deliveryIds". */
export const EMITTED_COLUMNS = raw(
  `(SELECT id FROM event) AS "eventId", (SELECT created_at FROM event) AS "createdAt", coalesce((SELECT array_agg(id) FROM delivery), '{}') AS "deliveryIds"`,
);

/** What eventWithDeliveries wrote: the event, and its deliveries made at its time. */
export interface EmittedEvent {
  eventId: string;
  /** Null when no event was written. */
  createdAt: Date | null;
  deliveryIds: string[];
}

/** The first attempts of the emitted event's deliveries. */
export function firstAttempts({ createdAt, deliveryIds }: Pick<EmittedEvent, 'createdAt' | 'deliveryIds'>): QueuedAttempt[] {
  return createdAt ? deliveryIds.map((deliveryId) => ({ deliveryId, deliveryCreatedAt: createdAt, attempt: 1 })) : [];
}

interface EventToEmit {
  organizationId: string;
  type: EventType;
  data: unknown;
  /** Only this endpoint gets a delivery, if it is live, whatever its event filter. */
  onlyEndpointId?: string;
  /** No endpoint gets one: the event is for live listeners only. */
  onlyListeners?: boolean;
  /** The catalogue's example of its type: its body says `"example": true`. */
  example?: boolean;
}

function insertEventWithDeliveries(event: EventToEmit): Statement {
  const onlyEndpointId = event.onlyEndpointId ?? null;
  return sql`
WITH ${eventWithDeliveries(
    sql`VALUES (${event.organizationId}::uuid, ${event.type}, ${JSON.stringify(event.data)}::jsonb)`,
    sql`NOT ${event.onlyListeners ?? false}::boolean AND ((${onlyEndpointId}::uuid IS NULL AND ${subscribedEndpointCondition(sql`${event.type}`)}) OR (e.id = ${onlyEndpointId}::uuid AND e.status = 'ACTIVE' AND e.deleted_at IS NULL))`,
  )}
SELECT ${EMITTED_COLUMNS}`;
}

/**
 * Stores an event for an organization and queues its deliveries, in the caller's transaction
 * `tx`. With `onlyEndpointId`, only that endpoint gets a delivery, if it is live, whatever its
 * event filter (Send Test); with `onlyListeners`, no endpoint does (the organization's live
 * listeners see it as every event). Raw SQL: the event and its deliveries in one statement.
 */
export async function emitEvent(tx: Prisma.TransactionClient, queue: AttemptQueue, event: EventToEmit): Promise<EmittedEvent> {
  const statement = insertEventWithDeliveries(event);
  const [emitted] = await tx.$queryRawUnsafe<EmittedEvent[]>(statement.text, ...statement.values);
  const { eventId, createdAt } = emitted!;
  // Marked in the same transaction, so no attempt or listener ever gets it unmarked.
  if (event.example) await tx.event.update({ where: { id_createdAt: { id: eventId, createdAt: createdAt! } }, data: { example: true } });
  await queue.enqueue(tx, firstAttempts(emitted!));
  return emitted!;
}
