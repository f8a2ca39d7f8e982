// Organization-wide search of deliveries and events: the filters a person narrows the delivery
// log with, as the database conditions they mean. Times are a half-open window: `from`
// inclusive, `to` exclusive, on when the delivery or event was made.
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import { countRows } from '../shared/counts.ts';
import type { DeliveryStatus } from '../../generated/prisma/enums.ts';
import { InputError, type FieldError } from '../shared/errors.ts';
import { isEventType, UNKNOWN_EVENT_TYPE_MESSAGE } from './events.ts';
import { isUuid } from '../shared/ids.ts';
import { isStorableTime, NOT_STORABLE_TIME_MESSAGE } from '../shared/input.ts';

/**
 * The answer an attempt got: SUCCESS 2xx, REDIRECT 3xx (not followed, so failed), CLIENT_ERROR
 * 4xx, SERVER_ERROR 5xx, NO_RESPONSE (timeout, connection error, refused destination). The
 * database names an attempt's class (response_status_class) as it records the attempt.
 */
export const RESPONSE_STATUS_CLASSES = ['SUCCESS', 'REDIRECT', 'CLIENT_ERROR', 'SERVER_ERROR', 'NO_RESPONSE'] as const;
export type ResponseStatusClass = (typeof RESPONSE_STATUS_CLASSES)[number];

export interface TimeWindow {
  from?: Date | null;
  to?: Date | null;
}

export interface DeliverySearch extends TimeWindow {
  endpointId?: string | null;
  status?: DeliveryStatus | null;
  eventType?: string | null;
  responseStatusClass?: ResponseStatusClass | null;
}

export interface EventSearch extends TimeWindow {
  type?: string | null;
}

/** Matches no row: a malformed id names nothing (as everywhere else). */
const NOTHING = { id: { in: [] } };

/** Bounds PostgreSQL can compare with (it refuses year 0, SQLSTATE 22008), and a window that is not empty. */
function windowProblems(window: TimeWindow): FieldError[] {
  const unstorable = (['from', 'to'] as const)
    .filter((bound) => window[bound] && !isStorableTime(window[bound].getTime()))
    .map((bound) => ({ field: `filter.${bound}`, message: NOT_STORABLE_TIME_MESSAGE }));
  if (unstorable.length > 0) return unstorable;
  const { from, to } = window;
  return from && to && to <= from ? [{ field: 'filter.to', message: 'must be after filter.from' }] : [];
}

function typeProblems(field: string, type: string | null | undefined): FieldError[] {
  return type && !isEventType(type) ? [{ field, message: UNKNOWN_EVENT_TYPE_MESSAGE }] : [];
}

function createdWithin({ from, to }: TimeWindow) {
  return from || to ? { createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } } : {};
}

/** The organization's deliveries the filter selects; an InputError names every bad filter field. */
export function deliverySearchWhere(organizationId: string, filter: DeliverySearch): Prisma.DeliveryWhereInput {
  const problems = [...typeProblems('filter.eventType', filter.eventType), ...windowProblems(filter)];
  if (problems.length > 0) throw new InputError(problems);
  if (filter.endpointId && !isUuid(filter.endpointId)) return { organizationId, ...NOTHING };
  const statusClass = filter.responseStatusClass;
  return {
    organizationId,
    ...(filter.endpointId ? { endpointId: filter.endpointId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.eventType ? { eventType: filter.eventType } : {}),
    ...createdWithin(filter),
    // A delivery is in a class when any of its attempts got such an answer (it is judged by every
    // answer it got, not only its last): the classes are kept on the delivery as attempts are
    // recorded, in the index of the organization's deliveries, so the search reads no attempt.
    ...(statusClass ? { responseClasses: { has: statusClass } } : {}),
  };
}

/** The organization's events the filter selects; an InputError names every bad filter field. */
export function eventSearchWhere(organizationId: string, filter: EventSearch): Prisma.EventWhereInput {
  const problems = [...typeProblems('filter.type', filter.type), ...windowProblems(filter)];
  if (problems.length > 0) throw new InputError(problems);
  return { organizationId, ...(filter.type ? { type: filter.type } : {}), ...createdWithin(filter) };
}

/**
 * deliverySearchWhere, narrowed to the endpoint's own index when the filter names an endpoint of
 * the organization (its deliveries are all the organization's; with both conditions PostgreSQL
 * would intersect the two indexes, reading every delivery of the organization).
 */
export async function deliverySearch(
  prisma: PrismaClient,
  organizationId: string,
  filter: DeliverySearch,
): Promise<Prisma.DeliveryWhereInput> {
  const { organizationId: _organization, ...where } = deliverySearchWhere(organizationId, filter);
  if (typeof where.endpointId !== 'string') return { organizationId, ...where };
  const owned = await prisma.webhookEndpoint.count({ where: { id: where.endpointId, organizationId } });
  return owned ? where : { organizationId, ...NOTHING };
}

/** How many deliveries `where` selects, as boundedCount counts. */
export function countDeliveries(prisma: PrismaClient, where: Prisma.DeliveryWhereInput): Promise<number> {
  return countRows(prisma.delivery, where, 'createdAt');
}

/** How many events `where` selects, as boundedCount counts. */
export function countEvents(prisma: PrismaClient, where: Prisma.EventWhereInput): Promise<number> {
  return countRows(prisma.event, where, 'createdAt');
}
