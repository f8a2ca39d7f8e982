// Live delivery changes: one LISTEN connection per process on the channel the deliveries
// trigger notifies (see the webhooks migration), fanned out in process to subscribers of one
// organization. So a subscription served by any api process sees changes made by any worker.
import { setMaxListeners } from 'node:events';
import { createPubSub } from '@graphql-yoga/subscription';
import pg from 'pg';
import type { DeliveryChange, DeliveryChangeFeed } from '../domain/delivery-changes.ts';

export const DELIVERY_CHANNEL = 'hookline_delivery';

export interface DeliveryChanges extends DeliveryChangeFeed {
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

export async function listenForDeliveryChanges(
  databaseUrl: string,
  log: { warn(object: object, message: string): void },
): Promise<DeliveryChanges> {
  // Every subscriber is a listener of this target: many per organization is normal here.
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  const pubSub = createPubSub<{ delivery: [organizationId: string, change: DeliveryChange] }>({ eventTarget });
  const watchers: ((change: DeliveryChange) => void)[] = [];
  let client: pg.Client | undefined;
  let closed = false;

  let reconnectTimer: NodeJS.Timeout | undefined;

  // A lost connection is replaced; changes committed while it was down are not replayed (a
  // client that needs them re-reads the deliveries it shows; workers also poll).
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    let lost = false;
    const replace = (error?: Error) => {
      if (lost || closed) return;
      lost = true;
      log.warn({ err: error }, 'delivery change listener lost its connection; reconnecting');
      next.end().catch(() => {});
      reconnectTimer = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
    };
    next.on('notification', ({ payload }) => {
      if (!payload) return;
      const change = JSON.parse(payload) as DeliveryChange;
      for (const watcher of watchers) watcher(change);
      pubSub.publish('delivery', change.organizationId, change);
    });
    next.on('error', replace);
    next.on('end', () => replace());
    try {
      await next.connect();
      await next.query(`LISTEN ${DELIVERY_CHANNEL}`);
      client = next;
    } catch (error) {
      replace(error as Error);
    }
  };
  await connect();

  return {
    subscribe: (organizationId) => pubSub.subscribe('delivery', organizationId),
    watch: (listener) => void watchers.push(listener),
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      await client?.end();
    },
  };
}
