import { authenticatedConnection, builder, LIST_BOUNDS, listOf } from '../builder.ts';
import type { AuthenticatedContext, Context } from '../context.ts';
import { requestLoader } from '../loaders.ts';
import { ownedWhere } from '../ownership.ts';
import type { WebhookEndpoint } from '../../generated/prisma/client.ts';
import { quoted } from '../../domain/shared/audit.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { endpointChanged, endpointCreated, endpointDeleted } from '../../domain/webhooks/endpoint-audit.ts';
import { audited } from '../audit.ts';
import { WebhookEndpointStatus as WebhookEndpointStatusValues } from '../../generated/prisma/enums.ts';
import { endpointChart, MAX_BUCKETS, type ChartBucket } from '../../domain/webhooks/endpoint-charts.ts';
import {
  endpointStats,
  latestDeliveries,
  type DeliveryQuery,
  type EndpointStats as EndpointStatsShape,
} from '../../domain/webhooks/deliveries.ts';
import {
  type EndpointHeader,
  createEndpoint,
  DEFAULT_SECRET_GRACE_SECONDS,
  deleteEndpoint,
  MAX_SECRET_GRACE_SECONDS,
  revealSigningSecret,
  rotateSigningSecret,
  sendTestEvent,
  setEndpointActive,
  updateEndpoint,
} from '../../domain/webhooks/endpoints.ts';
import { countDeliveries } from '../../domain/webhooks/search.ts';
import { DeliveryConnection, DeliveryStatus } from './Delivery.ts';

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

const WebhookHeader = builder.objectRef<EndpointHeader>('WebhookHeader').implement({
  description: 'A custom header sent with every attempt to an endpoint.',
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

const WebhookHeaderInput = builder.inputType('WebhookHeaderInput', {
  description:
    'A custom header: a valid name that is not webhook-*, x-service-*, host, content-type, content-length, user-agent, expect or hop-by-hop; a value of visible ASCII.',
  fields: (t) => ({ name: t.string({ required: true }), value: t.string({ required: true }) }),
});

const ChartInterval = builder.enumType('ChartInterval', {
  description: 'The width of a chart bucket: an hour or a day (UTC).',
  values: ['HOUR', 'DAY'] as const,
});

/** Two grouped reads over the window (deliveries, and attempts with their latency percentiles). */
const CHART_COST = 200;

const ChartBucketRef = builder.objectRef<ChartBucket>('EndpointChartBucket').implement({
  description: "One hour or day of an endpoint's deliveries.",
  fields: (t) => ({
    start: t.expose('start', { type: 'DateTime', description: 'Start of the hour or day (UTC).' }),
    deliveries: t.exposeInt('deliveries', { description: 'Deliveries made in it, whatever their status.' }),
    succeeded: t.exposeInt('succeeded', { description: 'Of those, the SUCCEEDED ones.' }),
    failed: t.exposeInt('failed', { description: 'Of those, the FAILED ones (attempts exhausted).' }),
    successRate: t.exposeFloat('successRate', {
      nullable: true,
      description: 'succeeded / (succeeded + failed); null while none of them has finished.',
    }),
    attempts: t.exposeInt('attempts', { description: 'Attempts that started in it.' }),
    latencyP50Ms: t.exposeFloat('latencyP50Ms', {
      nullable: true,
      description: 'Median duration of those attempts, in ms; null without attempts.',
    }),
    latencyP95Ms: t.exposeFloat('latencyP95Ms', {
      nullable: true,
      description: '95th percentile of their durations, in ms (interpolated); null without attempts.',
    }),
  }),
});

export const WebhookEndpointRef = builder.prismaNode('WebhookEndpoint', {
  id: { field: 'id' },
  nullable: true,

  description:
    'A customer URL that receives signed webhooks. Its signing secret is shown when made or rotated, and on request (revealWebhookSecret, recorded in secretReveals).',
  // Select mode: only the columns the requested fields need are read, so the secrets never are.
  select: { id: true },
  fields: (t) => ({
    url: t.exposeString('url'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: WebhookEndpointStatus }),
    eventTypes: t.exposeStringList('eventTypes', {
      description: 'The event types delivered to it; empty means all.',
      complexity: listOf(LIST_BOUNDS.eventTypes),
    }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', {
      description: 'Deliveries that ended FAILED in a row; at the limit the endpoint becomes DISABLED.',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why it was disabled: too many failed deliveries in a row, or its receiver answered 410 Gone.',
    }),
    headers: t.field({
      type: [WebhookHeader],
      description: 'Custom headers sent with every attempt, in order.',
      select: { customHeaders: true },
      complexity: listOf(LIST_BOUNDS.endpointHeaders),
      resolve: (endpoint) => endpoint.customHeaders as unknown as EndpointHeader[],
    }),
    timeoutMs: t.exposeInt('timeoutMs', {
      nullable: true,
      description: "Its attempt timeout in milliseconds; null: the server's (webhookDestinationPolicy.maxTimeoutMs).",
    }),
    rateLimitPerSecond: t.exposeInt('rateLimitPerSecond', {
      nullable: true,
      description: 'At most this many attempts start per second (others wait their turn; none is dropped); null: no limit.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    // A connection of its own rather than the related one: the plugin loads a related list of
    // one parent without a LIMIT (every delivery the endpoint ever had) and counts it whole.
    deliveries: t.prismaConnection(
      {
        type: 'Delivery',
        description: 'Its deliveries, newest first.',
        cursor: 'id_createdAt',
        args: { status: t.arg({ type: DeliveryStatus, required: false }) },
        totalCount: (endpoint, { status }, context) =>
          countDeliveries(context.prisma, { endpointId: endpoint.id, ...(status ? { status } : {}) }),
        resolve: (query, endpoint, { status }, context) =>
          context.prisma.delivery.findMany({
            ...query,
            where: { endpointId: endpoint.id, ...(status ? { status } : {}) },
            orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          }),
      },
      DeliveryConnection,
    ),
    chart: t.field({
      type: [ChartBucketRef],
      description:
        `Its deliveries over time, for charts: a bucket per hour or per day (UTC) of [from, to), empty ones included, oldest first ` +
        `(at most ${MAX_BUCKETS.HOUR} hours or ${MAX_BUCKETS.DAY} days). Deliveries count in the bucket they were made in, attempts in the one they started in.`,
      complexity: { field: CHART_COST, multiplier: LIST_BOUNDS.chartBuckets },
      args: {
        interval: t.arg({ type: ChartInterval, required: true }),
        from: t.arg({ type: 'DateTime', required: true }),
        to: t.arg({ type: 'DateTime', required: true }),
      },
      resolve: (endpoint, { interval, from, to }, context) => endpointChart(context.prisma, endpoint.id, { interval, from, to }),
    }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Until when attempts also carry a signature made with the secret before the last rotation; null when they do not.',
      select: { previousSecretExpiresAt: true },
      resolve: ({ previousSecretExpiresAt }) =>
        previousSecretExpiresAt && previousSecretExpiresAt > new Date() ? previousSecretExpiresAt : null,
    }),
    secretReveals: t.relation('secretReveals', {
      description: `Who revealed its signing secret and when, newest first (the latest ${LIST_BOUNDS.secretReveals}).`,
      query: { orderBy: [{ revealedAt: 'desc' }, { id: 'desc' }], take: LIST_BOUNDS.secretReveals },
      complexity: listOf(LIST_BOUNDS.secretReveals),
    }),
    latestDelivery: t.prismaField({
      type: 'Delivery',
      nullable: true,
      description: 'Its newest delivery, whatever its status; null when it has none.',
      resolve: (query, endpoint, _args, context) =>
        requestLoader(context, 'latestDelivery', query, (endpointIds: readonly string[]) =>
          latestDeliveries(context.prisma, endpointIds, query as DeliveryQuery),
        ).load(endpoint.id),
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

/** The organization's endpoints that are not deleted. */
const liveEndpointsOf = (context: AuthenticatedContext) => ({ organizationId: context.organization.id, deletedAt: null });

builder.queryFields((t) => ({
  webhookEndpoints: t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'WebhookEndpoint',
      cursor: 'id',
      description: "The organization's webhook endpoints, newest first.",
      totalCount: (_root, _args, context) => countRows(context.prisma.webhookEndpoint, liveEndpointsOf(context), 'createdAt'),
      resolve: (query, _root, _args, context) =>
        context.prisma.webhookEndpoint.findMany({
          ...query,
          where: liveEndpointsOf(context),
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    authenticatedConnection(
      builder.connectionObject({ type: WebhookEndpointRef, name: 'WebhookEndpointConnection' }, { name: 'WebhookEndpointEdge' }),
    ),
  ),
  webhookEndpoint: t.withAuth({ organization: true }).prismaField({
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
        description: 'The plaintext signing secret (whsec_ + base64). Shown again only by revealWebhookSecret, which is recorded.',
      }),
    }),
  });

const CreateWebhookEndpointPayload = EndpointWithSecret('CreateWebhookEndpointPayload', 'A new endpoint and its signing secret.');
const RotateWebhookSecretPayload = EndpointWithSecret(
  'RotateWebhookSecretPayload',
  'The endpoint and its new signing secret; during the grace period attempts also carry a signature made with the previous one.',
);
const RevealWebhookSecretPayload = EndpointWithSecret('RevealWebhookSecretPayload', 'The endpoint and its current signing secret.');

/** The optional settings of an endpoint, as arguments of its create and update mutations. */
const settingArgs = builder.args((t) => ({
  headers: t.field({
    type: [WebhookHeaderInput],
    required: false,
    description: `At most ${LIST_BOUNDS.endpointHeaders}; replaces the existing ones.`,
  }),
  timeoutMs: t.int({ required: false, description: 'Attempt timeout in milliseconds, at most webhookDestinationPolicy.maxTimeoutMs.' }),
  rateLimitPerSecond: t.int({ required: false, description: 'Deliveries started per second at most (1 to 1000).' }),
}));

/** GraphQL passes an explicit null for an omitted optional argument as null: both mean "unchanged". */
const unlessNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.withAuth({ organization: true }).field({
    type: CreateWebhookEndpointPayload,
    description:
      'url: https only, not a private or loopback destination; eventTypes absent or empty: every event; headers, timeoutMs and rateLimitPerSecond optional. ' +
      'An organization has at most WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION live endpoints: one more is refused with LIMIT_REACHED (extensions.limit), ' +
      'and a request whose aliases would pass the limit is refused whole, before any endpoint is made.',
    args: {
      url: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      eventTypes: t.arg.stringList({ required: false }),
      ...settingArgs,
    },
    resolve: (_root, { url, name, eventTypes, headers, timeoutMs, rateLimitPerSecond }, context) =>
      audited(
        context,
        'webhookEndpoint.create',
        (scoped) =>
          createEndpoint(
            scoped.prisma,
            scoped.organization.id,
            { url, name, eventTypes: unlessNull(eventTypes), headers, timeoutMs, rateLimitPerSecond },
            scoped.destination,
            scoped.maxEndpointsPerOrganization,
          ),
        ({ endpoint }) => endpointCreated(endpoint),
      ),
  }),
  updateWebhookEndpoint: t.withAuth({ organization: true }).field({
    type: WebhookEndpointRef,
    description:
      "Changes the given fields; the others stay as they are. An explicit null clears a setting: headers (none), timeoutMs (the server's), rateLimitPerSecond (no limit).",
    args: {
      id: t.arg.id({ required: true }),
      url: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
      ...settingArgs,
    },
    resolve: (_root, { id, url, name, eventTypes, headers, timeoutMs, rateLimitPerSecond }, context) => {
      const input = {
        url: unlessNull(url),
        name: unlessNull(name),
        eventTypes: unlessNull(eventTypes),
        headers,
        timeoutMs,
        rateLimitPerSecond,
      };
      return audited(
        context,
        'webhookEndpoint.update',
        (scoped) => updateEndpoint(scoped.prisma, scoped.organization.id, id, input, scoped.destination),
        (endpoint) => endpointChanged(endpoint, input),
      );
    },
  }),
  setWebhookEndpointActive: t.withAuth({ organization: true }).field({
    type: WebhookEndpointRef,
    description: 'false pauses deliveries (INACTIVE); true brings an INACTIVE or DISABLED endpoint back and resets its failure count.',
    args: { id: t.arg.id({ required: true }), active: t.arg.boolean({ required: true }) },
    resolve: (_root, { id, active }, context) =>
      audited(
        context,
        active ? 'webhookEndpoint.activate' : 'webhookEndpoint.deactivate',
        (scoped) => setEndpointActive(scoped.prisma, scoped.organization.id, id, active),
        (endpoint) => ({ objectId: endpoint.id, summary: `${active ? 'Activated' : 'Paused'} webhook endpoint ${quoted(endpoint.name)}` }),
      ),
  }),
  deleteWebhookEndpoint: t.withAuth({ organization: true }).id({
    description: 'Deletes the endpoint for good and cancels its pending deliveries; returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await audited(
        context,
        'webhookEndpoint.delete',
        (scoped) => deleteEndpoint(scoped.prisma, scoped.organization.id, id),
        endpointDeleted,
      );
      return id;
    },
  }),
  rotateWebhookSecret: t.withAuth({ organization: true }).field({
    type: RotateWebhookSecretPayload,
    description:
      `A new signing secret. For gracePeriodSeconds (0 to ${MAX_SECRET_GRACE_SECONDS}, default ${DEFAULT_SECRET_GRACE_SECONDS}) ` +
      'attempts carry signatures made with both the new and the previous secret; with 0 the previous one stops at once.',
    args: {
      id: t.arg.id({ required: true }),
      gracePeriodSeconds: t.arg.int({
        required: false,
        description: `0 to ${MAX_SECRET_GRACE_SECONDS}; default ${DEFAULT_SECRET_GRACE_SECONDS} (24 hours).`,
      }),
    },
    resolve: (_root, { id, gracePeriodSeconds }, context) =>
      audited(
        context,
        'webhookEndpoint.rotateSecret',
        (scoped) => rotateSigningSecret(scoped.prisma, scoped.organization.id, id, gracePeriodSeconds ?? DEFAULT_SECRET_GRACE_SECONDS),
        ({ endpoint }) => ({
          objectId: endpoint.id,
          summary: `Rotated the signing secret of webhook endpoint ${quoted(endpoint.name)} (grace period ${gracePeriodSeconds ?? DEFAULT_SECRET_GRACE_SECONDS} s)`,
        }),
      ),
  }),
  revealWebhookSecret: t.withAuth({ organization: true }).field({
    type: RevealWebhookSecretPayload,
    description: "The endpoint's current signing secret. Every reveal is recorded with the API token or person that asked (secretReveals).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      audited(
        context,
        'webhookEndpoint.revealSecret',
        (scoped) => revealSigningSecret(scoped.prisma, scoped.organization, id),
        ({ endpoint }) => ({ objectId: endpoint.id, summary: `Revealed the signing secret of webhook endpoint ${quoted(endpoint.name)}` }),
      ),
  }),
  sendTestEvent: t.withAuth({ organization: true }).prismaField({
    type: 'Delivery',
    description: 'Queues a test.ping to an ACTIVE endpoint, whatever its event types.',
    args: { endpointId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { endpointId }, context) => {
      const deliveryId = await audited(
        context,
        'webhookEndpoint.sendTest',
        (scoped) => sendTestEvent(scoped, scoped.organization.id, endpointId),
        () => ({ objectId: endpointId, summary: `Sent a test.ping to webhook endpoint ${endpointId}` }),
      );
      return context.prisma.delivery.findFirstOrThrow({ ...query, where: { id: deliveryId } });
    },
  }),
}));
