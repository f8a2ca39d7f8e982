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
