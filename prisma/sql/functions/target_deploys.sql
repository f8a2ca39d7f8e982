-- The deploys of one target. Inlined into the queries that use it (a STABLE SQL function of one
-- SELECT): each branch keeps its index range on (service_id, environment, ...), which a single
-- `environment IS NOT DISTINCT FROM env` condition could not use.
CREATE OR REPLACE FUNCTION "target_deploys"(service uuid, env text) RETURNS SETOF "deploys" LANGUAGE sql STABLE AS $$
  SELECT * FROM "deploys" WHERE "service_id" = service AND "environment" = env
  UNION ALL
  SELECT * FROM "deploys" WHERE "service_id" = service AND "environment" IS NULL AND env IS NULL
$$;
