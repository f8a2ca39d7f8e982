// Who a request is, and what it may do: an API token (`Authorization: Bearer hla_…` on HTTP, or
// `connectionParams.authorization` on a WebSocket), acting with its scope's role; or else a
// person's session (the `hookline_session` cookie), acting with their role in the organization
// the session selects (or the one `X-Hookline-Organization` names). Every request checks its
// credential in the database, so a revoked token or session is refused at once by every process.
import { fastifyCookie } from '@fastify/cookie';
import { inRequestScope } from '../db/request-scope.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Actor as ChangeActor } from '../domain/shared/actors.ts';
import type { ChangeOrigin, RequestSource } from '../domain/shared/audit.ts';
import { authenticateApiToken } from '../domain/shared/api-tokens.ts';
import { SCOPE_ROLE, type Role } from '../domain/shared/roles.ts';
import { checkSession } from '../domain/shared/sessions.ts';
import { hashToken } from '../domain/shared/tokens.ts';

export const SESSION_COOKIE = 'hookline_session';
export const ORGANIZATION_HEADER = 'x-hookline-organization';

/** Who acts: what an audit entry or a secret reveal records. */
export type Actor = { kind: 'apiToken'; apiTokenId: string } | { kind: 'person'; personId: string; sessionId: string };

/** The organization a request acts for, the caller's role in it, and who the caller is. */
export interface Viewer {
  /** The organization's id and name. */
  id: string;
  name: string;
  role: Role;
  actor: Actor;
}

/** What a request presents: its headers as Node has them (HTTP or a WebSocket's upgrade). */
export interface Credentials {
  /** `Authorization` (HTTP), or `connectionParams.authorization` (WebSocket). */
  authorization?: string | null;
  /** The raw `Cookie` header. */
  cookie?: string | null;
  /** `X-Hookline-Organization`: the organization a person's request acts for, instead of their session's. */
  organization?: string | null;
}

export type Authentication =
  /** credential: what the process's shares know the request's credential by (credentialKey). */
  | { viewer: Viewer; bySession: boolean; credential: string }
  /** none: no credential; invalid: unknown, revoked or expired; not_a_member: X-Hookline-Organization names another organization. */
  | { viewer: null; refusal: 'none' | 'invalid' | 'not_a_member' };

/**
 * Who a signed-in request acts as, for the audit log, secret reveals and the incidents it moves
 * on: the one place that decides it, for GraphQL and REST alike. A session acts as its person.
 */
export function actorOfViewer(viewer: Viewer): ChangeActor {
  return viewer.actor.kind === 'apiToken'
    ? { kind: 'API_TOKEN', id: viewer.actor.apiTokenId }
    : { kind: 'PERSON', id: viewer.actor.personId };
}

/** Who and where the changes of a viewer's request come from, for their audit entries (GraphQL and REST alike). */
export function changeOriginOf(viewer: Viewer, from: RequestSource): ChangeOrigin {
  return { organizationId: viewer.id, actor: actorOfViewer(viewer), ...from };
}

export function bearerToken(authorization: string | null | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

export function sessionCookie(cookieHeader: string | null | undefined): string | undefined {
  return cookieHeader ? fastifyCookie.parse(cookieHeader)[SESSION_COOKIE] : undefined;
}

/** The credential a request is admitted by (for its share of the process): a token's or a session's hash. */
export function credentialKey(credentials: Credentials): string | undefined {
  const token = bearerToken(credentials.authorization);
  if (token) return `token:${hashToken(token)}`;
  const session = sessionCookie(credentials.cookie);
  return session ? `session:${hashToken(session)}` : undefined;
}

/** Whether the request would be authenticated by its cookie (no Bearer token comes first). */
export function usesSessionCookie(credentials: Credentials): boolean {
  return !bearerToken(credentials.authorization) && sessionCookie(credentials.cookie) !== undefined;
}

/** The caller of a request. A Bearer token comes first: with one, a cookie is not looked at. */
export async function authenticate(prisma: PrismaClient, credentials: Credentials, sessionIdleMs: number): Promise<Authentication> {
  const key = credentialKey(credentials);
  if (!key) return { viewer: null, refusal: 'none' };
  // The organization is not known yet: the check counts against the credential's own share of the
  // pool, so a flood of requests with one credential queues behind itself, not in front of everyone.
  return inRequestScope({ oneConnectionKey: key }, async (): Promise<Authentication> => {
    const token = bearerToken(credentials.authorization);
    if (token) {
      const found = await authenticateApiToken(prisma, token);
      if (!found) return { viewer: null, refusal: 'invalid' };
      const actor: Actor = { kind: 'apiToken', apiTokenId: found.apiTokenId };
      return { viewer: { id: found.id, name: found.name, role: SCOPE_ROLE[found.scope], actor }, bySession: false, credential: key };
    }
    const requested = credentials.organization?.trim() || undefined;
    const check = await checkSession(prisma, sessionCookie(credentials.cookie), sessionIdleMs, requested);
    if (check.outcome !== 'valid') return { viewer: null, refusal: check.outcome };
    const { session } = check;
    const actor: Actor = { kind: 'person', personId: session.personId, sessionId: session.sessionId };
    return {
      viewer: { id: session.organizationId, name: session.organizationName, role: session.role, actor },
      bySession: true,
      credential: key,
    };
  });
}
