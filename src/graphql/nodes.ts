// Relay object identification. Every type with an id implements Node, and `node`/`nodes` find
// any of the caller's rows by id. Ids stay the plain database UUIDs that every other field and
// the REST routes use, so no client breaks; `node`/`nodes` also take Relay-style global ids
// (base64 of "Type:uuid"), which name the type as well. Another organization's id, a deleted
// endpoint's, an unknown or malformed one, or a global id naming the wrong type: null.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { isUuid } from '../domain/shared/ids.ts';

/** The typename of a plain UUID: any type may hold it. */
export const ANY_TYPE = '';

export interface NodeId {
  typename: string;
  id: string;
}

/** An id is output as it is stored. */
export const encodeNodeId = (_typename: string, id: string | number | bigint) => String(id);

/** A plain UUID, or a global id of one; anything else names nothing (never an error, as for an unknown id). */
export function decodeNodeId(raw: string): NodeId {
  if (isUuid(raw)) return { typename: ANY_TYPE, id: raw.toLowerCase() };
  try {
    const { typename, id } = decodeGlobalID(raw);
    if (isUuid(id)) return { typename, id: id.toLowerCase() };
  } catch {
    // not base64 of "Type:id"
  }
  return { typename: ANY_TYPE, id: '' };
}
