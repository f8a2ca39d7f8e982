DROP TRIGGER IF EXISTS "incidents_environment_names_update" ON "incidents";
CREATE TRIGGER "incidents_environment_names_update" AFTER UPDATE ON "incidents"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();
