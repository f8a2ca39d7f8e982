-- AlterTable
ALTER TABLE "delivery_attempts" ADD COLUMN     "request_headers" JSONB,
ADD COLUMN     "response_headers" JSONB;
