// The organization's pending invites (made by an owner, not yet accepted, cancelled or expired),
// and cancelling one. The link itself is never shown again: only a hash of its token is stored.
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { quoted } from '../../domain/shared/audit.ts';
import { cancelInvite, listPendingInvites } from '../../domain/shared/invites.ts';
import { audited } from '../audit.ts';
import { Role } from './Role.ts';

builder.prismaNode('Invite', {
  id: { field: 'id' },
  nullable: true,
  description: 'An invite of an email to the organization with a role: its link works once, until it expires or is cancelled.',
  select: { id: true },
  fields: (t) => ({
    email: t.exposeString('email', { nullable: true, description: 'Whom it is for.' }),
    role: t.expose('role', { type: Role, description: 'The role the invited person gets on accepting it.' }),
    invitedBy: t.relation('invitedBy', {
      nullable: true,
      description: 'The owner who made it; null for invites made before this was recorded, or when that person is gone.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When its link stops working if not accepted before.' }),
  }),
});

builder.queryField('pendingInvites', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: ['Invite'],
    description: `The organization's invites that can still be accepted (not used, cancelled or expired), the newest first, at most ${LIST_BOUNDS.pendingInvites}.`,
    complexity: listOf(LIST_BOUNDS.pendingInvites),
    resolve: (_query, _root, _args, context) => listPendingInvites(context.prisma, context.organization.id, LIST_BOUNDS.pendingInvites),
  }),
);

builder.mutationField('cancelInvite', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Invite',
    description: 'Cancels a pending invite (OWNER only): its link is refused from now on.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, context) =>
      audited(
        context,
        'member.cancelInvite',
        (scoped) => cancelInvite(scoped.prisma, scoped.organization.id, id),
        (invite) => ({ objectId: invite.id, summary: `Cancelled the invite of ${quoted(invite.email)} as ${invite.role}` }),
      ),
  }),
);
