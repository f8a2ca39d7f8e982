-- AlterTable
ALTER TABLE "incident_suspects" DROP CONSTRAINT "incident_suspects_pkey",
ADD COLUMN     "change_event_id" UUID,
ADD COLUMN     "id" UUID NOT NULL DEFAULT gen_random_uuid(),
ALTER COLUMN "deploy_id" DROP NOT NULL,
ADD CONSTRAINT "incident_suspects_pkey" PRIMARY KEY ("id");

-- CreateTable
CREATE TABLE "change_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "deploy_token_id" UUID NOT NULL,
    "idempotency_key" TEXT,
    "kind" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "environment" TEXT,
    "url" TEXT,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "change_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service_dependencies" (
    "service_id" UUID NOT NULL,
    "depends_on_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_dependencies_pkey" PRIMARY KEY ("service_id","depends_on_id")
);

-- CreateIndex
CREATE INDEX "change_events_service_id_environment_changed_at_idx" ON "change_events"("service_id", "environment", "changed_at");

-- CreateIndex
CREATE INDEX "change_events_organization_id_changed_at_idx" ON "change_events"("organization_id", "changed_at");

-- CreateIndex
CREATE UNIQUE INDEX "change_events_deploy_token_id_idempotency_key_key" ON "change_events"("deploy_token_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "service_dependencies_depends_on_id_idx" ON "service_dependencies"("depends_on_id");

-- CreateIndex
CREATE INDEX "deploys_service_id_environment_commit_sha_deployed_at_idx" ON "deploys"("service_id", "environment", "commit_sha", "deployed_at");

-- CreateIndex
CREATE INDEX "deploys_service_id_environment_version_deployed_at_idx" ON "deploys"("service_id", "environment", "version", "deployed_at");

-- CreateIndex
CREATE INDEX "incident_suspects_change_event_id_idx" ON "incident_suspects"("change_event_id");

-- CreateIndex
CREATE UNIQUE INDEX "incident_suspects_incident_id_deploy_id_key" ON "incident_suspects"("incident_id", "deploy_id");

-- CreateIndex
CREATE UNIQUE INDEX "incident_suspects_incident_id_change_event_id_key" ON "incident_suspects"("incident_id", "change_event_id");

-- CreateIndex
CREATE INDEX "incidents_organization_id_status_started_at_idx" ON "incidents"("organization_id", "status", "started_at");

-- AddForeignKey
ALTER TABLE "incident_suspects" ADD CONSTRAINT "incident_suspects_change_event_id_fkey" FOREIGN KEY ("change_event_id") REFERENCES "change_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_events" ADD CONSTRAINT "change_events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_events" ADD CONSTRAINT "change_events_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_events" ADD CONSTRAINT "change_events_deploy_token_id_fkey" FOREIGN KEY ("deploy_token_id") REFERENCES "deploy_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "service_dependencies" ADD CONSTRAINT "service_dependencies_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "service_dependencies" ADD CONSTRAINT "service_dependencies_depends_on_id_fkey" FOREIGN KEY ("depends_on_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma does not model CHECK constraints): a suspect is a deploy or a change
-- event, never both nor neither; a service cannot depend on itself.
ALTER TABLE "incident_suspects" ADD CONSTRAINT "incident_suspects_one_subject" CHECK (num_nonnulls("deploy_id", "change_event_id") = 1);
ALTER TABLE "service_dependencies" ADD CONSTRAINT "service_dependencies_not_self" CHECK ("service_id" <> "depends_on_id");
