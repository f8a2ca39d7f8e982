// The organization's audit log: every change made through the API or this dashboard, newest
// first, filtered by who made it, the action, the object and a time window (kept in the address).
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { useAddressFilters } from '../address-filters';
import { Empty, ErrorAlert, Loading, PageHeader, TableWrap } from '../components';
import { formatDateTime } from '../format';
import { graphql } from '../gql';
import type { AuditLogFilter } from '../gql/graphql';
import { ActorName } from '../actors';
import { LoadOlder, type PageSlot } from '../paging';

const PAGE_SIZE = 50;

const AUDIT_ACTORS = graphql(`
  query AuditActors {
    apiTokens(first: 100) { edges { node { id name prefix } } }
    alertSources(first: 100) { edges { node { id name } } }
  }
`);

const AUDIT_LOG = graphql(`
  query AuditLogPage($filter: AuditLogFilter, $first: Int, $after: String) {
    auditLog(filter: $filter, first: $first, after: $after) {
      totalCount
      edges {
        node {
          id at action objectId summary ip userAgent
          actor { ...ActorFields }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export function AuditLogPage() {
  const [{ data: actors }] = useQuery({ query: AUDIT_ACTORS });
  const { value, select, text, timeWindowAndClear, timeWindow, pages } = useAddressFilters();
  const filter: AuditLogFilter = {
    actorId: value('actor') || null,
    action: value('action') || null,
    objectId: value('object') || null,
    ...timeWindow,
  };
  const actorChoices = [
    ...(actors?.apiTokens.edges ?? []).map(({ node }) => ({
      value: node.id,
      label: `API token ${node.prefix}… ${node.name ?? ''}`.trim(),
    })),
    ...(actors?.alertSources.edges ?? []).map(({ node }) => ({ value: node.id, label: `Alert source ${node.name}` })),
  ];

  return (
    <>
      <PageHeader title="Audit log" />
      <p className="help">
        Every change made through the API or this dashboard: who made it, what it was, to which object, when and from where. Secrets are
        never recorded. Entries are kept for AUDIT_RETENTION_DAYS days (365 by default).
      </p>
      <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
        {select('actor', 'Who', actorChoices, 'Anyone')}
        {text('action', 'Action', 'webhookEndpoint.delete')}
        {text('object', 'Object id', 'an id')}
        {timeWindowAndClear}
      </form>
      {pages((slot) => (
        <AuditLogPageOf {...slot} filter={filter} />
      ))}
    </>
  );
}

function AuditLogPageOf({ first, after, filter, onMore }: PageSlot & { filter: AuditLogFilter }) {
  const [{ data, fetching, error }] = useQuery({ query: AUDIT_LOG, variables: { filter, first: PAGE_SIZE, after } });
  if (error) return <ErrorAlert error={error} />;
  if (!data) return fetching ? <Loading what="Loading the audit log" /> : null;
  const { totalCount, edges, pageInfo } = data.auditLog;
  if (first && totalCount === 0)
    return (
      <Empty>
        <p>No changes match these filters.</p>
      </Empty>
    );
  return (
    <>
      {first && (
        <p className="subtle" role="status">
          {totalCount === 1 ? '1 change' : `${totalCount.toLocaleString('en')} changes`}
        </p>
      )}
      <TableWrap label={first ? 'Audit log' : 'Older changes'}>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">What</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>
          {edges.map(({ node }) => (
            <tr key={node.id}>
              <td>{formatDateTime(node.at)}</td>
              <td>
                <ActorName actor={node.actor} />
              </td>
              <td>
                <code>{node.action}</code>
              </td>
              <td>
                {node.summary}
                {node.objectId && (
                  <>
                    {' '}
                    <Link className="subtle" to={`?object=${node.objectId}`} title="Every change to this object">
                      (history)
                    </Link>
                  </>
                )}
              </td>
              <td title={node.userAgent ?? undefined}>{node.ip ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </TableWrap>
      <LoadOlder onMore={onMore} pageInfo={pageInfo} label="Load older changes" />
    </>
  );
}
