// Every delivery of the organization, to all its endpoints, newest first: filtered by endpoint,
// status, event type, the answer attempts got and a time window (kept in the address, so a
// filtered list can be shared), with how many match, a page at a time.
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useAddressFilters } from '../address-filters';
import { Breadcrumbs, Badge, ConfirmButton, Empty, ErrorAlert, Loading, PageHeader, TableWrap } from '../components';
import { formatDateTime } from '../format';
import { HistoryNote } from '../history';
import { LoadOlder, type PageSlot } from '../paging';
import { graphql } from '../gql';
import type { DeliveryFilter, DeliveryStatus, ResponseStatusClass } from '../gql/graphql';

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

const SEARCH_DELIVERIES = graphql(`
  query SearchDeliveries($filter: DeliveryFilter, $first: Int, $after: String) {
    deliveries(filter: $filter, first: $first, after: $after) {
      totalCount totalCountIsEstimate
      edges {
        node {
          id status attemptCount createdAt lastAttemptAt
          endpoint { id name }
          event { id type }
          attempts { id number responseStatus error }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

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

  return (
    <>
      <Breadcrumbs trail={[{ label: 'Webhooks', to: '/webhooks' }]} />
      <PageHeader title="Deliveries" />
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
        <DeliveriesPageOf {...slot} filter={filter} />
      ))}
    </>
  );
}

function DeliveriesPageOf({ first, after, filter, onMore }: PageSlot & { filter: DeliveryFilter }) {
  const [{ data, fetching, error }] = useQuery({ query: SEARCH_DELIVERIES, variables: { filter, first: PAGE_SIZE, after } });
  if (error) return <ErrorAlert error={error} />;
  if (!data) return fetching ? <Loading what="Loading deliveries" /> : null;
  const { totalCount, totalCountIsEstimate, edges, pageInfo } = data.deliveries;
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
          {edges.map(({ node }) => {
            const last = node.attempts[node.attempts.length - 1];
            return (
              <tr key={node.id}>
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
  const result = resent.data?.resendDeliveries;
  const run = (from: DeliveryFilter['from']) => resend({ filter: { ...filter, from } }, { additionalTypenames: ['Delivery'] });
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
