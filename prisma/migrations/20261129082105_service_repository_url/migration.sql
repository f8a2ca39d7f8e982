-- AlterTable
ALTER TABLE "services" ADD COLUMN     "repository_url" TEXT;
