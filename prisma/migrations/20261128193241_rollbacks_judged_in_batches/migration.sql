-- DropIndex
DROP INDEX "rollback_judgements_due_service_id_environment_idx";

-- CreateIndex
CREATE INDEX "rollback_judgements_due_service_id_environment_deployed_at__idx" ON "rollback_judgements_due"("service_id", "environment", "deployed_at", "deploy_id");

-- A target's due rollbacks were judged in one statement from its earliest note to its latest
-- deploy, whatever their number: a worker starting after 10,000 deploys of a service had been
-- ingested judged them all in one statement of 13 s. A call now judges at most `batch` deploys
-- from the earliest note on and notes the target due again from the deploy after them: the
-- worker's pass calls again, each call a short statement.
DROP FUNCTION "judge_due_rollbacks"(uuid, text);
DROP FUNCTION "deploys_judge_rollbacks"(uuid, text, timestamptz, uuid);

-- The first `n` deploys of a target from (from_at, from_id) on, in order. Each branch reads its
-- index range in order and stops after `n` (target_deploys, ordered and limited, is read whole
-- and sorted). In the branch without an environment, ordering by it too (one value there) keeps
-- the index's order usable.
CREATE FUNCTION "target_deploys_from"(service uuid, env text, from_at timestamptz, from_id uuid, n integer)
RETURNS TABLE ("deployed_at" timestamptz, "id" uuid) LANGUAGE sql STABLE AS $$
  (SELECT d."deployed_at", d."id" FROM "deploys" d
   WHERE d."service_id" = service AND d."environment" = env AND (d."deployed_at", d."id") >= (from_at, from_id)
   ORDER BY d."deployed_at", d."id" LIMIT n)
  UNION ALL
  (SELECT d."deployed_at", d."id" FROM "deploys" d
   WHERE d."service_id" = service AND d."environment" IS NULL AND env IS NULL AND (d."deployed_at", d."id") >= (from_at, from_id)
   ORDER BY d."environment", d."deployed_at", d."id" LIMIT n)
$$;

-- Judges again the deploys of a target that its deploys from (from_at, from_id) to (to_at, to_id)
-- can change: those from the earliest deploy that one of them restores (the range a rollback
-- undoes) to (to_at, to_id). Deploys after it are the next batch's: a rollback among them that
-- undoes deploys of this range is counted when that batch is judged (its range reaches back to
-- what it restores), so until then such a deploy may read as not rolled back. Keeps dora_days'
-- rolled_back_count equal to the rolled-back deploys of each day.
CREATE FUNCTION "deploys_judge_rollbacks"(service uuid, env text, from_at timestamptz, from_id uuid, to_at timestamptz, to_id uuid)
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

-- Judges a target's due rollbacks from its earliest note: at most `batch` deploys from the deploy
-- it names on, under the lock of its service (hashed into 1,024 keys), so that two judgements of a
-- target never count one change twice. The notes of the batch are taken first, in a statement of
-- their own: a deploy and its note commit together, so each deploy whose note is taken is seen by
-- the judgement after it (one committed later is judged by a later call). The deploys after the
-- batch are noted due from the first of them, unless a note already covers it. Returns the
-- deploys judged.
CREATE FUNCTION "judge_due_rollbacks"(service uuid, env text, batch integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  target_env text := nullif(env, '');
  from_at timestamptz;
  from_id uuid;
  to_at timestamptz;
  to_id uuid;
  judged integer;
BEGIN
  PERFORM pg_advisory_xact_lock(1919707234, hashtext(service::text) & 1023);
  SELECT n."deployed_at", n."deploy_id" INTO from_at, from_id
  FROM "rollback_judgements_due" n WHERE n."service_id" = service AND n."environment" = env
  ORDER BY n."deployed_at", n."deploy_id" LIMIT 1;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  SELECT b."deployed_at", b."id", count(*) OVER () INTO to_at, to_id, judged
  FROM "target_deploys_from"(service, target_env, from_at, from_id, batch) b
  ORDER BY b."deployed_at" DESC, b."id" DESC LIMIT 1;
  IF NOT FOUND THEN
    -- The note's deploy is gone (with its deploy token), and none follows it: nothing to judge.
    to_at := from_at;
    to_id := from_id;
    judged := 0;
  END IF;
  DELETE FROM "rollback_judgements_due" n
  WHERE n."service_id" = service AND n."environment" = env
    AND (n."deployed_at", n."deploy_id") >= (from_at, from_id) AND (n."deployed_at", n."deploy_id") <= (to_at, to_id);
  IF judged > 0 THEN
    PERFORM "deploys_judge_rollbacks"(service, target_env, from_at, from_id, to_at, to_id);
  END IF;
  INSERT INTO "rollback_judgements_due" ("service_id", "environment", "deployed_at", "deploy_id")
  SELECT service, env, next."deployed_at", next."id"
  FROM (SELECT d."deployed_at", d."id" FROM "target_deploys_from"(service, target_env, to_at, to_id, 2) d
        WHERE (d."deployed_at", d."id") > (to_at, to_id) ORDER BY d."deployed_at", d."id" LIMIT 1) next
  WHERE NOT EXISTS (
    SELECT 1 FROM "rollback_judgements_due" n
    WHERE n."service_id" = service AND n."environment" = env AND (n."deployed_at", n."deploy_id") <= (next."deployed_at", next."id")
  );
  RETURN judged;
END $$;
