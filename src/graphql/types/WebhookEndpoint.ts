import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import type { Context } from '../context.ts';
import { badUserInput, notFound, viewerOrganizationId } from '../errors.ts';
import type { Delivery, Prisma, WebhookEndpoint } from '../../generated/prisma/client.ts';
import { WebhookEndpointStatus as WebhookEndpointStatusValues } from '../../generated/prisma/enums.ts';
import {
  createEndpoint,
  deleteEndpoint,
  EndpointInputError,
  EndpointNotActiveError,
  rotateSigningSecret,
  sendTestEvent,
  setEndpointActive,
  updateEndpoint,
} from '../../domain/endpoints.ts';
import { isUuid } from '../../domain/ids.ts';
import { DeliveryStatus } from './Delivery.ts';

export const WebhookEndpointStatus = builder.enumType(WebhookEndpointStatusValues, {
  name: 'WebhookEndpointStatus',
  description: 'ACTIVE receives deliveries; INACTIVE is paused by a user; DISABLED was turned off after too many failed deliveries.',
});

// Dashboard fields of a page of endpoints cost a fixed number of SQL queries, whatever the page
// size: each loader below answers every endpoint of the request in one round trip.

/** The newest delivery of each endpoint: one index probe per endpoint ((endpoint_id, created_at)). */
const LATEST_DELIVERY_IDS_SQL = `
  SELECT endpoint.id AS "endpointId", latest.id AS "deliveryId"
    FROM unnest($1::uuid[]) AS endpoint(id)
    CROSS JOIN LATERAL (
      SELECT d.id FROM deliveries d
       WHERE d.endpoint_id = endpoint.id
       ORDER BY d.created_at DESC, d.id DESC
       LIMIT 1
    ) AS latest`;

type DeliveryQuery = { include?: Prisma.DeliveryInclude; select?: Prisma.DeliverySelect };

/**
 * One loader per request and per selection (aliases may select different fields of the delivery):
 * the newest delivery ids of every endpoint asked for, then those deliveries with what the query
 * selects beneath them (attempts, event...), as Prisma loads relations: one query per relation.
 * Loaders batch but do not cache: a subscription keeps its context for every event it sends,
 * and each event must see the deliveries as they are then.
 */
const latestDeliveryLoaders = createContextCache(() => new Map<string, DataLoader<string, Delivery | null>>());

function latestDeliveryLoader(context: Context, query: DeliveryQuery): DataLoader<string, Delivery | null> {
  const loaders = latestDeliveryLoaders(context);
  const key = JSON.stringify(query);
  let loader = loaders.get(key);
  if (!loader) {
    loader = new DataLoader(async (endpointIds: readonly string[]) => {
      const { rows } = await context.pool.query<{ endpointId: string; deliveryId: string }>(LATEST_DELIVERY_IDS_SQL, [endpointIds]);
      const found = rows.length === 0 ? [] : await context.prisma.delivery.findMany({
        ...query,
        ...(query.select ? { select: { ...query.select, id: true } } : {}),
        where: { id: { in: rows.map((row) => row.deliveryId) } },
      });
      const byId = new Map(found.map((delivery) => [delivery.id, delivery]));
      const byEndpoint = new Map(rows.map((row) => [row.endpointId, byId.get(row.deliveryId) ?? null]));
      return endpointIds.map((id) => byEndpoint.get(id) ?? null);
    }, { cache: false });
    loaders.set(key, loader);
  }
  return loader;
}

/** Deliveries made in the last 24 hours (database time), by outcome, of each endpoint. */
const ENDPOINT_STATS_SQL = `
  SELECT endpoint_id AS "endpointId",
         count(*)::int AS "deliveries",
         (count(*) FILTER (WHERE status = 'SUCCEEDED'))::int AS "succeeded",
         (count(*) FILTER (WHERE status = 'FAILED'))::int AS "failed"
    FROM deliveries
   WHERE endpoint_id = ANY($1::uuid[]) AND created_at > now() - interval '24 hours'
   GROUP BY endpoint_id`;

interface EndpointStatsShape {
  deliveries: number;
  succeeded: number;
  failed: number;
}

async function loadEndpointStats(context: Context, endpointIds: string[]): Promise<EndpointStatsShape[]> {
  const { rows } = await context.pool.query<EndpointStatsShape & { endpointId: string }>(ENDPOINT_STATS_SQL, [endpointIds]);
  const byEndpoint = new Map(rows.map((row) => [row.endpointId, row]));
  return endpointIds.map((id) => byEndpoint.get(id) ?? { deliveries: 0, succeeded: 0, failed: 0 });
}

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
      resolve: (query, endpoint, _args, context) => latestDeliveryLoader(context, query).load(endpoint.id),
    }),
    stats: t.loadable({
      type: EndpointStats,
      description: 'Its deliveries of the last 24 hours, batched for every endpoint of the request.',
      load: (endpointIds: string[], context: Context) => loadEndpointStats(context, endpointIds),
      loaderOptions: { cache: false }, // as latestDelivery's, for subscriptions
      resolve: (endpoint) => endpoint.id,
    }),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.prismaConnection(
    {
      type: 'WebhookEndpoint',
      cursor: 'id',
      description: "The organization's webhook endpoints, newest first.",
      resolve: (query, _root, _args, context) =>
        context.prisma.webhookEndpoint.findMany({
          ...query,
          where: { organizationId: viewerOrganizationId(context), deletedAt: null },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    { name: 'WebhookEndpointConnection' },
    { name: 'WebhookEndpointEdge' },
  ),
  webhookEndpoint: t.prismaField({
    type: 'WebhookEndpoint',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const organizationId = viewerOrganizationId(context);
      if (!isUuid(String(id))) return null;
      return context.prisma.webhookEndpoint.findFirst({ ...query, where: { id: String(id), organizationId, deletedAt: null } });
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

/** Runs a domain call, turning its input errors into BAD_USER_INPUT and `null` into NOT_FOUND. */
async function endpointOrNotFound<T>(id: string, call: () => Promise<T | null>): Promise<T> {
  let result: T | null;
  try {
    result = await call();
  } catch (error) {
    if (error instanceof EndpointInputError) throw badUserInput(error.message, error.details);
    if (error instanceof EndpointNotActiveError) throw badUserInput(error.message, [{ field: 'endpointId', message: error.message }]);
    throw error;
  }
  if (result === null) throw notFound('Webhook endpoint', id);
  return result;
}

/** GraphQL passes an explicit null for an omitted optional argument as null: both mean "unchanged". */
const unlessNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: CreateWebhookEndpointPayload,
    description: 'url: https only, not a private or loopback destination; eventTypes absent or empty: every event.',
    args: {
      url: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      eventTypes: t.arg.stringList({ required: false }),
    },
    resolve: async (_root, { url, name, eventTypes }, context) => {
      const organizationId = viewerOrganizationId(context);
      try {
        return await createEndpoint(context.prisma, organizationId, { url, name, eventTypes: unlessNull(eventTypes) }, context.policy.destination);
      } catch (error) {
        if (error instanceof EndpointInputError) throw badUserInput(error.message, error.details);
        throw error;
      }
    },
  }),
  updateWebhookEndpoint: t.field({
    type: WebhookEndpointRef,
    description: 'Changes the given fields; the others stay as they are.',
    args: {
      id: t.arg.id({ required: true }),
      url: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
    },
    resolve: (_root, { id, url, name, eventTypes }, context) => {
      const organizationId = viewerOrganizationId(context);
      const input = { url: unlessNull(url), name: unlessNull(name), eventTypes: unlessNull(eventTypes) };
      return endpointOrNotFound(String(id), () => updateEndpoint(context.prisma, organizationId, String(id), input, context.policy.destination));
    },
  }),
  setWebhookEndpointActive: t.field({
    type: WebhookEndpointRef,
    description: 'false pauses deliveries (INACTIVE); true brings an INACTIVE or DISABLED endpoint back and resets its failure count.',
    args: { id: t.arg.id({ required: true }), active: t.arg.boolean({ required: true }) },
    resolve: (_root, { id, active }, context) => {
      const organizationId = viewerOrganizationId(context);
      return endpointOrNotFound(String(id), () => setEndpointActive(context.prisma, organizationId, String(id), active));
    },
  }),
  deleteWebhookEndpoint: t.id({
    description: 'Deletes the endpoint for good and cancels its pending deliveries; returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, context) => {
      const organizationId = viewerOrganizationId(context);
      await endpointOrNotFound(String(id), async () => ((await deleteEndpoint(context.prisma, organizationId, String(id))) ? true : null));
      return String(id);
    },
  }),
  rotateWebhookSecret: t.field({
    type: RotateWebhookSecretPayload,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) => {
      const organizationId = viewerOrganizationId(context);
      return endpointOrNotFound(String(id), () => rotateSigningSecret(context.prisma, organizationId, String(id)));
    },
  }),
  sendTestEvent: t.prismaField({
    type: 'Delivery',
    description: 'Queues a test.ping to an ACTIVE endpoint, whatever its event types.',
    args: { endpointId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { endpointId }, context) => {
      const organizationId = viewerOrganizationId(context);
      const id = String(endpointId);
      const deliveryId = await endpointOrNotFound(id, () => sendTestEvent(context.prisma, context.pool, context.boss, organizationId, id));
      return context.prisma.delivery.findUniqueOrThrow({ ...query, where: { id: deliveryId } });
    },
  }),
}));
