// Deploy ingest: the payload contract (the source document's table plus `deployed_at`) and
// recording a deploy exactly once per (idempotency key, deploy token).
import { z } from 'zod';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DeployCredential } from './services.ts';

export const COMMIT_SHA_MAX_LENGTH = 255;
export const URL_MAX_LENGTH = 2048;
export const COMMITS_MAX_ITEMS = 100;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How far ahead of the server's clock `deployed_at` may be (clock skew of CI runners). */
export const DEPLOYED_AT_MAX_FUTURE_MS = 5 * 60 * 1000;

// Optional fields accept null as "absent": CI templates often render unset variables so.
const optionalText = z.string({ error: 'must be a string' }).nullish();
const isoTimestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z' });

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

const commitSchema = z.object(
  {
    sha: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .min(1, 'must not be empty')
      .max(COMMIT_SHA_MAX_LENGTH, `must be at most ${COMMIT_SHA_MAX_LENGTH} characters`),
    message: optionalText,
    author: optionalText,
    timestamp: isoTimestamp.nullish(),
  },
  { error: 'must be an object' },
);

function deployPayloadSchema(now: Date) {
  return z.object(
    {
      commit_sha: z
        .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
        .min(1, 'must not be empty')
        .max(COMMIT_SHA_MAX_LENGTH, `must be at most ${COMMIT_SHA_MAX_LENGTH} characters`),
      commit_message: optionalText,
      branch: optionalText,
      deployed_by: optionalText,
      environment: optionalText,
      version: optionalText,
      description: optionalText,
      url: z
        .string({ error: 'must be a string' })
        .max(URL_MAX_LENGTH, `must be at most ${URL_MAX_LENGTH} characters`)
        .refine(isHttpUrl, 'must be an http or https address')
        .nullish(),
      commits: z
        .array(commitSchema, { error: 'must be an array' })
        .max(COMMITS_MAX_ITEMS, `must have at most ${COMMITS_MAX_ITEMS} items`)
        .nullish(),
      deployed_at: isoTimestamp
        .refine(
          // An unparseable value is already reported by the format check (NaN compares false).
          (value) => !(Date.parse(value) > now.getTime() + DEPLOYED_AT_MAX_FUTURE_MS),
          'must not be more than 5 minutes in the future',
        )
        .nullish(),
    },
    { error: 'must be a JSON object' },
  );
}

export type DeployPayload = z.output<ReturnType<typeof deployPayloadSchema>>;

export interface FieldError {
  field: string;
  message: string;
}

/** `['commits', 3, 'sha']` → `commits[3].sha`; the root is `body`. */
function fieldPath(path: PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );
}

export type Validated<T> = { ok: true; value: T } | { ok: false; details: FieldError[] };

/** Every invalid field is reported, not only the first. Unknown fields are ignored. */
export function validateDeployPayload(body: unknown, now: Date): Validated<DeployPayload> {
  const result = deployPayloadSchema(now).safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    details: result.error.issues.map((issue) => ({ field: fieldPath(issue.path), message: issue.message })),
  };
}

/** 1..255 printable ASCII characters (no spaces at the ends), as HTTP header values allow. */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(key);
}

export interface RecordDeployInput {
  credential: DeployCredential;
  payload: DeployPayload;
  idempotencyKey: string | null;
  receivedAt: Date;
}

export type RecordDeployResult = { status: 'accepted' | 'duplicate'; deployId: string };

/**
 * Stores the deploy and its commits in one transaction. With an idempotency key, the unique
 * (deploy token, key) index decides: a concurrent second insert waits for the first and
 * then skips, and the existing deploy's id is returned as a duplicate.
 */
export async function recordDeploy(prisma: PrismaClient, input: RecordDeployInput): Promise<RecordDeployResult> {
  const { credential, payload, idempotencyKey, receivedAt } = input;
  const deploy = {
    organizationId: credential.organizationId,
    serviceId: credential.serviceId,
    deployTokenId: credential.deployTokenId,
    idempotencyKey,
    commitSha: payload.commit_sha,
    commitMessage: payload.commit_message ?? null,
    branch: payload.branch ?? null,
    deployedBy: payload.deployed_by ?? null,
    environment: payload.environment ?? null,
    version: payload.version ?? null,
    description: payload.description ?? null,
    url: payload.url ?? null,
    deployedAt: payload.deployed_at ? new Date(payload.deployed_at) : receivedAt,
    receivedAt,
  };
  const commits = (payload.commits ?? []).map((commit, position) => ({
    position,
    sha: commit.sha,
    message: commit.message ?? null,
    author: commit.author ?? null,
    timestamp: commit.timestamp ? new Date(commit.timestamp) : null,
  }));

  return prisma.$transaction(async (tx) => {
    const [created] = await tx.deploy.createManyAndReturn({ data: [deploy], skipDuplicates: true, select: { id: true } });
    if (!created) {
      const existing = await tx.deploy.findUniqueOrThrow({
        where: { deployTokenId_idempotencyKey: { deployTokenId: credential.deployTokenId, idempotencyKey: idempotencyKey! } },
        select: { id: true },
      });
      return { status: 'duplicate', deployId: existing.id };
    }
    if (commits.length > 0) {
      await tx.commit.createMany({ data: commits.map((commit) => ({ ...commit, deployId: created.id })) });
    }
    return { status: 'accepted', deployId: created.id };
  });
}
