DROP TRIGGER IF EXISTS "dora_days_rolled_back_to_organization" ON "dora_days";
CREATE TRIGGER "dora_days_rolled_back_to_organization" AFTER INSERT OR UPDATE OF "rolled_back_count" ON "dora_days"
  FOR EACH ROW EXECUTE FUNCTION "dora_days_add_rolled_back_to_organization"();
