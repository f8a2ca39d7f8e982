// The deploy timeline: deploys and other changes (feature flags, configuration), newest first,
// filtered by service and environment (kept in the address, so a filtered list can be shared), a
// page at a time. Rollbacks and rolled-back deploys are marked.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Empty, ErrorAlert, Loading, PageHeader, ServiceOptions } from '../components';
import { formatDateTime, shortSha } from '../format';
import { LoadOlder, usePages, type PageSlot } from '../paging';
import { graphql } from '../gql';

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
            id commitSha commitMessage branch environment version deployedBy deployedAt isRollback rolledBack
            service { id name }
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
      <PageHeader title="Deploys" />
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
        {pages((slot) => <DeployPage {...slot} serviceId={serviceId || null} environment={environment || null} />)}
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
  return (
    <>
      <ol className="cards" aria-label={first ? 'Deploys and changes' : 'More deploys and changes'}>
        {entries.map((entry) =>
          entry.__typename === 'Deploy' ? (
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
              {entry.commitMessage && <p className="card-text">{entry.commitMessage}</p>}
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
