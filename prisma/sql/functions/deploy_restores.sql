-- The deploy of a target that a deploy with this commit and version, at (at, id), restores: the
-- latest earlier one with the same commit, or with the same version (when it has one). Two
-- look-ups, each the top of an index range in time order.
CREATE OR REPLACE FUNCTION "deploy_restores"(service uuid, env text, sha text, ver text, at timestamptz, before_id uuid)
RETURNS TABLE ("deployed_at" timestamptz, "id" uuid) LANGUAGE sql STABLE AS $$
  SELECT m."deployed_at", m."id" FROM (
    (SELECT p."deployed_at", p."id" FROM "target_deploys"(service, env) p
     WHERE p."commit_sha" = sha AND (p."deployed_at", p."id") < (at, before_id) ORDER BY p."deployed_at" DESC, p."id" DESC LIMIT 1)
    UNION ALL
    (SELECT p."deployed_at", p."id" FROM "target_deploys"(service, env) p
     WHERE p."version" = ver AND (p."deployed_at", p."id") < (at, before_id) ORDER BY p."deployed_at" DESC, p."id" DESC LIMIT 1)
  ) m ORDER BY m."deployed_at" DESC, m."id" DESC LIMIT 1
$$;
