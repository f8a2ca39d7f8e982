-- CreateTable
CREATE TABLE "dora_organization_days" (
    "organization_id" UUID NOT NULL,
    "environment" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "deploy_count" INTEGER NOT NULL DEFAULT 0,
    "lead_time_buckets" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "rolled_back_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "dora_organization_days_pkey" PRIMARY KEY ("organization_id","environment","day")
);

-- CreateTable
CREATE TABLE "dora_folds_due" (
    "id" BIGSERIAL NOT NULL,
    "deploy_id" UUID NOT NULL,

    CONSTRAINT "dora_folds_due_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "dora_organization_days" ADD CONSTRAINT "dora_organization_days_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- DORA's figures are no longer kept by the ingest's transaction: its upsert of the day's row (with
-- the day's every lead time rewritten in one array) made each ingest wait for the previous one of
-- its service and day and cost more as the day went on. The insert only notes the deploys
-- (dora_folds_due); worker processes add them to the figures of their service and of their
-- organization in one transaction that takes the notes (fold_due_dora_figures), so a deploy is
-- counted once, after it is committed, whichever worker takes it and wherever one stops.
DROP TRIGGER "deploys_dora_days" ON "deploys";
DROP FUNCTION "dora_days_add_deploys"();
DROP TRIGGER "commits_dora_days" ON "commits";
DROP FUNCTION "dora_days_add_lead_times"();

CREATE FUNCTION "deploys_note_dora_folds_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dora_folds_due" ("deploy_id") SELECT "id" FROM inserted;
  RETURN NULL;
END $$;

CREATE TRIGGER "deploys_dora_folds_due" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "deploys_note_dora_folds_due"();

-- The bucket of a lead time (ms): 0 under a second, then eight a doubling: bucket i (1 to 208)
-- holds [2^((i-1)/8), 2^(i/8)) seconds, the last one everything from 2^(207/8) s (1.8 years) on.
-- Mirrored by leadTimeBucket in src/domain/correlation/dora.ts.
CREATE FUNCTION "dora_lead_time_bucket"(ms float8) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN ms < 1000 THEN 0 ELSE least(1 + floor(8 * ln(ms / 1000) / ln(2))::integer, 208) END
$$;

-- The histogram of lead times (ms): element i + 1 counts bucket i, up to the highest bucket used.
CREATE FUNCTION "dora_lead_time_buckets"(lead_times_ms float8[]) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(c."n", 0) ORDER BY b."bucket"), '{}')
  FROM generate_series(0, (SELECT max("dora_lead_time_bucket"(v)) FROM unnest(lead_times_ms) v)) b("bucket")
  LEFT JOIN (SELECT "dora_lead_time_bucket"(v) AS "bucket", count(*)::integer AS "n" FROM unnest(lead_times_ms) v GROUP BY 1) c USING ("bucket")
$$;

-- Two histograms added bucket by bucket (the shorter one padded with zeros).
CREATE FUNCTION "dora_lead_time_buckets_add"(a integer[], b integer[]) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i), '{}') FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i)
$$;

-- Adds the noted deploys (up to `batch`, oldest notes first) to the figures of their service,
-- environment and day and of their organization, environment and day, and removes their notes,
-- in one statement: a pass that stops before its commit leaves the notes for the next one. One
-- pass at a time (a transaction-scoped lock; another worker's pass returns 0 at once), so that
-- passes neither count a deploy twice nor wait on each other's rows. Deploys are inserted not
-- rolled back: rolled_back_count is the rollback judgement's (and reaches the organization's day
-- through dora_days' trigger below). Returns the notes taken.
CREATE FUNCTION "fold_due_dora_figures"(batch integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  taken integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(1919707235) THEN
    RETURN 0;
  END IF;
  WITH notes AS (
    DELETE FROM "dora_folds_due" WHERE "id" IN (SELECT "id" FROM "dora_folds_due" ORDER BY "id" LIMIT batch) RETURNING "deploy_id"
  ), leads AS (
    SELECT d."id", d."organization_id", d."service_id", coalesce(d."environment", '') AS "environment",
           (d."deployed_at" AT TIME ZONE 'UTC')::date AS "day", (extract(epoch FROM d."deployed_at" - c."timestamp") * 1000)::float8 AS "ms"
    FROM (SELECT DISTINCT "deploy_id" FROM notes) n
    JOIN "deploys" d ON d."id" = n."deploy_id"
    LEFT JOIN "commits" c ON c."deploy_id" = d."id" AND c."timestamp" <= d."deployed_at"
  ), service_days AS (
    INSERT INTO "dora_days" ("organization_id", "service_id", "environment", "day", "deploy_count", "lead_times_ms")
    SELECT "organization_id", "service_id", "environment", "day", count(DISTINCT "id"), coalesce(array_agg("ms") FILTER (WHERE "ms" IS NOT NULL), '{}')
    FROM leads GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4
    ON CONFLICT ("service_id", "environment", "day") DO UPDATE SET "deploy_count" = "dora_days"."deploy_count" + excluded."deploy_count",
      "lead_times_ms" = coalesce("dora_days"."lead_times_ms", '{}') || excluded."lead_times_ms"
  ), organization_days AS (
    INSERT INTO "dora_organization_days" ("organization_id", "environment", "day", "deploy_count", "lead_time_buckets")
    SELECT "organization_id", "environment", "day", count(DISTINCT "id"), "dora_lead_time_buckets"(array_agg("ms") FILTER (WHERE "ms" IS NOT NULL))
    FROM leads GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT ("organization_id", "environment", "day") DO UPDATE SET "deploy_count" = "dora_organization_days"."deploy_count" + excluded."deploy_count",
      "lead_time_buckets" = "dora_lead_time_buckets_add"("dora_organization_days"."lead_time_buckets", excluded."lead_time_buckets")
  )
  SELECT count(*) INTO taken FROM notes;
  RETURN taken;
END $$;

-- The rollback judgement changes dora_days.rolled_back_count (by upsert); the organization's day
-- follows by the same difference.
CREATE FUNCTION "dora_days_add_rolled_back_to_organization"() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER "dora_days_rolled_back_to_organization" AFTER INSERT OR UPDATE OF "rolled_back_count" ON "dora_days"
  FOR EACH ROW EXECUTE FUNCTION "dora_days_add_rolled_back_to_organization"();

-- The organizations' days of the figures kept so far (every deploy is in dora_days: the triggers
-- dropped above kept them in the ingest's transaction, and this migration's lock on deploys
-- waits for those in flight).
INSERT INTO "dora_organization_days" ("organization_id", "environment", "day", "deploy_count", "lead_time_buckets", "rolled_back_count")
SELECT c."organization_id", c."environment", c."day", c."deploy_count", coalesce(l."buckets", '{}'), c."rolled_back_count"
FROM (SELECT "organization_id", "environment", "day", sum("deploy_count") AS "deploy_count", sum("rolled_back_count") AS "rolled_back_count"
      FROM "dora_days" GROUP BY 1, 2, 3) c
LEFT JOIN (SELECT d."organization_id", d."environment", d."day", "dora_lead_time_buckets"(array_agg(v)) AS "buckets"
           FROM "dora_days" d CROSS JOIN unnest(d."lead_times_ms") v GROUP BY 1, 2, 3) l USING ("organization_id", "environment", "day");
