// People: who is calling (me), the organization's members and invites, and changing their roles.
import { authenticatedConnection, builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { quoted } from '../../domain/shared/audit.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { inviteMember } from '../../domain/shared/invites.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { emailAddress, newPassword } from '../../domain/shared/passwords.ts';
import {
  changeMemberRole,
  checkPasswordChange,
  passwordFailureKey,
  organizationsOf,
  removeMember,
  setPassword,
  WrongPasswordError,
} from '../../domain/shared/people.ts';
import type { Role as RoleName } from '../../domain/shared/roles.ts';
import { audited } from '../audit.ts';
import { tooManyPasswordFailures } from '../errors.ts';
import { MyOrganizationRef } from './MyOrganization.ts';
import { Role } from './Role.ts';

export const PersonRef = builder.prismaNode('Person', {
  id: { field: 'id' },
  nullable: true,
  description: 'Someone who signs in. Their email is unique, compared case-insensitively (kept in lower case).',
  select: { id: true },
  fields: (t) => ({
    email: t.exposeString('email'),
    name: t.exposeString('name'),
  }),
});

const MemberRef = builder.prismaNode('Membership', {
  name: 'Member',
  id: { field: 'id' },
  nullable: true,
  description: "A person's membership of the organization, with their role.",
  select: { id: true },
  fields: (t) => ({
    person: t.relation('person'),
    role: t.expose('role', { type: Role }),
    joinedAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

interface Me {
  personId: string | null;
  organizationId: string;
  role: RoleName;
}

export const MeRef = builder.objectRef<Me>('Me').implement({
  description: 'Who is calling: a person (signed in) or an API token (person null), the organization acted for, and the role there.',
  fields: (t) => ({
    person: t.prismaField({
      type: 'Person',
      nullable: true,
      description: 'The signed-in person; null for an API token.',
      resolve: (query, me, _args, context) =>
        me.personId ? context.prisma.person.findUnique({ ...query, where: { id: me.personId } }) : null,
    }),
    organization: t.prismaField({
      type: 'Organization',
      resolve: (query, me, _args, context) => context.prisma.organization.findUniqueOrThrow({ ...query, where: { id: me.organizationId } }),
    }),
    organizations: t.field({
      type: [MyOrganizationRef],
      description: 'Every organization of the signed-in person, with their role in each, the first joined first (none for an API token).',
      complexity: listOf(LIST_BOUNDS.organizations),
      resolve: (me, _args, context) => (me.personId ? organizationsOf(context.prisma, me.personId) : []),
    }),
    role: t.field({
      type: Role,
      description: "The caller's role: a person's membership, or an API token's scope (READ VIEWER, WRITE MEMBER, ADMIN ADMIN).",
      resolve: (me) => me.role,
    }),
  }),
});

builder.queryFields((t) => ({
  me: t.withAuth({ organization: true }).field({
    type: MeRef,
    description: 'Who is calling, for which organization, with which role.',
    resolve: (_root, _args, { organization }) => ({
      personId: organization.actor.kind === 'person' ? organization.actor.personId : null,
      organizationId: organization.id,
      role: organization.role,
    }),
  }),
  members: t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'Membership',
      cursor: 'id',
      description: "The organization's members, the earliest to join first.",
      totalCount: (_root, _args, context) => countRows(context.prisma.membership, { organizationId: context.organization.id }, 'createdAt'),
      resolve: (query, _root, _args, context) =>
        context.prisma.membership.findMany({
          ...query,
          where: { organizationId: context.organization.id },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        }),
    },
    authenticatedConnection(builder.connectionObject({ type: MemberRef, name: 'MemberConnection' }, { name: 'MemberEdge' })),
  ),
}));

const InviteMemberPayload = builder.objectRef<{ inviteUrl: string; expiresAt: Date }>('InviteMemberPayload').implement({
  description: 'An invite link: one use, valid 7 days. Whoever opens it chooses a name and password and joins with the role.',
  fields: (t) => ({
    inviteUrl: t.exposeString('inviteUrl', { description: 'The link to send to the person invited: it is shown only here.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.mutationFields((t) => ({
  inviteMember: t.withAuth({ organization: true }).field({
    type: InviteMemberPayload,
    description: 'Invites a person by email with a role: returns a one-use link, valid 7 days (OWNER only).',
    args: { email: t.arg.string({ required: true, validate: emailAddress }), role: t.arg({ type: Role, required: true }) },
    resolve: async (_root, { email, role }, context) => {
      // The entry names the email and role, never the link: its token lets anyone join.
      const link = await audited(
        context,
        'member.invite',
        (scoped) => {
          // OWNER only, and no token is an OWNER: the inviter is a person.
          const { actor } = scoped.organization;
          return inviteMember(scoped.prisma, scoped.organization.id, email, role, actor.kind === 'person' ? actor.personId : undefined);
        },
        (issued) => ({ objectId: issued.id, summary: `Invited ${quoted(email.trim().toLowerCase())} as ${role}` }),
      );
      return { inviteUrl: `${context.origin}${link.path}`, expiresAt: link.expiresAt };
    },
  }),
  changeMemberRole: t.withAuth({ organization: true }).prismaField({
    type: 'Membership',
    description: "Changes a member's role (OWNER only); the organization's last owner cannot be demoted.",
    args: { personId: t.arg.id({ required: true }), role: t.arg({ type: Role, required: true }) },
    resolve: async (query, _root, { personId, role }, context) => {
      const membership = await audited(
        context,
        'member.changeRole',
        (scoped) => changeMemberRole(scoped.prisma, scoped.organization.id, personId, role),
        (changed) => ({ objectId: changed.personId, summary: `Changed the role of ${quoted(changed.person.email)} to ${role}` }),
      );
      return context.prisma.membership.findUniqueOrThrow({ ...query, where: { id: membership.id } });
    },
  }),
  removeMember: t.withAuth({ organization: true }).id({
    description:
      "Removes a member (OWNER only): their sessions in the organization end. The last owner cannot be removed. Returns the person's id.",
    args: { personId: t.arg.id({ required: true }) },
    resolve: (_root, { personId }, context) =>
      audited(
        context,
        'member.remove',
        (scoped) => removeMember(scoped.prisma, scoped.organization.id, personId),
        (removed) => ({ objectId: removed, summary: 'Removed a member from the organization' }),
      ),
  }),
  changePassword: t.withAuth({ organization: true }).int({
    description:
      "Changes the signed-in person's password, given their current one: every other session of theirs ends (this one stays). " +
      'A wrong current password counts toward the sign-in limit (10 failures in 15 minutes: RATE_LIMITED). Returns how many sessions ended.',
    args: {
      currentPassword: t.arg.string({ required: true }),
      newPassword: t.arg.string({ required: true, validate: newPassword }),
    },
    resolve: async (_root, args, context) => {
      const { actor } = context.organization;
      if (actor.kind !== 'person') throw new ForbiddenError('An API token has no password: a person changes theirs signed in');
      const person = await context.prisma.person.findUniqueOrThrow({ where: { id: actor.personId }, select: { email: true } });
      const key = passwordFailureKey(context.requestFrom.ip, person.email);
      const blockedFor = await context.signInFailures.blockedFor(key);
      if (blockedFor !== null) throw tooManyPasswordFailures(blockedFor);
      const checked = await checkPasswordChange(context.prisma, actor.personId, args.currentPassword, args.newPassword).catch(
        async (error: unknown) => {
          if (error instanceof WrongPasswordError) await context.signInFailures.recordFailure(key);
          throw error;
        },
      );
      const ended = await audited(
        context,
        'person.changePassword',
        (scoped) => setPassword(scoped.prisma, actor.personId, checked.passwordHash, actor.sessionId),
        (count) => ({ objectId: actor.personId, summary: `Changed their password; ${count} other sessions ended` }),
      );
      await context.signInFailures.reset(key);
      return ended;
    },
  }),
}));
