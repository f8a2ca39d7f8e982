-- Attempts made while their delivery was cancelled (its endpoint disabled or deleted mid-flight)
-- were stored without being counted: the delivery kept the previous number, so its next attempt
-- repeated a stored number and was dropped, and a PENDING one was sent again by every
-- reconciliation without ever being recorded. Each such delivery now counts its attempts, and
-- one that an attempt delivered (a 2xx) is SUCCEEDED.
UPDATE "deliveries" d SET
  "attempt_count" = made.last_number,
  "last_attempt_at" = greatest(d."last_attempt_at", made.last_started_at),
  "status" = CASE WHEN made.delivered THEN 'SUCCEEDED' ELSE d."status" END,
  "next_attempt_at" = CASE WHEN made.delivered THEN NULL ELSE d."next_attempt_at" END,
  "updated_at" = now()
FROM (
  SELECT a."delivery_id", max(a."number") AS last_number, max(a."started_at") AS last_started_at, bool_or(a."succeeded") AS delivered
  FROM "delivery_attempts" a JOIN "deliveries" x ON x."id" = a."delivery_id"
  WHERE x."status" IN ('CANCELLED', 'PENDING')
  GROUP BY a."delivery_id"
) made
WHERE d."id" = made."delivery_id" AND d."attempt_count" < made.last_number;
