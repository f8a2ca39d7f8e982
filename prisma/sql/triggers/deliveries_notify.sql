DROP TRIGGER IF EXISTS "deliveries_notify" ON "deliveries";
CREATE TRIGGER deliveries_notify
AFTER INSERT OR UPDATE OF status, attempt_count ON "deliveries"
FOR EACH ROW EXECUTE FUNCTION hookline_notify_delivery();
