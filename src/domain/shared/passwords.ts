// Passwords: hashed with argon2id (@node-rs/argon2, its defaults: 19 MiB, 2 passes, as OWASP's
// password storage cheat sheet recommends) and checked in constant work whether or not the person
// exists, so that the time of an answer does not tell which emails have an account.
import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';
import { storableText } from './input.ts';

/** ASVS 2.1.1 and 2.1.2: at least 12 characters, and long passphrases allowed. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export const newPassword = storableText()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** Argon2id (the library's default algorithm), in PHC string form with its salt and parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let decoy: Promise<string> | undefined;

/**
 * Whether `password` matches `passwordHash`. Without a hash (no such person, or one who signs in
 * through single sign-on only) a decoy hash is verified instead, so that every answer costs the same.
 */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (passwordHash) return verify(passwordHash, password).catch(() => false);
  decoy ??= hash('decoy password: never matches anything');
  await verify(await decoy, password);
  return false;
}

export const emailAddress = z
  .string({ error: 'must be a string' })
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be an email address' }))
  // Stored in lower case: one person per address whatever its case.
  .transform((email) => email.toLowerCase());

export const personName = storableText().trim().min(1, 'is required').max(200, 'must be at most 200 characters');
