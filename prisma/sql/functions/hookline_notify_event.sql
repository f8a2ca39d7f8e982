-- Publish every new event of an organization with a live listener on the channel
-- "hookline_event", so a `hookline listen` served by any api process receives events stored
-- by any other. A trigger (rather than a call in each code path) means no writer can forget;
-- NOTIFY is sent on commit, with the event.
CREATE OR REPLACE FUNCTION hookline_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM listeners l WHERE l.organization_id = NEW.organization_id AND l.live_until > now()) THEN
    PERFORM pg_notify('hookline_event', json_build_object(
      'id', NEW.id,
      'organizationId', NEW.organization_id,
      'type', NEW.type
    )::text);
  END IF;
  RETURN NULL;
END
$$;
