// Incidents: OPEN → ACKNOWLEDGED → RESOLVED (OPEN → RESOLVED allowed, no way back). Opening
// ranks the suspects (correlation.ts keeps them current while the incident is open); every
// transition emits its event through the outbox, in the transaction that makes the change.
import { z } from 'zod';
import sql, { raw } from 'sql-template-tag';
import type { Incident, IncidentSuspect, Prisma, Severity, SuspectVerdict } from '../../generated/prisma/client.ts';
import { InputError, NotFoundError } from '../shared/errors.ts';
import { MAX_PAYLOAD_ALERTS } from '../webhooks/event-catalogue.ts';
import type { EventType } from '../webhooks/events.ts';
import { isUuid } from '../shared/ids.ts';
import { IN_FUTURE_MESSAGE, isNotInFuture, parseInput, storableDate, storableText, trimmedText } from '../shared/input.ts';
import { INCIDENT_COLUMNS, rankIncidentSuspects, rerankIncidentSuspects, type RankedIncident } from './correlation.ts';
import { emitEvent, type Outbox } from '../webhooks/outbox.ts';
import { storedActor, type Actor } from '../shared/actors.ts';
import { recordIncidentActivity } from './incident-activity.ts';

export const INCIDENT_TITLE_MAX_LENGTH = 200;

export interface IncidentDependencies extends Outbox {
  /** How far before the incident deploys are considered. */
  lookbackMs: number;
}

const VERDICT_ORDER: Record<string, number> = { CAUSED: 0, none: 1, DISMISSED: 2 };

/** A verdict wins over the score: CAUSED first, then unjudged, then DISMISSED; by rank within each. */
export function orderSuspects<T extends Pick<IncidentSuspect, 'rank' | 'verdict'>>(suspects: T[]): T[] {
  const weight = (suspect: T) => VERDICT_ORDER[suspect.verdict ?? 'none']!;
  return [...suspects].sort((a, b) => weight(a) - weight(b) || a.rank - b.rank);
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * The incident as webhook receivers see it, its suspects in the order of Incident.suspects. A
 * suspect is a deploy or a change event: the other of the two is null. Read one relation per
 * statement: `tx` is one connection, and a Prisma read that includes several relations sends
 * their queries side by side on it (pg warns of that, and pg 9 refuses it).
 */
async function incidentPayload(tx: Prisma.TransactionClient, id: string) {
  const incident = await tx.incident.findUniqueOrThrow({ where: { id } });
  const service = { select: { id: true, name: true } };
  const serviceOfIncident = await tx.service.findUniqueOrThrow({ where: { id: incident.serviceId }, ...service });
  const alertSource = incident.alertSourceId
    ? await tx.alertSource.findUnique({ where: { id: incident.alertSourceId }, select: { id: true, name: true, kind: true } })
    : null;
  const alerts = await tx.alert.findMany({
    where: { incidentId: id },
    orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
    take: MAX_PAYLOAD_ALERTS,
  });
  const suspects = await tx.incidentSuspect.findMany({ where: { incidentId: id } });
  const deployIds = suspects.flatMap((suspect) => (suspect.deployId ? [suspect.deployId] : []));
  const changeEventIds = suspects.flatMap((suspect) => (suspect.changeEventId ? [suspect.changeEventId] : []));
  const deploys = new Map(
    (
      await tx.deploy.findMany({
        where: { id: { in: deployIds } },
        select: { id: true, commitSha: true, environment: true, version: true, deployedAt: true, service },
      })
    ).map((deploy) => [deploy.id, deploy]),
  );
  const changeEvents = new Map(
    (
      await tx.changeEvent.findMany({
        where: { id: { in: changeEventIds } },
        select: { id: true, kind: true, summary: true, environment: true, url: true, changedAt: true, service },
      })
    ).map((change) => [change.id, change]),
  );
  return {
    id: incident.id,
    title: incident.title,
    severity: incident.severity,
    environment: incident.environment,
    status: incident.status,
    startedAt: iso(incident.startedAt),
    openedAt: iso(incident.openedAt),
    acknowledgedAt: iso(incident.acknowledgedAt),
    acknowledgedBy: actorPayload(incident.acknowledgedByKind, incident.acknowledgedById),
    resolvedAt: iso(incident.resolvedAt),
    resolvedBy: actorPayload(incident.resolvedByKind, incident.resolvedById),
    service: serviceOfIncident,
    alertSource,
    alerts: alerts.map((alert) => ({
      fingerprint: alert.fingerprint,
      status: alert.status,
      labels: alert.labels,
      annotations: alert.annotations,
      startsAt: iso(alert.startsAt),
      endsAt: iso(alert.endsAt),
      generatorURL: alert.generatorUrl,
    })),
    suspects: orderSuspects(suspects).map(({ rank, score, reasons, verdict, deployId, changeEventId }) => {
      const deploy = deployId ? deploys.get(deployId) : undefined;
      const changeEvent = changeEventId ? changeEvents.get(changeEventId) : undefined;
      return {
        rank,
        score,
        reasons,
        verdict,
        deploy: deploy ? { ...deploy, deployedAt: iso(deploy.deployedAt) } : null,
        change: changeEvent ? { ...changeEvent, changedAt: iso(changeEvent.changedAt) } : null,
      };
    }),
  };
}

/** An actor as webhook receivers see it: its kind and id (null for SYSTEM); null when there is none yet. */
function actorPayload(kind: Incident['acknowledgedByKind'], id: string | null) {
  return kind === null ? null : { kind, id };
}

/** Emits an incident.* event with the incident as it is now in `tx`, in the same transaction. */
export async function emitIncidentEvent(tx: Prisma.TransactionClient, outbox: Outbox, incident: Incident, type: EventType): Promise<void> {
  const data = { incident: await incidentPayload(tx, incident.id) };
  await emitEvent(tx, outbox.queue, { organizationId: incident.organizationId, type, data });
}

export interface OpenIncidentInput {
  serviceId: string;
  title: string;
  severity?: Severity | null;
  environment?: string | null;
  startedAt?: Date | null;
  /** How far before startedAt suspects are looked for, in hours; absent: the server's INCIDENT_LOOKBACK_HOURS. */
  lookbackHours?: number | null;
  /** Other services of the organization the incident affects (serviceId is the one it is filed under). */
  affectedServiceIds?: readonly string[] | null;
}

/** The most services an incident may affect besides its own. */
export const MAX_AFFECTED_SERVICES = 20;

/** The longest look-back an incident may have: 30 days, for slow leaks. */
export const MAX_LOOKBACK_HOURS = 720;

const lookbackHoursSchema = z
  .number()
  .int('must be a whole number of hours')
  .min(1, `must be 1 to ${MAX_LOOKBACK_HOURS} hours`)
  .max(MAX_LOOKBACK_HOURS, `must be 1 to ${MAX_LOOKBACK_HOURS} hours`);

const openIncidentSchema = (now: Date) =>
  z.object({
    title: trimmedText(INCIDENT_TITLE_MAX_LENGTH),
    // Blank means none.
    environment: storableText()
      .trim()
      .nullish()
      .transform((value) => value || null),
    startedAt: storableDate.refine((startedAt) => isNotInFuture(startedAt.getTime(), now.getTime()), IN_FUTURE_MESSAGE).nullish(),
    lookbackHours: lookbackHoursSchema.nullish(),
    affectedServiceIds: z
      .array(z.string().refine(isUuid, 'is not a service of this organization'))
      .max(MAX_AFFECTED_SERVICES, `must have at most ${MAX_AFFECTED_SERVICES} services`)
      .nullish(),
  });

/** Opens an incident of one of the organization's services, with its suspects ranked. */
export async function openIncident(
  deps: IncidentDependencies,
  organizationId: string,
  actor: Actor,
  input: OpenIncidentInput,
  now = new Date(),
): Promise<Incident> {
  const service = isUuid(input.serviceId)
    ? await deps.prisma.service.findFirst({ where: { id: input.serviceId, organizationId }, select: { id: true } })
    : null;
  if (!service) throw new NotFoundError('Service', input.serviceId);
  const { title, environment, lookbackHours, affectedServiceIds } = parseInput(openIncidentSchema(now), input);
  const startedAt = input.startedAt ?? now;
  const others = [...new Set((affectedServiceIds ?? []).map((id) => id.toLowerCase()))].filter((id) => id !== service.id);
  const owned = new Set(
    (await deps.prisma.service.findMany({ where: { id: { in: others }, organizationId }, select: { id: true } })).map((s) => s.id),
  );
  const unknown = (affectedServiceIds ?? []).flatMap((id, index) =>
    owned.has(id.toLowerCase()) || id.toLowerCase() === service.id
      ? []
      : [{ field: `affectedServiceIds[${index}]`, message: 'is not a service of this organization' }],
  );
  if (unknown.length > 0) throw new InputError(unknown);

  return deps.prisma.$transaction(async (tx) => {
    const incident = await tx.incident.create({
      data: {
        organizationId,
        serviceId: service.id,
        title,
        severity: input.severity ?? 'SEV3',
        environment,
        startedAt,
        openedAt: now,
        lookbackHours: lookbackHours ?? null,
        alsoAffectedServiceIds: others,
      },
    });
    await rankIncidentSuspects(tx, incident, deps.lookbackMs);
    await recordIncidentActivity(tx, { incidentId: incident.id, kind: 'OPENED', actor, at: startedAt });
    await emitIncidentEvent(tx, deps, incident, 'incident.opened');
    return incident;
  });
}

/**
 * Changes how far before its start an incident's suspects are looked for (null: back to the
 * server's INCIDENT_LOOKBACK_HOURS) and ranks it again: a slow leak found later widens it. Judged
 * suspects stay whatever the window. No event is sent, as for any new ranking.
 */
export async function setIncidentLookback(
  deps: Pick<IncidentDependencies, 'prisma' | 'lookbackMs'>,
  organizationId: string,
  incidentId: string,
  lookbackHours: number | null,
  actor: Actor,
): Promise<void> {
  if (!isUuid(incidentId)) throw new NotFoundError('Incident', incidentId);
  const hours = parseInput(z.object({ lookbackHours: lookbackHoursSchema.nullable() }), { lookbackHours }).lookbackHours;
  await deps.prisma.$transaction(async (tx) => {
    const update = sql`UPDATE incidents i SET lookback_hours = ${hours}
      WHERE i.id = ${incidentId}::uuid AND i.organization_id = ${organizationId}::uuid RETURNING ${raw(INCIDENT_COLUMNS)}`;
    const [incident] = await tx.$queryRawUnsafe<RankedIncident[]>(update.text, ...update.values);
    if (!incident) throw new NotFoundError('Incident', incidentId);
    await rerankIncidentSuspects(tx, incident, deps.lookbackMs, actor);
  });
}

const TRANSITIONS = {
  acknowledge: {
    from: ['OPEN'],
    to: 'ACKNOWLEDGED',
    at: 'acknowledgedAt',
    step: 'acknowledged',
    event: 'incident.acknowledged',
  },
  resolve: {
    from: ['OPEN', 'ACKNOWLEDGED'],
    to: 'RESOLVED',
    at: 'resolvedAt',
    step: 'resolved',
    event: 'incident.resolved',
  },
} as const;

/** The columns saying who took an incident's step: acknowledged or resolved it. */
export function takenBy(step: 'acknowledged' | 'resolved', actor: Actor) {
  const { kind, id } = storedActor(actor);
  return step === 'acknowledged' ? { acknowledgedByKind: kind, acknowledgedById: id } : { resolvedByKind: kind, resolvedById: id };
}

export interface Transition {
  /** Who moves it on. */
  actor: Actor;
  /**
   * When it happened, for an incident entered afterwards (default now): not in the future, and
   * not before the incident started (BAD_USER_INPUT on `field`).
   */
  at?: Date | null;
  /** The argument `at` came in, named in a refusal. */
  field?: string;
}

/** Moves one of the organization's incidents on; a transition not allowed is an InputError and changes nothing. */
export async function transitionIncident(
  outbox: Outbox,
  organizationId: string,
  id: string,
  action: keyof typeof TRANSITIONS,
  { actor, at: requestedAt, field = 'at' }: Transition,
): Promise<Incident> {
  if (!isUuid(id)) throw new NotFoundError('Incident', id);
  const transition = TRANSITIONS[action];
  const now = new Date();
  const at = requestedAt ?? now;
  if (!isNotInFuture(at.getTime(), now.getTime())) throw new InputError([{ field, message: IN_FUTURE_MESSAGE }]);
  return outbox.prisma.$transaction(async (tx) => {
    // One guarded write: of two concurrent transitions, one finds the incident already moved on.
    const [incident] = await tx.incident.updateManyAndReturn({
      where: { id, organizationId, status: { in: [...transition.from] }, startedAt: { lte: at } },
      data: { status: transition.to, [transition.at]: at, ...takenBy(transition.step, actor) },
    });
    if (!incident) {
      const current = await tx.incident.findFirst({ where: { id, organizationId }, select: { status: true, startedAt: true } });
      if (!current) throw new NotFoundError('Incident', id);
      if (current.startedAt > at && (transition.from as readonly string[]).includes(current.status)) {
        const message = `must not be before the incident started (${current.startedAt.toISOString()})`;
        throw new InputError([{ field, message }]);
      }
      const message = `An incident that is ${current.status} cannot become ${transition.to}`;
      throw new InputError([{ field: 'id', message }], message);
    }
    await recordIncidentActivity(tx, { incidentId: incident.id, kind: transition.to, actor, at });
    await emitIncidentEvent(tx, outbox, incident, transition.event);
    return incident;
  });
}

/** What a verdict is about: a deploy or a change event of the organization. */
export interface SuspectSubject {
  deployId?: string | null;
  changeId?: string | null;
}

/**
 * A person's verdict on a deploy or a change event (exactly one of the two) of the incident's
 * organization, which wins over its score (a later one replaces it). It need not be among the
 * ranked suspects: the culprit of a miss (older than the look-back window, or below the best
 * MAX_SUSPECTS) joins them, and the incident is ranked again with it, as for a late report. Only
 * what happened after the start cannot be named: it cannot have caused the incident. Later
 * rankings of the organization's other incidents learn from it (priors.ts), and DORA counts a
 * deploy judged CAUSED as failed.
 */
export async function markSuspect(
  deps: Pick<IncidentDependencies, 'prisma' | 'lookbackMs'>,
  organizationId: string,
  incidentId: string,
  subject: SuspectSubject,
  verdict: SuspectVerdict,
  actor: Actor,
): Promise<void> {
  if (!isUuid(incidentId)) throw new NotFoundError('Incident', incidentId);
  if ((subject.deployId == null) === (subject.changeId == null)) {
    const message = 'exactly one of deployId and changeId is required';
    throw new InputError([{ field: subject.deployId == null ? 'deployId' : 'changeId', message }], message);
  }
  const isDeploy = subject.deployId != null;
  const id = (subject.deployId ?? subject.changeId)!;
  const field = isDeploy ? 'deployId' : 'changeId';
  const refuse = (message: string): never => {
    throw new InputError([{ field, message }], `${isDeploy ? 'Deploy' : 'Change event'} ${id} ${message}`);
  };
  await deps.prisma.$transaction(async (tx) => {
    // The row lock orders the verdict after (or before) any ranking of the same incident.
    const locked = sql`SELECT ${raw(INCIDENT_COLUMNS)} FROM incidents i
      WHERE i.id = ${incidentId}::uuid AND i.organization_id = ${organizationId}::uuid FOR UPDATE`;
    const [incident] = await tx.$queryRawUnsafe<RankedIncident[]>(locked.text, ...locked.values);
    if (!incident) throw new NotFoundError('Incident', incidentId);
    const which = isDeploy ? { deployId: id } : { changeEventId: id };
    const judged = { incidentId, kind: 'VERDICT', actor, verdict, ...which } as const;
    const { count } = isUuid(id)
      ? await tx.incidentSuspect.updateMany({ where: { incidentId, ...which }, data: { verdict, verdictAt: new Date() } })
      : { count: 0 };
    if (count > 0) return recordIncidentActivity(tx, judged);

    const at = !isUuid(id)
      ? null
      : isDeploy
        ? (await tx.deploy.findFirst({ where: { id, organizationId }, select: { deployedAt: true } }))?.deployedAt
        : (await tx.changeEvent.findFirst({ where: { id, organizationId }, select: { changedAt: true } }))?.changedAt;
    if (!at) refuse(isDeploy ? 'is not a deploy of this organization' : 'is not a change event of this organization');
    if (at! > incident.startedAt) refuse('happened after the incident started, so it cannot have caused it');
    // Rank and score are placeholders until the ranking below places it among the others.
    await tx.incidentSuspect.create({ data: { incidentId, ...which, rank: 0, score: 0, reasons: [], verdict, verdictAt: new Date() } });
    await rankIncidentSuspects(tx, incident, deps.lookbackMs);
    await recordIncidentActivity(tx, judged);
  });
}
