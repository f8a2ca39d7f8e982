DROP TRIGGER IF EXISTS "deploys_rollbacks" ON "deploys";
CREATE TRIGGER "deploys_rollbacks" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "deploys_note_rollbacks_due"();
