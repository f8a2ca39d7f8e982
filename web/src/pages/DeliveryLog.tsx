// The endpoint's delivery log: its pages, the newest first, merged with what the
// `deliveryUpdated` subscription has said since they were read.
import { useEffect, useId, useState } from 'react';
import { useSubscription } from 'urql';
import { graphql } from '../gql';
import { HistoryNote } from '../history';
import { LiveStatus, useReconnections } from '../live';
import type { DeliveryStatus, DeliveryUpdatedSubscription, DeliveryUpdatedSubscriptionVariables } from '../gql/graphql';
import { DeliveryLogPage, newer, type LiveDelivery } from './DeliveryLogPage';

const STATUSES: DeliveryStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];

const DELIVERY_UPDATED = graphql(`
  subscription DeliveryUpdated($endpointId: ID!) {
    deliveryUpdated(endpointId: $endpointId) { ...DeliveryFields }
  }
`);

const NO_LIVE = new Map<string, LiveDelivery>();

export function DeliveryLog({
  endpointId,
  endpointActive,
  onDeliveryChanged,
}: {
  endpointId: string;
  endpointActive: boolean;
  onDeliveryChanged(): void;
}) {
  const filterId = useId();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  useEffect(() => setCursors([null]), [status]);

  // Every change of this endpoint's deliveries, newest view of each (the subscription's own
  // accumulated result, so that no change is lost between two renders).
  const [subscription] = useSubscription<DeliveryUpdatedSubscription, Map<string, LiveDelivery>, DeliveryUpdatedSubscriptionVariables>(
    { query: DELIVERY_UPDATED, variables: { endpointId } },
    (previous = new Map(), result) => {
      const delivery = result.deliveryUpdated;
      const next = new Map(previous);
      const seen: LiveDelivery = { delivery, receivedAt: performance.now() };
      const known = next.get(delivery.id);
      next.set(delivery.id, known ? newer(known, seen) : seen);
      return next;
    },
  );
  const live = subscription.data ?? NO_LIVE;
  // After a reconnection, changes made while the socket was down are not replayed: re-read.
  const refresh = useReconnections();
  useEffect(() => {
    if (refresh > 0) onDeliveryChanged();
  }, [refresh, onDeliveryChanged]);

  // Every attempt may change the endpoint's counts (retrying now, failed in a row, its status).
  const attempted = [...live.values()]
    .filter(({ delivery }) => delivery.attemptCount > 0 || delivery.status !== 'PENDING')
    .map(({ delivery }) => `${delivery.id}:${delivery.status}:${delivery.attemptCount}`)
    .join();
  useEffect(() => {
    if (attempted) onDeliveryChanged();
  }, [attempted, onDeliveryChanged]);

  return (
    <section aria-labelledby={`${filterId}-title`} className="delivery-log">
      <div className="section-header">
        <h2 id={`${filterId}-title`}>Delivery log</h2>
        <LiveStatus error={subscription.error} />
        <div className="field inline">
          <label htmlFor={`${filterId}-status`}>Status</label>
          <select id={`${filterId}-status`} value={status} onChange={(e) => setStatus(e.target.value as DeliveryStatus | '')}>
            <option value="">All</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </div>
      <HistoryNote what="Deliveries and their attempts" />
      {cursors.map((after, index) => (
        <DeliveryLogPage
          key={`${status}|${after ?? ''}`}
          endpointId={endpointId}
          status={status || null}
          after={after}
          live={live}
          refresh={refresh}
          endpointActive={endpointActive}
          first={index === 0}
          onMore={index === cursors.length - 1 ? (cursor) => setCursors((loaded) => [...loaded, cursor]) : undefined}
        />
      ))}
    </section>
  );
}
