// Deploy ingest: the payload contract (the source document's table plus `deployed_at`) and
// recording a deploy exactly once per (idempotency key, deploy token).
import { z } from 'zod';
import type pg from 'pg';
import { transaction } from '../db/transaction.ts';
import type { AttemptQueue } from './attempt-queue.ts';
import { subscribedEndpointCondition } from './events.ts';
import { liveListenerCondition } from './listeners.ts';
import { EMITTED_COLUMNS, eventWithDeliveries } from './outbox.ts';
import { liveDeployToken } from './services.ts';
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

export const deployPayloadSchema = z.object(
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

/** X-Idempotency-Key: absent, or 1..255 printable ASCII characters with no space at either end. */
export const idempotencyKeySchema = z
  .string()
  .max(IDEMPOTENCY_KEY_MAX_LENGTH)
  .regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/)
  .optional();

/** Whether a request's X-Idempotency-Key header (absent, one value or several) is acceptable. */
export function isValidIdempotencyKey(header: string | string[] | undefined): header is string | undefined {
  return idempotencyKeySchema.safeParse(header).success;
}

export interface RecordDeployInput {
  /** SHA-256 of the presented deploy token; the token is checked by the same statement. */
  deployTokenHash: string;
  payload: DeployPayload;
  idempotencyKey: string | null;
  receivedAt: Date;
}

export type RecordDeployResult =
  /**
   * `openIncidentSince`: an incident of the organization, not resolved, started at or after the
   * deploy, which may then be one of its suspects (a late report; correlation.ts decides).
   */
  | { status: 'accepted'; deployId: string; openIncidentSince: boolean }
  | { status: 'duplicate'; deployId: string }
  /** The token is unknown or revoked: nothing was stored. */
  | { status: 'invalid_token' };

// Recording a deploy is ingest's hot path, so it is hand-written SQL, one statement: the
// token check, the deploy and its commits together (README, Performance). Two forms, from the
// same fragments: without the outbox when nobody listens (no endpoint and no live listener takes
// deploy.ingested: the common case), with it otherwise.
// $1 token hash, $2 idempotency key, $3..$12 the deploy's columns, $13 its commits (JSON),
// $14 (outbox only) the deploy as webhook receivers see it.

/** The live deploy token presented, and its service. */
const CREDENTIAL = `credential AS (${liveDeployToken('$1')})`;

/** Whether an endpoint, or a live listener, of the token's organization takes deploy.ingested. */
const SUBSCRIBED = `subscribed AS (
  SELECT EXISTS (SELECT 1 FROM webhook_endpoints e, credential WHERE e.organization_id = credential."organizationId"
    AND ${subscribedEndpointCondition("'deploy.ingested'")})
    OR EXISTS (SELECT 1 FROM credential WHERE ${liveListenerCondition('credential."organizationId"', "'deploy.ingested'")}) AS found
)`;

/**
 * The deploy, where `condition` allows, unless its idempotency key was used with this token
 * before: on a key conflict PostgreSQL waits for the first insert to commit, then skips.
 */
const insertDeploy = (condition: string) => `deploy AS (
  INSERT INTO deploys (organization_id, service_id, deploy_token_id, idempotency_key, commit_sha, commit_message,
                       branch, deployed_by, environment, version, description, url, deployed_at, received_at)
  SELECT "organizationId", "serviceId", "deployTokenId", $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
  FROM credential ${condition}
  ON CONFLICT (deploy_token_id, idempotency_key) DO NOTHING
  RETURNING id
)`;

const INSERT_COMMITS = `inserted_commits AS (
  INSERT INTO commits (deploy_id, position, sha, message, author, "timestamp")
  SELECT deploy.id, c.position - 1, c.sha, c.message, c.author, c."timestamp"
  FROM deploy, ROWS FROM (jsonb_to_recordset($13::jsonb) AS (sha text, message text, author text, "timestamp" timestamptz))
       WITH ORDINALITY AS c(sha, message, author, "timestamp", position)
)`;

/** Its deploy.ingested event: $14 with the deploy's id and service, which only the statement knows. */
const EVENT_WITH_DELIVERIES = eventWithDeliveries(
  `SELECT credential."organizationId", 'deploy.ingested', jsonb_build_object('deploy', $14::jsonb
     || jsonb_build_object('id', deploy.id, 'service', jsonb_build_object('id', credential."serviceId", 'name', credential."serviceName")))
   FROM deploy, credential`,
  subscribedEndpointCondition("'deploy.ingested'"),
);

const RECORDED = `(SELECT "deployTokenId" FROM credential) AS "deployTokenId", (SELECT id FROM deploy) AS "deployId",
  EXISTS (SELECT 1 FROM incidents i, credential WHERE i.organization_id = credential."organizationId"
    AND i.status <> 'RESOLVED' AND i.started_at >= $11) AS "openIncidentSince"`;

/**
 * Records the deploy when nobody takes deploy.ingested; otherwise stores nothing and says so
 * (`needsOutbox`), and the caller runs RECORD_DEPLOY_WITH_OUTBOX_SQL in a transaction.
 */
const RECORD_DEPLOY_SQL = `WITH ${CREDENTIAL}, ${SUBSCRIBED}, ${insertDeploy('WHERE NOT (SELECT found FROM subscribed)')}, ${INSERT_COMMITS}
SELECT ${RECORDED}, (SELECT found FROM subscribed) AS "needsOutbox"`;

/** Records the deploy, its event and a delivery per subscribed endpoint (their jobs are the caller's). */
const RECORD_DEPLOY_WITH_OUTBOX_SQL = `WITH ${CREDENTIAL}, ${insertDeploy('')}, ${INSERT_COMMITS}, ${EVENT_WITH_DELIVERIES}
SELECT ${RECORDED}, ${EMITTED_COLUMNS}`;

const FIND_DEPLOY_BY_IDEMPOTENCY_KEY_SQL = `SELECT id FROM deploys WHERE deploy_token_id = $1 AND idempotency_key = $2`;

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

export async function recordDeploy(outbox: { pool: pg.Pool; queue: AttemptQueue }, input: RecordDeployInput): Promise<RecordDeployResult> {
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
  const { rows } = await outbox.pool.query<{ deployTokenId: string | null; deployId: string | null; needsOutbox: boolean; openIncidentSince: boolean }>({
    name: 'record-deploy',
    text: RECORD_DEPLOY_SQL,
    values,
  });
  let { deployTokenId, deployId, openIncidentSince } = rows[0]!;
  if (!deployTokenId) return { status: 'invalid_token' };
  if (rows[0]!.needsOutbox) {
    deployId = await transaction(outbox.pool, async (client) => {
      const event = JSON.stringify(deployEventData(payload, deployedAt, receivedAt, commits));
      const result = await client.query<{ deployId: string | null; deliveryIds: string[]; openIncidentSince: boolean }>({
        name: 'record-deploy-with-outbox',
        text: RECORD_DEPLOY_WITH_OUTBOX_SQL,
        values: [...values, event],
      });
      const recorded = result.rows[0]!;
      await outbox.queue.enqueue(client, recorded.deliveryIds.map((deliveryId) => ({ deliveryId, attempt: 1 })));
      openIncidentSince = recorded.openIncidentSince;
      return recorded.deployId;
    });
  }
  if (deployId) return { status: 'accepted', deployId, openIncidentSince };
  // The key was used before with this token: the conflicting insert has committed by now.
  const existing = await outbox.pool.query<{ id: string }>(FIND_DEPLOY_BY_IDEMPOTENCY_KEY_SQL, [deployTokenId, idempotencyKey]);
  return { status: 'duplicate', deployId: existing.rows[0]!.id };
}
