-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "custom_headers" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "rate_limit_next_slot_at" TIMESTAMPTZ(6),
ADD COLUMN     "rate_limit_per_second" INTEGER,
ADD COLUMN     "timeout_ms" INTEGER;
