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
