// Events and their webhook body. An event is stored once; every subscribed endpoint gets one
// delivery of it, and every attempt of a delivery sends the same body.
import sql, { type Sql } from 'sql-template-tag';

import { EVENT_CATALOGUE } from './event-catalogue.ts';

export type EventType = keyof typeof EVENT_CATALOGUE;

/** The catalogue's types, in its order: the catalogue is where a type is added. */
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as [EventType, ...EventType[]];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** What an input naming another event type is told. */
export const UNKNOWN_EVENT_TYPE_MESSAGE = `must be one of ${EVENT_TYPES.join(', ')}`;

export interface StoredEvent {
  id: string;
  type: string;
  organizationId: string;
  createdAt: Date;
  data: unknown;
  /** Sent by sendExample: the body says `"example": true` (absent: a real event). */
  example?: boolean;
}

/**
 * The webhook body: `{"id", "type", "timestamp", "createdAt", "organizationId", "data"}`, and
 * `"example": true` for an example. `timestamp` is the Standard Webhooks envelope's name for when
 * the event happened; `createdAt` says the same, as clients written before it read it.
 */
export function webhookBody(event: StoredEvent): string {
  const happenedAt = event.createdAt.toISOString();
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: happenedAt,
    createdAt: happenedAt,
    organizationId: event.organizationId,
    data: event.data,
    ...(event.example ? { example: true } : {}),
  });
}

/**
 * SQL condition: endpoint `e` is live and subscribed to the event type `type` (an empty filter
 * means every type).
 */
export function subscribedEndpointCondition(type: Sql): Sql {
  return sql`e.status = 'ACTIVE' AND e.deleted_at IS NULL
    AND (e.event_types IS NULL OR cardinality(e.event_types) = 0 OR ${type} = ANY (e.event_types))`;
}
