// Every delivery of the organization, to all its endpoints, newest first: filtered by endpoint,
// status, event type, the answer attempts got and a time window (kept in the address, so a
// filtered list can be shared), with how many match, a page at a time. Live: what the
// `deliveryUpdated` subscription says since the pages were read is merged into them (a new
// delivery the filters select appears on top; a listed one shows its newest status).
import { useMemo, useRef } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery, useSubscription } from 'urql';
import { useAddressFilters } from '../address-filters';
import { useCan } from '../auth';
import { Breadcrumbs, Badge, ConfirmButton, Empty, ErrorAlert, Loading, PageHeader, TableWrap } from '../components';
import { formatDateTime } from '../format';
import { HistoryNote } from '../history';
import { LoadOlder, type PageSlot } from '../paging';
import { graphql } from '../gql';
import type {
  DeliveriesChangedSubscription,
  DeliveriesChangedSubscriptionVariables,
  DeliveryFilter,
  DeliveryRowFieldsFragment,
  DeliveryStatus,
  ResponseStatusClass,
} from '../gql/graphql';
import { LiveStatus, useReconnections, useRereadOn } from '../live';
import { newer, type LiveDelivery } from './DeliveryLogPage';

const PAGE_SIZE = 25;
const STATUSES: DeliveryStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];
const RESPONSE_CLASSES: { value: ResponseStatusClass; label: string }[] = [
  { value: 'SUCCESS', label: '2xx' },
  { value: 'REDIRECT', label: '3xx' },
  { value: 'CLIENT_ERROR', label: '4xx' },
  { value: 'SERVER_ERROR', label: '5xx' },
  { value: 'NO_RESPONSE', label: 'No response (timeout, connection error)' },
];

export const SEARCH_OPTIONS = graphql(`
  query SearchOptions {
    eventTypes { name }
    webhookEndpoints(first: 100) { edges { node { id name } } }
  }
`);

const RESEND_DELIVERIES = graphql(`
  mutation ResendDeliveries($filter: DeliveryFilter!) {
    resendDeliveries(filter: $filter) { queued skipped hasMore nextFrom }
  }
`);

graphql(`
  fragment DeliveryRowFields on Delivery {
    id status attemptCount createdAt lastAttemptAt
    endpoint { id name }
    event { id type }
    attempts { id number responseStatus error }
  }
`);

const SEARCH_DELIVERIES = graphql(`
  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {
    deliveries(filter: $filter, first: $first, after: $after) {
      totalCount totalCountIsEstimate
      edges { node { ...DeliveryRowFields } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const DELIVERIES_CHANGED = graphql(`
  subscription DeliveriesChanged($endpointId: ID) {
    deliveryUpdated(endpointId: $endpointId) { ...DeliveryRowFields }
  }
`);

type LiveRows = Map<string, LiveDelivery<DeliveryRowFieldsFragment>>;
const NO_LIVE: LiveRows = new Map();

/** The class of answer a status is in, as the search names them (no status: no answer). */
function responseClass(status: number | null | undefined): ResponseStatusClass | null {
  if (status == null) return 'NO_RESPONSE';
  if (status >= 200 && status < 300) return 'SUCCESS';
  if (status >= 300 && status < 400) return 'REDIRECT';
  if (status >= 400 && status < 500) return 'CLIENT_ERROR';
  if (status >= 500 && status < 600) return 'SERVER_ERROR';
  return null;
}

/** Whether the filters select the delivery, as the API's search does (the window: from inclusive, to exclusive). */
function selects(filter: DeliveryFilter, delivery: DeliveryRowFieldsFragment): boolean {
  const created = Date.parse(delivery.createdAt);
  return (
    (!filter.endpointId || delivery.endpoint.id === filter.endpointId) &&
    (!filter.status || delivery.status === filter.status) &&
    (!filter.eventType || delivery.event.type === filter.eventType) &&
    (!filter.responseStatusClass ||
      delivery.attempts.some((attempt) => responseClass(attempt.responseStatus) === filter.responseStatusClass)) &&
    (!filter.from || created >= Date.parse(String(filter.from))) &&
    (!filter.to || created < Date.parse(String(filter.to)))
  );
}

const newestFirst = (a: DeliveryRowFieldsFragment, b: DeliveryRowFieldsFragment) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id);

export function DeliveriesPage() {
  const [{ data: options }] = useQuery({ query: SEARCH_OPTIONS });
  const { value, select, timeWindowAndClear, timeWindow, pages } = useAddressFilters();
  const filter: DeliveryFilter = {
    endpointId: value('endpoint') || null,
    status: (value('status') || null) as DeliveryStatus | null,
    eventType: value('type') || null,
    responseStatusClass: (value('response') || null) as ResponseStatusClass | null,
    ...timeWindow,
  };
  // Every change of the deliveries (of the endpoint filtered on), the newest view of each.
  const [subscription] = useSubscription<DeliveriesChangedSubscription, LiveRows, DeliveriesChangedSubscriptionVariables>(
    { query: DELIVERIES_CHANGED, variables: { endpointId: filter.endpointId } },
    (previous = new Map(), { deliveryUpdated: delivery }) => {
      const next = new Map(previous);
      const seen = { delivery, receivedAt: performance.now() };
      const known = next.get(delivery.id);
      next.set(delivery.id, known ? newer(known, seen) : seen);
      return next;
    },
  );
  const live = subscription.data ?? NO_LIVE;

  return (
    <>
      <Breadcrumbs trail={[{ label: 'Webhooks', to: '/webhooks' }]} />
      <PageHeader title="Deliveries">
        <LiveStatus error={subscription.error} />
      </PageHeader>
      <form className="filters" role="search" aria-label="Filter deliveries" onSubmit={(event) => event.preventDefault()}>
        {select(
          'endpoint',
          'Endpoint',
          (options?.webhookEndpoints.edges ?? []).map(({ node }) => ({ value: node.id, label: node.name })),
          'All endpoints',
        )}
        {select(
          'status',
          'Status',
          STATUSES.map((status) => ({ value: status, label: status })),
          'Any status',
        )}
        {select(
          'type',
          'Event type',
          (options?.eventTypes ?? []).map(({ name }) => ({ value: name, label: name })),
          'Any event',
        )}
        {select('response', 'Response', RESPONSE_CLASSES, 'Any response')}
        {timeWindowAndClear}
      </form>
      <HistoryNote what="Deliveries and their attempts" />
      {pages((slot) => (
        <DeliveriesPageOf {...slot} filter={filter} live={live} />
      ))}
    </>
  );
}

function DeliveriesPageOf({ first, after, filter, onMore, live }: PageSlot & { filter: DeliveryFilter; live: LiveRows }) {
  const [{ data, fetching, error }, reexecute] = useQuery({ query: SEARCH_DELIVERIES, variables: { filter, first: PAGE_SIZE, after } });
  // Changes made while the live connection was down are not replayed: read the page again.
  useRereadOn(useReconnections(), reexecute);
  const page = data?.deliveries;
  // When the page's data arrived: live views received before it are older than it.
  const loadedAt = useRef(0);
  const loaded = useMemo(() => {
    loadedAt.current = performance.now();
    return page?.edges.map((edge) => edge.node) ?? [];
  }, [page]);
  const { rows, added, dropped } = useMemo(() => {
    const current = loaded.map((delivery) => {
      const seen = live.get(delivery.id);
      return seen ? newer({ delivery, receivedAt: loadedAt.current }, seen).delivery : delivery;
    });
    const kept = current.filter((delivery) => selects(filter, delivery));
    if (!first) return { rows: kept, added: 0, dropped: 0 };
    // The first page also shows the deliveries the filters select made since it was read.
    const onPage = new Set(loaded.map((delivery) => delivery.id));
    const oldestOnPage = loaded.length > 0 && page?.pageInfo.hasNextPage ? loaded[loaded.length - 1]!.createdAt : null;
    const news = [...live.values()]
      .map((seen) => seen.delivery)
      .filter((delivery) => !onPage.has(delivery.id) && selects(filter, delivery) && (!oldestOnPage || delivery.createdAt >= oldestOnPage));
    return { rows: [...news, ...kept].sort(newestFirst), added: news.length, dropped: current.length - kept.length };
  }, [loaded, live, first, filter, page]);

  if (error) return <ErrorAlert error={error} />;
  if (!page) return fetching ? <Loading what="Loading deliveries" /> : null;
  const { totalCountIsEstimate, pageInfo } = page;
  const totalCount = totalCountIsEstimate ? page.totalCount : page.totalCount + added - dropped;
  if (first && totalCount === 0)
    return (
      <Empty>
        <p>No deliveries match these filters.</p>
      </Empty>
    );
  return (
    <>
      {first && (
        <div className="list-summary">
          <p className="subtle" role="status" data-testid="deliveries-total">
            {totalCountIsEstimate
              ? `about ${totalCount.toLocaleString('en')} deliveries`
              : totalCount === 1
                ? '1 delivery'
                : `${totalCount} deliveries`}
          </p>
          <BulkResend filter={filter} count={totalCount} estimate={totalCountIsEstimate} />
        </div>
      )}
      <TableWrap label={first ? 'Deliveries' : 'Older deliveries'} className="deliveries-table">
        {first && (
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Event</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Last answer</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map((node) => {
            const last = node.attempts[node.attempts.length - 1];
            return (
              <tr key={node.id} data-delivery-id={node.id}>
                <td>
                  <Badge value={node.status} />
                </td>
                <td>
                  <Link to={`/events/${node.event.id}`}>{node.event.type}</Link>
                </td>
                <td>
                  <Link to={`/webhooks/${node.endpoint.id}`}>{node.endpoint.name}</Link>
                </td>
                <td className="mono">{last ? (last.responseStatus ?? last.error ?? 'no response') : '—'}</td>
                <td>
                  <Link to={`/deliveries/${node.id}`}>{formatDateTime(node.createdAt)}</Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </TableWrap>
      <LoadOlder onMore={onMore} pageInfo={pageInfo} label="Load older deliveries" />
    </>
  );
}

/** "12 deliveries", "about 40,000 deliveries". */
function deliveriesText(count: number, estimate: boolean): string {
  const number = `${estimate ? 'about ' : ''}${count.toLocaleString('en')}`;
  return count === 1 && !estimate ? '1 delivery' : `${number} deliveries`;
}

/**
 * Resend every delivery the filters select (after a receiver's outage, say every FAILED one of an
 * endpoint in a window), asked first with the count the list shows; 1,000 per click.
 */
function BulkResend({ filter, count, estimate }: { filter: DeliveryFilter; count: number; estimate: boolean }) {
  const [resent, resend] = useMutation(RESEND_DELIVERIES);
  // Resending is a MEMBER's.
  const member = useCan('MEMBER');
  const result = resent.data?.resendDeliveries;
  const run = (from: DeliveryFilter['from']) => resend({ filter: { ...filter, from } }, { additionalTypenames: ['Delivery'] });
  if (!member) return null;
  return (
    <>
      <ConfirmButton
        label={`Resend ${deliveriesText(count, estimate)}…`}
        title={`Resend ${deliveriesText(count, estimate)}?`}
        confirmLabel="Resend"
        onConfirm={() => run(filter.from)}
      >
        <p>
          Every delivery these filters select is sent again, oldest first, as a new attempt with its own delivery id (receivers that
          deduplicate on it see it once). Deliveries of endpoints that are not active, and those whose next attempt is queued already, are
          skipped.
        </p>
        <p>A click sends a batch of the oldest ones; when more remain, a button then sends the next ones.</p>
      </ConfirmButton>
      {resent.error && <ErrorAlert error={resent.error} />}
      {result && (
        <p className="success" role="status" data-testid="bulk-resend-result">
          {result.queued === 0 ? 'Nothing was sent again.' : `${deliveriesText(result.queued, false)} queued again.`}
          {result.skipped > 0 && ` ${deliveriesText(result.skipped, false)} skipped (endpoint not active, or attempt queued already).`}{' '}
          {result.hasMore && result.nextFrom && (
            <button type="button" className="small" disabled={resent.fetching} onClick={() => void run(result.nextFrom)}>
              Resend the next ones
            </button>
          )}
        </p>
      )}
    </>
  );
}
