// Deploy ingest: the payload contract (the source document's table plus `deployed_at`) and
// recording a deploy exactly once per (idempotency key, deploy token).
import { z } from 'zod';
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { enqueueAttempts, transaction } from '../delivery/queue.ts';
import { subscribedEndpointCondition } from './events.ts';
import { IN_FUTURE_MESSAGE, isNotInFuture, storableText, storableTimestamp, validateInput, type Validated } from './input.ts';

export const COMMIT_SHA_MAX_LENGTH = 255;
export const URL_MAX_LENGTH = 2048;
export const COMMITS_MAX_ITEMS = 100;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

// Optional fields accept null as "absent": CI templates often render unset variables so.
const optionalText = storableText().nullish();
const sha = storableText({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty')
  .max(COMMIT_SHA_MAX_LENGTH, `must be at most ${COMMIT_SHA_MAX_LENGTH} characters`);

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

/** `url` of an ingest payload: a link to the change in the tool that made it. */
export const ingestUrl = storableText()
  .max(URL_MAX_LENGTH, `must be at most ${URL_MAX_LENGTH} characters`)
  .refine(isHttpUrl, 'must be an http or https address')
  .nullish();

/** When it happened, as the sender says (`deployed_at`, `changed_at`): at most the clock skew ahead. */
export const ingestTime = storableTimestamp.refine((value) => isNotInFuture(Date.parse(value)), IN_FUTURE_MESSAGE).nullish();

const commitSchema = z.object(
  {
    sha,
    message: optionalText,
    author: optionalText,
    timestamp: storableTimestamp.nullish(),
  },
  { error: 'must be an object' },
);

const deployPayloadSchema = z.object(
  {
    commit_sha: sha,
    commit_message: optionalText,
    branch: optionalText,
    deployed_by: optionalText,
    environment: optionalText,
    version: optionalText,
    description: optionalText,
    url: ingestUrl,
    commits: z
      .array(commitSchema, { error: 'must be an array' })
      .max(COMMITS_MAX_ITEMS, `must have at most ${COMMITS_MAX_ITEMS} items`)
      .nullish(),
    deployed_at: ingestTime,
  },
  { error: 'must be a JSON object' },
);

export type DeployPayload = z.output<typeof deployPayloadSchema>;

/** Every invalid field is reported, not only the first. Unknown fields are ignored. */
export function validateDeployPayload(body: unknown): Validated<DeployPayload> {
  return validateInput(deployPayloadSchema, body);
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
 * The statement that records a deploy: it resolves the live deploy token, inserts the deploy
 * (unless its idempotency key was used with this token before: on a key conflict PostgreSQL
 * waits for the first insert to commit and then skips) and its commits, and, `withOutbox`,
 * the `deploy.ingested` event and one delivery per subscribed endpoint.
 *
 * Without the outbox it stores nothing when the organization has a subscribed endpoint and
 * says so (`needs_outbox`): then the caller runs it again `withOutbox`, in a transaction that
 * also queues the delivery jobs. So the common case is one atomic statement, one round trip.
 */
export function recordDeploySql({ withOutbox }: { withOutbox: boolean }): string {
  const subscribed = `SELECT 1 FROM webhook_endpoints e, credential WHERE e.organization_id = credential.organization_id
      AND ${subscribedEndpointCondition("'deploy.ingested'")}`;
  return `
WITH credential AS (
  SELECT t.id AS deploy_token_id, s.id AS service_id, s.name AS service_name, s.organization_id
  FROM deploy_tokens t JOIN services s ON s.id = t.service_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL
)${withOutbox ? '' : `, subscribed AS (
  SELECT EXISTS (${subscribed}) AS found
)`}, deploy AS (
  INSERT INTO deploys (organization_id, service_id, deploy_token_id, idempotency_key, commit_sha, commit_message,
                       branch, deployed_by, environment, version, description, url, deployed_at, received_at)
  SELECT organization_id, service_id, deploy_token_id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
  FROM credential
  ${withOutbox ? '' : 'WHERE NOT (SELECT found FROM subscribed)'}
  ON CONFLICT (deploy_token_id, idempotency_key) DO NOTHING
  RETURNING id
), inserted_commits AS (
  INSERT INTO commits (deploy_id, position, sha, message, author, "timestamp")
  SELECT deploy.id, c.position - 1, c.sha, c.message, c.author, c."timestamp"
  FROM deploy, ROWS FROM (jsonb_to_recordset($13::jsonb) AS (sha text, message text, author text, "timestamp" timestamptz))
       WITH ORDINALITY AS c(sha, message, author, "timestamp", position)
)${withOutbox ? `, event AS (
  INSERT INTO events (organization_id, type, data)
  SELECT credential.organization_id, 'deploy.ingested', jsonb_build_object('deploy', $14::jsonb
    || jsonb_build_object('id', deploy.id, 'service', jsonb_build_object('id', credential.service_id, 'name', credential.service_name)))
  FROM deploy, credential
  RETURNING id, organization_id
), delivery AS (
  INSERT INTO deliveries (organization_id, event_id, endpoint_id)
  SELECT event.organization_id, event.id, e.id
  FROM event JOIN webhook_endpoints e ON e.organization_id = event.organization_id
  WHERE ${subscribedEndpointCondition("'deploy.ingested'")}
  RETURNING id
)
SELECT (SELECT deploy_token_id FROM credential) AS deploy_token_id, (SELECT id FROM deploy) AS deploy_id,
       coalesce((SELECT array_agg(id) FROM delivery), '{}') AS delivery_ids` : `
SELECT (SELECT deploy_token_id FROM credential) AS deploy_token_id, (SELECT id FROM deploy) AS deploy_id,
       (SELECT found FROM subscribed) AS needs_outbox`}`;
}

const RECORD_DEPLOY_SQL = recordDeploySql({ withOutbox: false });
const RECORD_DEPLOY_WITH_OUTBOX_SQL = recordDeploySql({ withOutbox: true });

export const FIND_DEPLOY_BY_IDEMPOTENCY_KEY_SQL = `SELECT id FROM deploys WHERE deploy_token_id = $1 AND idempotency_key = $2`;

function iso(value: string | null | undefined): string | null {
  return value ? new Date(value).toISOString() : null;
}

/** The deploy as webhook receivers see it in `deploy.ingested` (id and service added in SQL). */
function deployEventData(payload: DeployPayload, deployedAt: Date, receivedAt: Date, commits: unknown[]) {
  return {
    commitSha: payload.commit_sha,
    commitMessage: payload.commit_message ?? null,
    branch: payload.branch ?? null,
    deployedBy: payload.deployed_by ?? null,
    environment: payload.environment ?? null,
    version: payload.version ?? null,
    description: payload.description ?? null,
    url: payload.url ?? null,
    deployedAt: deployedAt.toISOString(),
    receivedAt: receivedAt.toISOString(),
    commits,
  };
}

export async function recordDeploy(
  outbox: { pool: pg.Pool; boss: PgBoss },
  input: RecordDeployInput,
): Promise<RecordDeployResult> {
  const { payload, idempotencyKey, receivedAt } = input;
  const deployedAt = payload.deployed_at ? new Date(payload.deployed_at) : receivedAt;
  const commits = (payload.commits ?? []).map(({ sha, message, author, timestamp }) => ({
    sha,
    message: message ?? null,
    author: author ?? null,
    timestamp: iso(timestamp),
  }));
  const values = [
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
    deployedAt,
    receivedAt,
    JSON.stringify(commits),
  ];
  // Named, so each connection parses and plans the statement once (the hot path of ingest).
  const { rows } = await outbox.pool.query<{ deploy_token_id: string | null; deploy_id: string | null; needs_outbox: boolean }>({
    name: 'record-deploy',
    text: RECORD_DEPLOY_SQL,
    values,
  });
  let { deploy_token_id: deployTokenId, deploy_id: deployId } = rows[0]!;
  if (!deployTokenId) return { status: 'invalid_token' };
  if (rows[0]!.needs_outbox) {
    deployId = await transaction(outbox.pool, async (client) => {
      const event = JSON.stringify(deployEventData(payload, deployedAt, receivedAt, commits));
      const result = await client.query<{ deploy_id: string | null; delivery_ids: string[] }>({
        name: 'record-deploy-with-outbox',
        text: RECORD_DEPLOY_WITH_OUTBOX_SQL,
        values: [...values, event],
      });
      const { deploy_id: id, delivery_ids: deliveryIds } = result.rows[0]!;
      await enqueueAttempts(outbox.boss, client, deliveryIds.map((deliveryId) => ({ deliveryId, attempt: 1 })));
      return id;
    });
  }
  if (deployId) return { status: 'accepted', deployId };
  // The key was used before with this token: the conflicting insert has committed by now.
  const existing = await outbox.pool.query<{ id: string }>(FIND_DEPLOY_BY_IDEMPOTENCY_KEY_SQL, [deployTokenId, idempotencyKey]);
  return { status: 'duplicate', deployId: existing.rows[0]!.id };
}
