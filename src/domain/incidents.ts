// Incidents: OPEN → ACKNOWLEDGED → RESOLVED (OPEN → RESOLVED allowed, no way back). Opening
// ranks the suspects (correlation.ts keeps them current while the incident is open); every
// transition emits its event through the outbox, in the transaction that makes the change.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Incident, PrismaClient, Severity, SuspectVerdict } from '../generated/prisma/client.ts';
import { transaction } from '../delivery/queue.ts';
import type { EventType } from './events.ts';
import { isUuid } from './ids.ts';
import { IN_FUTURE_MESSAGE, isNotInFuture, storableDate, storableText, validateInput, type FieldError } from './input.ts';
import { emitEvent } from './outbox.ts';
import { rankIncidentSuspects } from './correlation.ts';

export const INCIDENT_TITLE_MAX_LENGTH = 200;

export interface IncidentDependencies {
  prisma: PrismaClient;
  pool: pg.Pool;
  boss: PgBoss;
  /** How far before the incident deploys are considered. */
  lookbackMs: number;
}

export class IncidentInputError extends Error {
  constructor(readonly details: FieldError[]) {
    super(details.map((detail) => `${detail.field} ${detail.message}`).join('; '));
    this.name = 'IncidentInputError';
  }
}

export class IncidentTransitionError extends Error {
  override name = 'IncidentTransitionError';
}

/**
 * The incident as webhook receivers see it, suspects included: in the order of
 * Incident.suspects (a verdict wins over the score: CAUSED first, DISMISSED last, else by rank).
 * A suspect is a deploy or a change event: the other of the two is null.
 */
const INCIDENT_EVENT_SQL = `
SELECT jsonb_build_object(
  'id', i.id, 'title', i.title, 'severity', i.severity, 'environment', i.environment, 'status', i.status,
  'startedAt', to_char(i.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'openedAt', to_char(i.opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'acknowledgedAt', to_char(i.acknowledged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'resolvedAt', to_char(i.resolved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'service', jsonb_build_object('id', s.id, 'name', s.name),
  'suspects', coalesce((
    SELECT jsonb_agg(jsonb_build_object(
      'rank', x.rank, 'score', x.score, 'reasons', x.reasons, 'verdict', x.verdict,
      'deploy', CASE WHEN d.id IS NOT NULL THEN jsonb_build_object('id', d.id, 'commitSha', d.commit_sha, 'environment', d.environment,
        'version', d.version, 'deployedAt', to_char(d.deployed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'service', jsonb_build_object('id', xs.id, 'name', xs.name)) END,
      'change', CASE WHEN c.id IS NOT NULL THEN jsonb_build_object('id', c.id, 'kind', c.kind, 'summary', c.summary,
        'environment', c.environment, 'url', c.url, 'changedAt', to_char(c.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'service', jsonb_build_object('id', xs.id, 'name', xs.name)) END
    ) ORDER BY CASE x.verdict WHEN 'CAUSED' THEN 0 WHEN 'DISMISSED' THEN 2 ELSE 1 END, x.rank)
    FROM incident_suspects x LEFT JOIN deploys d ON d.id = x.deploy_id LEFT JOIN change_events c ON c.id = x.change_event_id
    JOIN services xs ON xs.id = coalesce(d.service_id, c.service_id)
    WHERE x.incident_id = i.id), '[]'::jsonb)
) AS incident
FROM incidents i JOIN services s ON s.id = i.service_id
WHERE i.id = $1`;

async function emitIncidentEvent(client: pg.PoolClient, boss: PgBoss, incident: Incident, type: EventType): Promise<void> {
  const { rows } = await client.query<{ incident: unknown }>(INCIDENT_EVENT_SQL, [incident.id]);
  await emitEvent(client, boss, { organizationId: incident.organizationId, type, data: { incident: rows[0]!.incident } });
}

export interface OpenIncidentInput {
  serviceId: string;
  title: string;
  severity?: Severity | null;
  environment?: string | null;
  startedAt?: Date | null;
}

const openIncidentSchema = (now: Date) =>
  z.object({
    title: storableText()
      .trim()
      .min(1, `must be 1 to ${INCIDENT_TITLE_MAX_LENGTH} characters`)
      .max(INCIDENT_TITLE_MAX_LENGTH, `must be 1 to ${INCIDENT_TITLE_MAX_LENGTH} characters`),
    // Blank means none.
    environment: storableText()
      .trim()
      .nullish()
      .transform((value) => value || null),
    startedAt: storableDate.refine((startedAt) => isNotInFuture(startedAt.getTime(), now.getTime()), IN_FUTURE_MESSAGE).nullish(),
  });

/** Returns null when the service is not the organization's. */
export async function openIncident(
  deps: IncidentDependencies,
  organizationId: string,
  input: OpenIncidentInput,
  now = new Date(),
): Promise<Incident | null> {
  if (!isUuid(input.serviceId)) return null;
  const service = await deps.prisma.service.findFirst({ where: { id: input.serviceId, organizationId }, select: { id: true } });
  if (!service) return null;
  const validation = validateInput(openIncidentSchema(now), input);
  if (!validation.ok) throw new IncidentInputError(validation.details);
  const { title, environment } = validation.value;
  const startedAt = input.startedAt ?? now;

  return transaction(deps.pool, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO incidents (organization_id, service_id, title, severity, environment, started_at, opened_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [organizationId, service.id, title, input.severity ?? 'SEV3', environment, startedAt, now],
    );
    const incidentId = rows[0]!.id;
    await rankIncidentSuspects(client, { id: incidentId, organizationId, serviceId: service.id, environment, startedAt }, deps.lookbackMs);
    const incident = await loadIncident(client, incidentId);
    await emitIncidentEvent(client, deps.boss, incident, 'incident.opened');
    return incident;
  });
}

async function loadIncident(client: pg.PoolClient, id: string): Promise<Incident> {
  const { rows } = await client.query<Incident>(
    `SELECT id, organization_id AS "organizationId", service_id AS "serviceId", title, severity, environment, status,
            started_at AS "startedAt", opened_at AS "openedAt", acknowledged_at AS "acknowledgedAt", resolved_at AS "resolvedAt"
     FROM incidents WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

const TRANSITIONS = {
  acknowledge: { from: ['OPEN'], to: 'ACKNOWLEDGED', column: 'acknowledged_at', event: 'incident.acknowledged' },
  resolve: { from: ['OPEN', 'ACKNOWLEDGED'], to: 'RESOLVED', column: 'resolved_at', event: 'incident.resolved' },
} as const;

/** Returns null when the organization has no such incident; refuses a transition not allowed. */
export async function transitionIncident(
  deps: Pick<IncidentDependencies, 'pool' | 'boss'>,
  organizationId: string,
  id: string,
  action: keyof typeof TRANSITIONS,
): Promise<Incident | null> {
  if (!isUuid(id)) return null;
  const transition = TRANSITIONS[action];
  return transaction(deps.pool, async (client) => {
    const { rows } = await client.query<{ status: string }>(
      `SELECT status FROM incidents WHERE id = $1 AND organization_id = $2 FOR UPDATE`,
      [id, organizationId],
    );
    const current = rows[0];
    if (!current) return null;
    if (!(transition.from as readonly string[]).includes(current.status)) {
      throw new IncidentTransitionError(`An incident that is ${current.status} cannot become ${transition.to}`);
    }
    await client.query(`UPDATE incidents SET status = $2, ${transition.column} = now() WHERE id = $1`, [id, transition.to]);
    const incident = await loadIncident(client, id);
    await emitIncidentEvent(client, deps.boss, incident, transition.event);
    return incident;
  });
}

/** A person's verdict on a suspect (a deploy or a change event), which wins over its score. False when there is no such suspect. */
export async function markSuspect(
  prisma: PrismaClient,
  organizationId: string,
  incidentId: string,
  subject: { type: 'deploy' | 'change'; id: string },
  verdict: SuspectVerdict,
): Promise<boolean> {
  if (!isUuid(incidentId) || !isUuid(subject.id)) return false;
  const result = await prisma.incidentSuspect.updateMany({
    where: { incidentId, ...(subject.type === 'deploy' ? { deployId: subject.id } : { changeEventId: subject.id }), incident: { organizationId } },
    data: { verdict, verdictAt: new Date() },
  });
  return result.count > 0;
}
