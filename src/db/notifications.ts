// What live notifications are made of: a PostgreSQL LISTEN connection on a channel, kept up, and a
// pub/sub that fans its notifications out in process to the subscribers of one organization. The
// channels and what they carry are their users' (delivery changes: delivery/notifications.ts; new
// events: http/event-notices.ts).
import { setMaxListeners } from 'node:events';
import { createPubSub } from '@graphql-yoga/subscription';
import pg from 'pg';

const RECONNECT_DELAY_MS = 1000;

export type NotificationLog = { warn(object: object, message: string): void };

/**
 * One connection LISTENing on `channel`, calling `onPayload` with each notification's payload.
 * A lost connection is replaced; notifications committed while it was down are not replayed.
 */
export async function listenOn(
  databaseUrl: string,
  channel: string,
  onPayload: (payload: string) => void,
  log: NotificationLog,
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
export function organizationPubSub<T>() {
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  return createPubSub<{ change: [organizationId: string, change: T] }>({ eventTarget });
}
