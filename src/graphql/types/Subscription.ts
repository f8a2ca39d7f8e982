// Live delivery changes: `subscription { deliveryUpdated(endpointId) }` over graphql-ws.
//
// The changes come from the process's live delivery change feed (every insert and every
// change of status or attempt count of a delivery, in commit order, from any process), and
// each is yielded as the Delivery was at that change (see deliveryAsOf), loaded with the
// subscriber's own selection so that `attempts`, `event` and `endpoint` work as in queries.
import { filter, pipe } from '@graphql-yoga/subscription';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { backlogged } from '../backlog.ts';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { ownedWhere } from '../ownership.ts';
import type { Delivery } from '../../generated/prisma/client.ts';
import { deliveryAsOf, type DeliveryQuery } from '../../domain/webhooks/deliveries.ts';
import type { DeliveryChange } from '../../domain/webhooks/delivery-changes.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';

builder.subscriptionType({ description: 'Live changes, over graphql-ws on /graphql.' });

/**
 * The Delivery at each change, by query: every subscriber of an organization receives the same
 * change object, and subscribers with the same selection share one load and one resulting object
 * (with a thousand dashboards open, one query per change rather than a thousand). Dropped with
 * the change.
 */
const deliveriesByChange = new WeakMap<DeliveryChange, Map<string, Promise<Delivery>>>();

/**
 * A subscription's query, as a key, by its field node: the query follows from the selection and
 * the variables, both fixed for the life of a subscription (each one parses its own document),
 * so it is serialised once per subscription rather than once per change.
 */
const queryKeys = new WeakMap<FieldNode, string>();

function deliveryAtChange(query: DeliveryQuery, change: DeliveryChange, context: Context, info: GraphQLResolveInfo): Promise<Delivery> {
  const fieldNode = info.fieldNodes[0]!;
  let key = queryKeys.get(fieldNode);
  if (key === undefined) queryKeys.set(fieldNode, (key = JSON.stringify(query)));
  let deliveries = deliveriesByChange.get(change);
  if (!deliveries) deliveriesByChange.set(change, (deliveries = new Map()));
  let delivery = deliveries.get(key);
  if (!delivery) deliveries.set(key, (delivery = deliveryAsOf(context.prisma, change, query)));
  return delivery;
}

builder.subscriptionField('deliveryUpdated', (t) =>
  t.withAuth({ organization: true }).prismaField({
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
      if (endpointId != null) {
        const where = ownedWhere(context, endpointId);
        const endpoint =
          where && (await context.prisma.webhookEndpoint.findFirst({ select: { id: true }, where: { ...where, deletedAt: null } }));
        if (!endpoint) throw new NotFoundError('WebhookEndpoint', endpointId);
      }
      const changes = context.deliveryChanges.subscribe(context.organization.id);
      return backlogged(
        endpointId == null
          ? changes
          : pipe(
              changes,
              filter((change) => change.endpointId === endpointId),
            ),
      );
    },
    resolve: (query, change, _args, context, info) => deliveryAtChange(query, change, context, info),
  }),
);
