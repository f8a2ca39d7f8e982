// The audit log: one entry per change made through GraphQL or REST, newest first, with filters.
import { auditLogWhere } from '../../domain/shared/audit.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { isUuid } from '../../domain/shared/ids.ts';
import { storableDate } from '../../domain/shared/input.ts';
import { authenticatedConnection, builder } from '../builder.ts';
import { ActorRef, loadActor } from './Actor.ts';

const AuditEntryRef = builder.prismaNode('AuditEntry', {
  id: { field: 'id' },
  nullable: true,
  description: 'One change made through GraphQL or REST: who made it, what it was, to which object, when and from where. Never a secret.',
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime', description: 'When the change was committed.' }),
    actor: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Who made it; null when that actor is gone (a deleted alert source).',
      resolve: (entry, _args, context) => loadActor(context, entry.organizationId, entry.actorKind, entry.actorId),
    }),
    action: t.exposeString('action', { description: 'What was done, as `<type>.<verb>`: webhookEndpoint.delete, incident.acknowledge, …' }),
    objectId: t.exposeID('objectId', {
      nullable: true,
      description: 'The id of what was changed (node(id:) finds it while it exists); null for a change of no single object.',
    }),
    summary: t.exposeString('summary', { description: 'The change, said for people.' }),
    ip: t.exposeString('ip', { nullable: true, description: "The request's address (after TRUST_PROXY); null when unknown." }),
    userAgent: t.exposeString('userAgent', { nullable: true, description: "The request's User-Agent." }),
  }),
});

const AuditLogFilter = builder.inputType('AuditLogFilter', {
  description: 'Which entries to list; every field given must match. from is inclusive, to exclusive.',
  fields: (t) => ({
    actorId: t.id({ required: false, description: 'The API token or alert source that made the changes.' }),
    action: t.string({ required: false, description: 'One action, e.g. webhookEndpoint.delete.' }),
    objectId: t.id({ required: false, description: 'The object changed.' }),
    from: t.field({ type: 'DateTime', required: false, validate: storableDate.nullish() }),
    to: t.field({ type: 'DateTime', required: false, validate: storableDate.nullish() }),
  }),
});

builder.queryField('auditLog', (t) =>
  t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'AuditEntry',
      cursor: 'id',
      description: `The organization's audit log, newest first (kept AUDIT_RETENTION_DAYS days).`,
      args: { filter: t.arg({ type: AuditLogFilter, required: false }) },
      totalCount: (_root, { filter }, context) => {
        const where = whereOf(context.organization.id, filter);
        return where ? countRows(context.prisma.auditEntry, where, 'at') : 0;
      },
      resolve: (query, _root, { filter }, context) => {
        const where = whereOf(context.organization.id, filter);
        return where ? context.prisma.auditEntry.findMany({ ...query, where, orderBy: [{ at: 'desc' }, { id: 'desc' }] }) : [];
      },
    },
    authenticatedConnection(builder.connectionObject({ type: AuditEntryRef, name: 'AuditEntryConnection' }, { name: 'AuditEntryEdge' })),
  ),
);

/** An id that is not a UUID names no actor or object: nothing matches (as for an unknown one). */
function whereOf(organizationId: string, filter: typeof AuditLogFilter.$inferInput | null | undefined) {
  const ids = [filter?.actorId, filter?.objectId].filter((id) => id != null);
  if (ids.some((id) => !isUuid(id))) return null;
  return auditLogWhere(organizationId, filter ?? {});
}
