// The caller's own sign-in sessions: list them, end one, end all ("sign out everywhere"), and
// switch the organization the current one acts for. An API token has no sessions.
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import type { AuthenticatedContext } from '../context.ts';
import { listSessions, revokeAllSessions, revokeSession, switchOrganization } from '../../domain/shared/sessions.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { audited } from '../audit.ts';
import { MeRef } from './Person.ts';

builder.prismaNode('Session', {
  id: { field: 'id' },
  nullable: true,
  description: 'A signed-in browser of the caller. Its cookie is never shown: only a hash of it is stored.',
  fields: (t) => ({
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it signed in.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', description: 'When a request last came with it, to the minute.' }),
    expiresAt: t.field({
      type: 'DateTime',
      description: 'When it ends unless used before (idle expiry), at the latest its absolute expiry.',
      resolve: (session) => session.idleExpiresAt,
    }),
    absoluteExpiresAt: t.expose('absoluteExpiresAt', { type: 'DateTime', description: 'When it ends, used or not.' }),
    ip: t.exposeString('ip', { nullable: true, description: 'The address it signed in from.' }),
    userAgent: t.exposeString('userAgent', { nullable: true, description: 'The browser it signed in with.' }),
    current: t.boolean({
      description: 'Whether this is the session of the request asking.',
      resolve: (session, _args, context) =>
        context.organization?.actor.kind === 'person' && context.organization.actor.sessionId === session.id,
    }),
  }),
});

/** The person calling, or none for an API token. */
function personOf(context: AuthenticatedContext): { personId: string; sessionId: string } | null {
  return context.organization.actor.kind === 'person' ? context.organization.actor : null;
}

builder.queryField('sessions', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: ['Session'],
    description: `The caller's live sessions, the most recently used first, at most ${LIST_BOUNDS.sessions} (none for an API token).`,
    complexity: listOf(LIST_BOUNDS.sessions),
    resolve: (_query, _root, _args, context) => {
      const person = personOf(context);
      return person ? listSessions(context.prisma, person.personId, LIST_BOUNDS.sessions) : [];
    },
  }),
);

builder.mutationFields((t) => ({
  revokeSession: t.withAuth({ organization: true }).prismaField({
    type: 'Session',
    description: "Ends one of the caller's own sessions: its next request gets 401 UNAUTHENTICATED.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, context) => {
      const person = personOf(context);
      if (!person) throw new NotFoundError('Session', id);
      return audited(
        context,
        'session.revoke',
        (scoped) => revokeSession(scoped.prisma, person.personId, id),
        (session) => ({ objectId: session.id, summary: 'Ended a session' }),
      );
    },
  }),
  revokeAllSessions: t.withAuth({ organization: true }).int({
    description:
      'Signs the caller out everywhere: ends every session of theirs, this one included. Returns how many ended (0 for an API token).',
    resolve: (_root, _args, context) => {
      const person = personOf(context);
      return audited(
        context,
        'session.revokeAll',
        (scoped) => (person ? revokeAllSessions(scoped.prisma, person.personId) : Promise.resolve(0)),
        (ended) => ({ objectId: person?.personId ?? null, summary: `Signed out everywhere: ${ended} sessions ended` }),
      );
    },
  }),
  switchOrganization: t.withAuth({ organization: true }).field({
    type: MeRef,
    description: "Makes the caller's session act for another organization they are a member of (not for API tokens).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, context) => {
      const person = personOf(context);
      if (!person) throw new NotFoundError('Organization', id);
      await audited(
        context,
        'session.switchOrganization',
        (scoped) => switchOrganization(scoped.prisma, person.sessionId, person.personId, id),
        () => ({ objectId: id, summary: 'Switched the session to another organization of the person' }),
      );
      const membership = await context.prisma.membership.findUniqueOrThrow({
        where: { personId_organizationId: { personId: person.personId, organizationId: id } },
      });
      return { personId: person.personId, organizationId: id, role: membership.role };
    },
  }),
}));
