-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "last_used_at" TIMESTAMPTZ(3),
ADD COLUMN     "name" TEXT;
