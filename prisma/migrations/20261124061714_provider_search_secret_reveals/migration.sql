-- CreateTable
CREATE TABLE "secret_reveals" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "endpoint_id" UUID NOT NULL,
    "api_token_id" UUID NOT NULL,
    "revealed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "secret_reveals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "secret_reveals_endpoint_id_revealed_at_idx" ON "secret_reveals"("endpoint_id", "revealed_at");

-- CreateIndex
CREATE INDEX "secret_reveals_api_token_id_idx" ON "secret_reveals"("api_token_id");

-- AddForeignKey
ALTER TABLE "secret_reveals" ADD CONSTRAINT "secret_reveals_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "secret_reveals" ADD CONSTRAINT "secret_reveals_api_token_id_fkey" FOREIGN KEY ("api_token_id") REFERENCES "api_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
