// WebhookEndpoint.pendingRetries and overdueDeliveries: what is failing or stuck at an endpoint
// right now, beside consecutiveFailures (which counts only deliveries that gave up). Each is
// batched for every endpoint of a request in one query, counted in the endpoint's organization.
import { builder } from '../builder.ts';
import { requestLoader } from '../loaders.ts';
import { OVERDUE_AFTER_MS, overdueDeliveries, pendingRetries, type OwnedEndpoint } from '../../domain/webhooks/deliveries.ts';

builder.prismaObjectFields('WebhookEndpoint', (t) => ({
  pendingRetries: t.int({
    description: 'Its deliveries still PENDING after at least one failed attempt: each is waiting for its next retry.',
    select: { organizationId: true },
    resolve: ({ id, organizationId }, _args, context) =>
      requestLoader(context, 'pendingRetries', null, (endpoints: readonly OwnedEndpoint[]) =>
        pendingRetries(context.prisma, endpoints),
      ).load({ id, organizationId }),
  }),
  overdueDeliveries: t.int({
    description:
      `Its PENDING deliveries whose next attempt was due more than ${OVERDUE_AFTER_MS / 1000} s ago and is not made: waiting behind other work or for a worker, ` +
      'or having lost their queued attempt (a worker finds those and queues them again; resendDelivery, retryDelivery and recoverDeliveries queue them at once).',
    select: { organizationId: true },
    resolve: ({ id, organizationId }, _args, context) =>
      requestLoader(context, 'overdueDeliveries', null, (endpoints: readonly OwnedEndpoint[]) =>
        overdueDeliveries(context.prisma, endpoints),
      ).load({ id, organizationId }),
  }),
}));
