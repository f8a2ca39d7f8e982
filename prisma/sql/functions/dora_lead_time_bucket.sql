-- The bucket of a lead time (ms): 0 under a second, then eight a doubling: bucket i (1 to 208)
-- holds [2^((i-1)/8), 2^(i/8)) seconds, the last one everything from 2^(207/8) s (1.8 years) on.
-- Mirrored by leadTimeBucket in src/domain/correlation/dora.ts.
CREATE OR REPLACE FUNCTION "dora_lead_time_bucket"(ms float8) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN ms < 1000 THEN 0 ELSE least(1 + floor(8 * ln(ms / 1000) / ln(2))::integer, 208) END
$$;
