-- DropIndex
DROP INDEX "deliveries_organization_id_created_at_id_idx";

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "response_classes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- The class of answer an attempt's status is in (as the deliveries search names them; no status:
-- no answer): NULL for a status in none (1xx, 600 and above).
CREATE FUNCTION "response_status_class"(status integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status IS NULL THEN 'NO_RESPONSE'
              WHEN status BETWEEN 200 AND 299 THEN 'SUCCESS'
              WHEN status BETWEEN 300 AND 399 THEN 'REDIRECT'
              WHEN status BETWEEN 400 AND 499 THEN 'CLIENT_ERROR'
              WHEN status BETWEEN 500 AND 599 THEN 'SERVER_ERROR' END
$$;

-- A delivery's classes with that of one more attempt's answer (NULL status: no answer).
CREATE FUNCTION "with_response_class"(classes text[], status integer) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cls IS NULL OR cls = ANY (classes) THEN classes ELSE classes || cls END
  FROM (SELECT "response_status_class"(status) AS cls) c
$$;

-- The deliveries made so far, from their attempts.
UPDATE "deliveries" d SET "response_classes" = a.classes
FROM (SELECT "delivery_id", array_agg(DISTINCT "response_status_class"("response_status")) FILTER (
        WHERE "response_status_class"("response_status") IS NOT NULL) AS classes
      FROM "delivery_attempts" GROUP BY "delivery_id") a
WHERE d."id" = a."delivery_id" AND a.classes IS NOT NULL;

-- CreateIndex
CREATE INDEX "deliveries_organization_id_created_at_id_response_classes_idx" ON "deliveries"("organization_id", "created_at", "id", "response_classes");
