import type { AuthenticatedContext } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import { countConnectionsFromParent } from '../total-count.ts';
import { authenticatedConnection, builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { audited } from '../audit.ts';
import { isUuid } from '../../domain/shared/ids.ts';
import { ownedWhere } from '../ownership.ts';
import { DeliveryStatus as DeliveryStatusValues } from '../../generated/prisma/enums.ts';
import {
  deliveryCountsOfEvents,
  RECOVER_BATCH_LIMIT,
  recoverDeliveries,
  resendDelivery,
  resendMatching,
  type ResentDeliveries,
  retryDelivery,
  type RecoveredDeliveries,
} from '../../domain/webhooks/deliveries.ts';
import { countDeliveries, deliverySearch, RESPONSE_STATUS_CLASSES } from '../../domain/webhooks/search.ts';
import { webhookBody } from '../../domain/webhooks/events.ts';
import { deliveryKey } from '../../domain/webhooks/history-keys.ts';

export const DeliveryStatus = builder.enumType(DeliveryStatusValues, {
  name: 'DeliveryStatus',
  description:
    'PENDING until an attempt succeeds (SUCCEEDED) or the attempts run out (FAILED); CANCELLED when its endpoint stopped taking deliveries.',
});

const DeliveryRef = builder.prismaNode('Delivery', {
  // Its key is (id, createdAt) (deliveries are partitioned by month): its id alone is the plain UUID.
  id: { resolve: (delivery) => delivery.id },
  findUnique: async (id, context) => ({ id_createdAt: await deliveryKey(context.prisma, id) }),
  nullable: true,
  description: 'One event to one endpoint. Its id is the X-Service-Delivery (webhook-id) header of every attempt.',
  fields: (t) => ({
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
    requestBody: t.string({
      description: 'The body every attempt of it sends (the same bytes each time; only the timestamp and signature headers change).',
      select: { event: { select: { id: true, type: true, organizationId: true, createdAt: true, data: true, example: true } } },
      resolve: (delivery) => webhookBody(delivery.event),
    }),
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

/** Every list of deliveries: endpoint, event and organization-wide. */
export const DeliveryConnection = builder.connectionObject({ type: DeliveryRef, name: 'DeliveryConnection' }, { name: 'DeliveryEdge' });

// An event's deliveries (one per endpoint: few), counted exactly for every event of the request at once.
countConnectionsFromParent('DeliveryConnection', (event, context) =>
  requestLoader(context, 'eventDeliveryCount', null, (eventIds: readonly string[]) =>
    deliveryCountsOfEvents(context.prisma, eventIds),
  ).load((event as { id: string }).id),
);

const ResponseStatusClass = builder.enumType('ResponseStatusClass', {
  values: RESPONSE_STATUS_CLASSES,
  description:
    'The answer an attempt got: SUCCESS 2xx, REDIRECT 3xx (not followed, so a failure), CLIENT_ERROR 4xx, SERVER_ERROR 5xx, ' +
    'NO_RESPONSE (timeout, connection error, refused destination).',
});

const DeliveryFilter = builder.inputType('DeliveryFilter', {
  description: 'Every given field narrows the list; from (inclusive) and to (exclusive) bound when the delivery was made.',
  fields: (t) => ({
    endpointId: t.id({ required: false }),
    status: t.field({ type: DeliveryStatus, required: false }),
    eventType: t.string({ required: false, description: 'One of the eventTypes.' }),
    from: t.field({ type: 'DateTime', required: false }),
    to: t.field({ type: 'DateTime', required: false }),
    responseStatusClass: t.field({
      type: ResponseStatusClass,
      required: false,
      description: 'Deliveries with at least one attempt that got such an answer.',
    }),
  }),
});

const searchWhere = (context: AuthenticatedContext, filter: typeof DeliveryFilter.$inferInput | null | undefined) =>
  deliverySearch(context.prisma, context.organization.id, { ...filter, endpointId: filter?.endpointId });

builder.queryField('deliveries', (t) =>
  t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'Delivery',
      cursor: 'id_createdAt',
      description: "The organization's deliveries to all its endpoints, newest first.",
      args: { filter: t.arg({ type: DeliveryFilter, required: false }) },
      totalCount: async (_connection, { filter }, context) => countDeliveries(context.prisma, await searchWhere(context, filter)),
      resolve: async (query, _root, { filter }, context) =>
        context.prisma.delivery.findMany({
          ...query,
          where: await searchWhere(context, filter),
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    authenticatedConnection(DeliveryConnection),
  ),
);

builder.queryField('delivery', (t) =>
  t.withAuth({ organization: true }).prismaField({
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
  t.withAuth({ organization: true }).prismaField({
    type: 'Delivery',
    description:
      'Queues one more attempt of a FAILED or CANCELLED delivery (same delivery id) to an ACTIVE endpoint, or of a PENDING one that lost its queued attempt (its job failed or was deleted).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      await audited(
        context,
        'delivery.retry',
        (scoped) => retryDelivery(scoped, scoped.organization.id, id),
        () => ({ objectId: id, summary: `Queued another attempt of delivery ${id}` }),
      );
      return context.prisma.delivery.findFirstOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('resendDelivery', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Delivery',
    description:
      'Sends a SUCCEEDED, FAILED or CANCELLED delivery again as a new attempt of the same delivery (same webhook-id) to an ACTIVE endpoint. ' +
      'A PENDING one is refused while its attempt is queued, and queued again if it lost it (its job failed or was deleted).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      await audited(
        context,
        'delivery.resend',
        (scoped) => resendDelivery(scoped, scoped.organization.id, id),
        () => ({ objectId: id, summary: `Resent delivery ${id}` }),
      );
      return context.prisma.delivery.findFirstOrThrow({ ...query, where: { id } });
    },
  }),
);

const RecoverDeliveriesPayload = builder.objectRef<RecoveredDeliveries>('RecoverDeliveriesPayload').implement({
  description: 'What one recoverDeliveries call queued, and where the next call starts when more remain.',
  fields: (t) => ({
    queued: t.exposeInt('queued', { description: `Deliveries queued again by this call (at most ${RECOVER_BATCH_LIMIT}).` }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More deliveries of the window remain to look at.' }),
    nextSince: t.expose('nextSince', {
      type: 'DateTime',
      nullable: true,
      description: 'Pass as `since` to the next call (the creation time of the first delivery left); null when none is left.',
    }),
  }),
});

builder.mutationField('recoverDeliveries', (t) =>
  t.withAuth({ organization: true }).field({
    type: RecoverDeliveriesPayload,
    description:
      `Queues a new attempt of every FAILED or CANCELLED delivery of an ACTIVE endpoint created from \`since\` (inclusive) to \`until\` (exclusive; default now), ` +
      `and of every PENDING one there that lost its queued attempt, oldest first, looking at ${RECOVER_BATCH_LIMIT} deliveries per call.`,
    args: {
      endpointId: t.arg.id({ required: true }),
      since: t.arg({ type: 'DateTime', required: true }),
      until: t.arg({ type: 'DateTime', required: false }),
    },
    resolve: (_root, { endpointId, since, until }, context) =>
      audited(
        context,
        'webhookEndpoint.recoverDeliveries',
        (scoped) => recoverDeliveries(scoped, scoped.organization.id, { endpointId, since, until }),
        (recovered) => ({
          objectId: endpointId,
          summary: `Queued ${recovered.queued} deliveries of webhook endpoint ${endpointId} again, from ${since.toISOString()}`,
        }),
      ),
  }),
);

const ResendDeliveriesPayload = builder.objectRef<ResentDeliveries>('ResendDeliveriesPayload').implement({
  description: 'What one resendDeliveries call queued, and where the next call starts when more deliveries match.',
  fields: (t) => ({
    queued: t.exposeInt('queued', { description: `Deliveries queued again by this call (at most ${RECOVER_BATCH_LIMIT}).` }),
    skipped: t.exposeInt('skipped', {
      description:
        "Deliveries of this call's batch left as they were: their endpoint is not ACTIVE, or their next attempt is queued already.",
    }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More deliveries match: call again with filter.from = nextFrom.' }),
    nextFrom: t.expose('nextFrom', {
      type: 'DateTime',
      nullable: true,
      description: 'The creation time of the first matching delivery left; null when none is left.',
    }),
  }),
});

builder.mutationField('resendDeliveries', (t) =>
  t.withAuth({ organization: true }).field({
    type: ResendDeliveriesPayload,
    description:
      `Bulk resend: every delivery the filter selects (as \`deliveries(filter:)\` lists and counts them), oldest first, ${RECOVER_BATCH_LIMIT} per call, ` +
      'gets one more attempt as resendDelivery gives it (same delivery id). Deliveries of endpoints that are not ACTIVE, and PENDING ones whose attempt is queued, are skipped.',
    args: { filter: t.arg({ type: DeliveryFilter, required: true }) },
    resolve: (_root, { filter }, context) =>
      audited(
        context,
        'delivery.resendMatching',
        async (scoped) => resendMatching(scoped, await searchWhere(scoped, filter)),
        (resent) => ({
          objectId: filter.endpointId != null && isUuid(filter.endpointId) ? filter.endpointId : null,
          summary: `Resent ${resent.queued} deliveries matching a filter (${resent.skipped} skipped)`,
        }),
      ),
  }),
);
