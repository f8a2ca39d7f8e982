// Who did something: an API token, an alert source, or Hookline itself (System). The stored actor
// (a kind and an id) is read back through one loader per kind, so a page of entries costs one
// query per kind of actor on it.
import type { AlertSource, ApiToken } from '../../generated/prisma/client.ts';
import type { ActorKind } from '../../generated/prisma/enums.ts';
import { actorOf } from '../../domain/shared/actors.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import { AlertSourceRef } from './AlertSource.ts';
import { ApiTokenRef } from './ApiToken.ts';
import { SYSTEM, SystemRef, type SystemActor } from './System.ts';

type ActorValue = ApiToken | AlertSource | SystemActor;

export const ActorRef = builder.unionType('Actor', {
  description: 'Who did something: an API token, an alert source (its alerts), or Hookline itself.',
  types: [ApiTokenRef, AlertSourceRef, SystemRef],
  resolveType: (actor) => ('system' in actor ? 'System' : 'tokenPrefix' in actor ? 'AlertSource' : 'ApiToken'),
});

/**
 * The actor stored as `kind` and `id`, among the organization's own rows; null when it is gone
 * (a deleted alert source) or, until people are built, a person.
 */
export async function loadActor(
  context: Context,
  organizationId: string,
  kind: ActorKind | null,
  id: string | null,
): Promise<ActorValue | null> {
  if (kind === null) return null;
  const actor = actorOf(kind, id);
  switch (actor.kind) {
    case 'SYSTEM':
      return SYSTEM;
    case 'API_TOKEN':
      return requestLoader(context, 'actor API token', organizationId, async (ids: readonly string[]) => {
        const rows = await context.prisma.apiToken.findMany({ where: { id: { in: [...ids] }, organizationId } });
        return ids.map((wanted) => rows.find((row) => row.id === wanted) ?? null);
      }).load(actor.id);
    case 'ALERT_SOURCE':
      return requestLoader(context, 'actor alert source', organizationId, async (ids: readonly string[]) => {
        const rows = await context.prisma.alertSource.findMany({ where: { id: { in: [...ids] }, organizationId } });
        return ids.map((wanted) => rows.find((row) => row.id === wanted) ?? null);
      }).load(actor.id);
    case 'PERSON':
      return null;
  }
}
