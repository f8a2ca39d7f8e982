-- CreateEnum
CREATE TYPE "IncidentActivityKind" AS ENUM ('OPENED', 'RERANKED', 'VERDICT', 'ACKNOWLEDGED', 'NOTE', 'RESOLVED');

-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "acknowledged_by_id" UUID,
ADD COLUMN     "acknowledged_by_kind" "ActorKind",
ADD COLUMN     "resolved_by_id" UUID,
ADD COLUMN     "resolved_by_kind" "ActorKind";

-- CreateTable
CREATE TABLE "incident_notes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "incident_id" UUID NOT NULL,
    "author_kind" "ActorKind" NOT NULL,
    "author_id" UUID,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incident_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_activities" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "incident_id" UUID NOT NULL,
    "kind" "IncidentActivityKind" NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_kind" "ActorKind" NOT NULL,
    "actor_id" UUID,
    "verdict" "SuspectVerdict",
    "deploy_id" UUID,
    "change_event_id" UUID,
    "note_id" UUID,

    CONSTRAINT "incident_activities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "incident_notes_incident_id_created_at_idx" ON "incident_notes"("incident_id", "created_at");

-- CreateIndex
CREATE INDEX "incident_activities_incident_id_at_idx" ON "incident_activities"("incident_id", "at");

-- AddForeignKey
ALTER TABLE "incident_notes" ADD CONSTRAINT "incident_notes_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_activities" ADD CONSTRAINT "incident_activities_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_activities" ADD CONSTRAINT "incident_activities_note_id_fkey" FOREIGN KEY ("note_id") REFERENCES "incident_notes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Incidents recorded before actors were: what they went through is on their timelines, done by
-- Hookline itself (System), or opened by their alert source when one opened them.
UPDATE "incidents" SET "acknowledged_by_kind" = 'SYSTEM' WHERE "acknowledged_at" IS NOT NULL;
UPDATE "incidents" SET "resolved_by_kind" = 'SYSTEM' WHERE "resolved_at" IS NOT NULL;
INSERT INTO "incident_activities" ("incident_id", "kind", "at", "actor_kind", "actor_id")
SELECT "id", 'OPENED'::"IncidentActivityKind", "started_at", CASE WHEN "alert_source_id" IS NULL THEN 'SYSTEM' ELSE 'ALERT_SOURCE' END::"ActorKind", "alert_source_id" FROM "incidents"
UNION ALL
SELECT "id", 'ACKNOWLEDGED'::"IncidentActivityKind", "acknowledged_at", 'SYSTEM'::"ActorKind", NULL::uuid FROM "incidents" WHERE "acknowledged_at" IS NOT NULL
UNION ALL
SELECT "id", 'RESOLVED'::"IncidentActivityKind", "resolved_at", 'SYSTEM'::"ActorKind", NULL::uuid FROM "incidents" WHERE "resolved_at" IS NOT NULL;
INSERT INTO "incident_activities" ("incident_id", "kind", "at", "actor_kind", "verdict", "deploy_id", "change_event_id")
SELECT "incident_id", 'VERDICT', "verdict_at", 'SYSTEM', "verdict", "deploy_id", "change_event_id"
FROM "incident_suspects" WHERE "verdict" IS NOT NULL AND "verdict_at" IS NOT NULL;
