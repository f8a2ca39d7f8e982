// Incidents: OPEN → ACKNOWLEDGED → RESOLVED (OPEN → RESOLVED allowed, no way back). Opening
// ranks the suspects (correlation.ts keeps them current while the incident is open); every
// transition emits its event through the outbox, in the transaction that makes the change.
import { z } from 'zod';
import type { Incident, IncidentSuspect, Prisma, PrismaClient, Severity, SuspectVerdict } from '../generated/prisma/client.ts';
import { InputError, NotFoundError } from './errors.ts';
import type { EventType } from './events.ts';
import { isUuid } from './ids.ts';
import { IN_FUTURE_MESSAGE, isNotInFuture, parseInput, storableDate, storableText } from './input.ts';
import { rankIncidentSuspects } from './correlation.ts';
import { emitEvent, type Outbox } from './outbox.ts';

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
 * suspect is a deploy or a change event: the other of the two is null.
 */
async function incidentPayload(tx: Prisma.TransactionClient, id: string) {
  const service = { select: { id: true, name: true } };
  const incident = await tx.incident.findUniqueOrThrow({
    where: { id },
    include: {
      service,
      suspects: {
        include: {
          deploy: { select: { id: true, commitSha: true, environment: true, version: true, deployedAt: true, service } },
          changeEvent: { select: { id: true, kind: true, summary: true, environment: true, url: true, changedAt: true, service } },
        },
      },
    },
  });
  return {
    id: incident.id,
    title: incident.title,
    severity: incident.severity,
    environment: incident.environment,
    status: incident.status,
    startedAt: iso(incident.startedAt),
    openedAt: iso(incident.openedAt),
    acknowledgedAt: iso(incident.acknowledgedAt),
    resolvedAt: iso(incident.resolvedAt),
    service: incident.service,
    suspects: orderSuspects(incident.suspects).map(({ rank, score, reasons, verdict, deploy, changeEvent }) => ({
      rank,
      score,
      reasons,
      verdict,
      deploy: deploy && { ...deploy, deployedAt: iso(deploy.deployedAt) },
      change: changeEvent && { ...changeEvent, changedAt: iso(changeEvent.changedAt) },
    })),
  };
}

async function emitIncidentEvent(tx: Prisma.TransactionClient, outbox: Outbox, incident: Incident, type: EventType): Promise<void> {
  const data = { incident: await incidentPayload(tx, incident.id) };
  await emitEvent(tx, outbox.queue, { organizationId: incident.organizationId, type, data });
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

/** Opens an incident of one of the organization's services, with its suspects ranked. */
export async function openIncident(
  deps: IncidentDependencies,
  organizationId: string,
  input: OpenIncidentInput,
  now = new Date(),
): Promise<Incident> {
  const service = isUuid(input.serviceId)
    ? await deps.prisma.service.findFirst({ where: { id: input.serviceId, organizationId }, select: { id: true } })
    : null;
  if (!service) throw new NotFoundError('Service', input.serviceId);
  const { title, environment } = parseInput(openIncidentSchema(now), input);
  const startedAt = input.startedAt ?? now;

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
      },
    });
    await rankIncidentSuspects(tx, incident, deps.lookbackMs);
    await emitIncidentEvent(tx, deps, incident, 'incident.opened');
    return incident;
  });
}

const TRANSITIONS = {
  acknowledge: { from: ['OPEN'], to: 'ACKNOWLEDGED', at: 'acknowledgedAt', event: 'incident.acknowledged' },
  resolve: { from: ['OPEN', 'ACKNOWLEDGED'], to: 'RESOLVED', at: 'resolvedAt', event: 'incident.resolved' },
} as const;

/** Moves one of the organization's incidents on; a transition not allowed is an InputError and changes nothing. */
export async function transitionIncident(
  outbox: Outbox,
  organizationId: string,
  id: string,
  action: keyof typeof TRANSITIONS,
): Promise<Incident> {
  if (!isUuid(id)) throw new NotFoundError('Incident', id);
  const transition = TRANSITIONS[action];
  return outbox.prisma.$transaction(async (tx) => {
    // One guarded write: of two concurrent transitions, one finds the incident already moved on.
    const [incident] = await tx.incident.updateManyAndReturn({
      where: { id, organizationId, status: { in: [...transition.from] } },
      data: { status: transition.to, [transition.at]: new Date() },
    });
    if (!incident) {
      const current = await tx.incident.findFirst({ where: { id, organizationId }, select: { status: true } });
      if (!current) throw new NotFoundError('Incident', id);
      const message = `An incident that is ${current.status} cannot become ${transition.to}`;
      throw new InputError([{ field: 'id', message }], message);
    }
    await emitIncidentEvent(tx, outbox, incident, transition.event);
    return incident;
  });
}

/** What a verdict is about: one of the incident's suspects, a deploy or a change event. */
export interface SuspectSubject {
  deployId?: string | null;
  changeId?: string | null;
}

/**
 * A person's verdict on one of the incident's suspects, a deploy or a change event (exactly one
 * of the two), which wins over its score (a later one replaces it). Later rankings of the
 * organization's other incidents learn from it (priors.ts).
 */
export async function markSuspect(
  prisma: PrismaClient,
  organizationId: string,
  incidentId: string,
  subject: SuspectSubject,
  verdict: SuspectVerdict,
): Promise<void> {
  const incident = isUuid(incidentId) ? await prisma.incident.findFirst({ where: { id: incidentId, organizationId }, select: { id: true } }) : null;
  if (!incident) throw new NotFoundError('Incident', incidentId);
  if ((subject.deployId == null) === (subject.changeId == null)) {
    const message = 'exactly one of deployId and changeId is required';
    throw new InputError([{ field: subject.deployId == null ? 'deployId' : 'changeId', message }], message);
  }
  const [what, field, id, where] =
    subject.deployId != null
      ? (['Deploy', 'deployId', subject.deployId, { deployId: subject.deployId }] as const)
      : (['Change event', 'changeId', subject.changeId!, { changeEventId: subject.changeId! }] as const);
  const { count } = isUuid(id)
    ? await prisma.incidentSuspect.updateMany({ where: { incidentId, ...where }, data: { verdict, verdictAt: new Date() } })
    : { count: 0 };
  if (count === 0) {
    const message = 'is not a suspect of this incident';
    throw new InputError([{ field, message }], `${what} ${id} ${message}`);
  }
}
