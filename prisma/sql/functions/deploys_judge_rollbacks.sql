-- Judges again the deploys of a target that its deploys from (from_at, from_id) to (to_at, to_id)
-- can change: those from the earliest deploy that one of them restores (the range a rollback
-- undoes) to (to_at, to_id). Deploys after it are the next batch's: a rollback among them that
-- undoes deploys of this range is counted when that batch is judged (its range reaches back to
-- what it restores), so until then such a deploy may read as not rolled back. Keeps dora_days'
-- rolled_back_count equal to the rolled-back deploys of each day.
CREATE OR REPLACE FUNCTION "deploys_judge_rollbacks"(service uuid, env text, from_at timestamptz, from_id uuid, to_at timestamptz, to_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lo_at timestamptz := from_at;
  lo_id uuid := from_id;
BEGIN
  -- The latest deploy of its target, as deploys arriving in order are: it changes no judgement
  -- made before it, and rolls back the deploys since the one it restores that are not already.
  -- Reads that range in the target's index, and looks up nothing for each deploy in it.
  IF NOT EXISTS (SELECT 1 FROM "target_deploys"(service, env) l WHERE (l."deployed_at", l."id") > (from_at, from_id)) THEN
    SELECT r."deployed_at", r."id" INTO lo_at, lo_id
    FROM "target_deploys"(service, env) l
    CROSS JOIN LATERAL "deploy_restores"(service, env, l."commit_sha", l."version", l."deployed_at", l."id") r
    WHERE l."id" = from_id AND l."deployed_at" = from_at;
    IF FOUND THEN
      WITH changed AS (
        UPDATE "deploys" d SET "rolled_back" = true
        FROM "target_deploys"(service, env) t
        WHERE d."id" = t."id" AND NOT t."rolled_back"
          AND (t."deployed_at", t."id") > (lo_at, lo_id) AND (t."deployed_at", t."id") < (from_at, from_id)
        RETURNING d."organization_id", d."service_id", d."environment", d."deployed_at"
      )
      INSERT INTO "dora_days" ("organization_id", "service_id", "environment", "day", "deploy_count", "lead_times_ms", "rolled_back_count")
      SELECT "organization_id", "service_id", coalesce("environment", ''), ("deployed_at" AT TIME ZONE 'UTC')::date, 0, '{}', count(*)
      FROM changed GROUP BY 1, 2, 3, 4
      ON CONFLICT ("service_id", "environment", "day") DO UPDATE SET "rolled_back_count" = "dora_days"."rolled_back_count" + excluded."rolled_back_count";
    END IF;
    RETURN;
  END IF;

  SELECT r."deployed_at", r."id" INTO lo_at, lo_id
  FROM "target_deploys"(service, env) l
  CROSS JOIN LATERAL "deploy_restores"(service, env, l."commit_sha", l."version", from_at, from_id) r
  WHERE (l."deployed_at", l."id") >= (from_at, from_id) AND (l."deployed_at", l."id") <= (to_at, to_id)
  ORDER BY r."deployed_at", r."id" LIMIT 1;
  IF NOT FOUND THEN
    lo_at := from_at;
    lo_id := from_id;
  END IF;

  -- A rollback (numbered k = l among the deploys from lo on) restoring the deploy at r rolls back
  -- the deploys strictly between them (none for a redeploy). Swept in deploy order: a deploy is
  -- rolled back when a rollback restoring a deploy before it reaches past it (a join of deploys
  -- and rollbacks would cost the square of the deploys judged when estimates are off).
  WITH w AS (
    SELECT d."id", d."commit_sha", d."version", d."deployed_at", d."rolled_back", row_number() OVER (ORDER BY d."deployed_at", d."id") AS k
    FROM "target_deploys"(service, env) d WHERE (d."deployed_at", d."id") >= (lo_at, lo_id) AND (d."deployed_at", d."id") <= (to_at, to_id)
  ), sweep AS (
    SELECT w."deployed_at", w."id", 0 AS kind, w.k, w."rolled_back", NULL::bigint AS reach FROM w
    UNION ALL
    SELECT r."deployed_at", r."id", 1, NULL, NULL, w.k FROM w
    CROSS JOIN LATERAL "deploy_restores"(service, env, w."commit_sha", w."version", w."deployed_at", w."id") r
  ), judged AS (
    SELECT "id", "rolled_back" AS was, coalesce(max(reach) OVER (ORDER BY "deployed_at", "id", kind ROWS UNBOUNDED PRECEDING), 0) > k AS now, kind
    FROM sweep
  ), changed AS (
    UPDATE "deploys" d SET "rolled_back" = j.now
    FROM judged j
    WHERE j.kind = 0 AND d."id" = j."id" AND j.was <> j.now
    RETURNING d."organization_id", d."service_id", d."environment", d."deployed_at", d."rolled_back"
  )
  INSERT INTO "dora_days" ("organization_id", "service_id", "environment", "day", "deploy_count", "lead_times_ms", "rolled_back_count")
  SELECT "organization_id", "service_id", coalesce("environment", ''), ("deployed_at" AT TIME ZONE 'UTC')::date, 0, '{}',
         sum(CASE WHEN "rolled_back" THEN 1 ELSE -1 END)
  FROM changed GROUP BY 1, 2, 3, 4
  ON CONFLICT ("service_id", "environment", "day") DO UPDATE SET "rolled_back_count" = "dora_days"."rolled_back_count" + excluded."rolled_back_count";
END $$;
