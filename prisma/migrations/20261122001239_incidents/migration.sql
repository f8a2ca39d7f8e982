-- CreateEnum
CREATE TYPE "IncidentStatus" AS ENUM ('OPEN', 'ACKNOWLEDGED', 'RESOLVED');

-- CreateEnum
CREATE TYPE "Severity" AS ENUM ('SEV1', 'SEV2', 'SEV3', 'SEV4');

-- CreateEnum
CREATE TYPE "SuspectVerdict" AS ENUM ('CAUSED', 'DISMISSED');

-- CreateTable
CREATE TABLE "incidents" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "severity" "Severity" NOT NULL DEFAULT 'SEV3',
    "environment" TEXT,
    "status" "IncidentStatus" NOT NULL DEFAULT 'OPEN',
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledged_at" TIMESTAMPTZ(3),
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "incidents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_suspects" (
    "incident_id" UUID NOT NULL,
    "deploy_id" UUID NOT NULL,
    "rank" INTEGER NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "reasons" JSONB NOT NULL,
    "verdict" "SuspectVerdict",
    "verdict_at" TIMESTAMPTZ(3),

    CONSTRAINT "incident_suspects_pkey" PRIMARY KEY ("incident_id","deploy_id")
);

-- CreateIndex
CREATE INDEX "incidents_organization_id_opened_at_idx" ON "incidents"("organization_id", "opened_at");

-- CreateIndex
CREATE INDEX "incidents_service_id_started_at_idx" ON "incidents"("service_id", "started_at");

-- CreateIndex
CREATE INDEX "incident_suspects_deploy_id_idx" ON "incident_suspects"("deploy_id");

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_suspects" ADD CONSTRAINT "incident_suspects_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_suspects" ADD CONSTRAINT "incident_suspects_deploy_id_fkey" FOREIGN KEY ("deploy_id") REFERENCES "deploys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
