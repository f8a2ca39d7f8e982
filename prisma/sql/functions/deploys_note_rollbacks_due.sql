-- Notes each target (service and environment) an insert into deploys touched, from its earliest
-- inserted deploy: an insert that waits on no other ingest. Worker processes judge the due targets
-- after commit (judge_due_rollbacks).
CREATE OR REPLACE FUNCTION "deploys_note_rollbacks_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "rollback_judgements_due" ("service_id", "environment", "deployed_at", "deploy_id")
  SELECT DISTINCT ON ("service_id", "environment") "service_id", coalesce("environment", ''), "deployed_at", "id"
  FROM inserted ORDER BY "service_id", "environment", "deployed_at", "id";
  RETURN NULL;
END $$;
