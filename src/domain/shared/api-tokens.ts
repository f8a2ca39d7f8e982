// An organization's API tokens (Bearer, `hla_…`): made with an optional name (the plaintext is
// returned once, only its SHA-256 is stored), listed, revoked, and checked on every request.
// Another organization's token counts as absent.
import type { ApiToken, ApiTokenScope, PrismaClient } from '../../generated/prisma/client.ts';
import { NotFoundError } from './errors.ts';
import { isUuid } from './ids.ts';
import { trimmedText } from './input.ts';
import { hashToken, issueToken, looksLikeToken } from './tokens.ts';

export const API_TOKEN_NAME_MAX_LENGTH = 100;

/** A token's name: what it is for, trimmed, 1..100 characters. */
export const apiTokenName = trimmedText(API_TOKEN_NAME_MAX_LENGTH);

export interface IssuedApiToken {
  apiToken: ApiToken;
  /** hla_…, shown once: only its hash is stored. */
  plaintext: string;
}

/** Makes an API token of the organization, named as `apiTokenName` allows (or not at all), with `scope` (ADMIN unless said). */
export async function issueApiToken(
  prisma: PrismaClient,
  organizationId: string,
  name?: string | null,
  scope: ApiTokenScope = 'ADMIN',
): Promise<IssuedApiToken> {
  const token = issueToken('api');
  const apiToken = await prisma.apiToken.create({
    data: { organizationId, name: name == null ? null : apiTokenName.parse(name), scope, prefix: token.prefix, tokenHash: token.hash },
  });
  return { apiToken, plaintext: token.plaintext };
}

/**
 * Revokes one of the organization's tokens; every later request with it is refused. Revoking
 * it again changes nothing (it keeps its first revocation time).
 */
export async function revokeApiToken(prisma: PrismaClient, organizationId: string, id: string): Promise<ApiToken> {
  if (!isUuid(id)) throw new NotFoundError('API token', id);
  await prisma.apiToken.updateMany({ where: { id, organizationId, revokedAt: null }, data: { revokedAt: new Date() } });
  const token = await prisma.apiToken.findFirst({ where: { id, organizationId } });
  if (!token) throw new NotFoundError('API token', id);
  return token;
}

/** A new token of an existing organization (the CLI's tokens create). */
export async function createApiToken(prisma: PrismaClient, organizationId: string, scope: ApiTokenScope = 'ADMIN'): Promise<string> {
  // A malformed id names no organization: the same outcome as an unknown one.
  const organization = isUuid(organizationId)
    ? await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } })
    : null;
  if (!organization) throw new NotFoundError('Organization', organizationId, `No organization with id ${organizationId}`);
  return (await issueApiToken(prisma, organizationId, null, scope)).plaintext;
}

export interface ApiTokenSummary {
  /** The display prefix shown at creation (hla_ + 8); the token itself is never stored. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** The organization's API tokens, oldest first; throws when there is no such organization. */
export async function listApiTokens(prisma: PrismaClient, organizationId: string): Promise<ApiTokenSummary[]> {
  const organization = !isUuid(organizationId)
    ? null
    : await prisma.organization.findUnique({
        where: { id: organizationId },
        select: {
          apiTokens: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { prefix: true, createdAt: true, revokedAt: true } },
        },
      });
  if (!organization) throw new NotFoundError('Organization', organizationId, `No organization with id ${organizationId}`);
  return organization.apiTokens;
}

/**
 * Revokes live API tokens by the prefix shown when they were made (e.g. `hla_AbCd1234`),
 * or by the full token. Returns how many were revoked.
 */
export async function revokeApiTokens(prisma: PrismaClient, prefixOrToken: string): Promise<number> {
  const where = looksLikeToken('api', prefixOrToken) ? { tokenHash: hashToken(prefixOrToken) } : { prefix: prefixOrToken };
  const result = await prisma.apiToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  return result.count;
}

export interface AuthenticatedApiToken {
  /** The organization's id and name. */
  id: string;
  name: string;
  apiTokenId: string;
  scope: ApiTokenScope;
}

/**
 * The organization a live API token belongs to (and the token's scope), or null; in the same statement, the token's
 * last_used_at moves to now when it is older than a minute, so that a busy client does not
 * turn every request into a write.
 */
export async function authenticateApiToken(prisma: PrismaClient, plaintext: string | undefined): Promise<AuthenticatedApiToken | null> {
  if (!looksLikeToken('api', plaintext)) return null;
  const rows = await prisma.$queryRaw<AuthenticatedApiToken[]>`
    WITH token AS (
      SELECT t.id, t.last_used_at, t.scope, o.id AS organization_id, o.name AS organization_name
        FROM api_tokens t JOIN organizations o ON o.id = t.organization_id
       WHERE t.token_hash = ${hashToken(plaintext)} AND t.revoked_at IS NULL
    ), used AS (
      UPDATE api_tokens SET last_used_at = now()
        FROM token
       WHERE api_tokens.id = token.id AND (token.last_used_at IS NULL OR token.last_used_at < now() - interval '1 minute')
    )
    SELECT organization_id::text AS id, organization_name AS name, id::text AS "apiTokenId", scope FROM token`;
  return rows[0] ?? null;
}
