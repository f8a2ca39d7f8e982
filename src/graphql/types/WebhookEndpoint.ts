import { builder } from '../builder.ts';
import { badUserInput, notFound, viewerOrganizationId } from '../errors.ts';
import type { WebhookEndpoint } from '../../generated/prisma/client.ts';
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

export const WebhookEndpointRef = builder.prismaObject('WebhookEndpoint', {
  description: 'A customer URL that receives signed webhooks. Its signing secret is shown only when made or rotated.',
  // Select mode: only the columns the requested fields need are read, so the secrets never are.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    name: t.exposeString('name'),
    status: t.expose('status', { type: WebhookEndpointStatus }),
    eventTypes: t.exposeStringList('eventTypes', { description: 'The event types delivered to it; empty means all.' }),
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
