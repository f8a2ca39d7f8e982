// Who did something: an API token, an alert source, a person, or Hookline itself (System). The stored actor
// (a kind and an id) is read back through one loader per kind, so a page of entries costs one
// query per kind of actor on it.
import type { AlertSource, ApiToken, Person } from '../../generated/prisma/client.ts';
import type { ActorKind } from '../../generated/prisma/enums.ts';
import { actorOf } from '../../domain/shared/actors.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import { AlertSourceRef } from './AlertSource.ts';
import { ApiTokenRef } from './ApiToken.ts';
import { PersonRef } from './Person.ts';
import { SYSTEM, SystemRef, type SystemActor } from './System.ts';

type ActorValue = ApiToken | AlertSource | Person | SystemActor;

export const ActorRef = builder.unionType('Actor', {
  description: 'Who did something: an API token, an alert source (its alerts), a signed-in person, or Hookline itself.',
  types: [ApiTokenRef, AlertSourceRef, PersonRef, SystemRef],
  resolveType: (actor) =>
    'system' in actor ? 'System' : 'tokenPrefix' in actor ? 'AlertSource' : 'passwordHash' in actor ? 'Person' : 'ApiToken',
});

/**
 * The actor stored as `kind` and `id`, among the organization's own rows; null when it is gone
 * (a deleted alert source) or a person who is no longer a member of the organization.
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
      return requestLoader(context, 'actor person', organizationId, async (ids: readonly string[]) => {
        const rows = await context.prisma.person.findMany({
          where: { id: { in: [...ids] }, memberships: { some: { organizationId } } },
        });
        return ids.map((wanted) => rows.find((row) => row.id === wanted) ?? null);
      }).load(actor.id);
  }
}
