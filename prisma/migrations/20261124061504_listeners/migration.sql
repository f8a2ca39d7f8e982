-- CreateTable
CREATE TABLE "listeners" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "event_types" TEXT[],
    "live_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "listeners_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "listeners_organization_id_live_until_idx" ON "listeners"("organization_id", "live_until");

-- AddForeignKey
ALTER TABLE "listeners" ADD CONSTRAINT "listeners_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Publish every new event of an organization with a live listener on the channel
-- "hookline_event", so a `hookline listen` served by any api process receives events stored
-- by any other. A trigger (rather than a call in each code path) means no writer can forget;
-- NOTIFY is sent on commit, with the event.
CREATE FUNCTION hookline_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER events_notify
AFTER INSERT ON "events"
FOR EACH ROW EXECUTE FUNCTION hookline_notify_event();
