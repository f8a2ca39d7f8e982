// One page of the endpoint's delivery log (the first also shows the deliveries made since it was
// read), each delivery in its newest view: the page's or the subscription's.
import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from 'urql';
import { Empty, ErrorAlert, Loading } from '../components';
import { graphql } from '../gql';
import type { DeliveryFieldsFragment, DeliveryStatus } from '../gql/graphql';
import { DeliveryItem } from './DeliveryItem';

const PAGE_SIZE = 25;

const DELIVERIES = graphql(`
  query EndpointDeliveries($id: ID!, $first: Int, $after: String, $status: DeliveryStatus) {
    webhookEndpoint(id: $id) {
      id
      deliveries(first: $first, after: $after, status: $status) {
        edges { node { ...DeliveryFields } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

/** How many failed deliveries of the newest page show their attempts unfolded (the rest: one click). */
const UNFOLDED_FAILURES = 3;

/** A delivery as the subscription last told it, and when (performance.now()). */
export interface LiveDelivery<D extends { attemptCount: number } = DeliveryFieldsFragment> {
  delivery: D;
  receivedAt: number;
}

/** The later of two views of one delivery: more attempts wins, then the one seen last. */
export function newer<D extends { attemptCount: number }>(a: LiveDelivery<D>, b: LiveDelivery<D>): LiveDelivery<D> {
  if (a.delivery.attemptCount !== b.delivery.attemptCount) return a.delivery.attemptCount > b.delivery.attemptCount ? a : b;
  return a.receivedAt >= b.receivedAt ? a : b;
}

/** Queries of deliveries are re-read when a mutation returns a Delivery (urql's document cache). */
export const DELIVERY_CONTEXT = { additionalTypenames: ['Delivery'] };

interface DeliveryLogPageProps {
  endpointId: string;
  status: DeliveryStatus | null;
  after: string | null;
  live: Map<string, LiveDelivery>;
  /** Changes when the page must be read again. */
  refresh: number;
  /** Retry and unfolded attempts only make sense while the endpoint takes deliveries. */
  endpointActive: boolean;
  first: boolean;
  onMore?: (cursor: string) => void;
}

export function DeliveryLogPage({ endpointId, status, after, live, refresh, endpointActive, first, onMore }: DeliveryLogPageProps) {
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: DELIVERIES,
    variables: { id: endpointId, first: PAGE_SIZE, after, status },
    context: DELIVERY_CONTEXT,
  });
  useEffect(() => {
    if (refresh > 0) reexecute({ requestPolicy: 'network-only' });
  }, [refresh, reexecute]);
  // When the page's data arrived: live views received before it are older than it.
  const loadedAt = useRef(0);
  const page = data?.webhookEndpoint?.deliveries;
  const loaded = useMemo(() => {
    loadedAt.current = performance.now();
    return page?.edges.map((edge) => edge.node) ?? [];
  }, [page]);

  const deliveries = useMemo(() => {
    const fromPage = loaded.map((delivery) => {
      const seen = live.get(delivery.id);
      return seen ? newer({ delivery, receivedAt: loadedAt.current }, seen).delivery : delivery;
    });
    if (!first) return fromPage;
    // The first page also shows deliveries made since it was read.
    const onPage = new Set(loaded.map((delivery) => delivery.id));
    const added = [...live.values()].map((seen) => seen.delivery).filter((delivery) => !onPage.has(delivery.id));
    const oldestOnPage = loaded.length > 0 && page?.pageInfo.hasNextPage ? loaded[loaded.length - 1]!.createdAt : null;
    return [...added.filter((delivery) => !oldestOnPage || delivery.createdAt >= oldestOnPage), ...fromPage]
      .filter((delivery) => !status || delivery.status === status)
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id)));
  }, [loaded, live, first, status, page]);

  // The attempts of the newest unfinished or failed deliveries are shown unfolded; the others are a click away.
  const unfolded = new Set(
    deliveries
      .filter((delivery) => delivery.status !== 'SUCCEEDED' && delivery.status !== 'CANCELLED')
      .slice(0, UNFOLDED_FAILURES)
      .map((delivery) => delivery.id),
  );
  if (error) return <ErrorAlert error={error} />;
  if (!data) return fetching ? <Loading what="Loading deliveries" /> : null;
  if (first && deliveries.length === 0) {
    return (
      <Empty>
        <p>{status ? `No ${status} deliveries.` : 'No deliveries yet. Send Test to see one arrive here.'}</p>
      </Empty>
    );
  }
  return (
    <>
      <ol className="deliveries" aria-label={first ? 'Deliveries' : 'Older deliveries'}>
        {deliveries.map((delivery) => (
          <DeliveryItem
            key={delivery.id}
            delivery={delivery}
            endpointActive={endpointActive}
            unfold={endpointActive && first && unfolded.has(delivery.id)}
          />
        ))}
      </ol>
      {onMore && page?.pageInfo.hasNextPage && page.pageInfo.endCursor && (
        <button type="button" onClick={() => onMore(page.pageInfo.endCursor!)}>
          Load older deliveries
        </button>
      )}
    </>
  );
}
