-- AlterTable
ALTER TABLE "delivery_attempts" ADD COLUMN     "response_body_bytes" BYTEA,
ADD COLUMN     "response_body_decoded" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "response_content_encoding" TEXT;
