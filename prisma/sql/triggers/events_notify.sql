DROP TRIGGER IF EXISTS "events_notify" ON "events";
CREATE TRIGGER events_notify
AFTER INSERT ON "events"
FOR EACH ROW EXECUTE FUNCTION hookline_notify_event();
