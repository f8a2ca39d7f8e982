-- Webhook history (events, deliveries, delivery attempts) partitioned by month, so that retention
-- detaches and drops a month's partitions (its space returns to the disk, almost no WAL is
-- written) instead of deleting rows. Deliveries and events are partitioned on created_at; an
-- attempt on its delivery's created_at (delivery_created_at, new). Keys and unique constraints
-- include the partition key. A delivery references its event by (event_id, created_at): one
-- statement writes an event and its deliveries, so they share created_at.
--
-- The rows are moved in this migration's transaction: the tables are renamed, partitioned ones
-- of the same columns made with a partition for every month from the oldest event to two months
-- ahead (the hourly job keeps two ahead from then on) and a default one (a row no month takes),
-- the rows copied, the old tables dropped, then keys, indexes, foreign keys and triggers made
-- under the names Prisma gives them (its diff does not see PARTITION BY). Every write to the three
-- tables waits until it commits.

-- CreateFunction
CREATE OR REPLACE FUNCTION "hookline_history_partition"(parent text, month date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                 parent || '_' || to_char(month, 'YYYY_MM'), parent,
                 month::timestamp AT TIME ZONE 'UTC', (month + interval '1 month')::timestamp AT TIME ZONE 'UTC');
END $$;

-- Partition
ALTER TABLE "events" RENAME TO "events_unpartitioned";
ALTER TABLE "deliveries" RENAME TO "deliveries_unpartitioned";
ALTER TABLE "delivery_attempts" RENAME TO "delivery_attempts_unpartitioned";
DROP TRIGGER "events_notify" ON "events_unpartitioned";
DROP TRIGGER "deliveries_notify" ON "deliveries_unpartitioned";
CREATE TABLE "events" (LIKE "events_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("created_at");
CREATE TABLE "deliveries" (LIKE "deliveries_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("created_at");
CREATE TABLE "delivery_attempts" (LIKE "delivery_attempts_unpartitioned" INCLUDING DEFAULTS, "delivery_created_at" TIMESTAMPTZ(3) NOT NULL)
  PARTITION BY RANGE ("delivery_created_at");
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
CREATE TABLE "deliveries_default" PARTITION OF "deliveries" DEFAULT;
CREATE TABLE "delivery_attempts_default" PARTITION OF "delivery_attempts" DEFAULT;
SELECT "hookline_history_partition"(t, m::date)
FROM unnest(ARRAY['events', 'deliveries', 'delivery_attempts']) AS t,
     generate_series(date_trunc('month', (SELECT coalesce(min("created_at"), now()) FROM "events_unpartitioned") AT TIME ZONE 'UTC'),
                     date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months', interval '1 month') AS m;
INSERT INTO "events" SELECT * FROM "events_unpartitioned";
INSERT INTO "deliveries" SELECT * FROM "deliveries_unpartitioned";
INSERT INTO "delivery_attempts"
SELECT a.*, d."created_at" FROM "delivery_attempts_unpartitioned" a JOIN "deliveries_unpartitioned" d ON d."id" = a."delivery_id";
DROP TABLE "delivery_attempts_unpartitioned", "deliveries_unpartitioned", "events_unpartitioned";

-- AddPrimaryKey, CreateIndex
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY ("id", "created_at");
CREATE INDEX "events_organization_id_created_at_id_idx" ON "events"("organization_id", "created_at", "id");
CREATE INDEX "events_organization_id_type_created_at_id_idx" ON "events"("organization_id", "type", "created_at", "id");
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id", "created_at");
CREATE INDEX "deliveries_endpoint_id_created_at_id_idx" ON "deliveries"("endpoint_id", "created_at", "id");
CREATE INDEX "deliveries_endpoint_id_status_created_at_id_idx" ON "deliveries"("endpoint_id", "status", "created_at", "id");
CREATE INDEX "deliveries_event_id_idx" ON "deliveries"("event_id");
CREATE INDEX "deliveries_organization_id_created_at_id_response_classes_idx" ON "deliveries"("organization_id", "created_at", "id", "response_classes");
CREATE INDEX "deliveries_organization_id_event_type_created_at_id_idx" ON "deliveries"("organization_id", "event_type", "created_at", "id");
CREATE INDEX "deliveries_organization_id_status_created_at_id_idx" ON "deliveries"("organization_id", "status", "created_at", "id");
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_pkey" PRIMARY KEY ("id", "delivery_created_at");
CREATE UNIQUE INDEX "delivery_attempts_delivery_id_number_delivery_created_at_key" ON "delivery_attempts"("delivery_id", "number", "delivery_created_at");
CREATE INDEX "delivery_attempts_endpoint_id_started_at_duration_ms_idx" ON "delivery_attempts"("endpoint_id", "started_at", "duration_ms");

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_event_id_created_at_fkey" FOREIGN KEY ("event_id", "created_at") REFERENCES "events"("id", "created_at") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_delivery_created_at_fkey" FOREIGN KEY ("delivery_id", "delivery_created_at") REFERENCES "deliveries"("id", "created_at") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTrigger
CREATE TRIGGER events_notify
AFTER INSERT ON "events"
FOR EACH ROW EXECUTE FUNCTION hookline_notify_event();
CREATE TRIGGER deliveries_notify
AFTER INSERT OR UPDATE OF status, attempt_count ON "deliveries"
FOR EACH ROW EXECUTE FUNCTION hookline_notify_delivery();

-- Queued attempts name their delivery by (id, created_at) from now on: those already queued get
-- their delivery's created_at (pg-boss's schema exists once a Hookline process has started).
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    UPDATE pgboss.job j
    SET data = j.data || jsonb_build_object('deliveryCreatedAt', to_char(d."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    FROM "deliveries" d
    WHERE j.name = 'deliver' AND j.state < 'completed' AND d."id" = (j.data->>'deliveryId')::uuid;
  END IF;
END $$;

-- Autovacuum analyzes partitions but never a partitioned parent: without statistics, joins
-- through the parents are planned blind (a worker's batch read took 280 ms instead of 12).
ANALYZE "events", "deliveries", "delivery_attempts";
