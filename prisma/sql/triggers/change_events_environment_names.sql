DROP TRIGGER IF EXISTS "change_events_environment_names" ON "change_events";
CREATE TRIGGER "change_events_environment_names" AFTER INSERT ON "change_events"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();
