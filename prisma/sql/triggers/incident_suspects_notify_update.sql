DROP TRIGGER IF EXISTS "incident_suspects_notify_update" ON "incident_suspects";
CREATE TRIGGER "incident_suspects_notify_update" AFTER UPDATE ON "incident_suspects"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hookline_notify_incident_suspects();
