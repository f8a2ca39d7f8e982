// The developer's own signing secret for `hookline listen`: made once, kept in listen.json in the
// developer's config directory (owner-only), and used for every event forwarded, so the local
// app is configured with it once.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateSigningSecret } from '../domain/webhooks/signing-secrets.ts';
import { ClientError } from './api.ts';

export interface ListenSecret {
  signingSecret: string;
  /** The file that holds it. */
  file: string;
  /** Made by this call: the caller shows it, this once. */
  created: boolean;
}

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

export async function loadListenSecret(directory: string): Promise<ListenSecret> {
  const file = path.join(directory, 'listen.json');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const signingSecret = generateSigningSecret();
  try {
    // 'wx': only if absent, so two first runs at once keep one secret.
    await writeFile(file, `${JSON.stringify({ signingSecret }, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
    return { signingSecret, file, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let stored: unknown;
  try {
    stored = (JSON.parse(await readFile(file, 'utf8')) as { signingSecret?: unknown }).signingSecret;
  } catch (error) {
    throw new ClientError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (typeof stored !== 'string' || !SECRET.test(stored))
    throw new ClientError(`${file} holds no signingSecret (whsec_...): delete it to make a new one`);
  return { signingSecret: stored, file, created: false };
}
