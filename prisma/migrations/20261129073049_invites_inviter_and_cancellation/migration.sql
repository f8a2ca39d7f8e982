-- AlterTable
ALTER TABLE "invites" ADD COLUMN     "cancelled_at" TIMESTAMPTZ(3),
ADD COLUMN     "invited_by_id" UUID;

-- AddForeignKey
ALTER TABLE "invites" ADD CONSTRAINT "invites_invited_by_id_fkey" FOREIGN KEY ("invited_by_id") REFERENCES "people"("id") ON DELETE SET NULL ON UPDATE CASCADE;
