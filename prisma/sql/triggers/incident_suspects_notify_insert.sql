DROP TRIGGER IF EXISTS "incident_suspects_notify_insert" ON "incident_suspects";
CREATE TRIGGER "incident_suspects_notify_insert" AFTER INSERT ON "incident_suspects"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hookline_notify_incident_suspects();
