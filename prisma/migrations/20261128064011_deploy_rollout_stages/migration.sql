-- AlterTable
ALTER TABLE "deploys" ADD COLUMN     "rollout_percentage" DOUBLE PRECISION,
ADD COLUMN     "rollout_stages" JSONB NOT NULL DEFAULT '[]';
