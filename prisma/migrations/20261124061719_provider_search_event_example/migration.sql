-- AlterTable
ALTER TABLE "events" ADD COLUMN     "example" BOOLEAN NOT NULL DEFAULT false;
