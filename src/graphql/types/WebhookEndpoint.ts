import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { viewerOf, type Context } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import { ownedWhere } from '../ownership.ts';
import type { WebhookEndpoint } from '../../generated/prisma/client.ts';
import { WebhookEndpointStatus as WebhookEndpointStatusValues } from '../../generated/prisma/enums.ts';
import { endpointStats, latestDeliveries, type DeliveryQuery, type EndpointStats as EndpointStatsShape } from '../../domain/deliveries.ts';
import {
  createEndpoint,
  deleteEndpoint,
  rotateSigningSecret,
  sendTestEvent,
  setEndpointActive,
  updateEndpoint,
} from '../../domain/endpoints.ts';
import { DeliveryStatus } from './Delivery.ts';

export const WebhookEndpointStatus = builder.enumType(WebhookEndpointStatusValues, {
  name: 'WebhookEndpointStatus',
  description: 'ACTIVE receives deliveries; INACTIVE is paused by a user; DISABLED was turned off after too many failed deliveries.',
});

// Dashboard fields of a page of endpoints cost a fixed number of SQL queries, whatever the page
// size: their loaders answer every endpoint of the request at once.

const EndpointStats = builder.objectRef<EndpointStatsShape>('EndpointStats').implement({
  description: 'How an endpoint is doing: its deliveries created in the last 24 hours, by outcome so far.',
  fields: (t) => ({
    deliveriesLast24h: t.exposeInt('deliveries', { description: 'Deliveries created in the last 24 hours, whatever their status.' }),
    succeededLast24h: t.exposeInt('succeeded', { description: 'Of those, the SUCCEEDED ones.' }),
    failedLast24h: t.exposeInt('failed', { description: 'Of those, the FAILED ones (attempts exhausted).' }),
    successRateLast24h: t.float({
      nullable: true,
      description: 'succeeded / (succeeded + failed), from 0 to 1; null while none of them has finished.',
      resolve: ({ succeeded, failed }) => (succeeded + failed === 0 ? null : succeeded / (succeeded + failed)),
    }),
  }),
});

export const WebhookEndpointRef = builder.prismaObject('WebhookEndpoint', {
  description: 'A customer URL that receives signed webhooks. Its signing secret is shown only when made or rotated.',
  // Select mode: only the columns the requested fields need are read, so the secrets never are.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: WebhookEndpointStatus }),
    eventTypes: t.exposeStringList('eventTypes', { description: 'The event types delivered to it; empty means all.', complexity: listOf(LIST_BOUNDS.eventTypes) }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', {
      description: 'Deliveries that ended FAILED in a row; at the limit the endpoint becomes DISABLED.',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    disabledReason: t.exposeString('disabledReason', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deliveries: t.relatedConnection(
      'deliveries',
      {
        description: 'Its deliveries, newest first.',
        cursor: 'id',
        args: { status: t.arg({ type: DeliveryStatus, required: false }) },
        query: ({ status }) => ({
          where: status ? { status } : {},
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
      },
      { name: 'DeliveryConnection' },
      { name: 'DeliveryEdge' },
    ),
    latestDelivery: t.prismaField({
      type: 'Delivery',
      nullable: true,
      description: 'Its newest delivery, whatever its status; null when it has none.',
      resolve: (query, endpoint, _args, context) =>
        requestLoader(context, 'latestDelivery', query, (endpointIds: readonly string[]) => latestDeliveries(context.prisma, endpointIds, query as DeliveryQuery)).load(endpoint.id),
    }),
    stats: t.loadable({
      type: EndpointStats,
      description: 'Its deliveries of the last 24 hours, batched for every endpoint of the request.',
      load: (endpointIds: string[], context: Context) => endpointStats(context.prisma, endpointIds),
      loaderOptions: { cache: false }, // as latestDelivery's, for subscriptions
      resolve: (endpoint) => endpoint.id,
    }),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.prismaConnection(
    {
      authScopes: { organization: true },
      type: 'WebhookEndpoint',
      cursor: 'id',
      description: "The organization's webhook endpoints, newest first.",
      resolve: (query, _root, _args, context) =>
        context.prisma.webhookEndpoint.findMany({
          ...query,
          where: { organizationId: viewerOf(context).id, deletedAt: null },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    { name: 'WebhookEndpointConnection' },
    { name: 'WebhookEndpointEdge' },
  ),
  webhookEndpoint: t.prismaField({
    authScopes: { organization: true },
    type: 'WebhookEndpoint',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.webhookEndpoint.findFirst({ ...query, where: { ...where, deletedAt: null } });
    },
  }),
}));

const EndpointWithSecret = (name: string, description: string) =>
  builder.objectRef<{ endpoint: WebhookEndpoint; signingSecret: string }>(name).implement({
    description,
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpointRef, resolve: (payload) => payload.endpoint }),
      signingSecret: t.exposeString('signingSecret', {
        description: 'The plaintext signing secret (whsec_ + base64). It is shown only here, never again.',
      }),
    }),
  });

const CreateWebhookEndpointPayload = EndpointWithSecret('CreateWebhookEndpointPayload', 'A new endpoint and its signing secret.');
const RotateWebhookSecretPayload = EndpointWithSecret(
  'RotateWebhookSecretPayload',
  'The endpoint and its new signing secret; for 24 hours attempts also carry a signature made with the previous one.',
);

/** GraphQL passes an explicit null for an omitted optional argument as null: both mean "unchanged". */
const unlessNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    authScopes: { organization: true },
    type: CreateWebhookEndpointPayload,
    description: 'url: https only, not a private or loopback destination; eventTypes absent or empty: every event.',
    args: {
      url: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      eventTypes: t.arg.stringList({ required: false }),
    },
    resolve: (_root, { url, name, eventTypes }, context) =>
      createEndpoint(context.prisma, viewerOf(context).id, { url, name, eventTypes: unlessNull(eventTypes) }, context.destination),
  }),
  updateWebhookEndpoint: t.field({
    authScopes: { organization: true },
    type: WebhookEndpointRef,
    description: 'Changes the given fields; the others stay as they are.',
    args: {
      id: t.arg.id({ required: true }),
      url: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
    },
    resolve: (_root, { id, url, name, eventTypes }, context) => {
      const input = { url: unlessNull(url), name: unlessNull(name), eventTypes: unlessNull(eventTypes) };
      return updateEndpoint(context.prisma, viewerOf(context).id, String(id), input, context.destination);
    },
  }),
  setWebhookEndpointActive: t.field({
    authScopes: { organization: true },
    type: WebhookEndpointRef,
    description: 'false pauses deliveries (INACTIVE); true brings an INACTIVE or DISABLED endpoint back and resets its failure count.',
    args: { id: t.arg.id({ required: true }), active: t.arg.boolean({ required: true }) },
    resolve: (_root, { id, active }, context) => setEndpointActive(context.prisma, viewerOf(context).id, String(id), active),
  }),
  deleteWebhookEndpoint: t.id({
    authScopes: { organization: true },
    description: 'Deletes the endpoint for good and cancels its pending deliveries; returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await deleteEndpoint(context.prisma, viewerOf(context).id, String(id));
      return String(id);
    },
  }),
  rotateWebhookSecret: t.field({
    authScopes: { organization: true },
    type: RotateWebhookSecretPayload,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) => rotateSigningSecret(context.prisma, viewerOf(context).id, String(id)),
  }),
  sendTestEvent: t.prismaField({
    authScopes: { organization: true },
    type: 'Delivery',
    description: 'Queues a test.ping to an ACTIVE endpoint, whatever its event types.',
    args: { endpointId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { endpointId }, context) => {
      const deliveryId = await sendTestEvent(context, viewerOf(context).id, String(endpointId));
      return context.prisma.delivery.findUniqueOrThrow({ ...query, where: { id: deliveryId } });
    },
  }),
}));
