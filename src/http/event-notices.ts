// New events, for the API's listener subscriptions (`hookline listen`): one LISTEN connection per
// api process on the channel the events trigger notifies (see the listeners migration), fanned out
// in process to subscribers of one organization, so a listener served by any api process gets the
// events stored by any process. Workers have no use for them.
import { listenOn, organizationPubSub, type NotificationLog } from '../db/notifications.ts';
import type { EventFeed, EventNotice } from '../domain/webhooks/listeners.ts';

const EVENT_CHANNEL = 'hookline_event';

export interface EventNotices extends EventFeed {
  close(): Promise<void>;
}

/** New events of organizations with a live listener, from the events trigger. */
export async function listenForEvents(databaseUrl: string, log: NotificationLog): Promise<EventNotices> {
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
