-- CreateEnum
CREATE TYPE "AlertSourceKind" AS ENUM ('ALERTMANAGER', 'PAGERDUTY_EVENTS');

-- CreateEnum
CREATE TYPE "AlertStatus" AS ENUM ('FIRING', 'RESOLVED');

-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "alert_group_key" TEXT,
ADD COLUMN     "alert_source_id" UUID;

-- CreateTable
CREATE TABLE "alert_sources" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "AlertSourceKind" NOT NULL,
    "token_prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_received_at" TIMESTAMPTZ(3),

    CONSTRAINT "alert_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "alert_source_id" UUID,
    "incident_id" UUID,
    "group_key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" "AlertStatus" NOT NULL,
    "labels" JSONB NOT NULL,
    "annotations" JSONB NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3),
    "generator_url" TEXT,
    "unrouted_reason" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "alert_sources_token_hash_key" ON "alert_sources"("token_hash");

-- CreateIndex
CREATE INDEX "alert_sources_organization_id_created_at_idx" ON "alert_sources"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "alerts_alert_source_id_group_key_fingerprint_starts_at_idx" ON "alerts"("alert_source_id", "group_key", "fingerprint", "starts_at");

-- CreateIndex
CREATE INDEX "alerts_incident_id_starts_at_idx" ON "alerts"("incident_id", "starts_at");

-- CreateIndex
CREATE UNIQUE INDEX "alerts_incident_id_fingerprint_key" ON "alerts"("incident_id", "fingerprint");

-- CreateIndex
CREATE INDEX "incidents_alert_source_id_alert_group_key_service_id_idx" ON "incidents"("alert_source_id", "alert_group_key", "service_id");

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_alert_source_id_fkey" FOREIGN KEY ("alert_source_id") REFERENCES "alert_sources"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_sources" ADD CONSTRAINT "alert_sources_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_alert_source_id_fkey" FOREIGN KEY ("alert_source_id") REFERENCES "alert_sources"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
