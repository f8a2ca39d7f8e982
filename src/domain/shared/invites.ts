// One-use links into an organization: an invite (for one email, with a role, valid 7 days) and the
// first owner's set-up link (valid 24 hours). Only the SHA-256 of a link's token is stored; a link
// is used up in the same transaction that makes its person a member, so it works exactly once. An
// owner may cancel a pending invite: its link is refused from then on.
import { randomBytes } from 'node:crypto';
import type { Invite, InviteKind, Person, Prisma, PrismaClient, Role } from '../../generated/prisma/client.ts';
import { quoted, recordAuditEntry, type RequestSource } from './audit.ts';
import { InputError, NotFoundError } from './errors.ts';
import { isUuid } from './ids.ts';
import { emailAddress, hashPassword, verifyPassword } from './passwords.ts';
import { hashToken } from './tokens.ts';

export const INVITE_VALIDITY_MS = 7 * 24 * 3600_000;
export const OWNER_SETUP_VALIDITY_MS = 24 * 3600_000;

/** Where each kind of link opens in the dashboard. */
export const LINK_PATHS: Record<InviteKind, string> = { INVITE: '/invite', OWNER_SETUP: '/setup' };

export interface IssuedLink {
  /** The invite's id. */
  id: string;
  /** The link's token: shown once, in its URL. */
  token: string;
  /** The path and query of the link, e.g. /setup?token=…, to be put after the server's address. */
  path: string;
  expiresAt: Date;
}

async function issueLink(
  prisma: Pick<PrismaClient, 'invite'>,
  data: { kind: InviteKind; organizationId: string; email: string | null; role: Role; invitedById?: string },
): Promise<IssuedLink> {
  const token = randomBytes(32).toString('base64url');
  const validity = data.kind === 'INVITE' ? INVITE_VALIDITY_MS : OWNER_SETUP_VALIDITY_MS;
  const invite = await prisma.invite.create({ data: { ...data, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + validity) } });
  return { id: invite.id, token, path: `${LINK_PATHS[data.kind]}?token=${token}`, expiresAt: invite.expiresAt };
}

/** An invite of `email` to the organization with `role`, made by the person `invitedById`. */
export function inviteMember(
  prisma: PrismaClient,
  organizationId: string,
  email: string,
  role: Role,
  invitedById?: string,
): Promise<IssuedLink> {
  return issueLink(prisma, { kind: 'INVITE', organizationId, email: emailAddress.parse(email), role, invitedById });
}

/** What makes a link usable at `now`: neither used, nor cancelled, nor expired. */
function pending(now: Date) {
  return { usedAt: null, cancelledAt: null, expiresAt: { gt: now } };
}

/** The organization's invites that can still be accepted, the newest first, at most `limit`. */
export function listPendingInvites(prisma: PrismaClient, organizationId: string, limit: number, now = new Date()): Promise<Invite[]> {
  return prisma.invite.findMany({
    where: { organizationId, kind: 'INVITE', ...pending(now) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/** Cancels a pending invite of the organization: its link is refused from now on. */
export async function cancelInvite(prisma: PrismaClient, organizationId: string, id: string, now = new Date()): Promise<Invite> {
  if (!isUuid(id)) throw new NotFoundError('Invite', id);
  const cancelled = await prisma.invite.updateManyAndReturn({
    where: { id, organizationId, kind: 'INVITE', ...pending(now) },
    data: { cancelledAt: now },
  });
  if (!cancelled[0]) throw new NotFoundError('Invite', id, `No pending invite ${id}: unknown, already accepted, cancelled or expired`);
  return cancelled[0];
}

/** The pending links made for `email` (invites and set-up links), the oldest first. */
export function pendingLinksFor(prisma: Pick<PrismaClient, 'invite'>, email: string, now: Date): Promise<Invite[]> {
  return prisma.invite.findMany({ where: { email, ...pending(now) }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** A set-up link: whoever completes it becomes an OWNER of the organization; with `email`, only with that email. */
export async function issueOwnerSetupLink(prisma: PrismaClient, organizationId: string, email?: string): Promise<IssuedLink> {
  const organization = isUuid(organizationId) ? await prisma.organization.findUnique({ where: { id: organizationId } }) : null;
  if (!organization) throw new NotFoundError('Organization', organizationId, `No organization with id ${organizationId}`);
  return issueLink(prisma, {
    kind: 'OWNER_SETUP',
    organizationId,
    email: email === undefined ? null : emailAddress.parse(email),
    role: 'OWNER',
  });
}

/**
 * Records in `tx` that the person joined the organization by a link (an invite or a set-up link):
 * the entry is the person's own, and names their email and role, never the link.
 */
function recordJoin(
  tx: Prisma.TransactionClient,
  from: RequestSource,
  link: { kind: InviteKind; organizationId: string },
  person: Pick<Person, 'id' | 'email'>,
  role: Role,
): Promise<void> {
  return recordAuditEntry(
    tx,
    { organizationId: link.organizationId, actor: { kind: 'PERSON', id: person.id }, ...from },
    link.kind === 'OWNER_SETUP' ? 'member.completeSetup' : 'member.acceptInvite',
    { objectId: person.id, summary: `${quoted(person.email)} joined as ${role}` },
  );
}

/**
 * Uses `link` up for `person` in `tx` and makes them a member of its organization with its role (a
 * member invited again keeps theirs; a set-up link makes an owner), with the audit entry of their
 * joining. False, changing nothing, when the link was used meanwhile or has expired.
 */
export async function joinByLink(
  tx: Prisma.TransactionClient,
  link: Invite,
  person: Pick<Person, 'id' | 'email'>,
  from: RequestSource,
  now = new Date(),
): Promise<boolean> {
  // Used up here, once: a concurrent use of the same link leaves nothing to use.
  const used = await tx.invite.updateMany({ where: { id: link.id, ...pending(now) }, data: { usedAt: now } });
  if (used.count === 0) return false;
  const membership = await tx.membership.upsert({
    where: { personId_organizationId: { personId: person.id, organizationId: link.organizationId } },
    create: { personId: person.id, organizationId: link.organizationId, role: link.role },
    update: link.kind === 'OWNER_SETUP' ? { role: 'OWNER' } : {},
  });
  await recordJoin(tx, from, link, person, membership.role);
  return true;
}

/** A link that is unknown, used, expired or of the other kind: one answer for all, telling nothing more. */
export class InvalidLinkError extends Error {
  override name = 'InvalidLinkError';
  constructor(message = 'This link is unknown, already used or expired: ask for a new one') {
    super(message);
  }
}

/** The message for a cancelled invite: its holder has the link, so telling them it was cancelled tells no one else anything. */
const CANCELLED_LINK = 'This invite was cancelled by an owner of the organization: ask them for a new one';

/**
 * A password that does not match an existing person's: accepting a link for an email that already
 * has an account needs that account's password, so a link cannot take an account over.
 */
export class ExistingAccountError extends Error {
  override name = 'ExistingAccountError';
  constructor() {
    super('An account with this email exists: give its password to join');
  }
}

export interface Joined {
  person: Person;
  organizationId: string;
}

/**
 * Uses the link up and makes its person a member: a new person with `name` and `password`, or the
 * existing person of that email when `password` is theirs. Throws InvalidLinkError,
 * ExistingAccountError or InputError, and then nothing is changed.
 */
export async function redeemLink(
  prisma: PrismaClient,
  kind: InviteKind,
  input: { token: string; email?: string; name: string; password: string },
  from: RequestSource,
): Promise<Joined> {
  const tokenHash = hashToken(input.token);
  // The email of a set-up link is its completer's; an invite's is the one invited.
  const invite = await prisma.invite.findUnique({ where: { tokenHash } });
  if (!invite || invite.kind !== kind || invite.usedAt || invite.expiresAt <= new Date()) throw new InvalidLinkError();
  if (invite.cancelledAt) throw new InvalidLinkError(CANCELLED_LINK);
  const given = input.email === undefined ? undefined : emailAddress.parse(input.email);
  if (invite.email && given !== undefined && given !== invite.email) {
    throw new InputError([{ field: 'email', message: 'must be the email this link was made for' }]);
  }
  const email = invite.email ?? given;
  if (!email) throw new InputError([{ field: 'email', message: 'is required' }]);
  const existing = await prisma.person.findUnique({ where: { email } });
  // Hashed (or verified) before the transaction: argon2 takes tens of milliseconds, a lock should not.
  const passwordHash = existing ? null : await hashPassword(input.password);
  if (existing && !(await verifyPassword(existing.passwordHash, input.password))) throw new ExistingAccountError();
  return prisma.$transaction(async (tx) => {
    const person = existing ?? (await tx.person.create({ data: { email, name: input.name, passwordHash } }));
    // A link used or expired meanwhile: the transaction, the person made above included, is undone.
    if (!(await joinByLink(tx, invite, person, from))) throw new InvalidLinkError();
    return { person, organizationId: invite.organizationId };
  });
}
