-- The rollback judgement changes dora_days.rolled_back_count (by upsert); the organization's day
-- follows by the same difference.
CREATE OR REPLACE FUNCTION "dora_days_add_rolled_back_to_organization"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  difference integer := NEW."rolled_back_count" - CASE WHEN TG_OP = 'UPDATE' THEN OLD."rolled_back_count" ELSE 0 END;
BEGIN
  IF difference <> 0 THEN
    INSERT INTO "dora_organization_days" ("organization_id", "environment", "day", "rolled_back_count")
    VALUES (NEW."organization_id", NEW."environment", NEW."day", difference)
    ON CONFLICT ("organization_id", "environment", "day") DO UPDATE
      SET "rolled_back_count" = "dora_organization_days"."rolled_back_count" + excluded."rolled_back_count";
  END IF;
  RETURN NULL;
END $$;
