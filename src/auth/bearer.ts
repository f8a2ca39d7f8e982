// Who a request is: the organization of the API token in its `Authorization: Bearer hla_…`
// header (REST and GraphQL over HTTP) or in its WebSocket `connectionParams.authorization`.
// Every request checks the token in the database, so a revoked token is refused at once by
// every process.
import { inRequestScope } from '../db/request-scope.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Actor } from '../domain/shared/actors.ts';
import { authenticateApiToken } from '../domain/shared/api-tokens.ts';
import { hashToken } from '../domain/shared/tokens.ts';

/** The organization a request acts for, and the API token it came with. */
export interface Viewer {
  id: string;
  name: string;
  apiTokenId: string;
}

/**
 * Who a signed-in request acts as, for the audit log and the incidents it moves on: the one place
 * that decides it, for GraphQL and REST alike. Today every such request carries an API token.
 */
export function actorOfViewer(viewer: Viewer): Actor {
  return { kind: 'API_TOKEN', id: viewer.apiTokenId };
}

export function bearerToken(authorization: string | null | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The organization of a live API token in `authorization`, or null (missing, malformed, unknown, revoked). */
export function authenticate(prisma: PrismaClient, authorization: string | null | undefined): Promise<Viewer | null> {
  const token = bearerToken(authorization);
  if (!token) return Promise.resolve(null);
  // The organization is not known yet: the check counts against the token's own share of the pool,
  // so a flood of requests with one token queues behind itself, not in front of everyone.
  return inRequestScope({ credential: hashToken(token) }, () => authenticateApiToken(prisma, token));
}
