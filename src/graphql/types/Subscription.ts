// Live delivery changes: `subscription { deliveryUpdated(endpointId) }` over graphql-ws.
//
// The changes come from the process's LISTEN connection (src/delivery/notifications.ts: a
// trigger on `deliveries` notifies every insert and every change of status or attempt count,
// in commit order), so a subscriber of any api process sees what any worker commits. Each
// change is yielded as the Delivery was at that change: the row is loaded with the
// subscriber's own selection (so `attempts`, `event` and `endpoint` work as in queries), then
// `status` and `attemptCount` are the notified values and `attempts` holds only the attempts
// made up to it. A quick PENDING → SUCCEEDED pair therefore arrives as PENDING (0 attempts)
// then SUCCEEDED (1), even when the row is loaded after both committed. The other columns
// (`lastAttemptAt`, `nextAttemptAt`, `updatedAt`) are read at load time and may be later.
import { filter, pipe } from '@graphql-yoga/subscription';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { backlogged } from '../backlog.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { notFound, viewerOrganizationId } from '../errors.ts';
import type { DeliveryChange } from '../../delivery/notifications.ts';
import type { Delivery } from '../../generated/prisma/client.ts';
import { isUuid } from '../../domain/ids.ts';

builder.subscriptionType({});

type DeliveryQuery = { include?: Record<string, unknown>; select?: Record<string, unknown> };

/** The subscriber's query with its `attempts` (if selected) limited to those made by `attemptCount`. */
function attemptsUpTo(query: DeliveryQuery, attemptCount: number): DeliveryQuery {
  const key = query.select ? 'select' : 'include';
  const selection = query[key];
  const attempts = selection?.attempts as true | { where?: object } | undefined;
  if (!selection || !attempts) return query;
  const nested = attempts === true ? {} : attempts;
  const where = nested.where ? { AND: [nested.where, { number: { lte: attemptCount } }] } : { number: { lte: attemptCount } };
  return { ...query, [key]: { ...selection, attempts: { ...nested, where } } };
}

/**
 * The Delivery at each change, by query: every subscriber of an organization receives the same
 * change object, and subscribers with the same selection share one load and one resulting object
 * (with a thousand dashboards open, one query per change rather than a thousand). Dropped with
 * the change.
 */
const deliveriesByChange = new WeakMap<DeliveryChange, Map<string, Promise<Delivery | null>>>();

/**
 * A subscription's query, as a key, by its field node: the query follows from the selection and
 * the variables, both fixed for the life of a subscription (each one parses its own document),
 * so it is serialised once per subscription rather than once per change.
 */
const queryKeys = new WeakMap<FieldNode, string>();

async function deliveryAsOf(query: DeliveryQuery, change: DeliveryChange, context: Context, info: GraphQLResolveInfo): Promise<Delivery> {
  const fieldNode = info.fieldNodes[0]!;
  let key = queryKeys.get(fieldNode);
  if (key === undefined) queryKeys.set(fieldNode, (key = JSON.stringify(query)));
  let deliveries = deliveriesByChange.get(change);
  if (!deliveries) deliveriesByChange.set(change, (deliveries = new Map()));
  let delivery = deliveries.get(key);
  if (!delivery) {
    const scoped = attemptsUpTo(query, change.attemptCount);
    const where = { id: change.id, organizationId: change.organizationId };
    delivery = (context.prisma.delivery.findFirst({ ...scoped, where }) as Promise<Delivery | null>).then(
      (row) => row && { ...row, status: change.status, attemptCount: change.attemptCount },
    );
    deliveries.set(key, delivery);
  }
  const row = await delivery;
  // Deliveries are not deleted while their organization lives; a miss is a race with its deletion.
  if (!row) throw notFound('Delivery', change.id);
  return row;
}

builder.subscriptionField('deliveryUpdated', (t) =>
  t.prismaField({
    type: 'Delivery',
    description:
      'Every new delivery, status change and attempt of your organization (or of one endpoint), as the delivery was at that change, in commit order. ' +
      'Changes committed while you were not subscribed are not replayed: read the deliveries first, then apply these.',
    args: {
      endpointId: t.arg.id({
        required: false,
        description: "Only this endpoint's deliveries. An id that is not one of your endpoints fails with NOT_FOUND when you subscribe.",
      }),
    },
    // An unknown (or deleted, or another organization's) endpoint fails at subscribe time with
    // NOT_FOUND, as `webhookEndpoint(id)` returns null for it, rather than waiting silently for
    // changes that will never come. Changes are routed by organization before any filter, so
    // no subscriber ever sees another organization's deliveries either way.
    subscribe: async (_root, { endpointId }, context) => {
      const organizationId = viewerOrganizationId(context);
      if (endpointId != null) {
        const id = String(endpointId);
        const endpoint = isUuid(id)
          ? await context.prisma.webhookEndpoint.findFirst({ select: { id: true }, where: { id, organizationId, deletedAt: null } })
          : null;
        if (!endpoint) throw notFound('WebhookEndpoint', id);
      }
      const changes = context.deliveryChanges.subscribe(organizationId);
      return backlogged(endpointId == null ? changes : pipe(changes, filter((change) => change.endpointId === String(endpointId))));
    },
    resolve: (query, change, _args, context, info) => deliveryAsOf(query, change, context, info),
  }),
);
