// Lists kept current by the live connection (graphql-ws): re-read when a subscription says that
// what they show changed, and after a reconnection, since changes made while the socket was down
// are not replayed.
import { useEffect, useRef, useState } from 'react';
import { useSubscription, type CombinedError } from 'urql';
import { useLive } from './auth';
import { errorMessage } from './errors';
import { graphql } from './gql';

const INCIDENT_CHANGED = graphql(`
  subscription IncidentChanged {
    incidentUpdated { id }
  }
`);

/** How many times the live connection came back since the component mounted (its first connection is not one). */
export function useReconnections(): number {
  const connection = useLive();
  const firstConnection = useRef<number | null>(null);
  const [reconnections, setReconnections] = useState(0);
  useEffect(() => {
    if (connection.state !== 'live') return;
    if (firstConnection.current === null) firstConnection.current = connection.connections;
    else if (connection.connections !== firstConnection.current) {
      firstConnection.current = connection.connections;
      setReconnections((count) => count + 1);
    }
  }, [connection]);
  return reconnections;
}

/**
 * Changes whenever an incident of the organization is opened or changes (or the connection came
 * back): a list of incidents re-reads itself on it. The subscription's error, if it stopped.
 */
export function useIncidentChanges(): { changes: number; error: CombinedError | undefined } {
  const [{ data, error }] = useSubscription({ query: INCIDENT_CHANGED }, (count: number | undefined) => (count ?? 0) + 1);
  return { changes: (data ?? 0) + useReconnections(), error };
}

/** Re-reads a query (its `reexecute`) from the server each time `changes` moves past its first value. */
export function useRereadOn(changes: number, reexecute: (context: { requestPolicy: 'network-only' }) => void): void {
  const seen = useRef(changes);
  useEffect(() => {
    if (changes === seen.current) return;
    seen.current = changes;
    reexecute({ requestPolicy: 'network-only' });
  }, [changes, reexecute]);
}

/** Whether a list is live: connected, connecting, or stopped (with why). */
export function LiveStatus({ error }: { error?: CombinedError }) {
  const connection = useLive();
  return (
    <span className={`live ${error ? 'off' : connection.state === 'live' ? 'on' : 'waiting'}`} role="status" data-live={connection.state}>
      {error ? `Live updates stopped: ${errorMessage(error)} Reload to resume.` : connection.state === 'live' ? 'Live' : 'Connecting…'}
    </span>
  );
}
