-- AlterTable
ALTER TABLE "incident_suspects" ADD COLUMN     "reason_effects" JSONB NOT NULL DEFAULT '[]';
