// An endpoint's signing secret: `whsec_` and 32 random bytes in base64 (the Standard Webhooks
// form). It is stored in clear, since signing needs it, and shown only when made or rotated.
import { randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key of a secret: the bytes after `whsec_`. */
export function signingKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error(`a signing secret must start with ${SECRET_PREFIX}`);
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}
