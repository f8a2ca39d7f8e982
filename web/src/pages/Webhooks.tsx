// Integrations › Webhooks: the endpoints with their status and success rate, their actions,
// and Add Endpoint (the signing secret shown once).
import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { Badge, Empty, ErrorAlert, Loading, PageHeader, SecretOnce } from '../components';
import { formatDateTime, formatPercent, timeAgo } from '../format';
import { graphql } from '../gql';
import { deliveryCount } from '../webhooks';
import { EndpointActions } from './EndpointActions';
import { EndpointForm, type EndpointValues } from './EndpointForm';

/** Refetch on any endpoint change, even while the list is empty. */
const ENDPOINTS_CONTEXT = { additionalTypenames: ['WebhookEndpoint', 'Delivery'] };

const ENDPOINTS = graphql(`
  query Endpoints {
    webhookEndpoints(first: 50) {
      edges {
        node {
          ...EndpointFields
          stats { deliveriesLast24h succeededLast24h failedLast24h successRateLast24h }
          latestDelivery { id status createdAt event { type } }
        }
      }
      pageInfo { hasNextPage }
    }
  }
`);

const CREATE_ENDPOINT = graphql(`
  mutation CreateEndpoint(
    $url: String!
    $name: String!
    $eventTypes: [String!]
    $headers: [WebhookHeaderInput!]
    $timeoutMs: Int
    $rateLimitPerSecond: Int
  ) {
    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers, timeoutMs: $timeoutMs, rateLimitPerSecond: $rateLimitPerSecond) {
      signingSecret
      endpoint { ...EndpointFields }
    }
  }
`);

export function WebhooksPage() {
  const [{ data, fetching, error }] = useQuery({ query: ENDPOINTS, context: ENDPOINTS_CONTEXT });
  const [adding, setAdding] = useState(false);
  // Endpoints are an ADMIN's to add.
  const admin = useCan('ADMIN');
  const endpoints = data?.webhookEndpoints.edges.map((edge) => edge.node) ?? [];
  return (
    <>
      <PageHeader title="Webhooks">
        {admin && !adding && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add Endpoint
          </button>
        )}
      </PageHeader>
      <p className="help">
        Hookline sends signed HTTP POST requests to these endpoints when deploys and incidents happen. A failed attempt is retried with
        growing delays (5 times by default); an endpoint whose deliveries keep failing (10 in a row by default) is disabled until you
        re-enable it.
      </p>
      {adding && <AddEndpoint onClose={() => setAdding(false)} />}
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading endpoints" />}
      {data && endpoints.length === 0 && !adding && (
        <Empty>
          <p>No endpoints yet. Add one to receive deploy and incident events.</p>
        </Empty>
      )}
      <ul className="cards endpoint-list" aria-label="Endpoints">
        {endpoints.map((endpoint) => {
          const { stats, latestDelivery } = endpoint;
          const finished = stats.succeededLast24h + stats.failedLast24h;
          return (
            <li key={endpoint.id} className="card endpoint-card" data-endpoint-id={endpoint.id}>
              <div className="card-title">
                <Link to={`/webhooks/${endpoint.id}`}>{endpoint.name}</Link>
                <Badge value={endpoint.status} title={endpoint.disabledReason ?? undefined} />
              </div>
              <p className="mono wrap url">{endpoint.url}</p>
              {endpoint.status === 'DISABLED' && (
                <p className="disabled-reason">
                  Disabled {formatDateTime(endpoint.disabledAt)}: {endpoint.disabledReason ?? 'too many failed deliveries'}
                </p>
              )}
              <p className="card-meta">
                <span>
                  <span className="subtle">Events:</span> {endpoint.eventTypes.length === 0 ? 'all' : endpoint.eventTypes.join(', ')}
                </span>
              </p>
              <dl className="card-stats">
                <div>
                  <dt>Deliveries (24 h)</dt>
                  <dd data-testid="deliveries-24h">{stats.deliveriesLast24h}</dd>
                </div>
                <div>
                  <dt>Success rate (24 h)</dt>
                  <dd
                    data-testid="success-rate"
                    title="Of the deliveries of the last 24 hours that have finished (succeeded or failed for good); pending and cancelled ones do not count."
                  >
                    {formatPercent(stats.successRateLast24h)}{' '}
                    <span className="subtle">
                      ({stats.succeededLast24h} of {finished} finished)
                    </span>
                  </dd>
                </div>
                <div>
                  <dt>Last delivery</dt>
                  <dd>
                    {latestDelivery ? (
                      <>
                        <Badge value={latestDelivery.status} /> <span className="subtle">{timeAgo(latestDelivery.createdAt)}</span>
                      </>
                    ) : (
                      'none yet'
                    )}
                  </dd>
                </div>
                <div>
                  <dt>Failed deliveries in a row</dt>
                  <dd>{endpoint.consecutiveFailures}</dd>
                </div>
                <div>
                  <dt>Retrying now</dt>
                  <dd className={endpoint.pendingRetries > 0 ? 'retrying' : undefined}>{deliveryCount(endpoint.pendingRetries)}</dd>
                </div>
                {endpoint.overdueDeliveries > 0 && (
                  <div>
                    <dt>Overdue</dt>
                    <dd className="retrying">{deliveryCount(endpoint.overdueDeliveries)}</dd>
                  </div>
                )}
              </dl>
              <EndpointActions endpoint={endpoint} linkDeliveries />
            </li>
          );
        })}
      </ul>
      {data?.webhookEndpoints.pageInfo.hasNextPage && <p className="help">Showing the 50 newest endpoints.</p>}
    </>
  );
}

function AddEndpoint({ onClose }: { onClose(): void }) {
  const [created, setCreated] = useState<{ id: string; name: string; secret: string } | null>(null);
  const [{ fetching, error }, createEndpoint] = useMutation(CREATE_ENDPOINT);

  const submit = async (values: EndpointValues) => {
    const result = await createEndpoint(values);
    if (result.data) {
      const { endpoint, signingSecret } = result.data.createWebhookEndpoint;
      setCreated({ id: endpoint.id, name: endpoint.name, secret: signingSecret });
    }
  };

  if (created) {
    return (
      <SecretOnce
        keptAs="signingKey"
        title={`Endpoint ${created.name} added`}
        label="Signing secret"
        value={created.secret}
        onDismiss={onClose}
      >
        <p>
          Your receiver verifies each delivery's <code>webhook-signature</code> with it (Standard Webhooks). Open the{' '}
          <Link to={`/webhooks/${created.id}`}>endpoint's page</Link> to send a test and watch its deliveries.
        </p>
      </SecretOnce>
    );
  }
  return (
    <EndpointForm
      title="Add Endpoint"
      submitLabel="Add endpoint"
      busyLabel="Adding…"
      busy={fetching}
      error={error}
      onSubmit={submit}
      onCancel={onClose}
    />
  );
}
