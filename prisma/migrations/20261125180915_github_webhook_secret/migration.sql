-- AlterTable
ALTER TABLE "services" ADD COLUMN     "github_webhook_secret" TEXT,
ADD COLUMN     "github_webhook_secret_created_at" TIMESTAMPTZ(3);
