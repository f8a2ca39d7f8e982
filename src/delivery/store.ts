// The statements of the recorder (recorder.ts): what an attempt's outcome writes. Outcomes are
// recorded in batches (a statement per kind of outcome); every update is guarded by the attempt
// number it expects, so a stale or repeated job changes nothing. An attempt made while its
// delivery was cancelled (its endpoint disabled or deleted mid-flight) still counts: a later
// attempt gets the next number, and one that got a 2xx delivered it. Each statement is built by
// one function, with its values in its parts (sql-template-tag numbers them).
import sql, { empty, join, raw, type Sql } from 'sql-template-tag';
import { subscribedEndpointCondition } from '../domain/webhooks/events.ts';
import { eventWithDeliveries } from '../domain/webhooks/outbox.ts';
import type { KeptBody } from './response-body.ts';

/**
 * A delivery's key: its id and when it was made. Deliveries are partitioned by month on
 * created_at, so every statement here names both, and reads only the partitions of those months.
 */
export interface DeliveryKey {
  deliveryId: string;
  deliveryCreatedAt: Date;
}

/**
 * `column` (a created_at) is one of `times`: the condition that lets PostgreSQL plan a statement
 * on the partitions of those months alone. A join on (id, created_at) with rows of the statement's
 * own (unnest, a CTE) is not enough: the planner knows them only as it runs, so it plans (and
 * probes) every month's partition for each row. Each time once: an event's deliveries share
 * theirs, and the planner estimates the rows from the array's length.
 */
export function inTheirMonths(column: Sql, times: readonly (Date | string)[]): Sql {
  const distinct = [...new Set(times.map((time) => new Date(time).getTime()))].map((time) => new Date(time));
  return sql`${column} = ANY (${distinct}::timestamptz[])`;
}

function createdAts(keys: DeliveryKey[]): Date[] {
  return keys.map((key) => key.deliveryCreatedAt);
}

/** The deliveries still PENDING become CANCELLED (their endpoint stopped being live). */
export function cancelDeliveries(deliveries: DeliveryKey[]): Sql {
  return sql`
UPDATE deliveries SET status = 'CANCELLED', next_attempt_at = NULL, updated_at = now()
WHERE id = ANY (${deliveries.map((key) => key.deliveryId)}::uuid[])
  AND ${inTheirMonths(raw('created_at'), createdAts(deliveries))} AND status = 'PENDING'`;
}

/** Each delivery's next attempt is now due at the turn its endpoint's rate limit (or open circuit) gave it. */
export function deferDeliveries(deferred: (DeliveryKey & { startAfter: Date })[]): Sql {
  return sql`
UPDATE deliveries d SET next_attempt_at = turn.at, updated_at = now()
FROM unnest(${deferred.map((outcome) => outcome.deliveryId)}::uuid[], ${deferred.map((outcome) => outcome.deliveryCreatedAt)}::timestamptz[],
            ${deferred.map((outcome) => outcome.startAfter)}::timestamptz[]) AS turn(id, created_at, at)
WHERE d.id = turn.id AND d.created_at = turn.created_at AND d.status = 'PENDING'
  AND ${inTheirMonths(raw('d.created_at'), createdAts(deferred))}`;
}

/** The columns of an attempt's answer, in the order of answerValues. */
const ANSWER_COLUMNS = raw(
  'response_status, response_body, response_body_bytes, response_content_encoding, response_body_decoded, request_headers, response_headers',
);

/** The `data` of an endpoint.disabled event, from the disabled endpoint's row. */
const ENDPOINT_DISABLED_DATA = raw(`jsonb_build_object(
    'endpoint', jsonb_build_object('id', id, 'url', url, 'name', name),
    'reason', disabled_reason,
    'disabledAt', to_char(disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`);

const ATTEMPT_INPUT_COLUMNS = sql`delivery_id, delivery_created_at, endpoint_id, number, started_at, duration_ms, ${ANSWER_COLUMNS}`;

export interface SucceededAttempt extends DeliveryKey {
  /** The delivery's endpoint, stored with the attempt (an endpoint's charts read attempts by it). */
  endpointId: string;
  attempt: number;
  result: AnswerValues;
}

/** What every recorded attempt stores besides its outcome. */
interface AnswerValues {
  startedAt: Date;
  durationMs: number;
  status: number | null;
  body: KeptBody | null;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
}

/** What is stored of an answer's body, in the order of ANSWER_COLUMNS after the status. */
function bodyValues(body: KeptBody | null): [string | null, Buffer | null, string | null, boolean] {
  return [body?.text ?? null, body?.bytes ?? null, body?.contentEncoding ?? null, body?.decoded ?? false];
}

/** Headers as the jsonb the statements take (node-postgres would send an object's array as text). */
function headersValue(headers: Record<string, string> | null): string | null {
  return headers === null ? null : JSON.stringify(headers);
}

/**
 * The columns every recorded attempt has (ATTEMPT_INPUT_COLUMNS), each as an array, and `more`
 * after them, unnested: the rows the batch statements record.
 */
function unnestedAttempts(attempts: SucceededAttempt[], more: Sql = empty): Sql {
  const bodies = attempts.map((a) => bodyValues(a.result.body));
  const [texts, bytes, encodings, decoded] = [0, 1, 2, 3].map((column) => bodies.map((values) => values[column]));
  return sql`unnest(${attempts.map((a) => a.deliveryId)}::uuid[], ${attempts.map((a) => a.deliveryCreatedAt)}::timestamptz[], ${attempts.map((a) => a.endpointId)}::uuid[], ${attempts.map((a) => a.attempt)}::int[], ${attempts.map((a) => a.result.startedAt)}::timestamptz[], ${attempts.map((a) => a.result.durationMs)}::int[], ${attempts.map((a) => a.result.status)}::int[], ${texts}::text[], ${bytes}::bytea[], ${encodings}::text[], ${decoded}::boolean[], ${attempts.map((a) => headersValue(a.result.requestHeaders))}::jsonb[], ${attempts.map((a) => headersValue(a.result.responseHeaders))}::jsonb[]${more})`;
}

/**
 * 2xx attempts, recorded together (commits that notify are serialised by PostgreSQL, so fewer
 * and bigger ones go faster): each delivery succeeded (a CANCELLED one too: the receiver has
 * it), and its endpoint's failure streak ends.
 */
export function recordSuccesses(attempts: SucceededAttempt[]): Sql {
  const ofTheirMonths = inTheirMonths(raw('d.created_at'), createdAts(attempts));
  return sql`
WITH attempt AS (
  INSERT INTO delivery_attempts (${ATTEMPT_INPUT_COLUMNS}, error, succeeded)
  SELECT ${ATTEMPT_INPUT_COLUMNS}, NULL, true
  FROM ${unnestedAttempts(attempts)} AS input(${ATTEMPT_INPUT_COLUMNS})
  ON CONFLICT (delivery_id, number, delivery_created_at) DO NOTHING
  RETURNING delivery_id, delivery_created_at, number, started_at, response_status
), delivery AS (
  UPDATE deliveries d SET status = 'SUCCEEDED', attempt_count = a.number, last_attempt_at = a.started_at, next_attempt_at = NULL, updated_at = now(),
    response_classes = with_response_class(d.response_classes, a.response_status)
  FROM attempt a
  WHERE d.id = a.delivery_id AND d.created_at = a.delivery_created_at AND ${ofTheirMonths}
    AND d.status IN ('PENDING', 'CANCELLED') AND d.attempt_count = a.number - 1
  RETURNING d.endpoint_id
)
UPDATE webhook_endpoints SET consecutive_failures = 0
WHERE id IN (SELECT endpoint_id FROM delivery) AND consecutive_failures > 0`;
}

export interface RetryingAttempt extends DeliveryKey {
  endpointId: string;
  attempt: number;
  nextAttemptAt: Date;
  result: AnswerValues & { error: string | null };
}

/**
 * Failed attempts with retries left, recorded together, with their errors and when each next
 * attempt is due. Returns the deliveries that were still ours, whose next attempt is to be
 * queued (a CANCELLED one only counts its attempt).
 */
export function recordRetries(attempts: RetryingAttempt[]): Sql {
  const errorsAndTurns = sql`, ${attempts.map((a) => a.result.error)}::text[], ${attempts.map((a) => a.nextAttemptAt)}::timestamptz[]`;
  const ofTheirMonths = inTheirMonths(raw('d.created_at'), createdAts(attempts));
  return sql`
WITH input AS (
  SELECT * FROM ${unnestedAttempts(attempts, errorsAndTurns)}
    AS input(${ATTEMPT_INPUT_COLUMNS}, error, next_attempt_at)
), attempt AS (
  INSERT INTO delivery_attempts (${ATTEMPT_INPUT_COLUMNS}, error, succeeded)
  SELECT ${ATTEMPT_INPUT_COLUMNS}, error, false FROM input
  ON CONFLICT (delivery_id, number, delivery_created_at) DO NOTHING
  RETURNING delivery_id, number
), counted_while_cancelled AS (
  UPDATE deliveries d SET attempt_count = i.number, last_attempt_at = i.started_at, updated_at = now(),
    response_classes = with_response_class(d.response_classes, i.response_status)
  FROM input i JOIN attempt a ON a.delivery_id = i.delivery_id AND a.number = i.number
  WHERE d.id = i.delivery_id AND d.created_at = i.delivery_created_at AND ${ofTheirMonths} AND d.status = 'CANCELLED' AND d.attempt_count = i.number - 1
)
UPDATE deliveries d SET attempt_count = i.number, last_attempt_at = i.started_at, next_attempt_at = i.next_attempt_at, updated_at = now(),
  response_classes = with_response_class(d.response_classes, i.response_status)
FROM input i JOIN attempt a ON a.delivery_id = i.delivery_id AND a.number = i.number
WHERE d.id = i.delivery_id AND d.created_at = i.delivery_created_at AND ${ofTheirMonths} AND d.status = 'PENDING' AND d.attempt_count = i.number - 1
RETURNING d.id AS "deliveryId", d.created_at AS "deliveryCreatedAt", i.number AS attempt, i.next_attempt_at AS "nextAttemptAt"`;
}

export interface FailedAttempt extends DeliveryKey {
  endpointId: string;
  attempt: number;
  result: AnswerValues & { error: string | null; succeeded: boolean };
}

/** How a failure may disable its endpoint: after `afterFailures` in a row, or at once when `gone`, for `reason`. */
export interface Disabling {
  afterFailures: number;
  reason: string;
  gone: boolean;
}

/**
 * The last attempt failed: the delivery is FAILED and counts one consecutive failure on its
 * endpoint (a CANCELLED one only counts its attempt). At `afterFailures` failures, or at once
 * when `gone` (the receiver answered 410 Gone), an ACTIVE endpoint becomes DISABLED (for
 * `reason`), its other pending deliveries are cancelled, and an `endpoint.disabled` event goes
 * to the organization's other endpoints subscribed to it. Returns whether this failure disabled
 * the endpoint, and that event's deliveries (to queue).
 */
export function recordFailure({ deliveryId, deliveryCreatedAt, endpointId, attempt, result }: FailedAttempt, disabling: Disabling): Sql {
  const disables = sql`e.status = 'ACTIVE' AND (e.consecutive_failures + 1 >= ${disabling.afterFailures} OR ${disabling.gone}::boolean)`;
  return sql`
WITH attempt AS (
INSERT INTO delivery_attempts (${ATTEMPT_INPUT_COLUMNS}, error, succeeded)
VALUES (${deliveryId}, ${deliveryCreatedAt}, ${endpointId}::uuid, ${attempt}, ${result.startedAt}, ${result.durationMs}, ${result.status}, ${join(bodyValues(result.body), ', ')}, ${headersValue(result.requestHeaders)}::jsonb, ${headersValue(result.responseHeaders)}::jsonb, ${result.error}, ${result.succeeded})
ON CONFLICT (delivery_id, number, delivery_created_at) DO NOTHING
RETURNING delivery_id
), failed_delivery AS (
  UPDATE deliveries SET status = 'FAILED', attempt_count = ${attempt}, last_attempt_at = ${result.startedAt}, next_attempt_at = NULL, updated_at = now(),
    response_classes = with_response_class(response_classes, ${result.status})
  WHERE id = ${deliveryId} AND created_at = ${deliveryCreatedAt} AND status = 'PENDING' AND attempt_count = ${attempt} - 1 AND EXISTS (SELECT 1 FROM attempt)
  RETURNING endpoint_id
), counted_while_cancelled AS (
  UPDATE deliveries SET attempt_count = ${attempt}, last_attempt_at = ${result.startedAt}, updated_at = now(), response_classes = with_response_class(response_classes, ${result.status})
  WHERE id = ${deliveryId} AND created_at = ${deliveryCreatedAt} AND status = 'CANCELLED' AND attempt_count = ${attempt} - 1 AND EXISTS (SELECT 1 FROM attempt)
), endpoint AS (
  UPDATE webhook_endpoints e SET
    consecutive_failures = e.consecutive_failures + 1,
    status = CASE WHEN ${disables} THEN 'DISABLED' ELSE e.status END,
    disabled_at = CASE WHEN ${disables} THEN now() ELSE e.disabled_at END,
    disabled_reason = CASE WHEN ${disables} THEN ${disabling.reason} ELSE e.disabled_reason END
  FROM failed_delivery, webhook_endpoints before -- the same row as this statement found it
  WHERE e.id = failed_delivery.endpoint_id AND before.id = e.id
  RETURNING e.id, e.organization_id, e.url, e.name, e.disabled_reason, e.disabled_at,
            before.status = 'ACTIVE' AND e.status = 'DISABLED' AS just_disabled
), cancelled AS (
  UPDATE deliveries SET status = 'CANCELLED', next_attempt_at = NULL, updated_at = now()
  WHERE endpoint_id = (SELECT id FROM endpoint WHERE just_disabled) AND status = 'PENDING' AND id <> ${deliveryId}
), ${eventWithDeliveries(
    sql`SELECT organization_id, 'endpoint.disabled', ${ENDPOINT_DISABLED_DATA} FROM endpoint WHERE just_disabled`,
    // The statement sees the disabled endpoint as it was (ACTIVE): it is left out by id.
    sql`${subscribedEndpointCondition(raw("'endpoint.disabled'"))} AND e.id <> (SELECT id FROM endpoint)`,
  )}
SELECT coalesce((SELECT just_disabled FROM endpoint), false) AS "justDisabled",
       (SELECT created_at FROM event) AS "alertCreatedAt", coalesce((SELECT array_agg(id) FROM delivery), '{}') AS "alertDeliveryIds"`;
}
