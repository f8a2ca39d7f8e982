// Deliveries seen from the API: a manual retry, resend or recovery of finished ones, what a
// dashboard shows of each endpoint (its newest delivery, its last 24 hours, its pending
// retries), each answered for a whole page of endpoints at once, and a delivery as it was at a
// live change.
import { z } from 'zod';
import type { Delivery, Prisma, PrismaClient } from '../generated/prisma/client.ts';
import type { DeliveryChange } from './delivery-changes.ts';
import { InputError, NotFoundError } from './errors.ts';
import { isUuid } from './ids.ts';
import { parseInput, storableDate } from './input.ts';
import type { Outbox } from './outbox.ts';

/**
 * Queues one more attempt of a delivery in one of `statuses` to an ACTIVE endpoint (same delivery
 * id, so receivers still deduplicate); explains the refusal otherwise. The attempt continues the
 * delivery's count: it gets the retries the delivery has left, and at least this one attempt.
 */
async function reopenDelivery(
  { prisma, queue }: Outbox,
  organizationId: string,
  id: string,
  statuses: Delivery['status'][],
  verb: string,
): Promise<void> {
  if (!isUuid(id)) throw new NotFoundError('Delivery', id);
  const reopened = await prisma.$transaction(async (tx) => {
    const [delivery] = await tx.delivery.updateManyAndReturn({
      where: { id, organizationId, status: { in: statuses }, endpoint: { status: 'ACTIVE', deletedAt: null } },
      data: { status: 'PENDING', nextAttemptAt: new Date(), updatedAt: new Date() },
      select: { attemptCount: true },
    });
    if (delivery) await queue.enqueue(tx, [{ deliveryId: id, attempt: delivery.attemptCount + 1 }]);
    return delivery !== undefined;
  });
  if (reopened) return;
  const delivery = await prisma.delivery.findFirst({
    where: { id, organizationId },
    select: { status: true, endpoint: { select: { status: true, deletedAt: true } } },
  });
  if (!delivery || delivery.endpoint.deletedAt) throw new NotFoundError('Delivery', id);
  const message =
    delivery.endpoint.status !== 'ACTIVE'
      ? `The endpoint is ${delivery.endpoint.status}; activate it first`
      : `Only a ${statuses.join(' or ')} delivery can be ${verb}; this one is ${delivery.status}`;
  throw new InputError([{ field: 'id', message }], message);
}

/** One more attempt of a FAILED or CANCELLED delivery of an ACTIVE endpoint. */
export function retryDelivery(outbox: Outbox, organizationId: string, id: string): Promise<void> {
  return reopenDelivery(outbox, organizationId, id, ['FAILED', 'CANCELLED'], 'retried');
}

/**
 * Sends a finished delivery again, SUCCEEDED included, as a new attempt of the same delivery. A
 * PENDING one is refused: its next attempt is already queued.
 */
export function resendDelivery(outbox: Outbox, organizationId: string, id: string): Promise<void> {
  return reopenDelivery(outbox, organizationId, id, ['SUCCEEDED', 'FAILED', 'CANCELLED'], 'resent');
}

/** [since, until): times PostgreSQL can store, until after since. */
const recoveryWindow = z
  .object({ since: storableDate, until: storableDate })
  .refine(({ since, until }) => since < until, { path: ['until'], message: 'must be later than since' });

/** The most deliveries one recoverDeliveries call queues. */
export const RECOVER_BATCH_LIMIT = 1000;

export interface RecoveredDeliveries {
  /** Deliveries queued again by this call. */
  queued: number;
  /** More FAILED or CANCELLED deliveries remain in the window: call again from `nextSince`. */
  hasMore: boolean;
  /** Creation time of the first delivery left for the next call (null when none is left). */
  nextSince: Date | null;
}

/**
 * After an outage on the receiver's side: queues a new attempt of every FAILED or CANCELLED
 * delivery of an ACTIVE endpoint created in [since, until), oldest first, at most `limit` per
 * call. PENDING deliveries are left as they are (their attempts are queued already).
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
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id: endpointId, organizationId, deletedAt: null }, select: { status: true } });
  if (!endpoint) throw new NotFoundError('Webhook endpoint', endpointId);
  if (endpoint.status !== 'ACTIVE') {
    const message = `The endpoint is ${endpoint.status}; activate it first`;
    throw new InputError([{ field: 'endpointId', message }], message);
  }
  return prisma.$transaction(async (tx) => {
    // One more than the limit is read, and left as it is, to tell whether more remain. The
    // endpoint must still be ACTIVE as this statement sees it (a concurrent disable wins).
    const rows = await tx.$queryRaw<{ id: string; attemptCount: number; createdAt: Date; reopened: boolean }[]>`
      WITH locked AS (
        SELECT d.id, d.attempt_count, d.created_at
        FROM deliveries d
        WHERE d.endpoint_id = ${endpointId}::uuid AND d.organization_id = ${organizationId}::uuid
          AND d.status IN ('FAILED', 'CANCELLED') AND d.created_at >= ${since} AND d.created_at < ${until}
          AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL)
        ORDER BY d.created_at, d.id
        LIMIT ${limit + 1}
        FOR UPDATE OF d SKIP LOCKED
      ), found AS (
        SELECT *, row_number() OVER (ORDER BY created_at, id) AS position FROM locked
      ), reopened AS (
        UPDATE deliveries d SET status = 'PENDING', next_attempt_at = now(), updated_at = now()
        FROM found f WHERE d.id = f.id AND f.position <= ${limit}
        RETURNING d.id
      )
      SELECT f.id::text AS id, f.attempt_count AS "attemptCount", f.created_at AS "createdAt", f.position <= ${limit} AS reopened
      FROM found f ORDER BY f.position`;
    const reopened = rows.filter((row) => row.reopened);
    await queue.enqueue(tx, reopened.map((row) => ({ deliveryId: row.id, attempt: row.attemptCount + 1 })));
    const next = rows.find((row) => !row.reopened);
    return { queued: reopened.length, hasMore: next !== undefined, nextSince: next?.createdAt ?? null };
  });
}

/** A Prisma selection of a delivery and what it relates to (an API picks what it shows). */
export type DeliveryQuery = { include?: Prisma.DeliveryInclude; select?: Prisma.DeliverySelect };

/**
 * The newest delivery of each endpoint (null for none), with `query`'s selection, in the order
 * of `endpointIds`. Raw SQL for the ids: the newest row per endpoint is one index probe each
 * ((endpoint_id, created_at)), which Prisma cannot ask for.
 */
export async function latestDeliveries(prisma: PrismaClient, endpointIds: readonly string[], query: DeliveryQuery): Promise<(Delivery | null)[]> {
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

/**
 * What is failing at each endpoint now: its deliveries PENDING after at least one failed
 * attempt, each waiting for its next retry (a FAILED delivery has given up and counts among the
 * failures in a row instead; a first attempt still in flight has not failed yet).
 */
export async function pendingRetries(prisma: PrismaClient, organizationId: string, endpointIds: readonly string[]): Promise<number[]> {
  // (organization_id, status) is indexed, and an organization's PENDING deliveries are its queue: few.
  const groups = await prisma.delivery.groupBy({
    by: ['endpointId'],
    where: { organizationId, status: 'PENDING', attemptCount: { gt: 0 }, endpointId: { in: [...endpointIds] } },
    _count: { _all: true },
  });
  const byEndpoint = new Map(groups.map((group) => [group.endpointId, group._count._all]));
  return endpointIds.map((id) => byEndpoint.get(id) ?? 0);
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
    where: { id: change.id, organizationId: change.organizationId },
  })) as Delivery | null;
  // Deliveries are not deleted while their organization lives; a miss is a race with its deletion.
  if (!row) throw new NotFoundError('Delivery', change.id);
  return { ...row, status: change.status, attemptCount: change.attemptCount };
}
