-- A delivery's live change names its month too (created_at): a subscription loads the delivery
-- by (id, created_at), from that month's partition alone, rather than probing every month's.
CREATE OR REPLACE FUNCTION hookline_notify_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hookline_delivery', json_build_object(
    'id', NEW.id,
    'createdAt', NEW.created_at,
    'organizationId', NEW.organization_id,
    'endpointId', NEW.endpoint_id,
    'status', NEW.status,
    'attemptCount', NEW.attempt_count
  )::text);
  RETURN NULL;
END
$$;
