-- AlterTable
-- Each attempt keeps its delivery's endpoint, so that an endpoint's charts read its attempts by
-- time from one index instead of probing the attempts of each of its deliveries. The attempts
-- kept so far get theirs in one statement, in this migration's transaction: the column is NOT
-- NULL once it ends, and batches in one transaction would hold the same locks no shorter (a join
-- with deliveries by id, every row rewritten once). The index is built after the fill, in one
-- sorted pass instead of row by row.
ALTER TABLE "delivery_attempts" ADD COLUMN "endpoint_id" UUID;
UPDATE "delivery_attempts" a SET "endpoint_id" = d."endpoint_id" FROM "deliveries" d WHERE d."id" = a."delivery_id";
ALTER TABLE "delivery_attempts" ALTER COLUMN "endpoint_id" SET NOT NULL;

-- CreateIndex
CREATE INDEX "delivery_attempts_endpoint_id_started_at_duration_ms_idx" ON "delivery_attempts"("endpoint_id", "started_at", "duration_ms");
