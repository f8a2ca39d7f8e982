// Ids are PostgreSQL UUIDs; a malformed id can match nothing, so callers treat it as absent
// instead of letting the database reject the cast.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
