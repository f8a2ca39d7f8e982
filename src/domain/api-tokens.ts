// An organization's API tokens as its people manage them: made with an optional name (the
// plaintext is returned once), listed, revoked. Another organization's token counts as absent.
import type { ApiToken, PrismaClient } from '../generated/prisma/client.ts';
import type { FieldError } from './deploys.ts';
import { isUuid } from './ids.ts';
import { issueToken } from './tokens.ts';

export const API_TOKEN_NAME_MAX_LENGTH = 100;

export class ApiTokenInputError extends Error {
  constructor(readonly details: FieldError[]) {
    super(details.map((detail) => `${detail.field} ${detail.message}`).join('; '));
    this.name = 'ApiTokenInputError';
  }
}

export interface IssuedApiToken {
  apiToken: ApiToken;
  /** hla_…, shown once: only its hash is stored. */
  plaintext: string;
}

/** Makes an API token of the organization; `name` (trimmed, 1..100 characters) says what it is for. */
export async function issueApiToken(prisma: PrismaClient, organizationId: string, name?: string | null): Promise<IssuedApiToken> {
  const trimmed = name?.trim();
  if (trimmed !== undefined && (trimmed.length === 0 || trimmed.length > API_TOKEN_NAME_MAX_LENGTH)) {
    throw new ApiTokenInputError([{ field: 'name', message: `must be 1 to ${API_TOKEN_NAME_MAX_LENGTH} characters` }]);
  }
  const token = issueToken('api');
  const apiToken = await prisma.apiToken.create({
    data: { organizationId, name: trimmed ?? null, prefix: token.prefix, tokenHash: token.hash },
  });
  return { apiToken, plaintext: token.plaintext };
}

/**
 * Revokes one of the organization's tokens; every later request with it is refused. Revoking
 * it again changes nothing (it keeps its first revocation time). Null when the organization
 * has no token with this id.
 */
export async function revokeApiToken(prisma: PrismaClient, organizationId: string, id: string): Promise<ApiToken | null> {
  if (!isUuid(id)) return null;
  await prisma.apiToken.updateMany({ where: { id, organizationId, revokedAt: null }, data: { revokedAt: new Date() } });
  return prisma.apiToken.findFirst({ where: { id, organizationId } });
}
