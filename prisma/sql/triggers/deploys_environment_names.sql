DROP TRIGGER IF EXISTS "deploys_environment_names" ON "deploys";
CREATE TRIGGER "deploys_environment_names" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();
