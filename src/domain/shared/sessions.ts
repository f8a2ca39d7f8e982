// Sign-in sessions of people. The browser holds a random 256-bit id; only its SHA-256 is stored, so
// a copy of the database signs nobody in. Every request looks its session up (as API tokens are),
// so a revocation or an expiry is seen by every process at once. A session ends at the first of:
// its idle expiry (moved on by each request), its absolute expiry, its revocation, or its person
// leaving the organization it acts for.
import { randomBytes } from 'node:crypto';
import type { PrismaClient, Role, Session } from '../../generated/prisma/client.ts';
import { recordAuditEntry, type RequestSource } from './audit.ts';
import { NotFoundError } from './errors.ts';
import { isUuid } from './ids.ts';
import { hashToken } from './tokens.ts';

export interface SessionLifetime {
  /** Without a request for this long, the session ends. */
  idleMs: number;
  /** The session ends this long after sign-in whatever happens. */
  maxAgeMs: number;
}

export interface StartedSession {
  session: Session;
  /** The cookie's value: the only copy of the id. */
  plaintext: string;
}

/** base64url of 32 random bytes. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new session of the person, acting for `organizationId`, and its audit entry (session.signIn,
 * in that organization) in the same transaction; `how` says how they signed in.
 */
export async function startSession(
  prisma: PrismaClient,
  input: { personId: string; organizationId: string; how: 'password' | 'single sign-on' } & RequestSource,
  lifetime: SessionLifetime,
): Promise<StartedSession> {
  const plaintext = randomBytes(32).toString('base64url');
  const now = Date.now();
  const session = await prisma.$transaction(async (tx) => {
    const started = await tx.session.create({
      data: {
        idHash: hashToken(plaintext),
        personId: input.personId,
        organizationId: input.organizationId,
        idleExpiresAt: new Date(now + Math.min(lifetime.idleMs, lifetime.maxAgeMs)),
        absoluteExpiresAt: new Date(now + lifetime.maxAgeMs),
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 512) ?? null,
      },
    });
    await recordAuditEntry(
      tx,
      { organizationId: input.organizationId, actor: { kind: 'PERSON', id: input.personId }, ip: input.ip, userAgent: input.userAgent },
      'session.signIn',
      { objectId: started.id, summary: `Signed in with ${input.how}` },
    );
    return started;
  });
  return { session, plaintext };
}

export interface AuthenticatedSession {
  sessionId: string;
  personId: string;
  /** The organization this request acts for, and the person's role in it. */
  organizationId: string;
  organizationName: string;
  role: Role;
}

export type SessionCheck =
  | { outcome: 'valid'; session: AuthenticatedSession }
  /** No live session has this id (unknown, revoked, expired, or its person left its organization). */
  | { outcome: 'invalid' }
  /** A live session asked (X-Hookline-Organization) for an organization its person is not a member of. */
  | { outcome: 'not_a_member' };

/**
 * Looks the cookie's session up; in the same statement its idle expiry moves on (and last_seen_at
 * with it) when the last move is over a minute old, so a busy tab does not write on every request.
 * `organizationId`, when given, is the organization this request asks to act for instead of the
 * session's own.
 */
export async function checkSession(
  prisma: PrismaClient,
  plaintext: string | undefined,
  idleMs: number,
  organizationId?: string,
): Promise<SessionCheck> {
  if (!plaintext || !SESSION_ID_PATTERN.test(plaintext)) return { outcome: 'invalid' };
  if (organizationId !== undefined && !isUuid(organizationId)) organizationId = '00000000-0000-0000-0000-000000000000';
  const rows = await prisma.$queryRaw<(AuthenticatedSession & { member: boolean })[]>`
    WITH live AS (
      SELECT s.id, s.person_id, s.last_seen_at, s.absolute_expires_at,
             COALESCE(${organizationId ?? null}::uuid, s.organization_id) AS organization_id
        FROM sessions s
       WHERE s.id_hash = ${hashToken(plaintext)} AND s.revoked_at IS NULL
         AND s.idle_expires_at > now() AND s.absolute_expires_at > now()
         AND EXISTS (SELECT 1 FROM memberships m WHERE m.person_id = s.person_id AND m.organization_id = s.organization_id)
    ), seen AS (
      UPDATE sessions
         SET last_seen_at = now(),
             idle_expires_at = LEAST(now() + ${idleMs} * interval '1 millisecond', live.absolute_expires_at)
        FROM live
       WHERE sessions.id = live.id AND live.last_seen_at < now() - interval '1 minute'
    )
    SELECT live.id::text AS "sessionId", live.person_id::text AS "personId", live.organization_id::text AS "organizationId",
           COALESCE(o.name, '') AS "organizationName", m.role, m.role IS NOT NULL AS member
      FROM live
      LEFT JOIN memberships m ON m.person_id = live.person_id AND m.organization_id = live.organization_id
      LEFT JOIN organizations o ON o.id = live.organization_id`;
  const row = rows[0];
  if (!row) return { outcome: 'invalid' };
  if (!row.member) return { outcome: 'not_a_member' };
  const { member: _member, ...session } = row;
  return { outcome: 'valid', session };
}

/** The person's live sessions, the most recently used first, at most `limit` of them. */
export function listSessions(prisma: PrismaClient, personId: string, limit: number): Promise<Session[]> {
  return prisma.session.findMany({
    where: { personId, revokedAt: null, idleExpiresAt: { gt: new Date() }, absoluteExpiresAt: { gt: new Date() } },
    orderBy: [{ lastSeenAt: 'desc' }, { id: 'asc' }],
    take: limit,
  });
}

/** Ends one of the person's own sessions (another person's counts as absent). */
export async function revokeSession(prisma: PrismaClient, personId: string, id: string): Promise<Session> {
  if (!isUuid(id)) throw new NotFoundError('Session', id);
  await prisma.session.updateMany({ where: { id, personId, revokedAt: null }, data: { revokedAt: new Date() } });
  const session = await prisma.session.findFirst({ where: { id, personId } });
  if (!session) throw new NotFoundError('Session', id);
  return session;
}

/** Ends a session by its cookie's value (sign-out); an unknown one changes nothing. */
export async function revokeSessionByCookie(prisma: PrismaClient, plaintext: string | undefined): Promise<void> {
  if (!plaintext || !SESSION_ID_PATTERN.test(plaintext)) return;
  await prisma.session.updateMany({ where: { idHash: hashToken(plaintext), revokedAt: null }, data: { revokedAt: new Date() } });
}

/**
 * Signs out: ends the live session of the cookie's value, with its audit entry (session.signOut, by
 * its person, in the organization it acted for) in the same transaction; an unknown one changes nothing.
 */
export async function signOut(prisma: PrismaClient, plaintext: string | undefined, from: RequestSource): Promise<void> {
  if (!plaintext || !SESSION_ID_PATTERN.test(plaintext)) return;
  await prisma.$transaction(async (tx) => {
    const now = new Date();
    const ended = await tx.session.updateManyAndReturn({
      where: { idHash: hashToken(plaintext), revokedAt: null, idleExpiresAt: { gt: now }, absoluteExpiresAt: { gt: now } },
      data: { revokedAt: now },
    });
    for (const session of ended) {
      await recordAuditEntry(
        tx,
        { organizationId: session.organizationId, actor: { kind: 'PERSON', id: session.personId }, ...from },
        'session.signOut',
        { objectId: session.id, summary: 'Signed out' },
      );
    }
  });
}

/** Ends every live session of the person ("sign out everywhere"); returns how many ended. */
export async function revokeAllSessions(prisma: PrismaClient, personId: string): Promise<number> {
  const { count } = await prisma.session.updateMany({ where: { personId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}

/** Makes the session act for another of its person's organizations. */
export async function switchOrganization(prisma: PrismaClient, sessionId: string, personId: string, organizationId: string): Promise<void> {
  const membership = isUuid(organizationId)
    ? await prisma.membership.findUnique({ where: { personId_organizationId: { personId, organizationId } } })
    : null;
  if (!membership) throw new NotFoundError('Organization', organizationId);
  await prisma.session.update({ where: { id: sessionId }, data: { organizationId } });
}
