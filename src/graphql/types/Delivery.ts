import { viewerOf, type Context } from '../context.ts';
import { connectionTotalCount } from '../total-count.ts';
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { ownedWhere } from '../ownership.ts';
import { DeliveryStatus as DeliveryStatusValues } from '../../generated/prisma/enums.ts';
import { RECOVER_BATCH_LIMIT, recoverDeliveries, resendDelivery, retryDelivery, type RecoveredDeliveries } from '../../domain/deliveries.ts';
import { deliverySearchWhere, RESPONSE_STATUS_CLASSES } from '../../domain/search.ts';

export const DeliveryStatus = builder.enumType(DeliveryStatusValues, {
  name: 'DeliveryStatus',
  description: 'PENDING until an attempt succeeds (SUCCEEDED) or the attempts run out (FAILED); CANCELLED when its endpoint stopped taking deliveries.',
});

const DeliveryRef = builder.prismaObject('Delivery', {
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

/** Every list of deliveries: endpoint, event and organization-wide, each with its totalCount. */
export const DeliveryConnection = builder.connectionObject(
  {
    type: DeliveryRef,
    name: 'DeliveryConnection',
    fields: (t) => ({
      totalCount: t.int({
        description: 'How many deliveries the list holds in all, across its pages.',
        resolve: connectionTotalCount,
      }),
    }),
  },
  { name: 'DeliveryEdge' },
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

const searchWhere = (context: Context, filter: typeof DeliveryFilter.$inferInput | null | undefined) =>
  deliverySearchWhere(viewerOf(context).id, { ...filter, endpointId: filter?.endpointId?.toString() });

builder.queryField('deliveries', (t) =>
  t.prismaConnection(
    {
      authScopes: { organization: true },
      type: 'Delivery',
      cursor: 'id',
      description: "The organization's deliveries to all its endpoints, newest first.",
      args: { filter: t.arg({ type: DeliveryFilter, required: false }) },
      totalCount: (_connection, { filter }, context) => context.prisma.delivery.count({ where: searchWhere(context, filter) }),
      resolve: (query, _root, { filter }, context) =>
        context.prisma.delivery.findMany({
          ...query,
          where: searchWhere(context, filter),
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    DeliveryConnection,
  ),
);

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

builder.mutationField('resendDelivery', (t) =>
  t.prismaField({
    authScopes: { organization: true },
    type: 'Delivery',
    description:
      'Sends a SUCCEEDED, FAILED or CANCELLED delivery again as a new attempt of the same delivery (same webhook-id) to an ACTIVE endpoint. A PENDING one is refused: its attempt is queued already.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      await resendDelivery(context, viewerOf(context).id, String(id));
      return context.prisma.delivery.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
);

const RecoverDeliveriesPayload = builder.objectRef<RecoveredDeliveries>('RecoverDeliveriesPayload').implement({
  description: 'What one recoverDeliveries call queued, and where the next call starts when more remain.',
  fields: (t) => ({
    queued: t.exposeInt('queued', { description: `Deliveries queued again by this call (at most ${RECOVER_BATCH_LIMIT}).` }),
    hasMore: t.exposeBoolean('hasMore', { description: 'More FAILED or CANCELLED deliveries remain in the window.' }),
    nextSince: t.expose('nextSince', {
      type: 'DateTime',
      nullable: true,
      description: 'Pass as `since` to the next call (the creation time of the first delivery left); null when none is left.',
    }),
  }),
});

builder.mutationField('recoverDeliveries', (t) =>
  t.field({
    authScopes: { organization: true },
    type: RecoverDeliveriesPayload,
    description: `Queues a new attempt of every FAILED or CANCELLED delivery of an ACTIVE endpoint created from \`since\` (inclusive) to \`until\` (exclusive; default now), oldest first, at most ${RECOVER_BATCH_LIMIT} per call.`,
    args: {
      endpointId: t.arg.id({ required: true }),
      since: t.arg({ type: 'DateTime', required: true }),
      until: t.arg({ type: 'DateTime', required: false }),
    },
    resolve: (_root, { endpointId, since, until }, context) =>
      recoverDeliveries(context, viewerOf(context).id, { endpointId: String(endpointId), since, until }),
  }),
);
