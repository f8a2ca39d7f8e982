DROP TRIGGER IF EXISTS "deploys_dora_folds_due" ON "deploys";
CREATE TRIGGER "deploys_dora_folds_due" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "deploys_note_dora_folds_due"();
