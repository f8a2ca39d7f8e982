-- AlterTable
ALTER TABLE "deploys" ADD COLUMN     "rolled_back" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "dora_days" ADD COLUMN     "rolled_back_count" INTEGER NOT NULL DEFAULT 0;


-- Rollbacks judged as deploys are ingested, so that DORA's change failure rate reads a count per
-- day instead of every deploy of its period. A deploy is rolled back when a later deploy of its
-- target (service and environment; no environment is a target of its own) restores the commit
-- or version of a deploy before it: the latest earlier deploy with the same commit, or the same
-- version when both have one.

-- The deploys of one target. Inlined into the queries that use it (a STABLE SQL function of one
-- SELECT): each branch keeps its index range on (service_id, environment, ...), which a single
-- `environment IS NOT DISTINCT FROM env` condition could not use.
CREATE FUNCTION "target_deploys"(service uuid, env text) RETURNS SETOF "deploys" LANGUAGE sql STABLE AS $$
  SELECT * FROM "deploys" WHERE "service_id" = service AND "environment" = env
  UNION ALL
  SELECT * FROM "deploys" WHERE "service_id" = service AND "environment" IS NULL AND env IS NULL
$$;

-- The deploy of a target that a deploy with this commit and version, at (at, id), restores: the
-- latest earlier one with the same commit, or with the same version (when it has one). Two
-- look-ups, each the top of an index range in time order.
CREATE FUNCTION "deploy_restores"(service uuid, env text, sha text, ver text, at timestamptz, before_id uuid)
RETURNS TABLE ("deployed_at" timestamptz, "id" uuid) LANGUAGE sql STABLE AS $$
  SELECT m."deployed_at", m."id" FROM (
    (SELECT p."deployed_at", p."id" FROM "target_deploys"(service, env) p
     WHERE p."commit_sha" = sha AND (p."deployed_at", p."id") < (at, before_id) ORDER BY p."deployed_at" DESC, p."id" DESC LIMIT 1)
    UNION ALL
    (SELECT p."deployed_at", p."id" FROM "target_deploys"(service, env) p
     WHERE p."version" = ver AND (p."deployed_at", p."id") < (at, before_id) ORDER BY p."deployed_at" DESC, p."id" DESC LIMIT 1)
  ) m ORDER BY m."deployed_at" DESC, m."id" DESC LIMIT 1
$$;

-- Judges again the deploys of a target that a deploy inserted at (from_at, from_id) can change:
-- those from the earliest deploy that a deploy at or after it restores (the range a rollback
-- undoes) to the latest. A deploy in order of time restores nothing or a recent deploy, so this
-- reads a few rows; a late deploy reads the target's deploys since it. Keeps dora_days'
-- rolled_back_count equal to the rolled-back deploys of each day.
CREATE FUNCTION "deploys_judge_rollbacks"(service uuid, env text, from_at timestamptz, from_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lo_at timestamptz := from_at;
  lo_id uuid := from_id;
BEGIN
  SELECT r."deployed_at", r."id" INTO lo_at, lo_id
  FROM "target_deploys"(service, env) l
  CROSS JOIN LATERAL "deploy_restores"(service, env, l."commit_sha", l."version", from_at, from_id) r
  WHERE (l."deployed_at", l."id") >= (from_at, from_id)
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
    FROM "target_deploys"(service, env) d WHERE (d."deployed_at", d."id") >= (lo_at, lo_id)
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

-- After each insert into deploys, every target it touched. Two transactions inserting deploys of
-- one service take turns (a transaction-scoped lock per service, hashed into 1,024 keys so that a
-- bulk insert holds a bounded number): the second judges with the first's deploys committed, as
-- each statement of a function at READ COMMITTED sees what was committed before it started.
CREATE FUNCTION "deploys_judge_inserted_rollbacks"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target record;
BEGIN
  PERFORM pg_advisory_xact_lock(1919707234, key)
  FROM (SELECT DISTINCT hashtext("service_id"::text) & 1023 AS key FROM inserted ORDER BY 1) keys;
  FOR target IN
    SELECT DISTINCT ON ("service_id", "environment") "service_id", "environment", "deployed_at", "id"
    FROM inserted ORDER BY "service_id", "environment", "deployed_at", "id"
  LOOP
    PERFORM "deploys_judge_rollbacks"(target."service_id", target."environment", target."deployed_at", target."id");
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER "deploys_rollbacks" AFTER INSERT ON "deploys"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "deploys_judge_inserted_rollbacks"();

-- Deploys inserted already rolled back count too (the daily count stays the count of the flags).
CREATE OR REPLACE FUNCTION "dora_days_add_deploys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "dora_days" ("organization_id", "service_id", "environment", "day", "deploy_count", "lead_times_ms", "rolled_back_count")
  SELECT "organization_id", "service_id", coalesce("environment", ''), ("deployed_at" AT TIME ZONE 'UTC')::date, count(*), '{}',
         count(*) FILTER (WHERE "rolled_back")
  FROM inserted GROUP BY 1, 2, 3, 4
  ON CONFLICT ("service_id", "environment", "day") DO UPDATE SET "deploy_count" = "dora_days"."deploy_count" + excluded."deploy_count",
    "rolled_back_count" = "dora_days"."rolled_back_count" + excluded."rolled_back_count";
  RETURN NULL;
END $$;

-- The deploys made so far, each target from its first deploy.
SELECT "deploys_judge_rollbacks"("service_id", "environment", "deployed_at", "id")
FROM (SELECT DISTINCT ON ("service_id", "environment") "service_id", "environment", "deployed_at", "id"
      FROM "deploys" ORDER BY "service_id", "environment", "deployed_at", "id") first_deploys;
