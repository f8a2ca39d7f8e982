// Organizations (tenants): made with a first API token, listed for operators, and the
// `default` one made on an empty database.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { issueToken } from './tokens.ts';

export interface OrganizationWithToken {
  organizationId: string;
  apiToken: string;
}

export async function createOrganization(prisma: PrismaClient, name: string): Promise<OrganizationWithToken> {
  const token = issueToken('api');
  const organization = await prisma.organization.create({
    data: { name, apiTokens: { create: { prefix: token.prefix, tokenHash: token.hash } } },
    select: { id: true },
  });
  return { organizationId: organization.id, apiToken: token.plaintext };
}

export interface OrganizationSummary {
  id: string;
  name: string;
  createdAt: Date;
  /** API tokens not revoked. */
  liveApiTokens: number;
}

/** Every organization, oldest first (operators find the one a token is for). */
export async function listOrganizations(prisma: PrismaClient): Promise<OrganizationSummary[]> {
  const organizations = await prisma.organization.findMany({
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, createdAt: true, _count: { select: { apiTokens: { where: { revokedAt: null } } } } },
  });
  return organizations.map(({ _count, ...organization }) => ({ ...organization, liveApiTokens: _count.apiTokens }));
}

/** Serialises first-start bootstrap across processes sharing one database. */
const BOOTSTRAP_LOCK_KEY = 72_707_370;

/**
 * On an empty database, creates the organization `default` with one API token and returns
 * it (to be printed once). Returns null when any organization already exists.
 */
export async function bootstrapDefaultOrganization(prisma: PrismaClient): Promise<OrganizationWithToken | null> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`;
    if ((await tx.organization.count()) > 0) return null;
    const token = issueToken('api');
    const organization = await tx.organization.create({
      data: { name: 'default', apiTokens: { create: { prefix: token.prefix, tokenHash: token.hash } } },
      select: { id: true },
    });
    return { organizationId: organization.id, apiToken: token.plaintext };
  });
}
