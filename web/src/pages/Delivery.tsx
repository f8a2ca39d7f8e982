// One delivery: the request its attempts send (headers, body), and each attempt's answer
// (status, headers, the start of the body), duration and error; Retry or Resend; kept current
// by the `deliveryUpdated` subscription of its endpoint.
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { Badge, Breadcrumbs, ErrorAlert, Loading, PageHeader, ResponseBodyNotes } from '../components';
import { formatDateTime, timeAgo } from '../format';
import { graphql } from '../gql';
import type { DeliveryPageQuery } from '../gql/graphql';
import { DeliveryButtons } from './DeliveryButtons';

const DELIVERY = graphql(`
  query DeliveryPage($id: ID!) {
    delivery(id: $id) {
      id status attemptCount createdAt lastAttemptAt nextAttemptAt requestBody
      event { id type createdAt }
      endpoint { id name url status }
      attempts {
        id number succeeded startedAt durationMs responseStatus error
        responseBody responseBodyBase64 responseContentEncoding responseBodyDecoded
        requestHeaders { name value }
        responseHeaders { name value }
      }
    }
  }
`);

const DELIVERY_CHANGED = graphql(`
  subscription DeliveryChanged($endpointId: ID!) {
    deliveryUpdated(endpointId: $endpointId) { id status attemptCount }
  }
`);

type Attempt = NonNullable<DeliveryPageQuery['delivery']>['attempts'][number];

/** The body as people read JSON: indented; anything else as it is. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function DeliveryPage() {
  const { id = '' } = useParams();
  const [{ data, fetching, error }, reexecute] = useQuery({ query: DELIVERY, variables: { id } });
  const delivery = data?.delivery;
  const [changed] = useSubscription({ query: DELIVERY_CHANGED, variables: { endpointId: delivery?.endpoint.id ?? '' }, pause: !delivery });
  const change = changed.data?.deliveryUpdated;
  const changeKey = change && change.id === id ? `${change.status}:${change.attemptCount}` : null;
  useEffect(() => {
    if (changeKey) reexecute({ requestPolicy: 'network-only' });
  }, [changeKey, reexecute]);

  if (!data && fetching) return <Loading what="Loading the delivery" />;
  if (error && !data) return <ErrorAlert error={error} />;
  if (!delivery) {
    return (
      <>
        <PageHeader title="Delivery not found" />
        <p>
          No delivery of your organization has this id (it may be older than the history kept). See{' '}
          <Link to="/deliveries">all deliveries</Link>.
        </p>
      </>
    );
  }
  const attempts = [...delivery.attempts].reverse();
  return (
    <>
      <Breadcrumbs
        trail={[
          { label: 'Webhooks', to: '/webhooks' },
          { label: delivery.endpoint.name, to: `/webhooks/${delivery.endpoint.id}` },
        ]}
      />
      <PageHeader title={<span className="mono">{delivery.event.type}</span>}>
        <Badge value={delivery.status} />
        <div className="button-row tight">
          <DeliveryButtons delivery={delivery} endpointActive={delivery.endpoint.status === 'ACTIVE'} />
        </div>
      </PageHeader>
      <dl className="facts">
        <dt>Endpoint</dt>
        <dd>
          <Link to={`/webhooks/${delivery.endpoint.id}`}>{delivery.endpoint.name}</Link>{' '}
          <span className="mono wrap subtle">{delivery.endpoint.url}</span>
        </dd>
        <dt>Event</dt>
        <dd>
          <Link to={`/events/${delivery.event.id}`}>{delivery.event.type}</Link>{' '}
          <span className="subtle">{formatDateTime(delivery.event.createdAt)}</span>
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(delivery.createdAt)}</dd>
        <dt>Attempts</dt>
        <dd>
          {delivery.attemptCount}
          {delivery.status === 'PENDING' && delivery.nextAttemptAt && (
            <span className="subtle"> · next {timeAgo(delivery.nextAttemptAt)}</span>
          )}
        </dd>
        <dt>Delivery id</dt>
        <dd className="mono wrap">{delivery.id}</dd>
      </dl>

      <h2>Attempts</h2>
      {attempts.length === 0 ? (
        <p className="subtle">No attempt yet.</p>
      ) : (
        <ol className="attempt-cards" aria-label="Attempts">
          {attempts.map((attempt) => (
            <AttemptCard key={attempt.id} attempt={attempt} />
          ))}
        </ol>
      )}

      <h2>Request body</h2>
      <p className="help">
        The same bytes on every attempt (the receiver verifies the signature over them); the headers below show each attempt's timestamp and
        signature.
      </p>
      <pre className="event-data" aria-label="Request body">
        {pretty(delivery.requestBody)}
      </pre>
    </>
  );
}

function Headers({ label, headers }: { label: string; headers: Attempt['requestHeaders'] }) {
  if (!headers) return <p className="subtle small-text">{label}: not recorded.</p>;
  return (
    <details className="headers">
      <summary>
        {label} ({headers.length})
      </summary>
      <dl className="header-list" aria-label={label}>
        {headers.map((header) => (
          <div key={header.name}>
            <dt className="mono">{header.name}</dt>
            <dd className="mono">{header.value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function AttemptCard({ attempt }: { attempt: Attempt }) {
  return (
    <li className={`card attempt ${attempt.succeeded ? 'ok' : 'bad'}`} data-attempt={attempt.number}>
      <div className="attempt-head">
        <strong>Attempt {attempt.number}</strong>
        <span className={`badge badge-${attempt.succeeded ? 'ok' : 'bad'}`}>
          {attempt.responseStatus != null ? `HTTP ${attempt.responseStatus}` : 'no answer'}
        </span>
        <span data-duration>{attempt.durationMs} ms</span>
        <span className="subtle">{formatDateTime(attempt.startedAt)}</span>
      </div>
      {attempt.error && <p className="attempt-error">{attempt.error}</p>}
      <Headers label="Request headers" headers={attempt.requestHeaders} />
      {attempt.responseStatus != null && <Headers label="Response headers" headers={attempt.responseHeaders} />}
      <ResponseBodyNotes attempt={attempt} />
      {attempt.responseBody && (
        <>
          <p className="subtle small-text">Response body (the first 4 KB)</p>
          <pre className="response-body" aria-label={`Response body of attempt ${attempt.number}`}>
            {attempt.responseBody}
          </pre>
        </>
      )}
    </li>
  );
}
