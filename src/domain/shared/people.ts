// People and their memberships: who may sign in, to which organizations, with which role. An
// organization always keeps an owner: the last one can be neither demoted nor removed.
import type { Person, PrismaClient, Role } from '../../generated/prisma/client.ts';
import { ForbiddenError, NotFoundError } from './errors.ts';
import { isUuid } from './ids.ts';
import { emailAddress, verifyPassword } from './passwords.ts';

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
