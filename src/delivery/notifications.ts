// Live delivery changes: one LISTEN connection per process on the channel the deliveries trigger
// notifies (see the webhooks migration), fanned out in process to subscribers of one organization
// and to the worker, which wakes on new work. So a subscription served by any api process sees
// changes made by any worker.
import { listenOn, organizationPubSub, type NotificationLog } from '../db/notifications.ts';
import type { DeliveryChange, DeliveryChangeFeed } from '../domain/webhooks/delivery-changes.ts';

export const DELIVERY_CHANNEL = 'hookline_delivery';

export interface DeliveryChanges extends DeliveryChangeFeed {
  close(): Promise<void>;
}

// A client that needs the deliveries changed while the connection was down re-reads them;
// workers also poll.
export async function listenForDeliveryChanges(databaseUrl: string, log: NotificationLog): Promise<DeliveryChanges> {
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
