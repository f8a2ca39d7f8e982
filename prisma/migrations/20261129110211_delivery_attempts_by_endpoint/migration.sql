-- AlterTable
-- Each attempt keeps its delivery's endpoint, so that an endpoint's charts read its attempts by
-- time from one index instead of probing the attempts of each of its deliveries. The attempts
-- kept so far get theirs by rewriting the table once (ALTER COLUMN ... USING: each row's endpoint
-- looked up by its delivery's id, every index rebuilt by sorting), in this migration's
-- transaction. An UPDATE of every row instead writes each row's new version beside the old one
-- and an entry per row into each uuid index at a random page: on 1M attempts it wrote about 8
-- times the WAL and left the table twice its size. The look-up is a function because USING takes
-- no subquery; it lives in pg_temp, for this migration only.
ALTER TABLE "delivery_attempts" ADD COLUMN "endpoint_id" UUID;
CREATE FUNCTION pg_temp.delivery_endpoint(delivery uuid) RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT "endpoint_id" FROM "deliveries" WHERE "id" = delivery
$$;
ALTER TABLE "delivery_attempts" ALTER COLUMN "endpoint_id" TYPE UUID USING pg_temp.delivery_endpoint("delivery_id");
ALTER TABLE "delivery_attempts" ALTER COLUMN "endpoint_id" SET NOT NULL;
DROP FUNCTION pg_temp.delivery_endpoint(uuid);

-- CreateIndex
CREATE INDEX "delivery_attempts_endpoint_id_started_at_duration_ms_idx" ON "delivery_attempts"("endpoint_id", "started_at", "duration_ms");
