// Live delivery changes and new events: one LISTEN connection per process on each channel a
// trigger notifies (deliveries: see the webhooks migration; events: the listeners migration),
// fanned out in process to subscribers of one organization. So a subscription served by any api
// process sees changes made by any worker, and events stored by any process.
import { setMaxListeners } from 'node:events';
import { createPubSub } from '@graphql-yoga/subscription';
import pg from 'pg';
import type { DeliveryChange, DeliveryChangeFeed } from '../domain/webhooks/delivery-changes.ts';
import type { EventFeed, EventNotice } from '../domain/webhooks/listeners.ts';

export const DELIVERY_CHANNEL = 'hookline_delivery';
export const EVENT_CHANNEL = 'hookline_event';

export interface DeliveryChanges extends DeliveryChangeFeed {
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

type Log = { warn(object: object, message: string): void };

/**
 * One connection LISTENing on `channel`, calling `onPayload` with each notification's payload.
 * A lost connection is replaced; notifications committed while it was down are not replayed.
 */
async function listenOn(
  databaseUrl: string,
  channel: string,
  onPayload: (payload: string) => void,
  log: Log,
): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    let lost = false;
    const replace = (error?: Error) => {
      if (lost || closed) return;
      lost = true;
      log.warn({ err: error }, `${channel} listener lost its connection; reconnecting`);
      next.end().catch(() => {});
      reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
    };
    next.on('notification', ({ payload }) => {
      if (payload) onPayload(payload);
    });
    next.on('error', replace);
    next.on('end', () => replace());
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      client = next;
    } catch (error) {
      replace(error as Error);
    }
  };
  await connect();

  return {
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      await client?.end();
    },
  };
}

/** A pub/sub routed by organization, for many subscribers each (normal here: no listener limit). */
function organizationPubSub<T>() {
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  return createPubSub<{ change: [organizationId: string, change: T] }>({ eventTarget });
}

// A client that needs the deliveries changed while the connection was down re-reads them;
// workers also poll.
export async function listenForDeliveryChanges(databaseUrl: string, log: Log): Promise<DeliveryChanges> {
  const pubSub = organizationPubSub<DeliveryChange>();
  const watchers: ((change: DeliveryChange) => void)[] = [];
  const connection = await listenOn(
    databaseUrl,
    DELIVERY_CHANNEL,
    (payload) => {
      const change = JSON.parse(payload) as DeliveryChange;
      for (const watcher of watchers) watcher(change);
      pubSub.publish('change', change.organizationId, change);
    },
    log,
  );
  return {
    subscribe: (organizationId) => pubSub.subscribe('change', organizationId),
    watch: (listener) => void watchers.push(listener),
    close: () => connection.close(),
  };
}

export interface EventNotices extends EventFeed {
  close(): Promise<void>;
}

/** New events of organizations with a live listener, from the events trigger. */
export async function listenForEvents(databaseUrl: string, log: Log): Promise<EventNotices> {
  const pubSub = organizationPubSub<EventNotice>();
  const connection = await listenOn(
    databaseUrl,
    EVENT_CHANNEL,
    (payload) => {
      const notice = JSON.parse(payload) as EventNotice;
      pubSub.publish('change', notice.organizationId, notice);
    },
    log,
  );
  return { subscribe: (organizationId) => pubSub.subscribe('change', organizationId), close: () => connection.close() };
}
