-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "lookback_hours" INTEGER;
