// Listeners: a developer's `hookline listen`, receiving its organization's events live over the
// GraphQL WebSocket rather than as deliveries to an endpoint. A listener is live while an api
// process serves its subscription: that process keeps `live_until` ahead of the clock, so a
// process that dies stops counting within LISTENER_LIVENESS_MS. While one is live, every event
// of its types is stored (and announced by the events trigger), even when no endpoint takes it.
import sql, { type Sql } from 'sql-template-tag';
import { z } from 'zod';
import type { Listener, PrismaClient } from '../../generated/prisma/client.ts';
import { eventTypeList } from './endpoints.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseInput } from '../shared/input.ts';
import { EVENT_CATALOGUE } from './event-catalogue.ts';
import { EVENT_TYPES, UNKNOWN_EVENT_TYPE_MESSAGE } from './events.ts';
import { emitEvent, type Outbox } from './outbox.ts';

/** How long a listener counts as live after its serving process last said so. */
export const LISTENER_LIVENESS_MS = 60_000;
/** How often the serving process says so: well inside the liveness, so one late beat is harmless. */
export const LISTENER_HEARTBEAT_MS = 20_000;

/** An event as the events trigger announces it (the subscription loads the rest). */
export interface EventNotice {
  id: string;
  organizationId: string;
  type: string;
}

/** Events as they are stored, from every process. src/http/event-notices.ts implements it. */
export interface EventFeed {
  /** Notices of one organization's new events, in commit order. */
  subscribe(organizationId: string): AsyncIterable<EventNotice>;
}

/**
 * SQL condition: a live listener of the organization `organization` takes the event type `type`
 * (an empty filter means every type).
 */
export function liveListenerCondition(organization: Sql, type: Sql): Sql {
  return sql`EXISTS (SELECT 1 FROM listeners l WHERE l.organization_id = ${organization} AND l.live_until > now()
    AND (l.event_types IS NULL OR cardinality(l.event_types) = 0 OR ${type} = ANY (l.event_types)))`;
}

const listenerInput = z.object({ eventTypes: eventTypeList });

/** Listeners not live for this long are deleted when the organization makes a new one. */
export const LISTENER_RETENTION_MS = 24 * 3600_000;

/**
 * A new listener of the organization for `eventTypes` (absent or empty: every type), not live
 * until subscribed. Every `hookline listen` makes one, so the organization's listeners that have
 * not been live for LISTENER_RETENTION_MS (a listen gives up reconnecting within seconds) go.
 */
export async function createListener(
  prisma: PrismaClient,
  organizationId: string,
  input: { eventTypes?: unknown },
  now = new Date(),
): Promise<Listener> {
  const { eventTypes } = parseInput(listenerInput, input);
  const before = new Date(now.getTime() - LISTENER_RETENTION_MS);
  const [, listener] = await prisma.$transaction([
    prisma.listener.deleteMany({
      where: { organizationId, OR: [{ liveUntil: { lt: before } }, { liveUntil: null, createdAt: { lt: before } }] },
    }),
    prisma.listener.create({ data: { organizationId, eventTypes: eventTypes ?? [] } }),
  ]);
  return listener;
}

/** The organization's listener `id`; another organization's is NOT_FOUND. */
export async function findListener(prisma: PrismaClient, organizationId: string, id: string): Promise<Listener> {
  const listener = isUuid(id) ? await prisma.listener.findFirst({ where: { id, organizationId } }) : null;
  if (!listener) throw new NotFoundError('Listener', id);
  return listener;
}

/** Says the listener is being served, for LISTENER_LIVENESS_MS from `now`. */
export async function keepListenerLive(prisma: PrismaClient, id: string, now = new Date()): Promise<void> {
  await prisma.listener.update({ where: { id }, data: { liveUntil: new Date(now.getTime() + LISTENER_LIVENESS_MS) } });
}

/** Its subscription ended: events stop being stored for it (live until now: when it last was). */
export async function releaseListener(prisma: PrismaClient, id: string, now = new Date()): Promise<void> {
  await prisma.listener.updateMany({ where: { id }, data: { liveUntil: now } });
}

/** Whether a listener takes an event type. */
export function listenerTakes(listener: Pick<Listener, 'eventTypes'>, type: string): boolean {
  return listener.eventTypes.length === 0 || listener.eventTypes.includes(type);
}

/**
 * Stores an event for the organization's live listeners only (no endpoint gets it), as
 * `hookline trigger` asks; returns the event id. `test.ping` is a ping; any other type is the
 * catalogue's example of it, marked `"example": true`, and nothing else is stored: no service,
 * deploy or incident that DORA, the incident list or suspect ranking would count.
 */
export async function pingListeners(outbox: Outbox, organizationId: string, eventType = 'test.ping'): Promise<string> {
  const { eventType: type } = parseInput(z.object({ eventType: z.enum(EVENT_TYPES, { error: UNKNOWN_EVENT_TYPE_MESSAGE }) }), {
    eventType,
  });
  const example = type !== 'test.ping';
  const data = example ? EVENT_CATALOGUE[type].example : { endpoint: null, message: 'Test event from Hookline, for your listeners' };
  const { eventId } = await outbox.prisma.$transaction((tx) =>
    emitEvent(tx, outbox.queue, { organizationId, type, data, onlyListeners: true, example }),
  );
  return eventId;
}
