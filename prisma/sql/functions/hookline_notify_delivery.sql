-- Publish every new delivery, status change and attempt on the channel "hookline_delivery",
-- so subscriptions served by any process see changes made by any other. A trigger (rather
-- than a call in each code path) means no writer can forget; NOTIFY is sent on commit. A change
-- names the delivery by its key, (id, createdAt), so that loading it reads its month's partition.
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
