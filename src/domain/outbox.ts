// The transactional outbox: an event, its deliveries (one per live, subscribed endpoint) and
// their queue jobs, written by the caller's transaction together with whatever caused them.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { enqueueAttempts } from '../delivery/queue.ts';
import { subscribedEndpointCondition, type EventType } from './events.ts';

export const INSERT_EVENT_WITH_DELIVERIES_SQL = `
WITH event AS (
  INSERT INTO events (organization_id, type, data) VALUES ($1, $2, $3::jsonb) RETURNING id, organization_id
), delivery AS (
  INSERT INTO deliveries (organization_id, event_id, endpoint_id)
  SELECT event.organization_id, event.id, e.id
  FROM event JOIN webhook_endpoints e ON e.organization_id = event.organization_id
  WHERE ($4::uuid IS NULL AND ${subscribedEndpointCondition('$2')})
     OR (e.id = $4::uuid AND e.status = 'ACTIVE' AND e.deleted_at IS NULL)
  RETURNING id
)
SELECT (SELECT id FROM event) AS event_id, coalesce((SELECT array_agg(id) FROM delivery), '{}') AS delivery_ids`;

export interface EmittedEvent {
  eventId: string;
  deliveryIds: string[];
}

/**
 * Stores an event for an organization and queues its deliveries. `client` must be inside a
 * transaction (see `transaction()` in delivery/queue.ts). With `onlyEndpointId`, only that
 * endpoint gets a delivery, if it is live, whatever its event filter (Send Test).
 */
export async function emitEvent(
  client: pg.PoolClient,
  boss: PgBoss,
  event: { organizationId: string; type: EventType; data: unknown; onlyEndpointId?: string },
): Promise<EmittedEvent> {
  const { rows } = await client.query<{ event_id: string; delivery_ids: string[] }>(INSERT_EVENT_WITH_DELIVERIES_SQL, [
    event.organizationId,
    event.type,
    JSON.stringify(event.data),
    event.onlyEndpointId ?? null,
  ]);
  const { event_id: eventId, delivery_ids: deliveryIds } = rows[0]!;
  await enqueueAttempts(boss, client, deliveryIds.map((deliveryId) => ({ deliveryId, attempt: 1 })));
  return { eventId, deliveryIds };
}
