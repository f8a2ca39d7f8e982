// What happened to an incident, and who did it: each step (opened, re-ranked, a verdict,
// acknowledged, a note, resolved) is recorded in the transaction that takes it. Alerts joining and
// resolving are not recorded twice: the timeline reads them from the incident's alerts.
import { z } from 'zod';
import type { IncidentActivityKind, IncidentNote, Prisma, PrismaClient, SuspectVerdict } from '../../generated/prisma/client.ts';
import { actorOf, alertSourceActor, storedActor, type Actor } from '../shared/actors.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseInput, trimmedText } from '../shared/input.ts';

export interface IncidentActivityInput {
  incidentId: string;
  kind: IncidentActivityKind;
  actor: Actor;
  /** When it happened; default now (a resolution entered afterwards says when it was). */
  at?: Date;
  verdict?: SuspectVerdict;
  deployId?: string | null;
  changeEventId?: string | null;
  noteId?: string;
}

export async function recordIncidentActivity(tx: Prisma.TransactionClient, activity: IncidentActivityInput): Promise<void> {
  const actor = storedActor(activity.actor);
  await tx.incidentActivity.create({
    data: {
      incidentId: activity.incidentId,
      kind: activity.kind,
      at: activity.at,
      actorKind: actor.kind,
      actorId: actor.id,
      verdict: activity.verdict ?? null,
      deployId: activity.deployId ?? null,
      changeEventId: activity.changeEventId ?? null,
      noteId: activity.noteId ?? null,
    },
  });
}

export type TimelineKind = IncidentActivityKind | 'ALERT_JOINED' | 'ALERT_RESOLVED';

/** One entry of an incident's timeline. */
export interface TimelineEntry {
  kind: TimelineKind;
  at: Date;
  actor: Actor;
  alertId: string | null;
  noteId: string | null;
  verdict: SuspectVerdict | null;
  deployId: string | null;
  changeEventId: string | null;
}

/** Of two entries at one moment, the one that happens first in an incident's life comes first. */
const KIND_ORDER: Record<TimelineKind, number> = {
  OPENED: 0,
  ALERT_JOINED: 1,
  RERANKED: 2,
  VERDICT: 3,
  ACKNOWLEDGED: 4,
  NOTE: 5,
  ALERT_RESOLVED: 6,
  RESOLVED: 7,
};

/**
 * The incident's timeline, oldest first, at most `limit` entries: its recorded steps, and each of
 * its alerts joining (when Hookline received it) and resolving (its end), by their source.
 */
export async function incidentTimeline(prisma: PrismaClient, incidentId: string, limit: number): Promise<TimelineEntry[]> {
  const activities = await prisma.incidentActivity.findMany({
    where: { incidentId },
    orderBy: [{ at: 'asc' }, { id: 'asc' }],
    take: limit,
  });
  const alerts = await prisma.alert.findMany({
    where: { incidentId },
    orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    take: limit,
    select: { id: true, alertSourceId: true, receivedAt: true, endsAt: true, status: true },
  });
  const none = { alertId: null, noteId: null, verdict: null, deployId: null, changeEventId: null };
  const entries: TimelineEntry[] = [
    ...activities.map((activity) => ({
      kind: activity.kind,
      at: activity.at,
      actor: actorOf(activity.actorKind, activity.actorId),
      alertId: null,
      noteId: activity.noteId,
      verdict: activity.verdict,
      deployId: activity.deployId,
      changeEventId: activity.changeEventId,
    })),
    ...alerts.flatMap((alert) => {
      const actor = alertSourceActor(alert.alertSourceId);
      const joined = { ...none, kind: 'ALERT_JOINED' as const, at: alert.receivedAt, actor, alertId: alert.id };
      return alert.status === 'RESOLVED' && alert.endsAt
        ? [joined, { ...none, kind: 'ALERT_RESOLVED' as const, at: alert.endsAt, actor, alertId: alert.id }]
        : [joined];
    }),
  ];
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime() || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]).slice(0, limit);
}

export const NOTE_MAX_LENGTH = 10_000;

/** Adds a note (1 to NOTE_MAX_LENGTH characters, trimmed) by `author` to one of the organization's incidents, whatever its status. */
export async function addIncidentNote(
  prisma: PrismaClient,
  organizationId: string,
  incidentId: string,
  body: string,
  author: Actor,
): Promise<IncidentNote> {
  const input = parseInput(z.object({ body: trimmedText(NOTE_MAX_LENGTH) }), { body });
  const incident = isUuid(incidentId)
    ? await prisma.incident.findFirst({ where: { id: incidentId, organizationId }, select: { id: true } })
    : null;
  if (!incident) throw new NotFoundError('Incident', incidentId);
  const stored = storedActor(author);
  return prisma.$transaction(async (tx) => {
    const note = await tx.incidentNote.create({ data: { incidentId, authorKind: stored.kind, authorId: stored.id, body: input.body } });
    await recordIncidentActivity(tx, { incidentId, kind: 'NOTE', actor: author, at: note.createdAt, noteId: note.id });
    return note;
  });
}
