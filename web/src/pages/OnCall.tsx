// The start page, for someone paged: what is broken and which change likely did it (the open
// incidents with their top suspect), what changed lately (the latest deploys), and which webhook
// endpoints are failing now. Incidents and endpoints stay current through the live connection.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { Badge, Empty, ErrorAlert, Loading, PageHeader, TableWrap } from '../components';
import { formatDateTime, formatPercent, shortSha, timeAgo } from '../format';
import { graphql } from '../gql';
import type { OnCallEndpointsQuery, OnCallIncidentFieldsFragment } from '../gql/graphql';
import { LiveStatus, useIncidentChanges, useReconnections, useRereadOn } from '../live';

/** Open and acknowledged incidents shown, each status. */
const INCIDENTS_SHOWN = 20;
const DEPLOYS_SHOWN = 8;
/** The endpoints looked at for failures: the first page of the Webhooks list. */
const ENDPOINTS_READ = 100;
/** Delivery attempts can come by the hundred a second: the endpoints are re-read at most this often. */
const ENDPOINTS_REREAD_MS = 3000;

graphql(`
  fragment OnCallIncidentFields on Incident {
    id title severity status environment startedAt
    service { id name }
    suspects {
      score verdict
      deploy { id commitSha version environment deployedAt deployedBy service { id name } }
      change { id kind summary actor changedAt service { id name } }
    }
  }
`);

const ON_CALL_INCIDENTS = graphql(`
  query OnCallIncidents($first: Int) {
    open: incidents(first: $first, status: OPEN) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }
    acknowledged: incidents(first: $first, status: ACKNOWLEDGED) { edges { node { ...OnCallIncidentFields } } pageInfo { hasNextPage } }
  }
`);

const ON_CALL_DEPLOYS = graphql(`
  query OnCallDeploys($first: Int) {
    deploys(first: $first) {
      edges { node { id commitSha version environment deployedAt deployedBy isRollback service { id name } } }
    }
  }
`);

const ON_CALL_ENDPOINTS = graphql(`
  query OnCallEndpoints($first: Int) {
    webhookEndpoints(first: $first) {
      edges {
        node {
          id name url status consecutiveFailures disabledAt disabledReason
          latestDelivery { id status createdAt event { type } }
        }
      }
      pageInfo { hasNextPage }
    }
  }
`);

const DELIVERY_ATTEMPTED = graphql(`
  subscription OnCallDeliveryAttempted {
    deliveryUpdated { id status attemptCount }
  }
`);

export function OnCallPage() {
  return (
    <>
      <PageHeader title="On call" />
      <OpenIncidents />
      <FailingEndpoints />
      <LatestDeploys />
    </>
  );
}

function OpenIncidents() {
  const [{ data, fetching, error }, reexecute] = useQuery({ query: ON_CALL_INCIDENTS, variables: { first: INCIDENTS_SHOWN } });
  const live = useIncidentChanges();
  useRereadOn(live.changes, reexecute);
  const incidents = data ? [...data.open.edges, ...data.acknowledged.edges].map((edge) => edge.node) : [];
  // The most severe first, then the most recently started.
  incidents.sort((a, b) => a.severity.localeCompare(b.severity) || b.startedAt.localeCompare(a.startedAt));
  return (
    <section aria-labelledby="on-call-incidents" className="on-call-section">
      <div className="section-header">
        <h2 id="on-call-incidents">Open incidents</h2>
        <LiveStatus error={live.error} />
        <Link to="/incidents">All incidents</Link>
      </div>
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading open incidents" />}
      {data && incidents.length === 0 && (
        <Empty>
          <p>No open incidents.</p>
        </Empty>
      )}
      {incidents.length > 0 && (
        <ul className="on-call-incidents" aria-label="Open incidents">
          {incidents.map((incident) => (
            <li key={incident.id} className="card" data-incident-id={incident.id}>
              <div className="incident-head">
                <Badge value={incident.severity} />
                <Badge value={incident.status} />
                <Link to={`/incidents/${incident.id}`}>{incident.title}</Link>
              </div>
              <p className="incident-where subtle">
                <Link to={`/services/${incident.service.id}`}>{incident.service.name}</Link>
                {incident.environment ? ` · ${incident.environment}` : ''} · started{' '}
                <span title={formatDateTime(incident.startedAt)}>{timeAgo(incident.startedAt)}</span>
              </p>
              <Culprit incident={incident} />
            </li>
          ))}
        </ul>
      )}
      {(data?.open.pageInfo.hasNextPage || data?.acknowledged.pageInfo.hasNextPage) && (
        <p className="help">
          More are open than shown here: see <Link to="/incidents?status=OPEN">the open incidents</Link>.
        </p>
      )}
    </section>
  );
}

/** The incident's top suspect (one judged CAUSED comes first): which service and version, who deployed it, when. */
function Culprit({ incident }: { incident: OnCallIncidentFieldsFragment }) {
  const suspect = incident.suspects[0];
  if (!suspect) return <p className="culprit subtle">No likely culprit: no deploy or change before it started.</p>;
  if (suspect.verdict === 'DISMISSED') return <p className="culprit subtle">No likely culprit: every suspect was dismissed.</p>;
  const label = suspect.verdict === 'CAUSED' ? 'Caused by' : 'Likely culprit';
  const { deploy, change } = suspect;
  return (
    <p className="culprit" data-culprit>
      <span className="culprit-label">{label}:</span>{' '}
      {deploy ? (
        <>
          <Link to={`/services/${deploy.service.id}`}>{deploy.service.name}</Link>{' '}
          <Link to={`/deploys/${deploy.id}`}>{deploy.version ?? <span className="mono">{shortSha(deploy.commitSha)}</span>}</Link>
          {deploy.environment ? ` to ${deploy.environment}` : ''}, deployed by {deploy.deployedBy ?? 'someone unnamed'}{' '}
          <span title={formatDateTime(deploy.deployedAt)}>{timeAgo(deploy.deployedAt)}</span>
        </>
      ) : (
        change && (
          <>
            <Link to={`/services/${change.service.id}`}>{change.service.name}</Link> <span className="tag change">{change.kind}</span>{' '}
            {change.summary}, by {change.actor ?? 'someone unnamed'}{' '}
            <span title={formatDateTime(change.changedAt)}>{timeAgo(change.changedAt)}</span>
          </>
        )
      )}{' '}
      {suspect.verdict !== 'CAUSED' && <span className="subtle">({formatPercent(suspect.score)})</span>}
    </p>
  );
}

type ListedEndpoint = OnCallEndpointsQuery['webhookEndpoints']['edges'][number]['node'];

/** Why an endpoint counts as failing now; null: it does not. */
function failure(endpoint: ListedEndpoint): string | null {
  if (endpoint.status === 'DISABLED') return `Disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`;
  if (endpoint.status !== 'ACTIVE') return null; // paused by someone: not failing
  if (endpoint.consecutiveFailures > 0)
    return `${endpoint.consecutiveFailures} failed attempt${endpoint.consecutiveFailures === 1 ? '' : 's'} in a row`;
  if (endpoint.latestDelivery?.status === 'FAILED') return 'Its latest delivery failed';
  return null;
}

function FailingEndpoints() {
  const [{ data, fetching, error }, reexecute] = useQuery({ query: ON_CALL_ENDPOINTS, variables: { first: ENDPOINTS_READ } });
  const changes = useAttemptChanges();
  useRereadOn(changes.changes, reexecute);
  const failing = (data?.webhookEndpoints.edges ?? []).flatMap(({ node }) => {
    const why = failure(node);
    return why ? [{ endpoint: node, why }] : [];
  });
  return (
    <section aria-labelledby="on-call-endpoints" className="on-call-section">
      <div className="section-header">
        <h2 id="on-call-endpoints">Endpoints failing now</h2>
        <LiveStatus error={changes.error} />
        <Link to="/webhooks">All endpoints</Link>
      </div>
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading endpoints" />}
      {data && failing.length === 0 && (
        <Empty>
          <p>
            {data.webhookEndpoints.edges.length === 0
              ? 'No webhook endpoints.'
              : 'None: every active endpoint answered its latest attempt.'}
          </p>
        </Empty>
      )}
      {failing.length > 0 && (
        <TableWrap label="Endpoints failing now">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Status</th>
              <th scope="col">Why</th>
              <th scope="col">Latest delivery</th>
            </tr>
          </thead>
          <tbody>
            {failing.map(({ endpoint, why }) => (
              <tr key={endpoint.id} data-endpoint-id={endpoint.id}>
                <td>
                  <Link to={`/webhooks/${endpoint.id}`}>{endpoint.name}</Link>
                </td>
                <td>
                  <Badge value={endpoint.status} />
                </td>
                <td>{why}</td>
                <td>
                  {endpoint.latestDelivery ? (
                    <Link to={`/deliveries/${endpoint.latestDelivery.id}`}>
                      {endpoint.latestDelivery.event.type} · {endpoint.latestDelivery.status.toLowerCase()},{' '}
                      {timeAgo(endpoint.latestDelivery.createdAt)}
                    </Link>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {data?.webhookEndpoints.pageInfo.hasNextPage && (
        <p className="help">Only the {ENDPOINTS_READ} newest endpoints are looked at here.</p>
      )}
    </section>
  );
}

/**
 * Changes when a delivery attempt was recorded (or the connection came back), at most once per
 * ENDPOINTS_REREAD_MS: an attempt may make an endpoint fail, or recover.
 */
function useAttemptChanges() {
  const [{ data, error }] = useSubscription({ query: DELIVERY_ATTEMPTED }, (count: number | undefined, { deliveryUpdated }) =>
    deliveryUpdated.attemptCount > 0 ? (count ?? 0) + 1 : (count ?? 0),
  );
  const attempts = (data ?? 0) + useReconnections();
  const [changes, setChanges] = useState(0);
  const lastRead = useRef(0);
  useEffect(() => {
    if (attempts === 0) return;
    const wait = Math.max(0, lastRead.current + ENDPOINTS_REREAD_MS - Date.now());
    const timer = setTimeout(() => {
      lastRead.current = Date.now();
      setChanges(attempts);
    }, wait);
    return () => clearTimeout(timer);
  }, [attempts]);
  return { changes, error };
}

function LatestDeploys() {
  const [{ data, fetching, error }] = useQuery({ query: ON_CALL_DEPLOYS, variables: { first: DEPLOYS_SHOWN } });
  const deploys = data?.deploys.edges.map((edge) => edge.node) ?? [];
  return (
    <section aria-labelledby="on-call-deploys" className="on-call-section">
      <div className="section-header">
        <h2 id="on-call-deploys">Latest deploys</h2>
        <Link to="/deploys">All deploys</Link>
      </div>
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading deploys" />}
      {data && deploys.length === 0 && (
        <Empty>
          <p>No deploys yet. A CI pipeline reports them with its service's deploy token.</p>
        </Empty>
      )}
      {deploys.length > 0 && (
        <TableWrap label="Latest deploys">
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">Version</th>
              <th scope="col">Environment</th>
              <th scope="col">Deployed by</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {deploys.map((deploy) => (
              <tr key={deploy.id}>
                <td>
                  <Link to={`/services/${deploy.service.id}`}>{deploy.service.name}</Link>
                </td>
                <td>
                  <Link to={`/deploys/${deploy.id}`}>{deploy.version ?? <span className="mono">{shortSha(deploy.commitSha)}</span>}</Link>
                  {deploy.isRollback && (
                    <>
                      {' '}
                      <span className="tag rollback">rollback</span>
                    </>
                  )}
                </td>
                <td>{deploy.environment ?? '—'}</td>
                <td>{deploy.deployedBy ?? '—'}</td>
                <td title={formatDateTime(deploy.deployedAt)}>{timeAgo(deploy.deployedAt)}</td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </section>
  );
}
