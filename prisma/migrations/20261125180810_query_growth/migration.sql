-- DropIndex
DROP INDEX "deliveries_endpoint_id_created_at_idx";

-- DropIndex
DROP INDEX "deliveries_organization_id_created_at_idx";

-- DropIndex
DROP INDEX "deliveries_organization_id_status_created_at_idx";

-- DropIndex
DROP INDEX "events_organization_id_created_at_idx";

-- DropIndex
DROP INDEX "events_organization_id_type_created_at_idx";

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "event_type" TEXT;
UPDATE "deliveries" d SET "event_type" = e."type" FROM "events" e WHERE e."id" = d."event_id";
ALTER TABLE "deliveries" ALTER COLUMN "event_type" SET NOT NULL;

-- CreateTable
CREATE TABLE "dora_days" (
    "organization_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "environment" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "deploy_count" INTEGER NOT NULL,
    "lead_times_ms" DOUBLE PRECISION[],

    CONSTRAINT "dora_days_pkey" PRIMARY KEY ("service_id","environment","day")
);

-- CreateIndex
CREATE INDEX "dora_days_organization_id_day_idx" ON "dora_days"("organization_id", "day");

-- CreateIndex
CREATE INDEX "deliveries_endpoint_id_created_at_id_idx" ON "deliveries"("endpoint_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "deliveries_endpoint_id_status_created_at_id_idx" ON "deliveries"("endpoint_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "deliveries_organization_id_created_at_id_idx" ON "deliveries"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "deliveries_organization_id_status_created_at_id_idx" ON "deliveries"("organization_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "deliveries_organization_id_event_type_created_at_id_idx" ON "deliveries"("organization_id", "event_type", "created_at", "id");

-- CreateIndex
CREATE INDEX "events_organization_id_created_at_id_idx" ON "events"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "events_organization_id_type_created_at_id_idx" ON "events"("organization_id", "type", "created_at", "id");

-- AddForeignKey
ALTER TABLE "dora_days" ADD CONSTRAINT "dora_days_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dora_days" ADD CONSTRAINT "dora_days_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- DORA's daily figures, kept by the transaction that ingests deploys and commits (statement
-- triggers: one upsert per day touched, however many rows the statement wrote). Deploys and
-- commits are never updated; deleting them does not change the figures (what was deployed stays
-- deployed), and deleting a service or an organization deletes its days.
CREATE FUNCTION "dora_days_add_deploys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dora_days" ("organization_id", "service_id", "environment", "day", "deploy_count", "lead_times_ms")
  SELECT "organization_id", "service_id", coalesce("environment", ''), ("deployed_at" AT TIME ZONE 'UTC')::date, count(*), '{}'
  FROM inserted GROUP BY 1, 2, 3, 4
  ON CONFLICT ("service_id", "environment", "day") DO UPDATE SET "deploy_count" = "dora_days"."deploy_count" + excluded."deploy_count";
  RETURN NULL;
END $$;

CREATE TRIGGER "deploys_dora_days" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "dora_days_add_deploys"();

CREATE FUNCTION "dora_days_add_lead_times"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dora_days" ("organization_id", "service_id", "environment", "day", "deploy_count", "lead_times_ms")
  SELECT d."organization_id", d."service_id", coalesce(d."environment", ''), (d."deployed_at" AT TIME ZONE 'UTC')::date, 0,
         array_agg((extract(epoch FROM d."deployed_at" - c."timestamp") * 1000)::float8)
  FROM inserted c JOIN "deploys" d ON d."id" = c."deploy_id"
  WHERE c."timestamp" <= d."deployed_at"
  GROUP BY 1, 2, 3, 4
  ON CONFLICT ("service_id", "environment", "day") DO UPDATE SET "lead_times_ms" = "dora_days"."lead_times_ms" || excluded."lead_times_ms";
  RETURN NULL;
END $$;

CREATE TRIGGER "commits_dora_days" AFTER INSERT ON "commits"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "dora_days_add_lead_times"();

-- The days of the deploys made so far.
INSERT INTO "dora_days" ("organization_id", "service_id", "environment", "day", "deploy_count", "lead_times_ms")
SELECT d."organization_id", d."service_id", coalesce(d."environment", ''), (d."deployed_at" AT TIME ZONE 'UTC')::date, count(DISTINCT d."id"),
       coalesce(array_agg(l."ms") FILTER (WHERE l."ms" IS NOT NULL), '{}')
FROM "deploys" d
LEFT JOIN LATERAL (
  SELECT array_agg((extract(epoch FROM d."deployed_at" - c."timestamp") * 1000)::float8) AS "values"
  FROM "commits" c WHERE c."deploy_id" = d."id" AND c."timestamp" <= d."deployed_at"
) lt ON true
LEFT JOIN LATERAL unnest(coalesce(lt."values", '{NULL}'::float8[])) AS l("ms") ON true
GROUP BY 1, 2, 3, 4;
