-- Two histograms added bucket by bucket (the shorter one padded with zeros).
CREATE OR REPLACE FUNCTION "dora_lead_time_buckets_add"(a integer[], b integer[]) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i), '{}') FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i)
$$;
