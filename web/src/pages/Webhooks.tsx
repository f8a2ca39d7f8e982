// Integrations › Webhooks: the endpoints with their status and success rate, their actions,
// and Add Endpoint (the signing secret shown once).
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Badge, Empty, ErrorAlert, FieldError, Loading, PageHeader, FormButtons, SecretOnce } from '../components';
import { formErrors } from '../errors';
import { formatDateTime, formatPercent, timeAgo } from '../format';
import { graphql } from '../gql';
import { checkEndpointInput, EVENT_TYPES } from '../webhooks';
import { EndpointActions } from './EndpointActions';

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
  mutation CreateEndpoint($url: String!, $name: String!, $eventTypes: [String!]) {
    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes) {
      signingSecret
      endpoint { ...EndpointFields }
    }
  }
`);

export function WebhooksPage() {
  const [{ data, fetching, error }] = useQuery({ query: ENDPOINTS, context: ENDPOINTS_CONTEXT });
  const [adding, setAdding] = useState(false);
  const endpoints = data?.webhookEndpoints.edges.map((edge) => edge.node) ?? [];
  return (
    <>
      <p className="breadcrumb">Integrations ›</p>
      <PageHeader title="Webhooks">
        {!adding && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add Endpoint
          </button>
        )}
      </PageHeader>
      <p className="help">
        Hookline sends signed HTTP POST requests to these endpoints when deploys and incidents happen. A failed attempt is retried with growing
        delays (5 times by default); an endpoint whose deliveries keep failing (10 in a row by default) is disabled until you re-enable it.
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
              <dl className="card-stats">
                <div>
                  <dt>Success rate (24 h)</dt>
                  <dd data-testid="success-rate">
                    {formatPercent(stats.successRateLast24h)}{' '}
                    {finished > 0 && <span className="subtle">({stats.succeededLast24h} of {finished})</span>}
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
                  <dt>Failures in a row</dt>
                  <dd>{endpoint.consecutiveFailures}</dd>
                </div>
                <div>
                  <dt>Events</dt>
                  <dd>{endpoint.eventTypes.length === 0 ? 'all' : endpoint.eventTypes.join(', ')}</dd>
                </div>
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
  const id = useId();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [eventTypes, setEventTypes] = useState<string[]>([]);
  const [checked, setChecked] = useState<Record<'url' | 'name', string | undefined>>({ url: undefined, name: undefined });
  const [created, setCreated] = useState<{ id: string; name: string; secret: string } | null>(null);
  const [{ fetching, error }, createEndpoint] = useMutation(CREATE_ENDPOINT);
  const api = formErrors(error, ['url', 'name', 'eventTypes']);
  const urlError = checked.url ?? api.fields.url;
  const nameError = checked.name ?? api.fields.name;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = checkEndpointInput(url.trim(), name);
    setChecked(problems);
    if (problems.url || problems.name) return;
    const result = await createEndpoint({ url: url.trim(), name: name.trim(), eventTypes });
    if (result.data) {
      const { endpoint, signingSecret } = result.data.createWebhookEndpoint;
      setCreated({ id: endpoint.id, name: endpoint.name, secret: signingSecret });
    }
  };

  if (created) {
    return (
      <SecretOnce keptAs="signingKey" title={`Endpoint ${created.name} added`} label="Signing secret" value={created.secret} onDismiss={onClose}>
        <p>
          Your receiver verifies each delivery's <code>webhook-signature</code> with it (Standard Webhooks). Open the{' '}
          <Link to={`/webhooks/${created.id}`}>endpoint's page</Link> to send a test and watch its deliveries.
        </p>
      </SecretOnce>
    );
  }

  const toggleType = (type: string) => setEventTypes((types) => (types.includes(type) ? types.filter((t) => t !== type) : [...types, type]));
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add Endpoint</h2>
      <div className="field">
        <label htmlFor={`${id}-url`}>Endpoint URL</label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks/hookline"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={`${id}-url-help${urlError ? ` ${id}-url-error` : ''}`}
        />
        <p className="help" id={`${id}-url-help`}>
          An https address, at most 2048 characters, that is not a private or local network address.
        </p>
        <FieldError id={`${id}-url-error`} message={urlError} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          placeholder="Production alerts"
          maxLength={250}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
        />
        <FieldError id={`${id}-name-error`} message={nameError} />
      </div>
      <fieldset className="field" aria-describedby={`${id}-types-help`}>
        <legend>Events</legend>
        <p className="help" id={`${id}-types-help`}>
          None selected: every event.
        </p>
        {EVENT_TYPES.map(({ type, label }) => (
          <label key={type} className="checkbox">
            <input type="checkbox" checked={eventTypes.includes(type)} onChange={() => toggleType(type)} />
            <span>
              <span className="mono">{type}</span> <span className="subtle">{label}</span>
            </span>
          </label>
        ))}
        <FieldError id={`${id}-types-error`} message={api.fields.eventTypes} />
      </fieldset>
      <FormButtons error={api.general} busy={fetching} label="Add endpoint" busyLabel="Adding…" onCancel={onClose} />
    </form>
  );
}
