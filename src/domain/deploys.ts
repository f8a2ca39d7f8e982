// Deploy ingest: the payload contract (the source document's table plus `deployed_at`) and
// recording a deploy exactly once per (idempotency key, deploy token).
import { z } from 'zod';
import type { Queryable } from '../db/client.ts';

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

const deployPayloadSchema = z.object(
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
        (value) => !(Date.parse(value) > Date.now() + DEPLOYED_AT_MAX_FUTURE_MS),
        'must not be more than 5 minutes in the future',
      )
      .nullish(),
  },
  { error: 'must be a JSON object' },
);

export type DeployPayload = z.output<typeof deployPayloadSchema>;

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
export function validateDeployPayload(body: unknown): Validated<DeployPayload> {
  const result = deployPayloadSchema.safeParse(body);
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
  /** SHA-256 of the presented deploy token; the token is checked by the same statement. */
  deployTokenHash: string;
  payload: DeployPayload;
  idempotencyKey: string | null;
  receivedAt: Date;
}

export type RecordDeployResult =
  | { status: 'accepted' | 'duplicate'; deployId: string }
  /** The token is unknown or revoked: nothing was stored. */
  | { status: 'invalid_token' };

/**
 * One statement, so one round trip and atomic without an explicit transaction: it resolves
 * the live deploy token, inserts the deploy (unless its idempotency key was used with this
 * token before) and the deploy's commits. On a key conflict PostgreSQL waits for the first
 * insert to commit and then skips, so concurrent requests with one key store one deploy.
 */
export const RECORD_DEPLOY_SQL = `
WITH credential AS (
  SELECT t.id AS deploy_token_id, s.id AS service_id, s.organization_id
  FROM deploy_tokens t JOIN services s ON s.id = t.service_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL
), deploy AS (
  INSERT INTO deploys (organization_id, service_id, deploy_token_id, idempotency_key, commit_sha, commit_message,
                       branch, deployed_by, environment, version, description, url, deployed_at, received_at)
  SELECT organization_id, service_id, deploy_token_id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
  FROM credential
  ON CONFLICT (deploy_token_id, idempotency_key) DO NOTHING
  RETURNING id
), inserted_commits AS (
  INSERT INTO commits (deploy_id, position, sha, message, author, "timestamp")
  SELECT deploy.id, c.position - 1, c.sha, c.message, c.author, c."timestamp"
  FROM deploy, ROWS FROM (jsonb_to_recordset($13::jsonb) AS (sha text, message text, author text, "timestamp" timestamptz))
       WITH ORDINALITY AS c(sha, message, author, "timestamp", position)
)
SELECT (SELECT deploy_token_id FROM credential) AS deploy_token_id, (SELECT id FROM deploy) AS deploy_id`;

export const FIND_DEPLOY_BY_IDEMPOTENCY_KEY_SQL = `SELECT id FROM deploys WHERE deploy_token_id = $1 AND idempotency_key = $2`;

export async function recordDeploy(db: Queryable, input: RecordDeployInput): Promise<RecordDeployResult> {
  const { payload, idempotencyKey, receivedAt } = input;
  const commits = (payload.commits ?? []).map(({ sha, message, author, timestamp }) => ({ sha, message, author, timestamp }));
  // Named, so each connection parses and plans the statement once (the hot path of ingest).
  const { rows } = await db.query<{ deploy_token_id: string | null; deploy_id: string | null }>({ name: 'record-deploy', text: RECORD_DEPLOY_SQL, values: [
    input.deployTokenHash,
    idempotencyKey,
    payload.commit_sha,
    payload.commit_message ?? null,
    payload.branch ?? null,
    payload.deployed_by ?? null,
    payload.environment ?? null,
    payload.version ?? null,
    payload.description ?? null,
    payload.url ?? null,
    payload.deployed_at ? new Date(payload.deployed_at) : receivedAt,
    receivedAt,
    JSON.stringify(commits),
  ] });
  const { deploy_token_id: deployTokenId, deploy_id: deployId } = rows[0]!;
  if (!deployTokenId) return { status: 'invalid_token' };
  if (deployId) return { status: 'accepted', deployId };
  // The key was used before with this token: the conflicting insert has committed by now.
  const existing = await db.query<{ id: string }>(FIND_DEPLOY_BY_IDEMPOTENCY_KEY_SQL, [deployTokenId, idempotencyKey]);
  return { status: 'duplicate', deployId: existing.rows[0]!.id };
}
