import { viewerOf } from '../context.ts';
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { ownedWhere } from '../ownership.ts';
import { DeliveryStatus as DeliveryStatusValues } from '../../generated/prisma/enums.ts';
import { retryDelivery } from '../../domain/deliveries.ts';

export const DeliveryStatus = builder.enumType(DeliveryStatusValues, {
  name: 'DeliveryStatus',
  description: 'PENDING until an attempt succeeds (SUCCEEDED) or the attempts run out (FAILED); CANCELLED when its endpoint stopped taking deliveries.',
});

builder.prismaObject('Delivery', {
  description: 'One event to one endpoint. Its id is the X-Service-Delivery (webhook-id) header of every attempt.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.expose('status', { type: DeliveryStatus }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due (PENDING only).',
    }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    event: t.relation('event'),
    endpoint: t.relation('endpoint', {
      description: 'The endpoint it was sent to (still shown if the endpoint has since been deleted).',
    }),
    attempts: t.relation('attempts', {
      description: `Every attempt so far, first to last (the latest ${LIST_BOUNDS.attempts} when there are more).`,
      // A negative take keeps the last ones, still in ascending order.
      query: { orderBy: { number: 'asc' }, take: -LIST_BOUNDS.attempts },
      complexity: listOf(LIST_BOUNDS.attempts),
    }),
  }),
});

builder.queryField('delivery', (t) =>
  t.prismaField({
    authScopes: { organization: true },
    type: 'Delivery',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.delivery.findFirst({ ...query, where });
    },
  }),
);

builder.mutationField('retryDelivery', (t) =>
  t.prismaField({
    authScopes: { organization: true },
    type: 'Delivery',
    description: 'Queues one more attempt of a FAILED or CANCELLED delivery (same delivery id) to an active endpoint.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      await retryDelivery(context, viewerOf(context).id, String(id));
      return context.prisma.delivery.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
);
