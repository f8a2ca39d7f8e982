-- The class of answer an attempt's status is in (as the deliveries search names them; no status:
-- no answer): NULL for a status in none (1xx, 600 and above).
CREATE OR REPLACE FUNCTION "response_status_class"(status integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status IS NULL THEN 'NO_RESPONSE'
              WHEN status BETWEEN 200 AND 299 THEN 'SUCCESS'
              WHEN status BETWEEN 300 AND 399 THEN 'REDIRECT'
              WHEN status BETWEEN 400 AND 499 THEN 'CLIENT_ERROR'
              WHEN status BETWEEN 500 AND 599 THEN 'SERVER_ERROR' END
$$;
