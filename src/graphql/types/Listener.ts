// Listeners (`hookline listen`): made by createListener, fed by `subscription { eventCreated }`,
// which receives every new event of the organization that the listener takes, from any process.
import { Repeater } from '@graphql-yoga/subscription';
import { backlogged } from '../backlog.ts';
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { audited } from '../audit.ts';
import type { Context } from '../context.ts';
import { ownedWhere } from '../ownership.ts';
import type { Listener } from '../../generated/prisma/client.ts';
import {
  createListener,
  findListener,
  keepListenerLive,
  LISTENER_HEARTBEAT_MS,
  listenerTakes,
  pingListeners,
  releaseListener,
  type EventNotice,
} from '../../domain/webhooks/listeners.ts';

builder.prismaNode('Listener', {
  id: { field: 'id' },
  nullable: true,
  description: "A developer receiving the organization's events live (hookline listen), rather than as deliveries to an endpoint.",
  fields: (t) => ({
    eventTypes: t.exposeStringList('eventTypes', {
      description: 'The event types it receives; empty means every type.',
      complexity: listOf(LIST_BOUNDS.eventTypes),
    }),
    live: t.boolean({
      description: 'Whether a subscription to eventCreated is being served for it: events are stored for it while it is live.',
      select: { liveUntil: true },
      resolve: (listener) => listener.liveUntil !== null && listener.liveUntil.getTime() > Date.now(),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('listener', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Listener',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.listener.findFirst({ ...query, where });
    },
  }),
);

builder.mutationFields((t) => ({
  createListener: t.withAuth({ organization: true }).prismaField({
    type: 'Listener',
    description: 'A listener for eventTypes (absent or empty: every type); subscribe to eventCreated with its id to receive events.',
    args: { eventTypes: t.arg.stringList({ required: false }) },
    resolve: async (query, _root, { eventTypes }, context) => {
      const listener = await audited(
        context,
        'listener.create',
        (scoped) => createListener(scoped.prisma, scoped.organization.id, { eventTypes }),
        (created) => ({
          objectId: created.id,
          summary: `Created a listener for ${created.eventTypes.length > 0 ? created.eventTypes.join(', ') : 'every event type'}`,
        }),
      );
      return context.prisma.listener.findUniqueOrThrow({ ...query, where: { id: listener.id } });
    },
  }),
  pingListeners: t.withAuth({ organization: true }).prismaField({
    type: 'Event',
    description:
      "Stores an event for the organization's live listeners only: no endpoint gets a delivery of it. eventType absent or test.ping: a test.ping; another type: the eventTypes example of it, marked example, and nothing else is stored (no service, deploy or incident: hookline trigger's events never count in DORA or the incident list).",
    args: { eventType: t.arg.string({ required: false, description: 'One of the eventTypes (default test.ping).' }) },
    resolve: async (query, _root, { eventType }, context) => {
      const type = eventType ?? undefined;
      const eventId = await audited(
        context,
        'listener.ping',
        (scoped) => pingListeners(scoped, scoped.organization.id, type),
        (id) => ({ objectId: id, summary: `Sent ${type ?? 'test.ping'} to the live listeners` }),
      );
      return context.prisma.event.findFirstOrThrow({ ...query, where: { id: eventId } });
    },
  }),
}));

/**
 * The notices of new events the listener takes, while it is marked live (and kept so by a
 * heartbeat); ending the subscription releases it at once.
 */
function servedListener(context: Context, listener: Listener): Repeater<EventNotice> {
  return new Repeater<EventNotice>(async (push, stop) => {
    const notices = context.events.subscribe(listener.organizationId)[Symbol.asyncIterator]();
    // Listening starts before the listener is marked live, so no event stored for it is missed.
    const first = notices.next();
    void stop.then(() => notices.return?.());
    await keepListenerLive(context.prisma, listener.id);
    const heartbeat = setInterval(() => void keepListenerLive(context.prisma, listener.id).catch(() => {}), LISTENER_HEARTBEAT_MS);
    try {
      for (let next = await first; !next.done; next = await notices.next()) {
        if (listenerTakes(listener, next.value.type)) await push(next.value);
      }
    } finally {
      clearInterval(heartbeat);
      await releaseListener(context.prisma, listener.id).catch(() => {});
    }
    stop();
  });
}

builder.subscriptionField('eventCreated', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Event',
    description:
      "Every new event of your organization that the listener takes, from the moment you subscribe. Another organization's listener fails with NOT_FOUND.",
    args: { listenerId: t.arg.id({ required: true }) },
    // The listener is checked at subscribe time; notices are routed by organization before any
    // filter, so no subscriber ever sees another organization's events.
    subscribe: async (_root, { listenerId }, context) => {
      const listener = await findListener(context.prisma, context.organization.id, listenerId);
      return backlogged(servedListener(context, listener));
    },
    resolve: (query, notice, _args, context) =>
      context.prisma.event.findFirstOrThrow({ ...query, where: { id: notice.id, organizationId: context.organization.id } }),
  }),
);
