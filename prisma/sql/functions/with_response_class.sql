-- A delivery's classes with that of one more attempt's answer (NULL status: no answer).
CREATE OR REPLACE FUNCTION "with_response_class"(classes text[], status integer) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cls IS NULL OR cls = ANY (classes) THEN classes ELSE classes || cls END
  FROM (SELECT "response_status_class"(status) AS cls) c
$$;
