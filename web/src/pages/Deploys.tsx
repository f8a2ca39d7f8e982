// Deploys, newest first, filtered by service and environment (kept in the address, so a
// filtered list can be shared), a page at a time.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { Empty, ErrorAlert, Loading, PageHeader, ServiceOptions } from '../components';
import { formatDateTime, shortSha } from '../format';
import { graphql } from '../gql';

const PAGE_SIZE = 25;

export const SERVICE_OPTIONS = graphql(`
  query ServiceOptions {
    services(first: 100) { edges { node { id name } } }
  }
`);

const DEPLOYS = graphql(`
  query Deploys($first: Int, $after: String, $serviceId: ID, $environment: String) {
    deploys(first: $first, after: $after, serviceId: $serviceId, environment: $environment) {
      edges {
        node {
          id commitSha commitMessage branch environment version deployedBy deployedAt
          service { id name }
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
  // One cursor per loaded page; a new filter starts again from the first page.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  useEffect(() => setCursors([null]), [serviceId, environment]);

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
        {cursors.map((after, index) => (
          <DeployPage
            key={`${serviceId}|${environment}|${after ?? ''}`}
            first={index === 0}
            after={after}
            serviceId={serviceId || null}
            environment={environment || null}
            onMore={index === cursors.length - 1 ? (cursor) => setCursors((loaded) => [...loaded, cursor]) : undefined}
          />
        ))}
      </div>
    </>
  );
}

interface DeployPageProps {
  first: boolean;
  after: string | null;
  serviceId: string | null;
  environment: string | null;
  onMore?: (cursor: string) => void;
}

function DeployPage({ first, after, serviceId, environment, onMore }: DeployPageProps) {
  const [{ data, fetching, error }] = useQuery({ query: DEPLOYS, variables: { first: PAGE_SIZE, after, serviceId, environment } });
  if (error) return <ErrorAlert error={error} />;
  if (!data) return fetching ? <Loading what="Loading deploys" /> : null;
  const deploys = data.deploys.edges.map((edge) => edge.node);
  if (first && deploys.length === 0) {
    return (
      <Empty>
        <p>{serviceId || environment ? 'No deploys match these filters.' : 'No deploys yet. CI pipelines report them to POST /api/ingest/deploy.'}</p>
      </Empty>
    );
  }
  return (
    <>
      <ol className="cards" aria-label={first ? 'Deploys' : 'More deploys'}>
        {deploys.map((deploy) => (
          <li key={deploy.id} className="card deploy-card">
            <div className="card-title">
              <Link to={`/deploys/${deploy.id}`}>
                <span className="mono">{shortSha(deploy.commitSha)}</span> {deploy.version ? `· ${deploy.version}` : ''}
              </Link>
              <span className="subtle">{formatDateTime(deploy.deployedAt)}</span>
            </div>
            <div className="card-meta">
              <Link to={`/services/${deploy.service.id}`}>{deploy.service.name}</Link>
              <span className="tag">{deploy.environment ?? 'no environment'}</span>
              {deploy.branch && <span className="subtle">{deploy.branch}</span>}
              {deploy.deployedBy && <span className="subtle">by {deploy.deployedBy}</span>}
            </div>
            {deploy.commitMessage && <p className="card-text">{deploy.commitMessage}</p>}
          </li>
        ))}
      </ol>
      {onMore && data.deploys.pageInfo.hasNextPage && data.deploys.pageInfo.endCursor && (
        <button type="button" onClick={() => onMore(data.deploys.pageInfo.endCursor!)}>
          Load older deploys
        </button>
      )}
    </>
  );
}
