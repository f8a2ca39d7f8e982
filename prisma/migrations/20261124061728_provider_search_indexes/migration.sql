-- DropIndex
DROP INDEX "deliveries_organization_id_status_idx";

-- CreateIndex
CREATE INDEX "deliveries_organization_id_created_at_idx" ON "deliveries"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "deliveries_organization_id_status_created_at_idx" ON "deliveries"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "deliveries_event_id_idx" ON "deliveries"("event_id");

-- CreateIndex
CREATE INDEX "events_organization_id_type_created_at_idx" ON "events"("organization_id", "type", "created_at");
