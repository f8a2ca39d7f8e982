// The organization's events, newest first, filtered by type and time window; each shows its
// deliveries to every endpoint. One event has its own page with its data.
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { useAddressFilters } from '../address-filters';
import { Breadcrumbs, Badge, Empty, ErrorAlert, Loading, PageHeader } from '../components';
import { HistoryNote } from '../history';
import { formatDateTime } from '../format';
import { LoadOlder, type PageSlot } from '../paging';
import { graphql } from '../gql';
import type { EventFilter, EventSummaryFragment } from '../gql/graphql';
import { SEARCH_OPTIONS } from './Deliveries';

const PAGE_SIZE = 20;
/** Deliveries shown under each event (an event goes to at most a handful of endpoints). */
const DELIVERIES_PER_EVENT = 10;

graphql(`
  fragment EventSummary on Event {
    id type createdAt example
    deliveries(first: 10) {
      totalCount
      edges { node { id status attemptCount endpoint { id name } } }
    }
  }
`);

const SEARCH_EVENTS = graphql(`
  query SearchEvents($filter: EventFilter, $first: Int, $after: String) {
    events(filter: $filter, first: $first, after: $after) {
      totalCount totalCountIsEstimate
      edges { node { ...EventSummary } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const EVENT = graphql(`
  query EventPage($id: ID!) {
    event(id: $id) { ...EventSummary data }
  }
`);

export function EventsPage() {
  const [{ data: options }] = useQuery({ query: SEARCH_OPTIONS });
  const { value, select, timeWindowAndClear, timeWindow, pages } = useAddressFilters();
  const filter: EventFilter = { type: value('type') || null, ...timeWindow };

  return (
    <>
      <Breadcrumbs trail={[{ label: 'Webhooks', to: '/webhooks' }]} />
      <PageHeader title="Events" />
      <form className="filters" role="search" aria-label="Filter events" onSubmit={(event) => event.preventDefault()}>
        {select(
          'type',
          'Event type',
          (options?.eventTypes ?? []).map(({ name }) => ({ value: name, label: name })),
          'Any event',
        )}
        {timeWindowAndClear}
      </form>
      <HistoryNote what="Events and their payloads" />
      {pages((slot) => (
        <EventsPageOf {...slot} filter={filter} />
      ))}
    </>
  );
}

function EventsPageOf({ first, after, filter, onMore }: PageSlot & { filter: EventFilter }) {
  const [{ data, fetching, error }] = useQuery({ query: SEARCH_EVENTS, variables: { filter, first: PAGE_SIZE, after } });
  if (error) return <ErrorAlert error={error} />;
  if (!data) return fetching ? <Loading what="Loading events" /> : null;
  const { totalCount, totalCountIsEstimate, edges, pageInfo } = data.events;
  if (first && totalCount === 0)
    return (
      <Empty>
        <p>No events match these filters.</p>
      </Empty>
    );
  return (
    <>
      {first && (
        <p className="subtle" role="status" data-testid="events-total">
          {totalCountIsEstimate ? `about ${totalCount.toLocaleString('en')} events` : totalCount === 1 ? '1 event' : `${totalCount} events`}
        </p>
      )}
      <ol className="cards" aria-label={first ? 'Events' : 'More events'}>
        {edges.map(({ node }) => (
          <li key={node.id} className="card">
            <EventCard event={node} />
          </li>
        ))}
      </ol>
      <LoadOlder onMore={onMore} pageInfo={pageInfo} label="Load older events" />
    </>
  );
}

function EventCard({ event }: { event: EventSummaryFragment }) {
  const { totalCount, edges } = event.deliveries;
  return (
    <>
      <div className="card-title">
        <Link to={`/events/${event.id}`}>{event.type}</Link>
        {event.example && <span className="tag">example</span>}
        <span className="subtle">{formatDateTime(event.createdAt)}</span>
      </div>
      {totalCount === 0 ? (
        <p className="subtle">Sent to no endpoint (none was subscribed).</p>
      ) : (
        <ul className="event-deliveries" aria-label={`Deliveries of ${event.type}`}>
          {edges.map(({ node }) => (
            <li key={node.id}>
              <Badge value={node.status} /> <Link to={`/webhooks/${node.endpoint.id}`}>{node.endpoint.name}</Link>{' '}
              <span className="subtle">{node.attemptCount === 1 ? '1 attempt' : `${node.attemptCount} attempts`}</span>
            </li>
          ))}
          {totalCount > DELIVERIES_PER_EVENT && <li className="subtle">and {totalCount - DELIVERIES_PER_EVENT} more</li>}
        </ul>
      )}
    </>
  );
}

export function EventPage() {
  const { id = '' } = useParams();
  const [{ data, fetching, error }] = useQuery({ query: EVENT, variables: { id } });
  if (!data && fetching) return <Loading what="Loading the event" />;
  if (error && !data) return <ErrorAlert error={error} />;
  const event = data?.event;
  if (!event) {
    return (
      <>
        <PageHeader title="Event not found" />
        <p>
          No event of your organization has this id. See <Link to="/events">all events</Link>.
        </p>
      </>
    );
  }
  return (
    <>
      <Breadcrumbs
        trail={[
          { label: 'Webhooks', to: '/webhooks' },
          { label: 'Events', to: '/events' },
        ]}
      />
      <PageHeader title={event.type} />
      <EventCard event={event} />
      <h2>Data</h2>
      <pre className="event-data">{JSON.stringify(event.data, null, 2)}</pre>
    </>
  );
}
