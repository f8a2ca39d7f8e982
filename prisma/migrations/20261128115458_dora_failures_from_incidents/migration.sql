-- CreateIndex
CREATE INDEX "incidents_organization_id_started_at_idx" ON "incidents"("organization_id", "started_at");
