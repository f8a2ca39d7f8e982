// Deliveries seen from the API: a manual retry of one that ended without success.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { enqueueAttempts, transaction } from '../delivery/queue.ts';
import { isUuid } from './ids.ts';

export class DeliveryNotRetryableError extends Error {
  override name = 'DeliveryNotRetryableError';
}

export const REOPEN_DELIVERY_SQL = `
UPDATE deliveries d SET status = 'PENDING', next_attempt_at = now(), updated_at = now()
FROM webhook_endpoints e
WHERE d.id = $1 AND d.organization_id = $2 AND e.id = d.endpoint_id
  AND d.status IN ('FAILED', 'CANCELLED') AND e.status = 'ACTIVE' AND e.deleted_at IS NULL
RETURNING d.attempt_count AS "attemptCount"`;

const DESCRIBE_DELIVERY_SQL = `
SELECT d.status, e.status AS "endpointStatus", e.deleted_at IS NOT NULL AS "endpointDeleted"
FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
WHERE d.id = $1 AND d.organization_id = $2`;

/**
 * Queues one more attempt of a FAILED or CANCELLED delivery (same delivery id, so receivers
 * still deduplicate). Returns false when the organization has no such delivery.
 */
export async function retryDelivery(pool: pg.Pool, boss: PgBoss, organizationId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const reopened = await transaction(pool, async (client) => {
    const { rows } = await client.query<{ attemptCount: number }>(REOPEN_DELIVERY_SQL, [id, organizationId]);
    if (rows[0]) await enqueueAttempts(boss, client, [{ deliveryId: id, attempt: rows[0].attemptCount + 1 }]);
    return rows.length > 0;
  });
  if (reopened) return true;
  const { rows } = await pool.query<{ status: string; endpointStatus: string; endpointDeleted: boolean }>(DESCRIBE_DELIVERY_SQL, [id, organizationId]);
  const delivery = rows[0];
  if (!delivery || delivery.endpointDeleted) return false;
  if (delivery.endpointStatus !== 'ACTIVE') throw new DeliveryNotRetryableError(`The endpoint is ${delivery.endpointStatus}; activate it first`);
  throw new DeliveryNotRetryableError(`Only a FAILED or CANCELLED delivery can be retried; this one is ${delivery.status}`);
}
