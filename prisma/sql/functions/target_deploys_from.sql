-- The first `n` deploys of a target from (from_at, from_id) on, in order. Each branch reads its
-- index range in order and stops after `n` (target_deploys, ordered and limited, is read whole
-- and sorted). In the branch without an environment, ordering by it too (one value there) keeps
-- the index's order usable.
CREATE OR REPLACE FUNCTION "target_deploys_from"(service uuid, env text, from_at timestamptz, from_id uuid, n integer)
RETURNS TABLE ("deployed_at" timestamptz, "id" uuid) LANGUAGE sql STABLE AS $$
  (SELECT d."deployed_at", d."id" FROM "deploys" d
   WHERE d."service_id" = service AND d."environment" = env AND (d."deployed_at", d."id") >= (from_at, from_id)
   ORDER BY d."deployed_at", d."id" LIMIT n)
  UNION ALL
  (SELECT d."deployed_at", d."id" FROM "deploys" d
   WHERE d."service_id" = service AND d."environment" IS NULL AND env IS NULL AND (d."deployed_at", d."id") >= (from_at, from_id)
   ORDER BY d."environment", d."deployed_at", d."id" LIMIT n)
$$;
