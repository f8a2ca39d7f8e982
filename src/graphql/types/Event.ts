import type { AuthenticatedContext } from '../context.ts';
import { authenticatedConnection, builder } from '../builder.ts';
import { ownedWhere } from '../ownership.ts';
import { EVENT_TYPES } from '../../domain/webhooks/events.ts';
import { countEvents, eventSearchWhere } from '../../domain/webhooks/search.ts';
import { eventKey } from '../../domain/webhooks/history-keys.ts';
import { DeliveryConnection } from './Delivery.ts';

const EventRef = builder.prismaNode('Event', {
  // Its key is (id, createdAt) (events are partitioned by month): its id alone is the plain UUID.
  id: { resolve: (event) => event.id, description: 'The `id` of the webhook body.' },
  findUnique: async (id, context) => ({ id_createdAt: await eventKey(context.prisma, id) }),
  nullable: true,
  description: 'Something that happened, stored once; each subscribed endpoint gets one delivery of it.',
  fields: (t) => ({
    type: t.exposeString('type', { description: `${EVENT_TYPES.join(', ')} (see eventTypes).` }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    data: t.expose('data', { type: 'JSON', description: 'The `data` of the webhook body.' }),
    example: t.exposeBoolean('example', { description: 'Sent by sendExample: its webhook body says `"example": true`.' }),
    deliveries: t.relatedConnection(
      'deliveries',
      {
        description: 'Its deliveries, one per endpoint it was sent to, newest first.',
        cursor: 'id_createdAt',
        // Counted by DeliveryConnection for every event of the page at once (the plugin's count
        // would group every delivery of every organization by event).
        query: () => ({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
      },
      DeliveryConnection,
    ),
  }),
});

const EventConnection = builder.connectionObject({ type: EventRef, name: 'EventConnection' }, { name: 'EventEdge' });

const EventFilter = builder.inputType('EventFilter', {
  description: 'Every given field narrows the list; from (inclusive) and to (exclusive) bound when the event happened.',
  fields: (t) => ({
    type: t.string({ required: false, description: 'One of the eventTypes.' }),
    from: t.field({ type: 'DateTime', required: false }),
    to: t.field({ type: 'DateTime', required: false }),
  }),
});

const searchWhere = (context: AuthenticatedContext, filter: typeof EventFilter.$inferInput | null | undefined) =>
  eventSearchWhere(context.organization.id, filter ?? {});

builder.queryFields((t) => ({
  events: t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'Event',
      cursor: 'id_createdAt',
      description: "The organization's events, newest first.",
      args: { filter: t.arg({ type: EventFilter, required: false }) },
      totalCount: (_connection, { filter }, context) => countEvents(context.prisma, searchWhere(context, filter)),
      resolve: (query, _root, { filter }, context) =>
        context.prisma.event.findMany({ ...query, where: searchWhere(context, filter), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    },
    authenticatedConnection(EventConnection),
  ),
  event: t.withAuth({ organization: true }).prismaField({
    type: 'Event',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.event.findFirst({ ...query, where });
    },
  }),
}));
