// One webhook endpoint: its settings (editable) and actions, and its delivery log, kept current by the
// `deliveryUpdated` subscription (new deliveries, status changes and attempts appear without
// a reload), each delivery with its attempts, a Retry for a failed one and a Resend for a
// succeeded one; and Recover, which re-sends every failed delivery of a time window.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useSubscription } from 'urql';
import { useLive } from '../auth';
import { Breadcrumbs, Badge, Empty, ErrorAlert, Loading, PageHeader, ResponseBodyNotes } from '../components';
import { errorMessage } from '../errors';
import { formatDateTime, timeAgo } from '../format';
import { graphql } from '../gql';
import { HistoryNote } from '../history';
import type {
  DeliveryFieldsFragment,
  DeliveryStatus,
  DeliveryUpdatedSubscription,
  DeliveryUpdatedSubscriptionVariables,
  EndpointFieldsFragment,
  WebhookEndpointStatus,
} from '../gql/graphql';
import { deliveryCount } from '../webhooks';
import { DeliveryButtons } from './DeliveryButtons';
import { EndpointCharts } from './EndpointCharts';
import { EndpointActions } from './EndpointActions';
import { EndpointForm, type EndpointValues } from './EndpointForm';
import { EndpointSecret } from './EndpointSecret';

const PAGE_SIZE = 25;
const STATUSES: DeliveryStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];
const BODY_EXCERPT = 280;

const ENDPOINT = graphql(`
  query Endpoint($id: ID!) {
    webhookEndpoint(id: $id) { ...EndpointFields }
    webhookDestinationPolicy { allowHttp maxTimeoutMs }
  }
`);

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

const DELIVERY_UPDATED = graphql(`
  subscription DeliveryUpdated($endpointId: ID!) {
    deliveryUpdated(endpointId: $endpointId) { ...DeliveryFields }
  }
`);

const REENABLE_ENDPOINT = graphql(`
  mutation ReenableEndpoint($id: ID!) {
    setWebhookEndpointActive(id: $id, active: true) { ...EndpointFields }
  }
`);

/** How many failed deliveries of the newest page show their attempts unfolded (the rest: one click). */
const UNFOLDED_FAILURES = 3;

const RECOVER_DELIVERIES = graphql(`
  mutation RecoverDeliveries($endpointId: ID!, $since: DateTime!, $until: DateTime) {
    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued hasMore nextSince }
  }
`);

interface LiveDelivery {
  delivery: DeliveryFieldsFragment;
  receivedAt: number;
}

/** The later of two views of one delivery: more attempts wins, then the one seen last. */
function newer(a: LiveDelivery, b: LiveDelivery): LiveDelivery {
  if (a.delivery.attemptCount !== b.delivery.attemptCount) return a.delivery.attemptCount > b.delivery.attemptCount ? a : b;
  return a.receivedAt >= b.receivedAt ? a : b;
}

const DELIVERY_CONTEXT = { additionalTypenames: ['Delivery'] };
const NO_LIVE = new Map<string, LiveDelivery>();

export function EndpointPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: ENDPOINT, variables: { id } });
  // A delivery's attempts change the endpoint too (its counts, perhaps its status).
  const refreshEndpoint = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);

  if (!data && fetching) return <Loading what="Loading the endpoint" />;
  if (error && !data) return <ErrorAlert error={error} />;
  const endpoint = data?.webhookEndpoint;
  if (!endpoint) {
    return (
      <>
        <PageHeader title="Endpoint not found" />
        <p>
          No endpoint of your organization has this id (it may have been deleted). See <Link to="/webhooks">all endpoints</Link>.
        </p>
      </>
    );
  }
  return (
    <>
      <Breadcrumbs trail={[{ label: 'Webhooks', to: '/webhooks' }]} />
      <PageHeader title={endpoint.name}>
        <Badge value={endpoint.status} title={endpoint.disabledReason ?? undefined} />
      </PageHeader>
      {editing && (
        <EditEndpoint
          endpoint={endpoint}
          onDone={(saved) => {
            setEditing(false);
            setSaved(saved);
          }}
        />
      )}
      {saved && !editing && (
        <p className="success" role="status">
          Endpoint saved.
        </p>
      )}
      {data.webhookDestinationPolicy.allowHttp === false && endpoint.url.startsWith('http:') && (
        <p className="error-alert" role="alert">
          This server sends webhooks to https URLs only (WEBHOOK_ALLOW_HTTP is off): every attempt to this http URL fails until you change
          it to https.
        </p>
      )}
      <dl className="facts">
        <dt>URL</dt>
        <dd className="mono wrap">{endpoint.url}</dd>
        <dt>Status</dt>
        <dd>
          {endpoint.status === 'ACTIVE' && 'Active: receives deliveries.'}
          {endpoint.status === 'INACTIVE' && 'Inactive: deliveries are paused.'}
          {endpoint.status === 'DISABLED' && (
            <span className="disabled-reason">
              Disabled {formatDateTime(endpoint.disabledAt)}: {endpoint.disabledReason ?? 'too many failed deliveries'}. Re-enable it to
              resume.
            </span>
          )}
        </dd>
        <dt>Events</dt>
        <dd>{endpoint.eventTypes.length === 0 ? 'all events' : endpoint.eventTypes.join(', ')}</dd>
        <dt>Custom headers</dt>
        <dd className="mono wrap">
          {endpoint.headers.length === 0 ? 'none' : endpoint.headers.map((header) => `${header.name}: ${header.value}`).join(', ')}
        </dd>
        <dt>Timeout</dt>
        <dd>
          {endpoint.timeoutMs == null
            ? `${data.webhookDestinationPolicy.maxTimeoutMs} ms (the server's default)`
            : `${endpoint.timeoutMs} ms`}
        </dd>
        <dt>Rate limit</dt>
        <dd>{endpoint.rateLimitPerSecond == null ? 'none' : `${endpoint.rateLimitPerSecond} deliveries per second`}</dd>
        <dt>Failed deliveries in a row</dt>
        <dd>{endpoint.consecutiveFailures}</dd>
        <dt>Retrying now</dt>
        <dd className={endpoint.pendingRetries > 0 ? 'retrying' : undefined}>{deliveryCount(endpoint.pendingRetries)}</dd>
        <dt>Overdue</dt>
        <dd
          className={endpoint.overdueDeliveries > 0 ? 'retrying' : undefined}
          title="PENDING deliveries whose attempt was due more than a minute ago"
        >
          {deliveryCount(endpoint.overdueDeliveries)}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(endpoint.createdAt)}</dd>
        <dt>Id</dt>
        <dd className="mono">{endpoint.id}</dd>
      </dl>
      <EndpointActions
        endpoint={endpoint}
        onEdit={
          editing
            ? undefined
            : () => {
                setSaved(false);
                setEditing(true);
              }
        }
        onDeleted={() => navigate('/webhooks')}
      />
      <EndpointSecret endpointId={endpoint.id} />
      <EndpointCharts endpointId={endpoint.id} />
      <RecoverForm endpointId={endpoint.id} status={endpoint.status} onRecovered={refreshEndpoint} />
      <DeliveryLog endpointId={endpoint.id} endpointActive={endpoint.status === 'ACTIVE'} onDeliveryChanged={refreshEndpoint} />
    </>
  );
}

const UPDATE_ENDPOINT = graphql(`
  mutation UpdateEndpoint(
    $id: ID!
    $url: String
    $name: String
    $eventTypes: [String!]
    $headers: [WebhookHeaderInput!]
    $timeoutMs: Int
    $rateLimitPerSecond: Int
  ) {
    updateWebhookEndpoint(
      id: $id
      url: $url
      name: $name
      eventTypes: $eventTypes
      headers: $headers
      timeoutMs: $timeoutMs
      rateLimitPerSecond: $rateLimitPerSecond
    ) { ...EndpointFields }
  }
`);

/** Edit the URL, name, event types and delivery settings (an empty setting is sent as null: cleared); `onDone(true)` once saved, `onDone(false)` on Cancel. */
function EditEndpoint({ endpoint, onDone }: { endpoint: EndpointFieldsFragment; onDone(saved: boolean): void }) {
  const [{ fetching, error }, updateEndpoint] = useMutation(UPDATE_ENDPOINT);
  const submit = async (values: EndpointValues) => {
    const result = await updateEndpoint({ id: endpoint.id, ...values });
    if (result.data) onDone(true);
  };
  return (
    <EndpointForm
      title="Edit endpoint"
      initial={{
        url: endpoint.url,
        name: endpoint.name,
        eventTypes: endpoint.eventTypes,
        headers: endpoint.headers,
        timeoutMs: endpoint.timeoutMs ?? null,
        rateLimitPerSecond: endpoint.rateLimitPerSecond ?? null,
      }}
      submitLabel="Save changes"
      busyLabel="Saving…"
      busy={fetching}
      error={error}
      onSubmit={submit}
      onCancel={() => onDone(false)}
    />
  );
}

function DeliveryLog({
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
  const connection = useLive();
  const [refresh, setRefresh] = useState(0);
  const firstConnection = useRef<number | null>(null);
  useEffect(() => {
    if (connection.state !== 'live') return;
    if (firstConnection.current === null) firstConnection.current = connection.connections;
    else if (connection.connections !== firstConnection.current) {
      firstConnection.current = connection.connections;
      setRefresh((count) => count + 1);
      onDeliveryChanged();
    }
  }, [connection, onDeliveryChanged]);

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
        <span
          className={`live ${subscription.error ? 'off' : connection.state === 'live' ? 'on' : 'waiting'}`}
          role="status"
          data-live={connection.state}
        >
          {subscription.error
            ? `Live updates stopped: ${errorMessage(subscription.error)} Reload to resume.`
            : connection.state === 'live'
              ? 'Live'
              : 'Connecting…'}
        </span>
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
        <DeliveryPage
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

interface DeliveryPageProps {
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

function DeliveryPage({ endpointId, status, after, live, refresh, endpointActive, first, onMore }: DeliveryPageProps) {
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

/** A `datetime-local` input's value for `date`, in the browser's time zone. */
function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/**
 * Re-sends the FAILED and CANCELLED deliveries of a window (after the receiver's outage), a batch
 * per click; an endpoint that is not active is re-enabled first, since it would take none.
 */
function RecoverForm({ endpointId, status, onRecovered }: { endpointId: string; status: WebhookEndpointStatus; onRecovered(): void }) {
  const id = useId();
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 24 * 3600_000)));
  const [until, setUntil] = useState('');
  const [reenabled, reenable] = useMutation(REENABLE_ENDPOINT);
  const [recovered, recover] = useMutation(RECOVER_DELIVERIES);
  const result = recovered.data?.recoverDeliveries;
  const active = status === 'ACTIVE';
  const submit = async (from: string) => {
    if (!active) {
      const enabled = await reenable({ id: endpointId });
      if (enabled.error) return;
    }
    await recover(
      { endpointId, since: new Date(from).toISOString(), until: until ? new Date(until).toISOString() : null },
      DELIVERY_CONTEXT,
    );
    onRecovered();
  };
  const busy = recovered.fetching || reenabled.fetching;
  return (
    <form
      className="card form recover"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit(since);
      }}
    >
      <h2 id={`${id}-title`}>Recover failed deliveries</h2>
      <p className="help">
        After an outage of your receiver: every FAILED or CANCELLED delivery created in the window, and every PENDING one there that lost
        its queued attempt, is sent again (same delivery id), looking at 1,000 per click.
        {!active && (
          <>
            {' '}
            <strong>{status === 'DISABLED' ? 'Disabled' : 'Inactive'}: Recover re-enables it first</strong> (its count of failures in a row
            starts again from 0).
          </>
        )}
      </p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-since`}>From</label>
          <input id={`${id}-since`} type="datetime-local" required value={since} onChange={(e) => setSince(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-until`}>To (empty: now)</label>
          <input id={`${id}-until`} type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </div>
        <div className="field field-button">
          <button type="submit" className={active ? undefined : 'primary'} disabled={busy || !since}>
            {busy ? 'Recovering…' : active ? 'Recover' : 'Re-enable and recover'}
          </button>
        </div>
      </div>
      {(reenabled.error ?? recovered.error) && <ErrorAlert error={reenabled.error ?? recovered.error} />}
      {result && (
        <p className="success" role="status">
          {result.queued === 0 ? 'Nothing to send again in this window.' : `${deliveryCount(result.queued)} queued again.`}{' '}
          {result.hasMore && result.nextSince && (
            <button type="button" className="small" onClick={() => void submit(result.nextSince!)}>
              Recover the next ones
            </button>
          )}
        </p>
      )}
    </form>
  );
}

function DeliveryItem({
  delivery,
  endpointActive,
  unfold,
}: {
  delivery: DeliveryFieldsFragment;
  endpointActive: boolean;
  unfold: boolean;
}) {
  const attemptsLabel = `${delivery.attemptCount} attempt${delivery.attemptCount === 1 ? '' : 's'}`;
  return (
    <li className="delivery card" data-delivery-id={delivery.id} data-status={delivery.status} data-attempts={delivery.attempts.length}>
      <div className="delivery-head">
        <Badge value={delivery.status} />
        <span className="mono">{delivery.event.type}</span>
        <span className="subtle" title={formatDateTime(delivery.createdAt)}>
          {timeAgo(delivery.createdAt)}
        </span>
        <span className="subtle">{attemptsLabel}</span>
        {delivery.status === 'PENDING' && delivery.nextAttemptAt && (
          <span className="subtle">next attempt {timeAgo(delivery.nextAttemptAt)}</span>
        )}
        <DeliveryButtons delivery={delivery} endpointActive={endpointActive} />
      </div>
      <p className="subtle mono small-text">
        <Link to={`/deliveries/${delivery.id}`}>Delivery {delivery.id}</Link>
      </p>
      {delivery.attempts.length > 0 && (
        <details className="attempts" open={unfold || undefined}>
          <summary>
            Attempts ({delivery.attempts.length}) · last: {lastAnswer(delivery.attempts[delivery.attempts.length - 1]!)}
          </summary>
          <ol className="attempt-list">
            {delivery.attempts.map((attempt) => (
              <li key={attempt.id} className={`attempt ${attempt.succeeded ? 'ok' : 'bad'}`} data-attempt={attempt.number}>
                <div className="attempt-head">
                  <strong>#{attempt.number}</strong>
                  <span className={`badge badge-${attempt.succeeded ? 'ok' : 'bad'}`}>
                    {attempt.responseStatus != null ? `HTTP ${attempt.responseStatus}` : 'no answer'}
                  </span>
                  <span className="subtle">{attempt.durationMs} ms</span>
                  <span className="subtle">{formatDateTime(attempt.startedAt)}</span>
                </div>
                {attempt.error && <p className="attempt-error">{attempt.error}</p>}
                <ResponseBodyNotes attempt={attempt} />
                {attempt.responseBody && (
                  <pre className="response-body" aria-label={`Response body of attempt ${attempt.number}`}>
                    {attempt.responseBody.length > BODY_EXCERPT ? `${attempt.responseBody.slice(0, BODY_EXCERPT)}…` : attempt.responseBody}
                  </pre>
                )}
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}

/** "HTTP 503", or the error of an attempt that got no answer. */
function lastAnswer(attempt: DeliveryFieldsFragment['attempts'][number]): string {
  return attempt.responseStatus != null ? `HTTP ${attempt.responseStatus}` : (attempt.error ?? 'no answer');
}
