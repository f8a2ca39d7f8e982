-- prisma/sql/functions/hookline_notify_incident.sql
-- Publish every new incident and every change of one (its status, its fields) on the channel
-- "hookline_incident", so `incidentUpdated` subscriptions served by any api process see
-- incidents opened or changed by any other (an alert, a person, a late deploy re-ranking it).
-- A trigger (rather than a call in each code path) means no writer can forget; NOTIFY is sent
-- on commit, and identical notices of one transaction are sent once.
CREATE OR REPLACE FUNCTION hookline_notify_incident() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hookline_incident', json_build_object(
    'id', NEW.id,
    'organizationId', NEW.organization_id
  )::text);
  RETURN NULL;
END
$$;

-- prisma/sql/functions/hookline_notify_incident_suspects.sql
-- The incidents whose suspects a statement ranked, re-ranked or judged, published as
-- hookline_notify_incident does (the same notice, so an incident opened with its suspects in
-- one transaction is announced once).
CREATE OR REPLACE FUNCTION hookline_notify_incident_suspects() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hookline_incident', json_build_object('id', i.id, 'organizationId', i.organization_id)::text)
  FROM incidents i
  WHERE i.id IN (SELECT DISTINCT incident_id FROM changed);
  RETURN NULL;
END
$$;

-- prisma/sql/triggers/incident_suspects_notify_insert.sql
DROP TRIGGER IF EXISTS "incident_suspects_notify_insert" ON "incident_suspects";
CREATE TRIGGER "incident_suspects_notify_insert" AFTER INSERT ON "incident_suspects"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hookline_notify_incident_suspects();

-- prisma/sql/triggers/incident_suspects_notify_update.sql
DROP TRIGGER IF EXISTS "incident_suspects_notify_update" ON "incident_suspects";
CREATE TRIGGER "incident_suspects_notify_update" AFTER UPDATE ON "incident_suspects"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hookline_notify_incident_suspects();

-- prisma/sql/triggers/incidents_notify.sql
DROP TRIGGER IF EXISTS "incidents_notify" ON "incidents";
CREATE TRIGGER incidents_notify
AFTER INSERT OR UPDATE ON "incidents"
FOR EACH ROW EXECUTE FUNCTION hookline_notify_incident();
