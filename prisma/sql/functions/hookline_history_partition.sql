-- The month of webhook history starting at `month` (its first day, UTC), as a partition of
-- `parent` (events, deliveries or delivery_attempts) named parent_YYYY_MM, unless it exists.
CREATE OR REPLACE FUNCTION "hookline_history_partition"(parent text, month date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                 parent || '_' || to_char(month, 'YYYY_MM'), parent,
                 month::timestamp AT TIME ZONE 'UTC', (month + interval '1 month')::timestamp AT TIME ZONE 'UTC');
END $$;
