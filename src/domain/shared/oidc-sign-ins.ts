// A single sign-on under way, between the redirect to the provider and the browser's return: the
// checks of its callback (state, nonce, PKCE code verifier), kept server-side under a random key
// that only the browser which started it holds (a cookie), and taken once. A second callback with
// the same key (a replay) finds nothing; so does one from a browser that did not start it.
import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { hashToken } from './tokens.ts';

/** How long a person has to sign in at the provider. */
export const OIDC_SIGN_IN_TTL_MS = 10 * 60_000;

export interface PendingOidcSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  returnTo: string;
}

/** Keeps a sign-in's checks; returns the key for the browser's cookie. Sign-ins left unfinished are deleted here. */
export async function beginOidcSignIn(prisma: PrismaClient, signIn: PendingOidcSignIn, now = new Date()): Promise<string> {
  const key = randomBytes(32).toString('base64url');
  await prisma.$transaction([
    prisma.oidcSignIn.deleteMany({ where: { expiresAt: { lte: now } } }),
    prisma.oidcSignIn.create({ data: { ...signIn, keyHash: hashToken(key), expiresAt: new Date(now.getTime() + OIDC_SIGN_IN_TTL_MS) } }),
  ]);
  return key;
}

/** The sign-in the key was given for, deleted as it is read; null if unknown, already taken or expired. */
export async function takeOidcSignIn(prisma: PrismaClient, key: string, now = new Date()): Promise<PendingOidcSignIn | null> {
  const [taken] = await prisma.$queryRaw<(PendingOidcSignIn & { expiresAt: Date })[]>`
    DELETE FROM oidc_sign_ins WHERE key_hash = ${hashToken(key)}
    RETURNING state, nonce, code_verifier AS "codeVerifier", redirect_uri AS "redirectUri", return_to AS "returnTo", expires_at AS "expiresAt"`;
  if (!taken || taken.expiresAt <= now) return null;
  const { expiresAt: _, ...signIn } = taken;
  return signIn;
}

const RETURN_TO_MAX_LENGTH = 2000;
/** Any origin would do: only whether the path stays on it matters. */
const PLACEHOLDER_ORIGIN = 'https://hookline.invalid';

/**
 * `value` as a path of this server's own, or null: a full URL, a scheme-relative `//host`, a
 * backslash (which browsers read as a slash) or a control character could lead elsewhere, and a
 * sign-in must never become an open redirect.
 */
export function sameOriginPath(value: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (value.length > RETURN_TO_MAX_LENGTH || !value.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(value)) return null;
  if (value.startsWith('//')) return null;
  const url = new URL(value, PLACEHOLDER_ORIGIN);
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  return url.pathname + url.search + url.hash;
}
