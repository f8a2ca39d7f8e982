// Credentials: `hla_` API tokens, `hld_` deploy tokens and `hlk_` alert source tokens. Only
// SHA-256 hashes are stored; a lookup hashes the presented value, so a stolen database yields no
// usable token. `hlg_` GitHub webhook secrets share the format, but are kept (HMAC verification
// needs them).
import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
/** Characters kept in clear (kind prefix + 8) so people can tell tokens apart. */
const DISPLAY_PREFIX_LENGTH = 12;

export type TokenKind = 'api' | 'deploy' | 'alert' | 'github';
const KIND_PREFIX: Record<TokenKind, string> = { api: 'hla_', deploy: 'hld_', alert: 'hlk_', github: 'hlg_' };

export interface IssuedToken {
  plaintext: string;
  hash: string;
  prefix: string;
}

export function hashToken(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}

export function issueToken(kind: TokenKind): IssuedToken {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(BASE62.length)];
  const plaintext = KIND_PREFIX[kind] + random;
  return { plaintext, hash: hashToken(plaintext), prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** A cheap shape check before any database lookup. */
export function looksLikeToken(kind: TokenKind, value: string | undefined): value is string {
  return value !== undefined && value.length === KIND_PREFIX[kind].length + RANDOM_LENGTH && value.startsWith(KIND_PREFIX[kind]);
}
