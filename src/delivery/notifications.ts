// Live delivery changes: one LISTEN connection per process on the channel the deliveries
// trigger notifies (see the webhooks migration), fanned out in process to subscribers of one
// organization. So a subscription served by any api process sees changes made by any worker.
import { setMaxListeners } from 'node:events';
import { createPubSub } from '@graphql-yoga/subscription';
import pg from 'pg';

export const DELIVERY_CHANNEL = 'hookline_delivery';

export interface DeliveryChange {
  id: string;
  organizationId: string;
  endpointId: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  attemptCount: number;
}

export interface DeliveryChanges {
  /** Changes of one organization's deliveries, in the order they were committed. */
  subscribe(organizationId: string): AsyncIterable<DeliveryChange>;
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
  let client: pg.Client | undefined;
  let closed = false;

  const reconnectLater = () => {
    if (!closed) setTimeout(() => connect().catch(reconnectLater), RECONNECT_DELAY_MS);
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', ({ payload }) => {
      if (!payload) return;
      const change = JSON.parse(payload) as DeliveryChange;
      pubSub.publish('delivery', change.organizationId, change);
    });
    // A lost connection is replaced; changes committed while it was down are not replayed
    // (a client that needs them re-reads the deliveries it shows).
    next.on('error', (error) => {
      log.warn({ err: error }, 'delivery change listener lost its connection; reconnecting');
      next.end().catch(() => {});
      reconnectLater();
    });
    await next.connect();
    await next.query(`LISTEN ${DELIVERY_CHANNEL}`);
    client = next;
  };
  await connect();

  return {
    subscribe: (organizationId) => pubSub.subscribe('delivery', organizationId),
    async close() {
      closed = true;
      await client?.end();
    },
  };
}
