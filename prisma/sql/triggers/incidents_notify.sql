DROP TRIGGER IF EXISTS "incidents_notify" ON "incidents";
CREATE TRIGGER incidents_notify
AFTER INSERT OR UPDATE ON "incidents"
FOR EACH ROW EXECUTE FUNCTION hookline_notify_incident();
