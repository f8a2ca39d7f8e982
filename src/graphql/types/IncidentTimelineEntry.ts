// Incident.timeline: what happened to an incident, oldest first, each entry a kind with who did it
// and what it concerns (an alert, a note, a verdict on a deploy or change, the new first suspect).
import { incidentTimeline, type TimelineEntry } from '../../domain/correlation/incident-activity.ts';
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { ActorRef, loadActor } from './Actor.ts';
import { SuspectVerdict } from './Incident.ts';

const IncidentTimelineKind = builder.enumType('IncidentTimelineKind', {
  description: 'What a timeline entry records.',
  values: {
    OPENED: {
      description:
        'The incident was opened (by a token, or by its alert source); at: its startedAt, when the problem began, so that an incident entered afterwards reads in order.',
    },
    ALERT_JOINED: { description: 'An alert joined it (alert); at: when Hookline received it.' },
    ALERT_RESOLVED: { description: 'An alert of it stopped firing (alert); at: its end.' },
    RERANKED: {
      description:
        'Its suspects changed (a late deploy or change, an earlier start, a new look-back); deploy or change: the one now first.',
    },
    VERDICT: { description: 'A verdict was given (verdict) on a deploy or change (deploy or change).' },
    ACKNOWLEDGED: { description: 'It was acknowledged.' },
    NOTE: { description: 'A note was added (note).' },
    RESOLVED: { description: 'It was resolved; at: its resolvedAt.' },
  },
});

type Entry = TimelineEntry & { organizationId: string };

const IncidentTimelineEntryRef = builder.objectRef<Entry>('IncidentTimelineEntry').implement({
  description: 'One moment of an incident: what happened (kind), when, who did it, and what it concerns.',
  fields: (t) => ({
    kind: t.field({ type: IncidentTimelineKind, resolve: (entry) => entry.kind }),
    at: t.field({ type: 'DateTime', resolve: (entry) => entry.at }),
    actor: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Who did it; null when that actor is gone.',
      resolve: (entry, _args, context) => {
        const { actor } = entry;
        return loadActor(context, entry.organizationId, actor.kind, actor.kind === 'SYSTEM' ? null : actor.id);
      },
    }),
    alert: t.prismaField({
      type: 'Alert',
      nullable: true,
      description: 'ALERT_JOINED and ALERT_RESOLVED: the alert.',
      resolve: (query, entry, _args, context) =>
        entry.alertId === null ? null : context.prisma.alert.findUnique({ ...query, where: { id: entry.alertId } }),
    }),
    note: t.prismaField({
      type: 'IncidentNote',
      nullable: true,
      description: 'NOTE: the note.',
      resolve: (query, entry, _args, context) =>
        entry.noteId === null ? null : context.prisma.incidentNote.findUnique({ ...query, where: { id: entry.noteId } }),
    }),
    verdict: t.field({
      type: SuspectVerdict,
      nullable: true,
      description: 'VERDICT: the verdict given.',
      resolve: (entry) => entry.verdict,
    }),
    deploy: t.prismaField({
      type: 'Deploy',
      nullable: true,
      description: 'VERDICT: the deploy judged; RERANKED: the deploy now first.',
      resolve: (query, entry, _args, context) =>
        entry.deployId === null ? null : context.prisma.deploy.findUnique({ ...query, where: { id: entry.deployId } }),
    }),
    change: t.prismaField({
      type: 'ChangeEvent',
      nullable: true,
      description: 'VERDICT: the change judged; RERANKED: the change now first.',
      resolve: (query, entry, _args, context) =>
        entry.changeEventId === null ? null : context.prisma.changeEvent.findUnique({ ...query, where: { id: entry.changeEventId } }),
    }),
  }),
});

builder.prismaObjectFields('Incident', (t) => ({
  timeline: t.field({
    type: [IncidentTimelineEntryRef],
    description:
      `What happened to it, oldest first (the first ${LIST_BOUNDS.timeline} entries): opened, alerts joined and resolved, ` +
      'suspects re-ranked, verdicts, acknowledged, notes, resolved.',
    complexity: listOf(LIST_BOUNDS.timeline),
    resolve: async (incident, _args, context) =>
      (await incidentTimeline(context.prisma, incident.id, LIST_BOUNDS.timeline)).map((entry) => ({
        ...entry,
        organizationId: incident.organizationId,
      })),
  }),
}));
