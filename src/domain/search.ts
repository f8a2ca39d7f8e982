// Organization-wide search of deliveries and events: the filters a person narrows the delivery
// log with, as the database conditions they mean. Times are a half-open window: `from`
// inclusive, `to` exclusive, on when the delivery or event was made.
import type { Prisma } from '../generated/prisma/client.ts';
import type { DeliveryStatus } from '../generated/prisma/enums.ts';
import { InputError, type FieldError } from './errors.ts';
import { isEventType, UNKNOWN_EVENT_TYPE_MESSAGE } from './events.ts';
import { isUuid } from './ids.ts';

/**
 * The answer an attempt got: SUCCESS 2xx, REDIRECT 3xx (not followed, so failed), CLIENT_ERROR
 * 4xx, SERVER_ERROR 5xx, NO_RESPONSE (timeout, connection error, refused destination).
 */
export const RESPONSE_STATUS_CLASSES = ['SUCCESS', 'REDIRECT', 'CLIENT_ERROR', 'SERVER_ERROR', 'NO_RESPONSE'] as const;
export type ResponseStatusClass = (typeof RESPONSE_STATUS_CLASSES)[number];

const STATUS_RANGES: Record<Exclude<ResponseStatusClass, 'NO_RESPONSE'>, [number, number]> = {
  SUCCESS: [200, 299],
  REDIRECT: [300, 399],
  CLIENT_ERROR: [400, 499],
  SERVER_ERROR: [500, 599],
};

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

function windowProblems({ from, to }: TimeWindow): FieldError[] {
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
    ...(filter.eventType ? { event: { type: filter.eventType } } : {}),
    ...createdWithin(filter),
    // A delivery is in a class when any of its attempts got such an answer (as Svix filters attempts).
    ...(statusClass
      ? {
          attempts: {
            some:
              statusClass === 'NO_RESPONSE'
                ? { responseStatus: null }
                : { responseStatus: { gte: STATUS_RANGES[statusClass][0], lte: STATUS_RANGES[statusClass][1] } },
          },
        }
      : {}),
  };
}

/** The organization's events the filter selects; an InputError names every bad filter field. */
export function eventSearchWhere(organizationId: string, filter: EventSearch): Prisma.EventWhereInput {
  const problems = [...typeProblems('filter.type', filter.type), ...windowProblems(filter)];
  if (problems.length > 0) throw new InputError(problems);
  return { organizationId, ...(filter.type ? { type: filter.type } : {}), ...createdWithin(filter) };
}
