// SQL of the delivery worker: what an attempt needs, and what its outcome writes. Outcomes are
// recorded in batches (a statement per kind of outcome); every update is guarded by the attempt
// number it expects, so a stale or repeated job changes nothing.
import { subscribedEndpointCondition } from '../domain/events.ts';
import { eventWithDeliveries } from '../domain/outbox.ts';

export interface DeliveryToSend {
  id: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  attemptCount: number;
  organizationId: string;
  endpointId: string;
  url: string;
  endpointStatus: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  endpointDeleted: boolean;
  signingSecret: string;
  previousSigningSecret: string | null;
  previousSecretExpiresAt: Date | null;
  customHeaders: { name: string; value: string }[];
  /** The endpoint's own attempt timeout, if it has one. */
  timeoutMs: number | null;
  /** The start time this load claimed for it under its endpoint's rate limit (null: not limited, or not claimed here). */
  slotAt: Date | null;
  eventId: string;
  eventType: string;
  eventCreatedAt: Date;
  eventData: unknown;
  eventExample: boolean;
}

/**
 * The deliveries $1 with what their attempts need. For those of $2 (the jobs that hold no turn
 * yet) whose endpoint has a rate limit, it also claims their turns: each endpoint's next free
 * start time moves on by one interval (1 s / limit) per delivery, under the row's lock, so every
 * worker process shares one schedule. Endpoints without a limit are not written to.
 */
export const LOAD_DELIVERIES_SQL = `
WITH wanted AS (
  SELECT d.endpoint_id, array_agg(d.id ORDER BY d.created_at, d.id) AS ids
  FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE d.id = ANY ($2::uuid[]) AND d.status = 'PENDING' AND e.rate_limit_per_second IS NOT NULL
  GROUP BY d.endpoint_id
), claimed AS (
  UPDATE webhook_endpoints e
  SET rate_limit_next_slot_at = greatest(e.rate_limit_next_slot_at, clock_timestamp()) + cardinality(w.ids) * (interval '1 second' / e.rate_limit_per_second)
  FROM wanted w WHERE e.id = w.endpoint_id
  RETURNING w.ids, interval '1 second' / e.rate_limit_per_second AS spacing,
            e.rate_limit_next_slot_at - cardinality(w.ids) * (interval '1 second' / e.rate_limit_per_second) AS first_slot
), slot AS (
  SELECT s.id, c.first_slot + (s.n - 1) * c.spacing AS at
  FROM claimed c CROSS JOIN LATERAL unnest(c.ids) WITH ORDINALITY AS s(id, n)
)
SELECT d.id, d.status, d.attempt_count AS "attemptCount", d.organization_id AS "organizationId", d.endpoint_id AS "endpointId",
       e.url, e.status AS "endpointStatus", e.deleted_at IS NOT NULL AS "endpointDeleted",
       e.signing_secret AS "signingSecret", e.previous_signing_secret AS "previousSigningSecret",
       e.previous_secret_expires_at AS "previousSecretExpiresAt",
       e.custom_headers AS "customHeaders", e.timeout_ms AS "timeoutMs", slot.at AS "slotAt",
       ev.id AS "eventId", ev.type AS "eventType", ev.created_at AS "eventCreatedAt", ev.data AS "eventData",
       ev.example AS "eventExample"
FROM deliveries d
JOIN webhook_endpoints e ON e.id = d.endpoint_id
JOIN events ev ON ev.id = d.event_id
LEFT JOIN slot ON slot.id = d.id
WHERE d.id = ANY ($1::uuid[])`;

/** $1 deliveries: those still PENDING become CANCELLED (their endpoint stopped being live). */
export const CANCEL_DELIVERIES_SQL = `
UPDATE deliveries SET status = 'CANCELLED', next_attempt_at = NULL, updated_at = now()
WHERE id = ANY ($1::uuid[]) AND status = 'PENDING'`;

/** $1 delivery, $2 attempt number, $3 started at, $4 duration ms, $5 status, $6 body prefix, $7 error, $8 succeeded. */
const INSERT_ATTEMPT = `
INSERT INTO delivery_attempts (delivery_id, number, started_at, duration_ms, response_status, response_body, error, succeeded)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (delivery_id, number) DO NOTHING
RETURNING delivery_id`;

/** In the endpoint update of RECORD_FAILURE_SQL: this failure disables the endpoint. */
const DISABLES = `e.status = 'ACTIVE' AND (e.consecutive_failures + 1 >= $9 OR $11::boolean)`;

/** The `data` of an endpoint.disabled event, from the disabled endpoint's row. */
const ENDPOINT_DISABLED_DATA = `jsonb_build_object(
    'endpoint', jsonb_build_object('id', id, 'url', url, 'name', name),
    'reason', disabled_reason,
    'disabledAt', to_char(disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

const CLAIMED_DELIVERY = `id = $1 AND status = 'PENDING' AND attempt_count = $2 - 1 AND EXISTS (SELECT 1 FROM attempt)`;

/**
 * 2xx attempts, recorded together (commits that notify are serialised by PostgreSQL, so fewer
 * and bigger ones go faster): each delivery succeeded, and its endpoint's failure streak ends. Arrays: $1 deliveries, $2 attempt numbers, $3 started at, $4 durations,
 * $5 statuses, $6 body prefixes.
 */
export const RECORD_SUCCESSES_SQL = `
WITH attempt AS (
  INSERT INTO delivery_attempts (delivery_id, number, started_at, duration_ms, response_status, response_body, error, succeeded)
  SELECT delivery_id, number, started_at, duration_ms, response_status, response_body, NULL, true
  FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
       AS input(delivery_id, number, started_at, duration_ms, response_status, response_body)
  ON CONFLICT (delivery_id, number) DO NOTHING
  RETURNING delivery_id, number, started_at
), delivery AS (
  UPDATE deliveries d SET status = 'SUCCEEDED', attempt_count = a.number, last_attempt_at = a.started_at, next_attempt_at = NULL, updated_at = now()
  FROM attempt a
  WHERE d.id = a.delivery_id AND d.status = 'PENDING' AND d.attempt_count = a.number - 1
  RETURNING d.endpoint_id
)
UPDATE webhook_endpoints SET consecutive_failures = 0
WHERE id IN (SELECT endpoint_id FROM delivery) AND consecutive_failures > 0`;

export interface SucceededAttempt {
  deliveryId: string;
  attempt: number;
  result: { startedAt: Date; durationMs: number; status: number | null; body: string | null };
}

/** The columns every recorded attempt has, as the arrays the batch statements unnest. */
function attemptColumns(attempts: SucceededAttempt[]): unknown[] {
  return [
    attempts.map((a) => a.deliveryId),
    attempts.map((a) => a.attempt),
    attempts.map((a) => a.result.startedAt),
    attempts.map((a) => a.result.durationMs),
    attempts.map((a) => a.result.status),
    attempts.map((a) => a.result.body),
  ];
}

export function successValues(attempts: SucceededAttempt[]): unknown[] {
  return attemptColumns(attempts);
}

/**
 * Failed attempts with retries left, recorded together. Arrays: $1 deliveries, $2 attempt
 * numbers, $3 started at, $4 durations, $5 statuses (or null), $6 body prefixes, $7 errors,
 * $8 when the next attempt is due. Returns the deliveries that were still ours, whose next
 * attempt is to be queued.
 */
export const RECORD_RETRIES_SQL = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::timestamptz[])
    AS input(delivery_id, number, started_at, duration_ms, response_status, response_body, error, next_attempt_at)
), attempt AS (
  INSERT INTO delivery_attempts (delivery_id, number, started_at, duration_ms, response_status, response_body, error, succeeded)
  SELECT delivery_id, number, started_at, duration_ms, response_status, response_body, error, false FROM input
  ON CONFLICT (delivery_id, number) DO NOTHING
  RETURNING delivery_id, number
)
UPDATE deliveries d SET attempt_count = i.number, last_attempt_at = i.started_at, next_attempt_at = i.next_attempt_at, updated_at = now()
FROM input i JOIN attempt a ON a.delivery_id = i.delivery_id AND a.number = i.number
WHERE d.id = i.delivery_id AND d.status = 'PENDING' AND d.attempt_count = i.number - 1
RETURNING d.id AS "deliveryId", i.number AS attempt, i.next_attempt_at AS "nextAttemptAt"`;

export interface RetryingAttempt {
  deliveryId: string;
  attempt: number;
  nextAttemptAt: Date;
  result: { startedAt: Date; durationMs: number; status: number | null; body: string | null; error: string | null };
}

export function retryValues(attempts: RetryingAttempt[]): unknown[] {
  return [...attemptColumns(attempts), attempts.map((a) => a.result.error), attempts.map((a) => a.nextAttemptAt)];
}

/**
 * The last attempt failed: the delivery is FAILED and counts one consecutive failure on its
 * endpoint. At $9 failures, or at once when $11 (the receiver answered 410 Gone), an ACTIVE
 * endpoint becomes DISABLED (reason $10), its other pending deliveries are cancelled, and an
 * `endpoint.disabled` event goes to the organization's other endpoints subscribed to it.
 * Returns whether this failure disabled the endpoint, and that event's deliveries (to queue).
 */
export const RECORD_FAILURE_SQL = `
WITH attempt AS (${INSERT_ATTEMPT}
), failed_delivery AS (
  UPDATE deliveries SET status = 'FAILED', attempt_count = $2, last_attempt_at = $3, next_attempt_at = NULL, updated_at = now()
  WHERE ${CLAIMED_DELIVERY}
  RETURNING endpoint_id
), endpoint AS (
  UPDATE webhook_endpoints e SET
    consecutive_failures = e.consecutive_failures + 1,
    status = CASE WHEN ${DISABLES} THEN 'DISABLED' ELSE e.status END,
    disabled_at = CASE WHEN ${DISABLES} THEN now() ELSE e.disabled_at END,
    disabled_reason = CASE WHEN ${DISABLES} THEN $10 ELSE e.disabled_reason END
  FROM failed_delivery, webhook_endpoints before -- the same row as this statement found it
  WHERE e.id = failed_delivery.endpoint_id AND before.id = e.id
  RETURNING e.id, e.organization_id, e.url, e.name, e.disabled_reason, e.disabled_at,
            before.status = 'ACTIVE' AND e.status = 'DISABLED' AS just_disabled
), cancelled AS (
  UPDATE deliveries SET status = 'CANCELLED', next_attempt_at = NULL, updated_at = now()
  WHERE endpoint_id = (SELECT id FROM endpoint WHERE just_disabled) AND status = 'PENDING' AND id <> $1
), ${eventWithDeliveries(
  `SELECT organization_id, 'endpoint.disabled', ${ENDPOINT_DISABLED_DATA} FROM endpoint WHERE just_disabled`,
  // The statement sees the disabled endpoint as it was (ACTIVE): it is left out by id.
  `${subscribedEndpointCondition("'endpoint.disabled'")} AND e.id <> (SELECT id FROM endpoint)`,
)}
SELECT coalesce((SELECT just_disabled FROM endpoint), false) AS "justDisabled",
       coalesce((SELECT array_agg(id) FROM delivery), '{}') AS "alertDeliveryIds"`;

export function attemptValues(
  deliveryId: string,
  attempt: number,
  result: { startedAt: Date; durationMs: number; status: number | null; body: string | null; error: string | null; succeeded: boolean },
): unknown[] {
  return [deliveryId, attempt, result.startedAt, result.durationMs, result.status, result.body, result.error, result.succeeded];
}
