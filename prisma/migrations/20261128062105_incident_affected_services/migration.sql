-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "also_affected_service_ids" UUID[] DEFAULT ARRAY[]::UUID[];

-- CreateIndex
CREATE INDEX "incidents_also_affected_service_ids_idx" ON "incidents" USING GIN ("also_affected_service_ids");
