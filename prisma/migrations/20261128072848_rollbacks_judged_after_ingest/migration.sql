-- CreateTable
CREATE TABLE "rollback_judgements_due" (
    "id" BIGSERIAL NOT NULL,
    "service_id" UUID NOT NULL,
    "environment" TEXT NOT NULL,
    "deployed_at" TIMESTAMPTZ(3) NOT NULL,
    "deploy_id" UUID NOT NULL,

    CONSTRAINT "rollback_judgements_due_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "rollback_judgements_due_service_id_environment_idx" ON "rollback_judgements_due"("service_id", "environment");

-- AddForeignKey
ALTER TABLE "rollback_judgements_due" ADD CONSTRAINT "rollback_judgements_due_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Ingest no longer judges rollbacks: judging them under a lock per service made every ingest of a
-- service wait for the one before it to commit, and a deploy committed out of time order re-judge
-- its target's deploys since it. The insert trigger (same name) now only notes each target it
-- touched from its earliest inserted deploy, an insert that waits on no other ingest; worker
-- processes judge the due targets after commit (judge_due_rollbacks).
DROP TRIGGER "deploys_rollbacks" ON "deploys";
DROP FUNCTION "deploys_judge_inserted_rollbacks"();

CREATE FUNCTION "deploys_note_rollbacks_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "rollback_judgements_due" ("service_id", "environment", "deployed_at", "deploy_id")
  SELECT DISTINCT ON ("service_id", "environment") "service_id", coalesce("environment", ''), "deployed_at", "id"
  FROM inserted ORDER BY "service_id", "environment", "deployed_at", "id";
  RETURN NULL;
END $$;

CREATE TRIGGER "deploys_rollbacks" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "deploys_note_rollbacks_due"();

-- Judges a target's due rollbacks: takes its notes and judges again from the earliest deploy they
-- name, under the lock of its service (hashed into 1,024 keys), so that two judgements of a target
-- never count one change twice. A deploy and its note commit together: a deploy this judgement
-- cannot see yet is judged by a later one. Returns the notes taken.
CREATE FUNCTION "judge_due_rollbacks"(service uuid, env text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  from_at timestamptz;
  from_id uuid;
  taken integer;
BEGIN
  PERFORM pg_advisory_xact_lock(1919707234, hashtext(service::text) & 1023);
  WITH notes AS (
    DELETE FROM "rollback_judgements_due" WHERE "service_id" = service AND "environment" = env RETURNING "deployed_at", "deploy_id"
  )
  SELECT n."deployed_at", n."deploy_id", count(*) OVER () INTO from_at, from_id, taken
  FROM notes n ORDER BY n."deployed_at", n."deploy_id" LIMIT 1;
  IF FOUND THEN
    PERFORM "deploys_judge_rollbacks"(service, nullif(env, ''), from_at, from_id);
  END IF;
  RETURN coalesce(taken, 0);
END $$;
