// Who made a change: an API token (GraphQL and REST callers today), an alert source (incidents its
// alerts open, acknowledge and resolve), a person (once people sign in), or Hookline itself
// (automatic work: disabling a failing endpoint, retention). Rows store an actor as a kind and an
// id (`<role>_kind`, `<role>_id`), the id null for the system.
import type { ActorKind } from '../../generated/prisma/enums.ts';

export type Actor =
  | { kind: 'API_TOKEN'; id: string }
  | { kind: 'ALERT_SOURCE'; id: string }
  | { kind: 'PERSON'; id: string }
  | { kind: 'SYSTEM' };

export const SYSTEM_ACTOR: Actor = { kind: 'SYSTEM' };

/** An alert source as the actor of what its alerts do; Hookline itself once the source is deleted. */
export function alertSourceActor(alertSourceId: string | null): Actor {
  return alertSourceId ? { kind: 'ALERT_SOURCE', id: alertSourceId } : SYSTEM_ACTOR;
}

/** The columns an actor is stored in. */
export interface StoredActor {
  kind: ActorKind;
  id: string | null;
}

export function storedActor(actor: Actor): StoredActor {
  return actor.kind === 'SYSTEM' ? { kind: 'SYSTEM', id: null } : { kind: actor.kind, id: actor.id };
}

/** The actor of stored columns; a kind other than SYSTEM without an id is a broken row. */
export function actorOf(kind: ActorKind, id: string | null): Actor {
  if (kind === 'SYSTEM') return SYSTEM_ACTOR;
  if (id === null) throw new Error(`An actor of kind ${kind} has no id`);
  return { kind, id };
}
