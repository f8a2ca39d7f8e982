// One webhook endpoint: its settings (editable) and actions, and its delivery log, kept current by the
// `deliveryUpdated` subscription (new deliveries, status changes and attempts appear without
// a reload), each delivery with its attempts, a Retry for a failed one and a Resend for a
// succeeded one; and Recover, which re-sends every failed delivery of a time window.
import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useQuery } from 'urql';
import { Breadcrumbs, Badge, ErrorAlert, Loading, PageHeader } from '../components';
import { formatDateTime } from '../format';
import { graphql } from '../gql';
import { deliveryCount } from '../webhooks';
import { DeliveryLog } from './DeliveryLog';
import { EditEndpoint } from './EditEndpoint';
import { EndpointCharts } from './EndpointCharts';
import { EndpointActions } from './EndpointActions';
import { EndpointSecret } from './EndpointSecret';
import { RecoverForm } from './RecoverForm';

const ENDPOINT = graphql(`
  query Endpoint($id: ID!) {
    webhookEndpoint(id: $id) { ...EndpointFields }
    webhookDestinationPolicy { allowHttp maxTimeoutMs }
  }
`);

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
