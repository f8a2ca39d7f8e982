-- The environment names in use, kept as deploys, change events and incidents are written (once
-- per statement; an existing name costs one index probe). Names are never removed: a name whose
-- rows are gone only adds a spelling to a filter that matches nothing.
CREATE OR REPLACE FUNCTION "environment_names_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "environment_names" ("organization_id", "name")
  SELECT DISTINCT "organization_id", "environment" FROM changed WHERE "environment" IS NOT NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
