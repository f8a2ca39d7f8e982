-- CreateEnum
CREATE TYPE "ActorKind" AS ENUM ('SYSTEM', 'API_TOKEN', 'ALERT_SOURCE', 'PERSON');

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_kind" "ActorKind" NOT NULL,
    "actor_id" UUID,
    "action" TEXT NOT NULL,
    "object_id" UUID,
    "summary" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_organization_id_at_id_idx" ON "audit_entries"("organization_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_organization_id_object_id_at_idx" ON "audit_entries"("organization_id", "object_id", "at" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_organization_id_actor_id_at_idx" ON "audit_entries"("organization_id", "actor_id", "at" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_at_idx" ON "audit_entries"("at");

-- AddForeignKey
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
