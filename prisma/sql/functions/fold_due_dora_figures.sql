-- Adds the noted deploys (up to `batch`, oldest notes first) to the figures of their service,
-- environment and day and of their organization, environment and day, and removes their notes,
-- in one statement: a pass that stops before its commit leaves the notes for the next one. One
-- pass at a time (a transaction-scoped lock; another worker's pass returns 0 at once), so that
-- passes neither count a deploy twice nor wait on each other's rows. Deploys are inserted not
-- rolled back: rolled_back_count is the rollback judgement's (and reaches the organization's day
-- through dora_days_add_rolled_back_to_organization). Returns the notes taken.
CREATE OR REPLACE FUNCTION "fold_due_dora_figures"(batch integer) RETURNS integer LANGUAGE plpgsql AS $$
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
