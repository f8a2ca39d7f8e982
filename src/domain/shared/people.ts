// People and their memberships: who may sign in, to which organizations, with which role. An
// organization always keeps an owner: the last one can be neither demoted nor removed.
import type { Person, PrismaClient, Role } from '../../generated/prisma/client.ts';
import { ForbiddenError, InputError, NotFoundError } from './errors.ts';
import { isUuid } from './ids.ts';
import { emailAddress, hashPassword, verifyPassword } from './passwords.ts';

export interface PersonSummary {
  id: string;
  email: string;
  name: string;
}

export interface OrganizationMembership {
  id: string;
  name: string;
  role: Role;
}

/**
 * The person with this email and password, or null. A wrong email and a wrong password are the
 * same null, after the same work (a password hash is verified either way).
 */
export async function checkCredentials(prisma: PrismaClient, email: string, password: string): Promise<Person | null> {
  const parsed = emailAddress.safeParse(email);
  const person = parsed.success ? await prisma.person.findUnique({ where: { email: parsed.data } }) : null;
  const matches = await verifyPassword(person?.passwordHash, password);
  return matches ? person : null;
}

/**
 * Failed password checks counted per email and client address: sign-ins, and a wrong current
 * password when changing it, count together (more than 10 in 15 minutes: refused until the window ends).
 */
export interface FailureLimiter {
  /** Whole seconds until `key` may try again, or null while it has failed at most `maxFailures` times in the window. */
  blockedFor(key: string): Promise<number | null>;
  recordFailure(key: string): Promise<void>;
  /** Forgets the key's failures (after a success). */
  reset(key: string): Promise<void>;
}

/** The key failed password checks are counted under: one email from one client address. */
export function passwordFailureKey(ip: string | null, email: string): string {
  return `${ip}|${email.trim().toLowerCase()}`;
}

/** The current password given to change it is not the person's (or they have none: single sign-on only). */
export class WrongPasswordError extends InputError {
  constructor() {
    super([{ field: 'currentPassword', message: 'is not your current password' }]);
  }
}

/**
 * Checks `currentPassword` and hashes `newPassword` for setPassword (argon2 outside any
 * transaction: it takes tens of milliseconds, a lock should not). Throws WrongPasswordError.
 */
export async function checkPasswordChange(
  prisma: PrismaClient,
  personId: string,
  currentPassword: string,
  newPassword: string,
): Promise<{ passwordHash: string }> {
  const person = await prisma.person.findUniqueOrThrow({ where: { id: personId }, select: { passwordHash: true } });
  if (!(await verifyPassword(person.passwordHash, currentPassword))) throw new WrongPasswordError();
  return { passwordHash: await hashPassword(newPassword) };
}

/**
 * Sets the person's password and ends every other session of theirs (ASVS 3.3.3: whoever signed
 * in with the old password is signed out); `keepSessionId`, the session changing it, stays.
 * Returns how many sessions ended.
 */
export async function setPassword(prisma: PrismaClient, personId: string, passwordHash: string, keepSessionId: string): Promise<number> {
  await prisma.person.update({ where: { id: personId }, data: { passwordHash } });
  const ended = await prisma.session.updateMany({
    where: { personId, revokedAt: null, id: { not: keepSessionId } },
    data: { revokedAt: new Date() },
  });
  return ended.count;
}

/** The person's organizations, oldest membership first (the first is where a new session starts). */
export async function organizationsOf(prisma: PrismaClient, personId: string): Promise<OrganizationMembership[]> {
  const memberships = await prisma.membership.findMany({
    where: { personId },
    orderBy: [{ createdAt: 'asc' }, { organizationId: 'asc' }],
    select: { role: true, organization: { select: { id: true, name: true } } },
  });
  return memberships.map(({ role, organization }) => ({ ...organization, role }));
}

/** Locks the organization's memberships for the transaction, so two changes cannot both remove "the other" owner. */
async function lockMemberships(tx: Pick<PrismaClient, '$executeRaw'>, organizationId: string): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
}

async function refuseLosingLastOwner(
  tx: Pick<PrismaClient, 'membership'>,
  organizationId: string,
  personId: string,
  what: string,
): Promise<void> {
  const owners = await tx.membership.findMany({ where: { organizationId, role: 'OWNER' }, select: { personId: true } });
  if (owners.length === 1 && owners[0]!.personId === personId) {
    throw new ForbiddenError(`${what}: an organization always keeps an owner; make another member OWNER first`);
  }
}

/** Changes a member's role; the organization's last owner stays OWNER. */
export async function changeMemberRole(prisma: PrismaClient, organizationId: string, personId: string, role: Role) {
  if (!isUuid(personId)) throw new NotFoundError('Member', personId);
  return prisma.$transaction(async (tx) => {
    await lockMemberships(tx, organizationId);
    const membership = await tx.membership.findUnique({ where: { personId_organizationId: { personId, organizationId } } });
    if (!membership) throw new NotFoundError('Member', personId);
    if (role !== 'OWNER') await refuseLosingLastOwner(tx, organizationId, personId, 'Cannot demote the last owner');
    return tx.membership.update({
      where: { personId_organizationId: { personId, organizationId } },
      data: { role },
      include: { person: true },
    });
  });
}

/** Removes a member (their sessions in the organization end with it); the last owner stays. */
export async function removeMember(prisma: PrismaClient, organizationId: string, personId: string): Promise<string> {
  if (!isUuid(personId)) throw new NotFoundError('Member', personId);
  return prisma.$transaction(async (tx) => {
    await lockMemberships(tx, organizationId);
    const membership = await tx.membership.findUnique({ where: { personId_organizationId: { personId, organizationId } } });
    if (!membership) throw new NotFoundError('Member', personId);
    await refuseLosingLastOwner(tx, organizationId, personId, 'Cannot remove the last owner');
    await tx.membership.delete({ where: { personId_organizationId: { personId, organizationId } } });
    await tx.session.updateMany({ where: { personId, organizationId, revokedAt: null }, data: { revokedAt: new Date() } });
    return personId;
  });
}
