DROP TRIGGER IF EXISTS "incidents_environment_names_insert" ON "incidents";
CREATE TRIGGER "incidents_environment_names_insert" AFTER INSERT ON "incidents"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();
