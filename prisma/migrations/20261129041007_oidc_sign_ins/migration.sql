-- CreateTable
CREATE TABLE "oidc_sign_ins" (
    "key_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "return_to" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oidc_sign_ins_pkey" PRIMARY KEY ("key_hash")
);

-- CreateIndex
CREATE INDEX "oidc_sign_ins_expires_at_idx" ON "oidc_sign_ins"("expires_at");
