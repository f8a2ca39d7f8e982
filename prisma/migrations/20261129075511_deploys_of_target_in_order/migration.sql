-- DropIndex
DROP INDEX "deploys_service_id_environment_deployed_at_idx";

-- CreateIndex
CREATE INDEX "deploys_service_id_environment_deployed_at_id_idx" ON "deploys"("service_id", "environment", "deployed_at", "id");

-- CreateIndex
CREATE INDEX "deploys_without_environment_service_id_deployed_at_id_idx" ON "deploys"("service_id", "deployed_at", "id") WHERE (environment IS NULL);
