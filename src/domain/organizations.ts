// Organizations (tenants) and their API tokens.
import type { PrismaClient } from '../generated/prisma/client.ts';
import { issueApiToken } from './api-tokens.ts';
import { hashToken, issueToken, looksLikeToken } from './tokens.ts';

export interface OrganizationWithToken {
  organizationId: string;
  apiToken: string;
}

export class OrganizationNotFoundError extends Error {
  override name = 'OrganizationNotFoundError';
}

export async function createOrganization(prisma: PrismaClient, name: string): Promise<OrganizationWithToken> {
  const token = issueToken('api');
  const organization = await prisma.organization.create({
    data: { name, apiTokens: { create: { prefix: token.prefix, tokenHash: token.hash } } },
    select: { id: true },
  });
  return { organizationId: organization.id, apiToken: token.plaintext };
}

export async function createApiToken(prisma: PrismaClient, organizationId: string): Promise<string> {
  const organization = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!organization) throw new OrganizationNotFoundError(`No organization with id ${organizationId}`);
  return (await issueApiToken(prisma, organizationId)).plaintext;
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

export interface ApiTokenSummary {
  /** The display prefix shown at creation (hla_ + 8); the token itself is never stored. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** The organization's API tokens, oldest first; throws when there is no such organization. */
export async function listApiTokens(prisma: PrismaClient, organizationId: string): Promise<ApiTokenSummary[]> {
  const organization = await prisma.organization.findUnique({
    where: { id: organizationId },
    select: { apiTokens: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { prefix: true, createdAt: true, revokedAt: true } } },
  });
  if (!organization) throw new OrganizationNotFoundError(`No organization with id ${organizationId}`);
  return organization.apiTokens;
}

/**
 * Revokes live API tokens by the prefix shown when they were made (e.g. `hla_AbCd1234`),
 * or by the full token. Returns how many were revoked.
 */
export async function revokeApiTokens(prisma: PrismaClient, prefixOrToken: string): Promise<number> {
  const where = looksLikeToken('api', prefixOrToken)
    ? { tokenHash: hashToken(prefixOrToken) }
    : { prefix: prefixOrToken };
  const result = await prisma.apiToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  return result.count;
}

/**
 * The organization a live API token belongs to, or null; in the same statement, the token's
 * last_used_at moves to now when it is older than a minute, so that a busy client does not
 * turn every request into a write.
 */
export async function authenticateApiToken(
  prisma: PrismaClient,
  plaintext: string | undefined,
): Promise<{ id: string; name: string } | null> {
  if (!looksLikeToken('api', plaintext)) return null;
  const rows = await prisma.$queryRaw<{ id: string; name: string }[]>`
    WITH token AS (
      SELECT t.id, t.last_used_at, o.id AS organization_id, o.name AS organization_name
        FROM api_tokens t JOIN organizations o ON o.id = t.organization_id
       WHERE t.token_hash = ${hashToken(plaintext)} AND t.revoked_at IS NULL
    ), used AS (
      UPDATE api_tokens SET last_used_at = now()
        FROM token
       WHERE api_tokens.id = token.id AND (token.last_used_at IS NULL OR token.last_used_at < now() - interval '1 minute')
    )
    SELECT organization_id::text AS id, organization_name AS name FROM token`;
  return rows[0] ?? null;
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
