// The deploy timeline: deploys and other changes (feature flags, configuration), newest first,
// filtered by service and environment (kept in the address, so a filtered list can be shared), a
// page at a time. Rollbacks and rolled-back deploys are marked.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Badge, Empty, ErrorAlert, Loading, PageHeader, ServiceOptions } from '../components';
import { formatDateTime, shortSha } from '../format';
import { LoadOlder, usePages, type PageSlot } from '../paging';
import { graphql } from '../gql';
import { CommitMessage } from '../commits';
import type { TimelineIncidentsQuery } from '../gql/graphql';

const PAGE_SIZE = 25;

export const SERVICE_OPTIONS = graphql(`
  query ServiceOptions {
    services(first: 100) { edges { node { id name } } }
  }
`);

const TIMELINE = graphql(`
  query Timeline($first: Int, $after: String, $serviceId: ID, $environment: String) {
    timeline(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {
      edges {
        node {
          __typename
          ... on Deploy {
            id commitSha headline branch environment version deployedBy deployedAt isRollback rolledBack
            service { id name }
            suspectIn { verdict incident { id title } }
          }
          ... on ChangeEvent {
            id kind summary url environment changedAt
            service { id name }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** The incidents marked on the timeline: the most recently started ones, placed among the deploys by their start. */
const TIMELINE_INCIDENTS = graphql(`
  query TimelineIncidents($serviceId: ID) {
    incidents(first: 100, serviceId: $serviceId, orderBy: STARTED_AT) {
      edges { node { id title severity status environment startedAt service { id name } } }
    }
  }
`);

type TimelineIncident = TimelineIncidentsQuery['incidents']['edges'][number]['node'];

export function DeploysPage() {
  const [params, setParams] = useSearchParams();
  const serviceId = params.get('service') ?? '';
  const environment = params.get('environment') ?? '';
  const [{ data: options }] = useQuery({ query: SERVICE_OPTIONS });
  const id = useId();
  const [environmentDraft, setEnvironmentDraft] = useState(environment);
  useEffect(() => setEnvironmentDraft(environment), [environment]);
  const pages = usePages(`${serviceId}|${environment}`);

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const applyEnvironment = (event: FormEvent) => {
    event.preventDefault();
    setFilter('environment', environmentDraft.trim());
  };

  return (
    <>
      <PageHeader title="Deploys">
        <Link to="/environments">Environments and aliases</Link>
      </PageHeader>
      <form className="filters" onSubmit={applyEnvironment} role="search" aria-label="Filter deploys">
        <div className="field">
          <label htmlFor={`${id}-service`}>Service</label>
          <select id={`${id}-service`} value={serviceId} onChange={(e) => setFilter('service', e.target.value)}>
            <ServiceOptions none="All services" services={options?.services.edges} />
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-environment`}>Environment</label>
          <input
            id={`${id}-environment`}
            value={environmentDraft}
            placeholder="any"
            onChange={(e) => setEnvironmentDraft(e.target.value)}
            onBlur={() => environmentDraft.trim() !== environment && setFilter('environment', environmentDraft.trim())}
          />
        </div>
        <button type="submit">Filter</button>
        {(serviceId || environment) && (
          <button type="button" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
            Clear filters
          </button>
        )}
      </form>
      <div className="deploy-list">
        {pages((slot) => (
          <DeployPage {...slot} serviceId={serviceId || null} environment={environment || null} />
        ))}
      </div>
    </>
  );
}

interface DeployPageProps extends PageSlot {
  serviceId: string | null;
  environment: string | null;
}

function DeployPage({ first, after, serviceId, environment, onMore }: DeployPageProps) {
  const [{ data, fetching, error }] = useQuery({ query: TIMELINE, variables: { first: PAGE_SIZE, after, serviceId, environment } });
  const [{ data: incidentData }] = useQuery({ query: TIMELINE_INCIDENTS, variables: { serviceId } });
  if (error) return <ErrorAlert error={error} />;
  if (!data) return fetching ? <Loading what="Loading deploys" /> : null;
  const entries = data.timeline.edges.map((edge) => edge.node);
  if (first && entries.length === 0) {
    return (
      <Empty>
        <p>
          {serviceId || environment
            ? 'No deploys or changes match these filters.'
            : 'No deploys yet. CI pipelines report them to POST /api/ingest/deploy, and flag or configuration tools their changes to POST /api/ingest/change.'}
        </p>
      </Empty>
    );
  }
  // This page's incidents: those that started between its oldest entry and the previous page's
  // (the first page: anything newer), in the environment filtered on (or of no environment).
  const at = (entry: (typeof entries)[number]) =>
    entry.__typename === 'Deploy' ? entry.deployedAt : entry.__typename === 'ChangeEvent' ? entry.changedAt : '';
  const oldest = data.timeline.pageInfo.hasNextPage && entries.length > 0 ? at(entries[entries.length - 1]!) : '';
  const newest = first || entries.length === 0 ? null : at(entries[0]!);
  const incidents = (incidentData?.incidents.edges ?? [])
    .map((edge) => edge.node)
    .filter(
      (incident) =>
        incident.startedAt >= oldest &&
        (newest === null || incident.startedAt < newest) &&
        (!environment || incident.environment == null || incident.environment === environment),
    );
  const rows = [
    ...entries.map((entry) => ({ at: at(entry), entry, incident: null })),
    ...incidents.map((incident) => ({ at: incident.startedAt, entry: null, incident })),
    // A change at the very moment an incident started is one of its suspects: below its mark.
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : Number(b.incident !== null) - Number(a.incident !== null)));
  return (
    <>
      <ol className="cards" aria-label={first ? 'Deploys and changes' : 'More deploys and changes'}>
        {rows.map(({ entry, incident }) =>
          incident ? (
            <IncidentMark key={incident.id} incident={incident} />
          ) : !entry ? null : entry.__typename === 'Deploy' ? (
            <li key={entry.id} className="card deploy-card">
              <div className="card-title">
                <Link to={`/deploys/${entry.id}`}>
                  <span className="mono">{shortSha(entry.commitSha)}</span> {entry.version ? `· ${entry.version}` : ''}
                </Link>
                {entry.isRollback && <span className="tag rollback">rollback</span>}
                {entry.rolledBack && <span className="tag warning">rolled back</span>}
                <span className="subtle">{formatDateTime(entry.deployedAt)}</span>
              </div>
              <div className="card-meta">
                <Link to={`/services/${entry.service.id}`}>{entry.service.name}</Link>
                <span className="tag">{entry.environment ?? 'no environment'}</span>
                {entry.branch && <span className="subtle">{entry.branch}</span>}
                {entry.deployedBy && <span className="subtle">by {entry.deployedBy}</span>}
              </div>
              {entry.headline && (
                <div className="card-text">
                  <CommitMessage message={entry.headline} />
                </div>
              )}
              {entry.suspectIn
                .filter((suspect) => suspect.verdict === 'CAUSED')
                .map((suspect) => (
                  <p key={suspect.incident.id} className="card-text caused" data-caused={suspect.incident.id}>
                    <span className="badge badge-bad">CAUSED</span>{' '}
                    <Link to={`/incidents/${suspect.incident.id}`}>{suspect.incident.title}</Link>
                  </p>
                ))}
            </li>
          ) : entry.__typename === 'ChangeEvent' ? (
            <li key={entry.id} className="card change-card">
              <div className="card-title">
                <span className="tag change">{entry.kind}</span>
                <span>{entry.url ? <a href={entry.url}>{entry.summary}</a> : entry.summary}</span>
                <span className="subtle">{formatDateTime(entry.changedAt)}</span>
              </div>
              <div className="card-meta">
                <Link to={`/services/${entry.service.id}`}>{entry.service.name}</Link>
                <span className="tag">{entry.environment ?? 'no environment'}</span>
              </div>
            </li>
          ) : null,
        )}
      </ol>
      <LoadOlder onMore={onMore} pageInfo={data.timeline.pageInfo} label="Load older deploys and changes" />
    </>
  );
}

/** An incident on the timeline, at the moment it started: what the deploys around it may have caused. */
function IncidentMark({ incident }: { incident: TimelineIncident }) {
  return (
    <li className="card incident-mark" data-incident={incident.id}>
      <div className="card-title">
        <span>
          <Badge value={incident.severity} /> <span className="tag incident">incident started</span>{' '}
          <Link to={`/incidents/${incident.id}`}>{incident.title}</Link>
        </span>
        <span className="subtle">{formatDateTime(incident.startedAt)}</span>
      </div>
      <div className="card-meta">
        <Link to={`/services/${incident.service.id}`}>{incident.service.name}</Link>
        <span className="tag">{incident.environment ?? 'no environment'}</span>
        <Badge value={incident.status} />
      </div>
    </li>
  );
}
