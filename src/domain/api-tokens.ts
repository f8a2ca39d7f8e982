// An organization's API tokens as its people manage them: made with an optional name (the
// plaintext is returned once), listed, revoked. Another organization's token counts as absent.
import type { ApiToken, PrismaClient } from '../generated/prisma/client.ts';
import { isUuid } from './ids.ts';
import { storableText } from './input.ts';
import { issueToken } from './tokens.ts';

export const API_TOKEN_NAME_MAX_LENGTH = 100;

/** A token's name: what it is for, trimmed, 1..100 characters. */
export const apiTokenName = storableText()
  .trim()
  .min(1, `must be 1 to ${API_TOKEN_NAME_MAX_LENGTH} characters`)
  .max(API_TOKEN_NAME_MAX_LENGTH, `must be 1 to ${API_TOKEN_NAME_MAX_LENGTH} characters`);

export interface IssuedApiToken {
  apiToken: ApiToken;
  /** hla_…, shown once: only its hash is stored. */
  plaintext: string;
}

/** Makes an API token of the organization, named as `apiTokenName` allows (or not at all). */
export async function issueApiToken(prisma: PrismaClient, organizationId: string, name?: string | null): Promise<IssuedApiToken> {
  const token = issueToken('api');
  const apiToken = await prisma.apiToken.create({
    data: { organizationId, name: name == null ? null : apiTokenName.parse(name), prefix: token.prefix, tokenHash: token.hash },
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
