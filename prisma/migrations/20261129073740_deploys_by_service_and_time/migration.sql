-- CreateIndex
CREATE INDEX "deploys_service_id_deployed_at_id_idx" ON "deploys"("service_id", "deployed_at", "id");
