-- CreateTable
CREATE TABLE "environment_aliases" (
    "organization_id" UUID NOT NULL,
    "alias" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_aliases_pkey" PRIMARY KEY ("organization_id","alias")
);

-- CreateTable
CREATE TABLE "environment_names" (
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "environment_names_pkey" PRIMARY KEY ("organization_id","name")
);

-- AddForeignKey
ALTER TABLE "environment_aliases" ADD CONSTRAINT "environment_aliases_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environment_names" ADD CONSTRAINT "environment_names_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The environment names in use, kept as deploys, change events and incidents are written (once
-- per statement; an existing name costs one index probe). Names are never removed: a name whose
-- rows are gone only adds a spelling to a filter that matches nothing.
CREATE FUNCTION "environment_names_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "environment_names" ("organization_id", "name")
  SELECT DISTINCT "organization_id", "environment" FROM changed WHERE "environment" IS NOT NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "deploys_environment_names" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();
CREATE TRIGGER "change_events_environment_names" AFTER INSERT ON "change_events"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();
CREATE TRIGGER "incidents_environment_names_insert" AFTER INSERT ON "incidents"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();
CREATE TRIGGER "incidents_environment_names_update" AFTER UPDATE ON "incidents"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "environment_names_add"();

-- The names in use so far.
INSERT INTO "environment_names" ("organization_id", "name")
SELECT "organization_id", "environment" FROM "deploys" WHERE "environment" IS NOT NULL
UNION SELECT "organization_id", "environment" FROM "change_events" WHERE "environment" IS NOT NULL
UNION SELECT "organization_id", "environment" FROM "incidents" WHERE "environment" IS NOT NULL;
