// The statements of the recorder (recorder.ts): what an attempt's outcome writes. Outcomes are
// recorded in batches (a statement per kind of outcome); every update is guarded by the attempt
// number it expects, so a stale or repeated job changes nothing. An attempt made while its
// delivery was cancelled (its endpoint disabled or deleted mid-flight) still counts: a later
// attempt gets the next number, and one that got a 2xx delivered it. Each statement is built by
// one function, with its values: the parameter numbers are filled in nowhere else.
import type { Statement } from '../db/statement.ts';
import { subscribedEndpointCondition } from '../domain/webhooks/events.ts';
import { eventWithDeliveries } from '../domain/webhooks/outbox.ts';
import type { KeptBody } from './response-body.ts';

/** The deliveries still PENDING become CANCELLED (their endpoint stopped being live). */
export function cancelDeliveries(deliveryIds: string[]): Statement {
  return {
    text: `
UPDATE deliveries SET status = 'CANCELLED', next_attempt_at = NULL, updated_at = now()
WHERE id = ANY ($1::uuid[]) AND status = 'PENDING'`,
    values: [deliveryIds],
  };
}

/** Each delivery's next attempt is now due at the turn its endpoint's rate limit (or open circuit) gave it. */
export function deferDeliveries(deferred: { deliveryId: string; startAfter: Date }[]): Statement {
  return {
    text: `
UPDATE deliveries d SET next_attempt_at = turn.at, updated_at = now()
FROM unnest($1::uuid[], $2::timestamptz[]) AS turn(id, at)
WHERE d.id = turn.id AND d.status = 'PENDING'`,
    values: [deferred.map((outcome) => outcome.deliveryId), deferred.map((outcome) => outcome.startAfter)],
  };
}

/** The columns of an attempt's answer, in the order of its values (see attemptColumns). */
const ANSWER_COLUMNS =
  'response_status, response_body, response_body_bytes, response_content_encoding, response_body_decoded, request_headers, response_headers';

/**
 * $1 delivery, $2 attempt number, $3 started at, $4 duration ms, $5 status, $6 body text,
 * $7 body bytes, $8 content encoding, $9 decoded, $10 request headers, $11 response headers (JSON), $12 error, $13 succeeded.
 */
const INSERT_ATTEMPT = `
INSERT INTO delivery_attempts (delivery_id, number, started_at, duration_ms, ${ANSWER_COLUMNS}, error, succeeded)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13)
ON CONFLICT (delivery_id, number) DO NOTHING
RETURNING delivery_id`;

/** In the endpoint update of RECORD_FAILURE_SQL: this failure disables the endpoint. */
const DISABLES = `e.status = 'ACTIVE' AND (e.consecutive_failures + 1 >= $14 OR $16::boolean)`;

/** The `data` of an endpoint.disabled event, from the disabled endpoint's row. */
const ENDPOINT_DISABLED_DATA = `jsonb_build_object(
    'endpoint', jsonb_build_object('id', id, 'url', url, 'name', name),
    'reason', disabled_reason,
    'disabledAt', to_char(disabled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

const CLAIMED_DELIVERY = `id = $1 AND status = 'PENDING' AND attempt_count = $2 - 1 AND EXISTS (SELECT 1 FROM attempt)`;

/** The arrays of attemptColumns ($1 to $11), and `more` after them, unnested. */
const unnestAttempts = (more = '') =>
  `unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::bytea[], $8::text[], $9::boolean[], $10::jsonb[], $11::jsonb[]${more})`;
const ATTEMPT_INPUT_COLUMNS = `delivery_id, number, started_at, duration_ms, ${ANSWER_COLUMNS}`;

/**
 * 2xx attempts, recorded together (commits that notify are serialised by PostgreSQL, so fewer
 * and bigger ones go faster): each delivery succeeded (a CANCELLED one too: the receiver has
 * it), and its endpoint's failure streak ends. Arrays: those of attemptColumns.
 */
const RECORD_SUCCESSES_SQL = `
WITH attempt AS (
  INSERT INTO delivery_attempts (${ATTEMPT_INPUT_COLUMNS}, error, succeeded)
  SELECT ${ATTEMPT_INPUT_COLUMNS}, NULL, true
  FROM ${unnestAttempts()} AS input(${ATTEMPT_INPUT_COLUMNS})
  ON CONFLICT (delivery_id, number) DO NOTHING
  RETURNING delivery_id, number, started_at, response_status
), delivery AS (
  UPDATE deliveries d SET status = 'SUCCEEDED', attempt_count = a.number, last_attempt_at = a.started_at, next_attempt_at = NULL, updated_at = now(),
    response_classes = with_response_class(d.response_classes, a.response_status)
  FROM attempt a
  WHERE d.id = a.delivery_id AND d.status IN ('PENDING', 'CANCELLED') AND d.attempt_count = a.number - 1
  RETURNING d.endpoint_id
)
UPDATE webhook_endpoints SET consecutive_failures = 0
WHERE id IN (SELECT endpoint_id FROM delivery) AND consecutive_failures > 0`;

export interface SucceededAttempt {
  deliveryId: string;
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

/** The columns every recorded attempt has, as the arrays the batch statements unnest ($1 to $11). */
function attemptColumns(attempts: SucceededAttempt[]): unknown[] {
  const bodies = attempts.map((a) => bodyValues(a.result.body));
  return [
    attempts.map((a) => a.deliveryId),
    attempts.map((a) => a.attempt),
    attempts.map((a) => a.result.startedAt),
    attempts.map((a) => a.result.durationMs),
    attempts.map((a) => a.result.status),
    ...[0, 1, 2, 3].map((column) => bodies.map((values) => values[column])),
    attempts.map((a) => headersValue(a.result.requestHeaders)),
    attempts.map((a) => headersValue(a.result.responseHeaders)),
  ];
}

export function recordSuccesses(attempts: SucceededAttempt[]): Statement {
  return { text: RECORD_SUCCESSES_SQL, values: attemptColumns(attempts) };
}

/**
 * Failed attempts with retries left, recorded together. Arrays: those of attemptColumns, $12
 * errors, $13 when the next attempt is due. Returns the deliveries that were still ours, whose
 * next attempt is to be queued (a CANCELLED one only counts its attempt).
 */
const RECORD_RETRIES_SQL = `
WITH input AS (
  SELECT * FROM ${unnestAttempts(', $12::text[], $13::timestamptz[]')}
    AS input(${ATTEMPT_INPUT_COLUMNS}, error, next_attempt_at)
), attempt AS (
  INSERT INTO delivery_attempts (${ATTEMPT_INPUT_COLUMNS}, error, succeeded)
  SELECT ${ATTEMPT_INPUT_COLUMNS}, error, false FROM input
  ON CONFLICT (delivery_id, number) DO NOTHING
  RETURNING delivery_id, number
), counted_while_cancelled AS (
  UPDATE deliveries d SET attempt_count = i.number, last_attempt_at = i.started_at, updated_at = now(),
    response_classes = with_response_class(d.response_classes, i.response_status)
  FROM input i JOIN attempt a ON a.delivery_id = i.delivery_id AND a.number = i.number
  WHERE d.id = i.delivery_id AND d.status = 'CANCELLED' AND d.attempt_count = i.number - 1
)
UPDATE deliveries d SET attempt_count = i.number, last_attempt_at = i.started_at, next_attempt_at = i.next_attempt_at, updated_at = now(),
  response_classes = with_response_class(d.response_classes, i.response_status)
FROM input i JOIN attempt a ON a.delivery_id = i.delivery_id AND a.number = i.number
WHERE d.id = i.delivery_id AND d.status = 'PENDING' AND d.attempt_count = i.number - 1
RETURNING d.id AS "deliveryId", i.number AS attempt, i.next_attempt_at AS "nextAttemptAt"`;

export interface RetryingAttempt {
  deliveryId: string;
  attempt: number;
  nextAttemptAt: Date;
  result: AnswerValues & { error: string | null };
}

export function recordRetries(attempts: RetryingAttempt[]): Statement {
  return {
    text: RECORD_RETRIES_SQL,
    values: [...attemptColumns(attempts), attempts.map((a) => a.result.error), attempts.map((a) => a.nextAttemptAt)],
  };
}

/**
 * The last attempt failed ($1 to $13: see INSERT_ATTEMPT): the delivery is FAILED and counts one
 * consecutive failure on its endpoint (a CANCELLED one only counts its attempt). At $14 failures, or at once when $16 (the receiver
 * answered 410 Gone), an ACTIVE endpoint becomes DISABLED (reason $15), its other pending deliveries are cancelled, and an
 * `endpoint.disabled` event goes to the organization's other endpoints subscribed to it.
 * Returns whether this failure disabled the endpoint, and that event's deliveries (to queue).
 */
const RECORD_FAILURE_SQL = `
WITH attempt AS (${INSERT_ATTEMPT}
), failed_delivery AS (
  UPDATE deliveries SET status = 'FAILED', attempt_count = $2, last_attempt_at = $3, next_attempt_at = NULL, updated_at = now(),
    response_classes = with_response_class(response_classes, $5)
  WHERE ${CLAIMED_DELIVERY}
  RETURNING endpoint_id
), counted_while_cancelled AS (
  UPDATE deliveries SET attempt_count = $2, last_attempt_at = $3, updated_at = now(), response_classes = with_response_class(response_classes, $5)
  WHERE id = $1 AND status = 'CANCELLED' AND attempt_count = $2 - 1 AND EXISTS (SELECT 1 FROM attempt)
), endpoint AS (
  UPDATE webhook_endpoints e SET
    consecutive_failures = e.consecutive_failures + 1,
    status = CASE WHEN ${DISABLES} THEN 'DISABLED' ELSE e.status END,
    disabled_at = CASE WHEN ${DISABLES} THEN now() ELSE e.disabled_at END,
    disabled_reason = CASE WHEN ${DISABLES} THEN $15 ELSE e.disabled_reason END
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

export interface FailedAttempt {
  deliveryId: string;
  attempt: number;
  result: AnswerValues & { error: string | null; succeeded: boolean };
}

/** How a failure may disable its endpoint: after `afterFailures` in a row, or at once when `gone`, for `reason`. */
export interface Disabling {
  afterFailures: number;
  reason: string;
  gone: boolean;
}

export function recordFailure({ deliveryId, attempt, result }: FailedAttempt, disabling: Disabling): Statement {
  return {
    text: RECORD_FAILURE_SQL,
    values: [
      ...[deliveryId, attempt, result.startedAt, result.durationMs, result.status, ...bodyValues(result.body)],
      headersValue(result.requestHeaders),
      headersValue(result.responseHeaders),
      result.error,
      result.succeeded,
      disabling.afterFailures,
      disabling.reason,
      disabling.gone,
    ],
  };
}
