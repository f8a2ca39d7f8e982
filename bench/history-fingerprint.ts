// The webhook history's rows as a count and one hash per table, every column of the shape before
// it was partitioned by month: equal before and after the migration means no row lost or changed
// (the migration's test and bench:retention both check it).
/** Each table's rows, every column of the shape before partitioning, as a count and one hash. */
export const FINGERPRINT_SQL = `
SELECT 'events' AS "table", count(*)::int AS rows, md5(string_agg(md5(e::text), '' ORDER BY id)) AS hash
FROM (SELECT id, organization_id, type, data, created_at, example FROM events) e
UNION ALL
SELECT 'deliveries', count(*)::int, md5(string_agg(md5(d::text), '' ORDER BY id))
FROM (SELECT id, organization_id, event_id, endpoint_id, status, attempt_count, next_attempt_at, last_attempt_at, created_at, updated_at,
             event_type, response_classes FROM deliveries) d
UNION ALL
SELECT 'delivery_attempts', count(*)::int, md5(string_agg(md5(a::text), '' ORDER BY id))
FROM (SELECT id, delivery_id, endpoint_id, number, succeeded, started_at, duration_ms, response_status, response_body, error, response_body_bytes,
             response_body_decoded, response_content_encoding, request_headers, response_headers FROM delivery_attempts) a`;
