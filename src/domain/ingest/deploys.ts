// Deploy ingest: the payload contract (the fields of docs/ingest.md's table, `deployed_at` included) and
// recording a deploy exactly once per (idempotency key, deploy token).
import sql, { empty, raw, type Sql } from 'sql-template-tag';
import { z } from 'zod';
import type pg from 'pg';
import { transaction } from '../../db/transaction.ts';
import type { AttemptQueue } from '../webhooks/attempt-queue.ts';
import { subscribedEndpointCondition } from '../webhooks/events.ts';
import { liveListenerCondition } from '../webhooks/listeners.ts';
import { EMITTED_COLUMNS, eventWithDeliveries, firstAttempts, type EmittedEvent } from '../webhooks/outbox.ts';
import { liveDeployToken, liveDeployTokenOfService } from './services.ts';
import {
  IN_FUTURE_MESSAGE,
  isNotInFuture,
  requiredText,
  storableText,
  storableTimestamp,
  validateInput,
  type Validated,
} from '../shared/input.ts';
import { named } from '../../db/statement.ts';
import { normalizeRepositoryUrl } from '../shared/repository-links.ts';

export const COMMIT_SHA_MAX_LENGTH = 255;
export const URL_MAX_LENGTH = 2048;
export const COMMITS_MAX_ITEMS = 100;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

// Optional fields accept null as "absent": CI templates often render unset variables so.
const optionalText = storableText().nullish();
const sha = requiredText().min(1, 'must not be empty').max(COMMIT_SHA_MAX_LENGTH, `must be at most ${COMMIT_SHA_MAX_LENGTH} characters`);

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

/** `url` of an ingest payload: a link to the change in the tool that made it. */
export const ingestUrl = storableText()
  .max(URL_MAX_LENGTH, `must be at most ${URL_MAX_LENGTH} characters`)
  .refine(isHttpUrl, 'must be an http or https address')
  .meta({ format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://' })
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
    repository_url: ingestUrl.describe(
      "The service's source repository (http or https), e.g. https://github.com/acme/checkout: kept as the service's when it has none yet.",
    ),
    commits: z
      .array(commitSchema, { error: 'must be an array' })
      .max(COMMITS_MAX_ITEMS, `must have at most ${COMMITS_MAX_ITEMS} items`)
      .nullish(),
    deployed_at: ingestTime,
    rollout_percentage: z
      .number({ error: 'must be a number' })
      .gt(0, 'must be more than 0 and at most 100')
      .max(100, 'must be more than 0 and at most 100')
      .nullish(),
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
  /**
   * Whose deploy: the SHA-256 of the presented deploy token (checked by the same statement), or
   * a service already authenticated otherwise (a signed GitHub webhook), under its live token.
   */
  credential: { deployTokenHash: string } | { serviceId: string };
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
  /** A later stage of a staged rollout moved the same deploy on (rollout_percentage). */
  | { status: 'updated'; deployId: string }
  /** The token is unknown or revoked: nothing was stored. */
  | { status: 'invalid_token' };

// Recording a deploy is ingest's hot path, so it is hand-written SQL, one statement: the
// token check, the deploy and its commits together (docs/development.md, Performance). Two forms, from the
// same fragments: without the outbox when nobody listens (no endpoint and no live listener takes
// deploy.ingested: the common case), with it otherwise. Each fragment carries its own values.

/** A deploy to record: the request, and what is stored of its time and commits. */
interface DeployRecord {
  input: RecordDeployInput;
  deployedAt: Date;
  commits: unknown[];
}

/** Which kind of credential records the deploy: each kind has its own statements. */
const credentialKind = (input: RecordDeployInput) => ('serviceId' in input.credential ? 'service' : 'token');

/** The live deploy token presented (or of the service given), and its service. */
const credential = ({ credential }: RecordDeployInput) =>
  sql`credential AS (${'serviceId' in credential ? liveDeployTokenOfService(credential.serviceId) : liveDeployToken(credential.deployTokenHash)})`;

const DEPLOY_INGESTED = raw("'deploy.ingested'");

/** The payload's repository becomes the service's when the deploy is recorded and the service has none (set by hand or by an earlier deploy). */
function repositoryOfService({ input }: DeployRecord): Sql {
  const url = input.payload.repository_url ? normalizeRepositoryUrl(input.payload.repository_url) : null;
  return sql`repository AS (
  UPDATE services s SET repository_url = ${url}::text FROM credential, deploy
  WHERE s.id = credential."serviceId" AND s.repository_url IS NULL AND ${url}::text IS NOT NULL
)`;
}

/** Whether an endpoint, or a live listener, of the token's organization takes deploy.ingested. */
const SUBSCRIBED = sql`subscribed AS (
  SELECT EXISTS (SELECT 1 FROM webhook_endpoints e, credential WHERE e.organization_id = credential."organizationId"
    AND ${subscribedEndpointCondition(DEPLOY_INGESTED)})
    OR EXISTS (SELECT 1 FROM credential WHERE ${liveListenerCondition(raw('credential."organizationId"'), DEPLOY_INGESTED)}) AS found
)`;

/**
 * The deploy, where `condition` allows, unless its idempotency key was used with this token
 * before: on a key conflict PostgreSQL waits for the first insert to commit, then skips. A
 * staged rollout starts with its first stage, at the deploy's time.
 */
function insertDeploy({ input, deployedAt }: DeployRecord, condition: Sql): Sql {
  const { payload } = input;
  const percentage = payload.rollout_percentage ?? null;
  return sql`deploy AS (
  INSERT INTO deploys (organization_id, service_id, deploy_token_id, idempotency_key, commit_sha, commit_message,
                       branch, deployed_by, environment, version, description, url, deployed_at, received_at,
                       rollout_percentage, rollout_stages)
  SELECT "organizationId", "serviceId", "deployTokenId", ${input.idempotencyKey}, ${payload.commit_sha}, ${payload.commit_message ?? null}, ${payload.branch ?? null}, ${payload.deployed_by ?? null}, ${payload.environment ?? null}, ${payload.version ?? null}, ${payload.description ?? null}, ${payload.url ?? null}, ${deployedAt}, ${input.receivedAt},
         ${percentage}::float8, CASE WHEN ${percentage}::float8 IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(jsonb_build_object('percentage', ${percentage}::float8, 'at', ${deployedAt.toISOString()}::text)) END
  FROM credential ${condition}
  ON CONFLICT (deploy_token_id, idempotency_key) DO NOTHING
  RETURNING id
)`;
}

const insertCommits = ({ commits }: DeployRecord) => sql`inserted_commits AS (
  INSERT INTO commits (deploy_id, position, sha, message, author, "timestamp")
  SELECT deploy.id, c.position - 1, c.sha, c.message, c.author, c."timestamp"
  FROM deploy, ROWS FROM (jsonb_to_recordset(${JSON.stringify(commits)}::jsonb) AS (sha text, message text, author text, "timestamp" timestamptz))
       WITH ORDINALITY AS c(sha, message, author, "timestamp", position)
)`;

/** Its deploy.ingested event: `eventData` with the deploy's id and service, which only the statement knows. */
const eventWithDeliveriesOf = (eventData: unknown) =>
  eventWithDeliveries(
    sql`SELECT credential."organizationId", 'deploy.ingested', jsonb_build_object('deploy', ${JSON.stringify(eventData)}::jsonb
     || jsonb_build_object('id', deploy.id, 'service', jsonb_build_object('id', credential."serviceId", 'name', credential."serviceName")))
   FROM deploy, credential`,
    subscribedEndpointCondition(DEPLOY_INGESTED),
  );

const recorded = ({
  deployedAt,
}: DeployRecord) => sql`(SELECT "deployTokenId" FROM credential) AS "deployTokenId", (SELECT id FROM deploy) AS "deployId",
  EXISTS (SELECT 1 FROM incidents i, credential WHERE i.organization_id = credential."organizationId"
    AND i.status <> 'RESOLVED' AND i.started_at >= ${deployedAt}) AS "openIncidentSince"`;

/**
 * The two statements that record a deploy. Named, so each connection parses and plans each once
 * (the hot path of ingest): their text depends only on the kind of credential.
 */
function recordDeployStatements(record: DeployRecord) {
  const by = credentialKind(record.input);
  return {
    /**
     * Records the deploy when nobody takes deploy.ingested; otherwise stores nothing and says so
     * (`needsOutbox`), and the caller runs `withOutbox` in a transaction.
     */
    withoutOutbox: named(
      `record-deploy-by-${by}`,
      sql`WITH ${credential(record.input)}, ${SUBSCRIBED}, ${insertDeploy(record, raw('WHERE NOT (SELECT found FROM subscribed)'))}, ${insertCommits(record)}, ${repositoryOfService(record)}
SELECT ${recorded(record)}, (SELECT found FROM subscribed) AS "needsOutbox"`,
    ),
    /** Records the deploy, its event (`eventData`) and a delivery per subscribed endpoint (their jobs are the caller's). */
    withOutbox: (eventData: unknown) =>
      named(
        `record-deploy-with-outbox-by-${by}`,
        sql`WITH ${credential(record.input)}, ${insertDeploy(record, empty)}, ${insertCommits(record)}, ${repositoryOfService(record)}, ${eventWithDeliveriesOf(eventData)}
SELECT ${recorded(record)}, ${EMITTED_COLUMNS}`,
      ),
  };
}

/**
 * A later stage of a staged rollout: the service's latest deploy to the environment, of the same
 * commit, still below 100 %, is the same deploy. At a higher percentage it moves on (a stage
 * added); at the same or a lower one it is a repeat. The row lock orders concurrent reports.
 */
function rolloutStage({ input, deployedAt }: DeployRecord, percentage: number): Sql {
  const { payload } = input;
  const environment = payload.environment ?? null;
  return sql`WITH ${credential(input)}, latest AS (
  SELECT d.id, d.commit_sha, d.rollout_percentage FROM deploys d, credential
  WHERE d.service_id = credential."serviceId" AND (d.environment = ${environment} OR (${environment}::text IS NULL AND d.environment IS NULL))
  ORDER BY d.deployed_at DESC, d.id DESC LIMIT 1
), same AS (
  SELECT d.id FROM deploys d JOIN latest ON latest.id = d.id
  WHERE latest.commit_sha = ${payload.commit_sha} AND d.rollout_percentage < 100 FOR UPDATE OF d
), moved AS (
  UPDATE deploys d SET rollout_percentage = ${percentage}::float8,
    rollout_stages = d.rollout_stages || jsonb_build_array(jsonb_build_object('percentage', ${percentage}::float8, 'at', ${deployedAt.toISOString()}::text))
  FROM same WHERE d.id = same.id AND d.rollout_percentage < ${percentage}::float8
  RETURNING d.id
)
SELECT (SELECT id FROM same) AS "deployId", (SELECT id FROM moved) AS "movedId"`;
}

/** The deploy recorded before with this token and idempotency key. */
function deployByIdempotencyKey(deployTokenId: string, idempotencyKey: string | null): Sql {
  return sql`SELECT id FROM deploys WHERE deploy_token_id = ${deployTokenId} AND idempotency_key = ${idempotencyKey}`;
}

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
  const record: DeployRecord = { input, deployedAt, commits };
  if (payload.rollout_percentage != null) {
    const { rows: staged } = await outbox.pool.query<{ deployId: string | null; movedId: string | null }>(
      rolloutStage(record, payload.rollout_percentage),
    );
    const { deployId, movedId } = staged[0]!;
    if (movedId) return { status: 'updated', deployId: movedId };
    if (deployId) return { status: 'duplicate', deployId };
  }
  const statements = recordDeployStatements(record);
  const { rows } = await outbox.pool.query<{
    deployTokenId: string | null;
    deployId: string | null;
    needsOutbox: boolean;
    openIncidentSince: boolean;
  }>(statements.withoutOutbox);
  let { deployTokenId, deployId, openIncidentSince } = rows[0]!;
  if (!deployTokenId) return { status: 'invalid_token' };
  if (rows[0]!.needsOutbox) {
    deployId = await transaction(outbox.pool, async (client) => {
      const result = await client.query<EmittedEvent & { deployId: string | null; openIncidentSince: boolean }>(
        statements.withOutbox(deployEventData(payload, deployedAt, receivedAt, commits)),
      );
      const recorded = result.rows[0]!;
      await outbox.queue.enqueue(client, firstAttempts(recorded));
      openIncidentSince = recorded.openIncidentSince;
      return recorded.deployId;
    });
  }
  if (deployId) return { status: 'accepted', deployId, openIncidentSince };
  // The key was used before with this token: the conflicting insert has committed by now.
  const existing = await outbox.pool.query<{ id: string }>(deployByIdempotencyKey(deployTokenId, idempotencyKey));
  return { status: 'duplicate', deployId: existing.rows[0]!.id };
}

/** The query of GET /api/ingest/deploy/latest: no environment means the deploys without one. */
export const latestDeployQuerySchema = z.object(
  { environment: storableText({ error: 'must be given once' }).optional() },
  { error: 'must be a query string' },
);

export interface LatestDeploy {
  service: { id: string; name: string };
  /** Null: the service has no deploy to that environment yet (the next one is its first). */
  deploy: { id: string; commitSha: string; environment: string | null; deployedAt: Date } | null;
}

/**
 * The latest deploy (by deployed_at) of a deploy token's service to one environment, or to no
 * environment when `environment` is null: where `hookline deploy` starts its commit list. Two
 * forms so that each is answered by the (service, environment, deployed_at) index.
 */
function latestDeploy(deployTokenHash: string, environment: string | null): Sql {
  return sql`SELECT credential."serviceId", credential."serviceName",
    d.id, d.commit_sha AS "commitSha", d.environment, d.deployed_at AS "deployedAt"
  FROM (${liveDeployToken(deployTokenHash)}) credential
  LEFT JOIN LATERAL (
    SELECT id, commit_sha, environment, deployed_at FROM deploys
    WHERE service_id = credential."serviceId" AND ${environment === null ? raw('environment IS NULL') : sql`environment = ${environment}`}
    ORDER BY deployed_at DESC, id DESC LIMIT 1
  ) d ON true`;
}

/** Null when the token is not a live deploy token (unknown or revoked). */
export async function findLatestDeploy(pool: pg.Pool, deployTokenHash: string, environment: string | null): Promise<LatestDeploy | null> {
  const { rows } = await pool.query<{
    serviceId: string;
    serviceName: string;
    id: string | null;
    commitSha: string;
    environment: string | null;
    deployedAt: Date;
  }>(latestDeploy(deployTokenHash, environment));
  const row = rows[0];
  if (!row) return null;
  const { id, commitSha, deployedAt } = row;
  return {
    service: { id: row.serviceId, name: row.serviceName },
    deploy: id === null ? null : { id, commitSha, environment: row.environment, deployedAt },
  };
}
