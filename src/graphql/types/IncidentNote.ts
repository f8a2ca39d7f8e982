// Notes on an incident: Incident.notes, oldest first, and addIncidentNote.
import { addIncidentNote, NOTE_MAX_LENGTH } from '../../domain/correlation/incident-activity.ts';
import { actorOfViewer } from '../../auth/caller.ts';
import { audited } from '../audit.ts';
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { ActorRef, loadActor } from './Actor.ts';

export const IncidentNoteRef = builder.prismaNode('IncidentNote', {
  id: { field: 'id' },
  nullable: true,
  description: 'A note on an incident: what someone found or did, with its author and time.',
  fields: (t) => ({
    body: t.exposeString('body', { description: `The note, 1 to ${NOTE_MAX_LENGTH} characters, as written (trimmed).` }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    author: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Who wrote it; null when that actor is gone.',
      select: { incident: { select: { organizationId: true } } },
      resolve: (note, _args, context) => loadActor(context, note.incident.organizationId, note.authorKind, note.authorId),
    }),
    incident: t.relation('incident'),
  }),
});

builder.prismaObjectFields('Incident', (t) => ({
  notes: t.relation('notes', {
    description: `Its notes, oldest first (the first ${LIST_BOUNDS.notes}).`,
    complexity: listOf(LIST_BOUNDS.notes),
    query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: LIST_BOUNDS.notes },
  }),
}));

builder.mutationField('addIncidentNote', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'IncidentNote',
    description: `Adds a note (1 to ${NOTE_MAX_LENGTH} characters) to an incident, whatever its status; it joins the timeline.`,
    args: { incidentId: t.arg.id({ required: true }), body: t.arg.string({ required: true }) },
    resolve: async (query, _root, { incidentId, body }, context) => {
      const note = await audited(
        context,
        'incident.addNote',
        (scoped) => addIncidentNote(scoped.prisma, scoped.organization.id, incidentId, body, actorOfViewer(scoped.organization)),
        (added) => ({ objectId: added.incidentId, summary: `Added a note to incident ${added.incidentId}` }),
      );
      return context.prisma.incidentNote.findUniqueOrThrow({ ...query, where: { id: note.id } });
    },
  }),
);
