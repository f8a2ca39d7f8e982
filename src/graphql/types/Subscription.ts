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
import { GraphQLError, type FieldNode, type GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { notFound, viewerOrganizationId } from '../errors.ts';
import type { DeliveryChange } from '../../delivery/notifications.ts';
import type { Delivery } from '../../generated/prisma/client.ts';
import { isUuid } from '../../domain/ids.ts';

builder.subscriptionType({});

/**
 * Changes a subscriber may fall behind by (sent but not yet taken by its socket). One more ends
 * that subscription with an error, rather than holding changes without bound for a stalled
 * client; the client then re-reads what it shows and subscribes again.
 */
export const MAX_SUBSCRIBER_BACKLOG = 1000;

/**
 * The changes of `source` that `keep` accepts, read from `source` as they come and queued here
 * until the subscriber takes them. Reading eagerly matters: the pub/sub behind `source` throws
 * (in its publisher, so the whole process dies) once 1024 changes wait for one slow subscriber.
 * Over `limit` queued changes, the iterator fails with an error after the queued ones.
 * `return()` ends at once, even while no change is coming (an async generator would wait for
 * the next change before it could stop listening).
 */
export function backloggedChanges<T>(
  source: AsyncIterable<T>,
  keep: (change: T) => boolean,
  limit = MAX_SUBSCRIBER_BACKLOG,
): AsyncIterableIterator<T> {
  const upstream = source[Symbol.asyncIterator]();
  const queue: T[] = [];
  const waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }[] = [];
  let failure: unknown;
  let finished = false;

  /** Answers waiting next() calls with queued changes, then with the end (or the failure). */
  const settle = () => {
    while (waiting.length > 0) {
      if (queue.length > 0) waiting.shift()!.resolve({ value: queue.shift()!, done: false });
      else if (!finished) return;
      else if (failure !== undefined) {
        const error = failure;
        failure = undefined; // reported once; later calls see the end
        waiting.shift()!.reject(error);
      } else waiting.shift()!.resolve({ value: undefined, done: true });
    }
  };
  const stop = (error?: unknown) => {
    if (finished) return;
    finished = true;
    failure = error;
    void upstream.return?.();
    settle();
  };

  void (async () => {
    try {
      for (;;) {
        const next = await upstream.next();
        if (next.done || finished) break;
        if (!keep(next.value)) continue;
        if (queue.length >= limit) {
          const message = `Subscription ended: more than ${limit} changes waited for this subscriber. Re-read the deliveries and subscribe again.`;
          stop(new GraphQLError(message, { extensions: { code: 'SUBSCRIBER_TOO_SLOW' } }));
          return;
        }
        queue.push(next.value);
        settle();
      }
      stop();
    } catch (error) {
      stop(error);
    }
  })();

  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting.push({ resolve, reject });
        settle();
      });
    },
    async return() {
      queue.length = 0;
      stop();
      failure = undefined;
      settle();
      return { value: undefined, done: true };
    },
  };
}

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
      return backloggedChanges(
        context.deliveryChanges.subscribe(organizationId),
        (change) => change.organizationId === organizationId && (endpointId == null || change.endpointId === String(endpointId)),
      );
    },
    resolve: (query, change, _args, context, info) => deliveryAsOf(query, change, context, info),
  }),
);
