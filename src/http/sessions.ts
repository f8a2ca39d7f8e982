// The session cookie on the HTTP side: how it is set and cleared, what credentials a request
// presents, and the origin rule against cross-site requests. A request authenticated by the cookie
// whose Origin is present and is neither the server's own origin nor one of CORS_ORIGINS is
// refused (403 cross_origin) before anything runs: SameSite=Lax already keeps the cookie off
// cross-site POSTs in browsers that honour it, and this check does not depend on that.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ORGANIZATION_HEADER, SESSION_COOKIE, sessionCookie, usesSessionCookie, type Credentials } from '../auth/caller.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { RequestSource } from '../domain/shared/audit.ts';
import { organizationsOf, type OrganizationMembership } from '../domain/shared/people.ts';
import { revokeSessionByCookie, startSession, type SessionLifetime } from '../domain/shared/sessions.ts';
import { HttpError } from './errors.ts';

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * What a request presents to be authenticated: its Authorization (a WebSocket's comes in its
 * connectionParams instead), its cookie, and the organization it asks for.
 */
export function credentialsOf(headers: IncomingHttpHeaders, authorization: unknown = headers.authorization): Credentials {
  return {
    authorization: typeof authorization === 'string' ? authorization : undefined,
    cookie: headerValue(headers.cookie),
    organization: headerValue(headers[ORGANIZATION_HEADER]),
  };
}

/** Where a request came from, for the audit entry of what it changes: its address (TRUST_PROXY applied) and user agent. */
export function requestSource(request: FastifyRequest): RequestSource {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/** The origin the request came to, as the client sees it (X-Forwarded-Proto and -Host where TRUST_PROXY believes them). */
export function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** What a WebSocket's upgrade request says of where it came from and where to. */
export interface UpgradeRequestReader {
  /** The client's address. */
  ip(request: IncomingMessage): string | null;
  /** The origin it came to: scheme, host and port. */
  origin(request: IncomingMessage): string;
}

/** The last of a repeated header's comma-separated values: the one the nearest proxy added. */
function nearest(value: string | string[] | undefined): string | undefined {
  return headerValue(value)?.split(',').at(-1)?.trim() || undefined;
}

/**
 * Reads upgrade requests, which never reach Fastify, by TRUST_PROXY exactly as Fastify reads HTTP
 * requests (its request.ip, protocol and host, with its own proxy-addr): X-Forwarded-For, -Proto
 * and -Host are believed only when the peer is a trusted proxy.
 */
export function upgradeRequestReader(trustProxy: boolean | string[]): UpgradeRequestReader {
  const trusted = typeof trustProxy === 'boolean' ? () => trustProxy : proxyAddr.compile(trustProxy);
  const fromTrustedProxy = (request: IncomingMessage) =>
    request.socket.remoteAddress !== undefined && trusted(request.socket.remoteAddress, 0);
  return {
    ip: (request) => proxyAddr.all(request, trusted).at(-1) ?? null,
    origin(request) {
      const believed = fromTrustedProxy(request);
      const forwardedProto = believed ? nearest(request.headers['x-forwarded-proto']) : undefined;
      const forwardedHost = believed ? nearest(request.headers['x-forwarded-host']) : undefined;
      const encrypted = 'encrypted' in request.socket && request.socket.encrypted === true;
      return `${forwardedProto ?? (encrypted ? 'https' : 'http')}://${forwardedHost ?? request.headers.host ?? ''}`;
    },
  };
}

/** Whether a request with this Origin may use its cookie: none sent, the server's own origin, or one of CORS_ORIGINS. */
export function isAllowedOrigin(origin: string | undefined, own: string, corsOrigins: '*' | string[]): boolean {
  if (origin === undefined) return true;
  if (origin === own) return true;
  return corsOrigins === '*' || corsOrigins.includes(origin);
}

export const CROSS_ORIGIN_MESSAGE =
  'A request signed in by the session cookie must come from Hookline’s own pages (or an origin in CORS_ORIGINS)';

/** An onRequest hook: a cookie-authenticated request from another origin is refused with 403 cross_origin. */
export function refuseCrossOriginCookie(corsOrigins: '*' | string[]) {
  return async (request: FastifyRequest) => {
    if (!usesSessionCookie(credentialsOf(request.headers))) return;
    if (!isAllowedOrigin(request.headers.origin, ownOrigin(request), corsOrigins))
      throw new HttpError(403, 'cross_origin', CROSS_ORIGIN_MESSAGE);
  };
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure over https, kept until the session's absolute expiry. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, plaintext: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, plaintext, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: request.protocol === 'https',
    expires: expiresAt,
  });
}

/**
 * Signs `person` in from this request, acting for `organizationId` when they are a member of it
 * (else for their first organization): the browser's former session (if any) ends, a new one
 * starts (a new id at every sign-in: no id chosen before is ever kept) and its cookie is set.
 * Returns the person's organizations; a person in none is refused (403 forbidden).
 */
export async function beginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  { prisma, lifetime }: { prisma: PrismaClient; lifetime: SessionLifetime },
  sign: { personId: string; how: 'password' | 'single sign-on'; organizationId?: string },
): Promise<OrganizationMembership[]> {
  const organizations = await organizationsOf(prisma, sign.personId);
  const selected = organizations.find((organization) => organization.id === sign.organizationId) ?? organizations[0];
  if (!selected) throw new HttpError(403, 'forbidden', 'This person is a member of no organization');
  await revokeSessionByCookie(prisma, sessionCookie(request.headers.cookie));
  const { session, plaintext } = await startSession(
    prisma,
    { personId: sign.personId, organizationId: selected.id, how: sign.how, ...requestSource(request) },
    lifetime,
  );
  setSessionCookie(request, reply, plaintext, session.absoluteExpiresAt);
  return organizations;
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: request.protocol === 'https' });
}
