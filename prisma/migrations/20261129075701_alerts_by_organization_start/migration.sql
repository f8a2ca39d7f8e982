-- CreateIndex
CREATE INDEX "alerts_organization_id_starts_at_idx" ON "alerts"("organization_id", "starts_at");
