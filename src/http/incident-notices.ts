// Incident changes, for the API's `incidentUpdated` subscriptions: one LISTEN connection per api
// process on the channel the incidents triggers notify (see the incident_notices migration),
// fanned out in process to subscribers of one organization, so a dashboard served by any api
// process sees incidents opened or changed by any process. Workers have no use for them.
import { listenOn, organizationPubSub, type NotificationLog } from '../db/notifications.ts';
import type { IncidentChange, IncidentChangeFeed } from '../domain/correlation/incident-changes.ts';

const INCIDENT_CHANNEL = 'hookline_incident';

export interface IncidentChanges extends IncidentChangeFeed {
  close(): Promise<void>;
}

/** Changes of every organization's incidents, from the incidents triggers; a lost connection misses those made meanwhile. */
export async function listenForIncidentChanges(databaseUrl: string, log: NotificationLog): Promise<IncidentChanges> {
  const pubSub = organizationPubSub<IncidentChange>();
  const connection = await listenOn(
    databaseUrl,
    INCIDENT_CHANNEL,
    (payload) => {
      const change = JSON.parse(payload) as IncidentChange;
      pubSub.publish('change', change.organizationId, change);
    },
    log,
  );
  return { subscribe: (organizationId) => pubSub.subscribe('change', organizationId), close: () => connection.close() };
}
