-- Judges a target's due rollbacks from its earliest note: at most `batch` deploys from the deploy
-- it names on, under the lock of its service (hashed into 1,024 keys), so that two judgements of a
-- target never count one change twice. The notes of the batch are taken first, in a statement of
-- their own: a deploy and its note commit together, so each deploy whose note is taken is seen by
-- the judgement after it (one committed later is judged by a later call). The deploys after the
-- batch are noted due from the first of them, unless a note already covers it. Returns the
-- deploys judged.
CREATE OR REPLACE FUNCTION "judge_due_rollbacks"(service uuid, env text, batch integer) RETURNS integer LANGUAGE plpgsql AS $$
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
