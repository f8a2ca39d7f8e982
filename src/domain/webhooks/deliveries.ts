// Deliveries seen from the API: a manual retry, resend or recovery of finished ones, what a
// dashboard shows of each endpoint (its newest delivery, its last 24 hours, its pending
// retries), each answered for a whole page of endpoints at once, and a delivery as it was at a
// live change.
import { z } from 'zod';
import type { Delivery, Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import type { DeliveryChange } from './delivery-changes.ts';
import { InputError, NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseInput, storableDate } from '../shared/input.ts';
import type { Outbox } from './outbox.ts';

/**
 * Queues one more attempt of a delivery in one of `statuses` to an ACTIVE endpoint (same delivery
 * id, so receivers still deduplicate), or of a PENDING one that has lost its attempt (its job
 * failed or was deleted); explains the refusal otherwise. The attempt continues the delivery's
 * count: it gets the retries the delivery has left, and at least this one attempt.
 */
async function reopenDelivery(
  { prisma, queue }: Outbox,
  organizationId: string,
  id: string,
  statuses: Delivery['status'][],
  verb: string,
): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Delivery', id);
  const refusal = await prisma.$transaction(async (tx) => {
    // Locked first: what is read next, in statements of their own, is as it is once the lock
    // is granted (every attempt another request or a worker's reconciler queued included).
    const [delivery] = await tx.$queryRaw<
      { status: Delivery['status']; createdAt: Date; endpointStatus: string; endpointDeleted: boolean }[]
    >`
      SELECT d.status, d.created_at AS "createdAt", e.status AS "endpointStatus", e.deleted_at IS NOT NULL AS "endpointDeleted"
      FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.id = ${id}::uuid AND d.organization_id = ${organizationId}::uuid
      FOR UPDATE OF d`;
    if (!delivery || delivery.endpointDeleted) throw new NotFoundError('Delivery', id);
    if (delivery.endpointStatus !== 'ACTIVE') return `The endpoint is ${delivery.endpointStatus}; activate it first`;
    const lostItsAttempt = delivery.status === 'PENDING' && (await queue.unqueued(tx, [id])).length > 0;
    if (!statuses.includes(delivery.status) && !lostItsAttempt) {
      const queued = delivery.status === 'PENDING' ? ', and its next attempt is queued already' : '';
      return `Only a ${statuses.join(' or ')} delivery can be ${verb}; this one is ${delivery.status}${queued}`;
    }
    const { attemptCount } = await tx.delivery.update({
      where: { id_createdAt: { id, createdAt: delivery.createdAt } },
      data: { status: 'PENDING', nextAttemptAt: new Date(), updatedAt: new Date() },
      select: { attemptCount: true },
    });
    await queue.enqueue(tx, [{ deliveryId: id, deliveryCreatedAt: delivery.createdAt, attempt: attemptCount + 1 }]);
    return undefined;
  });
  if (refusal) throw new InputError([{ field: 'id', message: refusal }], refusal);
}

/** One more attempt of a FAILED or CANCELLED delivery (or a PENDING one that lost its attempt) of an ACTIVE endpoint. */
export function retryDelivery(outbox: Outbox, organizationId: string, id: string): Promise<void> {
  return reopenDelivery(outbox, organizationId, id, ['FAILED', 'CANCELLED'], 'retried');
}

/**
 * Sends a finished delivery again, SUCCEEDED included, as a new attempt of the same delivery. A
 * PENDING one is refused while its next attempt is queued, and queued again if it lost it.
 */
export function resendDelivery(outbox: Outbox, organizationId: string, id: string): Promise<void> {
  return reopenDelivery(outbox, organizationId, id, ['SUCCEEDED', 'FAILED', 'CANCELLED'], 'resent');
}

/** The most headers an attempt keeps of its answer (a receiver's answer may carry any number). */
export const ATTEMPT_HEADERS_MAX = 100;

/** [since, until): times PostgreSQL can store, until after since. */
const recoveryWindow = z
  .object({ since: storableDate, until: storableDate })
  .refine(({ since, until }) => since < until, { path: ['until'], message: 'must be later than since' });

/** The most deliveries one recoverDeliveries call queues. */
export const RECOVER_BATCH_LIMIT = 1000;

export interface RecoveredDeliveries {
  /** Deliveries queued again by this call. */
  queued: number;
  /** More deliveries of the window remain to look at: call again from `nextSince`. */
  hasMore: boolean;
  /** Creation time of the first delivery left for the next call (null when none is left). */
  nextSince: Date | null;
}

/**
 * After an outage on the receiver's side: queues a new attempt of every FAILED or CANCELLED
 * delivery of an ACTIVE endpoint created in [since, until), oldest first, at most `limit` per
 * call, and of every PENDING one there that lost its attempt (its job failed or was deleted).
 * PENDING deliveries whose attempt is queued are left as they are.
 */
export async function recoverDeliveries(
  { prisma, queue }: Outbox,
  organizationId: string,
  input: { endpointId: string; since: Date; until?: Date | null; limit?: number },
  now = new Date(),
): Promise<RecoveredDeliveries> {
  const { endpointId } = input;
  const limit = input.limit ?? RECOVER_BATCH_LIMIT;
  if (!isUuid(endpointId)) throw new NotFoundError('Webhook endpoint', endpointId);
  const { since, until } = parseInput(recoveryWindow, { since: input.since, until: input.until ?? now });
  const endpoint = await prisma.webhookEndpoint.findFirst({
    where: { id: endpointId, organizationId, deletedAt: null },
    select: { status: true },
  });
  if (!endpoint) throw new NotFoundError('Webhook endpoint', endpointId);
  if (endpoint.status !== 'ACTIVE') {
    const message = `The endpoint is ${endpoint.status}; activate it first`;
    throw new InputError([{ field: 'endpointId', message }], message);
  }
  return prisma.$transaction(async (tx) => {
    // The candidates are locked first, one more than the limit (left as it is, to tell whether
    // more remain); the endpoint must still be ACTIVE as this statement sees it (a concurrent
    // disable wins). Whether a PENDING one's attempt is queued is asked next, in a statement
    // that sees every attempt queued before the locks were granted.
    const candidates = await tx.$queryRaw<{ id: string; status: Delivery['status']; createdAt: Date }[]>`
      SELECT d.id::text AS id, d.status, d.created_at AS "createdAt"
      FROM deliveries d
      WHERE d.endpoint_id = ${endpointId}::uuid AND d.organization_id = ${organizationId}::uuid
        AND d.status IN ('FAILED', 'CANCELLED', 'PENDING') AND d.created_at >= ${since} AND d.created_at < ${until}
        AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL)
      ORDER BY d.created_at, d.id
      LIMIT ${limit + 1}
      FOR UPDATE OF d SKIP LOCKED`;
    const next = candidates[limit];
    return {
      queued: await reopenLocked(tx, queue, candidates.slice(0, limit)),
      hasMore: next !== undefined,
      nextSince: next?.createdAt ?? null,
    };
  });
}

/**
 * Queues one more attempt of each locked candidate that is finished, or PENDING without its
 * queued attempt (asked here, in a statement that sees every attempt queued before the locks
 * were granted); a PENDING one whose attempt is queued is left as it is. Returns how many.
 */
async function reopenLocked(
  tx: Prisma.TransactionClient,
  queue: Outbox['queue'],
  candidates: { id: string; status: Delivery['status']; createdAt: Date }[],
): Promise<number> {
  const lostTheirAttempt = await queue.unqueued(
    tx,
    candidates.filter((candidate) => candidate.status === 'PENDING').map((candidate) => candidate.id),
  );
  const finished = candidates.filter((candidate) => candidate.status !== 'PENDING').map((candidate) => candidate.id);
  const reopening = new Set([...finished, ...lostTheirAttempt]);
  const reopenedMonths = candidates.filter((candidate) => reopening.has(candidate.id)).map((candidate) => candidate.createdAt);
  const reopened = await tx.delivery.updateManyAndReturn({
    where: { id: { in: [...reopening] }, createdAt: { in: reopenedMonths } },
    data: { status: 'PENDING', nextAttemptAt: new Date(), updatedAt: new Date() },
    select: { id: true, createdAt: true, attemptCount: true },
  });
  await queue.enqueue(
    tx,
    reopened.map((row) => ({ deliveryId: row.id, deliveryCreatedAt: row.createdAt, attempt: row.attemptCount + 1 })),
  );
  return reopened.length;
}

export interface ResentDeliveries {
  /** Deliveries queued again by this call. */
  queued: number;
  /** Those of this call's batch left as they were: their endpoint is not ACTIVE, or their attempt is queued already. */
  skipped: number;
  /** More deliveries match: call again with `from` = `nextFrom`. */
  hasMore: boolean;
  /** Creation time of the first matching delivery left (null when none is left). */
  nextFrom: Date | null;
}

/**
 * Bulk resend of a search (`where`, from deliverySearch): every matching delivery, oldest first,
 * at most `limit` per call, gets one more attempt as resendDelivery gives it one (same delivery
 * id). Deliveries of endpoints that are not ACTIVE are skipped (they would only be refused), and
 * so are PENDING ones whose attempt is queued.
 */
export async function resendMatching(
  { prisma, queue }: Outbox,
  where: Prisma.DeliveryWhereInput,
  limit = RECOVER_BATCH_LIMIT,
): Promise<ResentDeliveries> {
  return prisma.$transaction(async (tx) => {
    const matching = await tx.delivery.findMany({
      where,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit + 1,
      select: { id: true, createdAt: true },
    });
    const batch = matching.slice(0, limit);
    // Locked first (a worker's outcome or another resend of the same delivery waits, or is
    // skipped), with the endpoint still ACTIVE as this statement sees it.
    const candidates = await tx.$queryRaw<{ id: string; status: Delivery['status']; createdAt: Date }[]>`
      SELECT d.id::text AS id, d.status, d.created_at AS "createdAt"
      FROM deliveries d
      WHERE d.id = ANY (${batch.map((delivery) => delivery.id)}::uuid[])
        AND d.created_at = ANY (${batch.map((delivery) => delivery.createdAt)}::timestamptz[])
        AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL)
      FOR UPDATE OF d SKIP LOCKED`;
    const queued = await reopenLocked(tx, queue, candidates);
    const next = matching[limit];
    return { queued, skipped: batch.length - queued, hasMore: next !== undefined, nextFrom: next?.createdAt ?? null };
  });
}

/** A Prisma selection of a delivery and what it relates to (an API picks what it shows). */
export type DeliveryQuery = { include?: Prisma.DeliveryInclude; select?: Prisma.DeliverySelect };

/**
 * The newest delivery of each endpoint (null for none), with `query`'s selection, in the order
 * of `endpointIds`. Raw SQL for the ids: the newest row per endpoint is one index probe each
 * ((endpoint_id, created_at)), which Prisma cannot ask for.
 */
export async function latestDeliveries(
  prisma: PrismaClient,
  endpointIds: readonly string[],
  query: DeliveryQuery,
): Promise<(Delivery | null)[]> {
  const latest = await prisma.$queryRaw<{ endpointId: string; deliveryId: string }[]>`
    SELECT endpoint.id::text AS "endpointId", newest.id::text AS "deliveryId"
      FROM unnest(${[...endpointIds]}::uuid[]) AS endpoint(id)
      CROSS JOIN LATERAL (
        SELECT d.id FROM deliveries d WHERE d.endpoint_id = endpoint.id ORDER BY d.created_at DESC, d.id DESC LIMIT 1
      ) AS newest`;
  const found =
    latest.length === 0
      ? []
      : ((await prisma.delivery.findMany({
          ...query,
          ...(query.select ? { select: { ...query.select, id: true } } : {}),
          where: { id: { in: latest.map((row) => row.deliveryId) } },
        })) as Delivery[]);
  const byId = new Map(found.map((delivery) => [delivery.id, delivery]));
  const byEndpoint = new Map(latest.map((row) => [row.endpointId, byId.get(row.deliveryId) ?? null]));
  return endpointIds.map((id) => byEndpoint.get(id) ?? null);
}

export interface EndpointStats {
  /** Deliveries created in the last 24 hours, whatever their status... */
  deliveries: number;
  /** ...of which SUCCEEDED... */
  succeeded: number;
  /** ...and FAILED (attempts exhausted). */
  failed: number;
}

/** Each endpoint's deliveries of the last 24 hours by outcome, in the order of `endpointIds`. */
export async function endpointStats(prisma: PrismaClient, endpointIds: readonly string[], now = new Date()): Promise<EndpointStats[]> {
  const groups = await prisma.delivery.groupBy({
    by: ['endpointId', 'status'],
    where: { endpointId: { in: [...endpointIds] }, createdAt: { gt: new Date(now.getTime() - 24 * 3600_000) } },
    _count: { _all: true },
  });
  const stats = new Map(endpointIds.map((id) => [id, { deliveries: 0, succeeded: 0, failed: 0 }]));
  for (const { endpointId, status, _count } of groups) {
    const endpoint = stats.get(endpointId)!;
    endpoint.deliveries += _count._all;
    if (status === 'SUCCEEDED') endpoint.succeeded += _count._all;
    if (status === 'FAILED') endpoint.failed += _count._all;
  }
  return endpointIds.map((id) => stats.get(id)!);
}

/** How many deliveries each event has (one per endpoint it went to), in the order of `eventIds`. */
export async function deliveryCountsOfEvents(prisma: PrismaClient, eventIds: readonly string[]): Promise<number[]> {
  const groups = await prisma.delivery.groupBy({ by: ['eventId'], where: { eventId: { in: [...eventIds] } }, _count: { _all: true } });
  const byEvent = new Map(groups.map((group) => [group.eventId, group._count._all]));
  return eventIds.map((id) => byEvent.get(id) ?? 0);
}

/** An endpoint, with the organization whose deliveries to it are counted. */
export interface OwnedEndpoint {
  id: string;
  organizationId: string;
}

/** Each endpoint's PENDING deliveries that also match `where`, in the order of `endpoints`. */
async function countPending(
  prisma: PrismaClient,
  endpoints: readonly OwnedEndpoint[],
  where: Prisma.DeliveryWhereInput,
): Promise<number[]> {
  // (organization_id, status) is indexed, and an organization's PENDING deliveries are its queue: few.
  const organizationIds = [...new Set(endpoints.map((endpoint) => endpoint.organizationId))];
  const groups = await prisma.delivery.groupBy({
    by: ['endpointId'],
    where: {
      ...where,
      organizationId: { in: organizationIds },
      status: 'PENDING',
      endpointId: { in: endpoints.map((endpoint) => endpoint.id) },
    },
    _count: { _all: true },
  });
  const byEndpoint = new Map(groups.map((group) => [group.endpointId, group._count._all]));
  return endpoints.map((endpoint) => byEndpoint.get(endpoint.id) ?? 0);
}

/**
 * What is failing at each endpoint now: its deliveries PENDING after at least one failed
 * attempt, each waiting for its next retry (a FAILED delivery has given up and counts among the
 * failures in a row instead; a first attempt still in flight has not failed yet).
 */
export function pendingRetries(prisma: PrismaClient, endpoints: readonly OwnedEndpoint[]): Promise<number[]> {
  return countPending(prisma, endpoints, { attemptCount: { gt: 0 } });
}

/** A PENDING delivery whose next attempt has been due this long and is not made is overdue. */
export const OVERDUE_AFTER_MS = 60_000;

/**
 * What is stuck at each endpoint now: its PENDING deliveries whose next attempt was due more
 * than OVERDUE_AFTER_MS ago. They wait behind other work, or for a worker to run, or lost
 * their queued attempt (which a worker finds and queues again, and a user can too: resend,
 * retry, recover).
 */
export function overdueDeliveries(prisma: PrismaClient, endpoints: readonly OwnedEndpoint[], now = new Date()): Promise<number[]> {
  return countPending(prisma, endpoints, { nextAttemptAt: { lt: new Date(now.getTime() - OVERDUE_AFTER_MS) } });
}

/** `query` with its `attempts` (if selected) limited to those made by `attemptCount`. */
function attemptsUpTo(query: DeliveryQuery, attemptCount: number): DeliveryQuery {
  const key = query.select ? 'select' : 'include';
  const selection = query[key] as Record<string, unknown> | undefined;
  const attempts = selection?.attempts as true | { where?: object } | undefined;
  if (!selection || !attempts) return query;
  const nested = attempts === true ? {} : attempts;
  const where = nested.where ? { AND: [nested.where, { number: { lte: attemptCount } }] } : { number: { lte: attemptCount } };
  return { ...query, [key]: { ...selection, attempts: { ...nested, where } } };
}

/**
 * The delivery as it was at `change`: loaded with `query`, then with the status and attempt
 * count the change carried and only the attempts made up to it. So a quick PENDING → SUCCEEDED
 * pair reads as PENDING (0 attempts) then SUCCEEDED (1), even when both have committed before
 * the first is read. Its other columns (lastAttemptAt, nextAttemptAt, updatedAt) are as read.
 */
export async function deliveryAsOf(prisma: PrismaClient, change: DeliveryChange, query: DeliveryQuery): Promise<Delivery> {
  const row = (await prisma.delivery.findFirst({
    ...attemptsUpTo(query, change.attemptCount),
    where: { id: change.id, createdAt: new Date(change.createdAt), organizationId: change.organizationId },
  })) as Delivery | null;
  // Deliveries are not deleted while their organization lives; a miss is a race with its deletion.
  if (!row) throw new NotFoundError('Delivery', change.id);
  return { ...row, status: change.status, attemptCount: change.attemptCount };
}
