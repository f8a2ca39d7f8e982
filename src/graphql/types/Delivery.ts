import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { badUserInput, notFound, viewerOrganizationId } from '../errors.ts';
import { DeliveryStatus as DeliveryStatusValues } from '../../generated/prisma/enums.ts';
import { DeliveryNotRetryableError, retryDelivery } from '../../domain/deliveries.ts';
import { isUuid } from '../../domain/ids.ts';

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
    type: 'Delivery',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const organizationId = viewerOrganizationId(context);
      if (!isUuid(String(id))) return null;
      return context.prisma.delivery.findFirst({ ...query, where: { id: String(id), organizationId } });
    },
  }),
);

builder.mutationField('retryDelivery', (t) =>
  t.prismaField({
    type: 'Delivery',
    description: 'Queues one more attempt of a FAILED or CANCELLED delivery (same delivery id) to an active endpoint.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      const organizationId = viewerOrganizationId(context);
      const deliveryId = String(id);
      try {
        if (!(await retryDelivery(context.pool, context.boss, organizationId, deliveryId))) throw notFound('Delivery', deliveryId);
      } catch (error) {
        if (error instanceof DeliveryNotRetryableError) throw badUserInput(error.message, [{ field: 'id', message: error.message }]);
        throw error;
      }
      return context.prisma.delivery.findUniqueOrThrow({ ...query, where: { id: deliveryId } });
    },
  }),
);
