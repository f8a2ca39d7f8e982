// Change events that are not deploys: a feature flag flipped, a configuration changed. They are
// reported like deploys (the service's deploy token, the same limits, one change per
// idempotency key and token) and become suspects of the incidents that follow them.
import sql, { type Sql } from 'sql-template-tag';
import { z } from 'zod';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { ingestTime, ingestUrl } from './deploys.ts';
import { MAX_FIELD_ERRORS, requiredText, storableJson, storableText, trimmedText, validateInput, type Validated } from '../shared/input.ts';
import { DEPLOY_KIND } from '../correlation/priors.ts';

export const CHANGE_KIND_MAX_LENGTH = 50;
export const CHANGE_SUMMARY_MAX_LENGTH = 1000;
export const CHANGE_SUBJECT_MAX_LENGTH = 255;
export const CHANGE_ACTOR_MAX_LENGTH = 255;
/** Lower-case words joined by `_`, `-` or `.`: feature_flag, config, infra.dns. */
const CHANGE_KIND = /^[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*$/;

export const changePayloadSchema = z.object(
  {
    kind: requiredText()
      .max(CHANGE_KIND_MAX_LENGTH, `must be at most ${CHANGE_KIND_MAX_LENGTH} characters`)
      .regex(CHANGE_KIND, 'must be a lower-case word such as feature_flag or config')
      // Deploys have their own route, and "deploy" is their kind in the verdict priors.
      .refine((kind) => kind !== DEPLOY_KIND, 'must not be "deploy": send deploys to /api/ingest/deploy'),
    summary: trimmedText(CHANGE_SUMMARY_MAX_LENGTH, requiredText()),
    environment: storableText().nullish(),
    url: ingestUrl,
    changed_at: ingestTime,
    subject: storableText()
      .min(1, `must be 1 to ${CHANGE_SUBJECT_MAX_LENGTH} characters`)
      .max(CHANGE_SUBJECT_MAX_LENGTH, `must be 1 to ${CHANGE_SUBJECT_MAX_LENGTH} characters`)
      .nullish(),
    // Any JSON value (a flag's true, a limit's 200, a config object); null is a value too.
    previous: storableJson.optional(),
    value: storableJson.optional(),
    actor: storableText().max(CHANGE_ACTOR_MAX_LENGTH, `must be at most ${CHANGE_ACTOR_MAX_LENGTH} characters`).nullish(),
  },
  { error: 'must be a JSON object' },
);

export type ChangePayload = z.output<typeof changePayloadSchema>;

/**
 * Every invalid field is reported, not only the first. Unknown fields are refused: a change
 * event's fields are this API's own (not a CI tool's payload passed through), so a misspelt
 * `previous` must not be dropped silently.
 */
export function validateChangePayload(body: unknown): Validated<ChangePayload> {
  const validation = validateInput(changePayloadSchema, body);
  const unknown =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? Object.keys(body).filter((field) => !Object.hasOwn(changePayloadSchema.shape, field))
      : [];
  if (unknown.length === 0) return validation;
  const known = Object.keys(changePayloadSchema.shape).join(', ');
  const details = unknown.map((field) => ({ field, message: `is not a field of a change event (${known})` }));
  return { ok: false, details: [...details, ...(validation.ok ? [] : validation.details)].slice(0, MAX_FIELD_ERRORS) };
}

export interface RecordChangeInput {
  /** SHA-256 of the presented deploy token; the token is checked by the same statement. */
  deployTokenHash: string;
  payload: ChangePayload;
  idempotencyKey: string | null;
  receivedAt: Date;
}

export type RecordChangeResult =
  /** `openIncidentSince`: as for deploys, an incident not resolved started at or after the change. */
  | { status: 'accepted'; changeId: string; openIncidentSince: boolean }
  | { status: 'duplicate'; changeId: string }
  /** The token is unknown or revoked: nothing was stored. */
  | { status: 'invalid_token' };

/**
 * One statement (raw, as the deploy's: the token check and the insert that skips a used key in
 * one round trip): resolves the live deploy token and inserts the change unless its idempotency
 * key was used with this token before (then PostgreSQL waits for the first insert to commit and
 * skips).
 */
function recordChangeStatement(input: RecordChangeInput, changedAt: Date): Sql {
  const { payload } = input;
  return sql`
WITH credential AS (
  SELECT t.id AS deploy_token_id, s.id AS service_id, s.organization_id
  FROM deploy_tokens t JOIN services s ON s.id = t.service_id
  WHERE t.token_hash = ${input.deployTokenHash} AND t.revoked_at IS NULL
), change AS (
  INSERT INTO change_events (organization_id, service_id, deploy_token_id, idempotency_key, kind, summary, environment, url, changed_at, received_at,
                             subject, previous, value, actor)
  SELECT organization_id, service_id, deploy_token_id, ${input.idempotencyKey}, ${payload.kind}, ${payload.summary}, ${payload.environment ?? null}, ${payload.url ?? null}, ${changedAt}::timestamptz, ${input.receivedAt}::timestamptz, ${payload.subject ?? null}, ${jsonOrNull(payload.previous)}::jsonb, ${jsonOrNull(payload.value)}::jsonb, ${payload.actor ?? null}
  FROM credential
  ON CONFLICT (deploy_token_id, idempotency_key) DO NOTHING
  RETURNING id
)
SELECT (SELECT deploy_token_id FROM credential) AS "deployTokenId", (SELECT id FROM change) AS "changeId",
  EXISTS (SELECT 1 FROM incidents i, credential WHERE i.organization_id = credential.organization_id
    AND i.status <> 'RESOLVED' AND i.started_at >= ${changedAt}::timestamptz) AS "openIncidentSince"`;
}

export async function recordChange(prisma: PrismaClient, input: RecordChangeInput): Promise<RecordChangeResult> {
  const { payload, idempotencyKey, receivedAt } = input;
  const changedAt = payload.changed_at ? new Date(payload.changed_at) : receivedAt;
  const statement = recordChangeStatement(input, changedAt);
  const [row] = await prisma.$queryRawUnsafe<{ deployTokenId: string | null; changeId: string | null; openIncidentSince: boolean }[]>(
    statement.text,
    ...statement.values,
  );
  if (!row?.deployTokenId) return { status: 'invalid_token' };
  if (row.changeId) return { status: 'accepted', changeId: row.changeId, openIncidentSince: row.openIncidentSince };
  // The key was used before with this token: the conflicting insert has committed by now.
  const existing = await prisma.changeEvent.findUniqueOrThrow({
    where: { deployTokenId_idempotencyKey: { deployTokenId: row.deployTokenId, idempotencyKey: idempotencyKey! } },
    select: { id: true },
  });
  return { status: 'duplicate', changeId: existing.id };
}

/** jsonb text of a value sent (JSON null included); SQL NULL when it was not sent. */
function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
