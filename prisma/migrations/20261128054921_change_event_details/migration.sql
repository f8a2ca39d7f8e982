-- AlterTable
ALTER TABLE "change_events" ADD COLUMN     "actor" TEXT,
ADD COLUMN     "previous" JSONB,
ADD COLUMN     "subject" TEXT,
ADD COLUMN     "value" JSONB;
