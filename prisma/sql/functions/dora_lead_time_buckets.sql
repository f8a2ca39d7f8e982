-- The histogram of lead times (ms): element i + 1 counts bucket i, up to the highest bucket used.
CREATE OR REPLACE FUNCTION "dora_lead_time_buckets"(lead_times_ms float8[]) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(c."n", 0) ORDER BY b."bucket"), '{}')
  FROM generate_series(0, (SELECT max("dora_lead_time_bucket"(v)) FROM unnest(lead_times_ms) v)) b("bucket")
  LEFT JOIN (SELECT "dora_lead_time_bucket"(v) AS "bucket", count(*)::integer AS "n" FROM unnest(lead_times_ms) v GROUP BY 1) c USING ("bucket")
$$;
