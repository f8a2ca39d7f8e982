// One deploy: what was deployed, the commits it brought since the previous deploy (those the
// pipeline sent, or the deployed head commit when it sent none) with their lead times, their
// authors, the previous deploy, whether it is a rollback or was rolled back, and the incidents it
// is a suspect of.
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { Breadcrumbs, Badge, Empty, ErrorAlert, Loading, PageHeader, TableWrap } from '../components';
import { CommitMessage, ExternalLink } from '../commits';
import { formatDateTime, formatPercent, formatSeconds, shortSha } from '../format';
import { graphql } from '../gql';

const DEPLOY = graphql(`
  query Deploy($id: ID!) {
    deploy(id: $id) {
      id commitSha commitMessage branch environment version deployedBy description url deployedAt receivedAt
      service { id name }
      commitUrl compareUrl pullRequestUrl
      commitsSincePrevious { sha message subject body url pullRequestUrl author timestamp leadTimeSeconds derived }
      authors
      previousDeploy { id commitSha version deployedAt environment }
      isRollback restoredDeploy { id commitSha version deployedAt }
      rolledBack rolledBackBy { id commitSha version deployedAt }
      suspectIn { rank score verdict incident { id title status severity } }
      health { alertsBefore alertsAfter incidentsBefore incidentsAfter }
    }
  }
`);

export function DeployPage() {
  const { id = '' } = useParams();
  const [{ data, fetching, error }] = useQuery({ query: DEPLOY, variables: { id } });
  if (!data && fetching) return <Loading what="Loading the deploy" />;
  if (error && !data) return <ErrorAlert error={error} />;
  const deploy = data?.deploy;
  if (!deploy) {
    return (
      <>
        <PageHeader title="Deploy not found" />
        <p>
          No deploy of your organization has this id. See <Link to="/deploys">all deploys</Link>.
        </p>
      </>
    );
  }
  const safeUrl = deploy.url && /^https?:\/\//i.test(deploy.url) ? deploy.url : null;
  return (
    <>
      <Breadcrumbs
        trail={[
          { label: 'Deploys', to: '/deploys' },
          { label: deploy.service.name, to: `/services/${deploy.service.id}` },
        ]}
      />
      <PageHeader
        title={
          <>
            Deploy <span className="mono">{shortSha(deploy.commitSha)}</span>
            {deploy.version ? ` · ${deploy.version}` : ''}
          </>
        }
      >
        {deploy.isRollback && <span className="tag rollback">rollback</span>}
        {deploy.rolledBack && <span className="tag warning">rolled back</span>}
      </PageHeader>
      <dl className="facts">
        <dt>Service</dt>
        <dd>
          <Link to={`/services/${deploy.service.id}`}>{deploy.service.name}</Link>
        </dd>
        <dt>Environment</dt>
        <dd>{deploy.environment ?? '—'}</dd>
        {deploy.restoredDeploy && (
          <>
            <dt>Rollback</dt>
            <dd>
              Brings back{' '}
              <Link to={`/deploys/${deploy.restoredDeploy.id}`}>
                <span className="mono">{shortSha(deploy.restoredDeploy.commitSha)}</span>
                {deploy.restoredDeploy.version ? ` · ${deploy.restoredDeploy.version}` : ''}
              </Link>{' '}
              of {formatDateTime(deploy.restoredDeploy.deployedAt)}; a rollback is not a suspect of incidents.
            </dd>
          </>
        )}
        {deploy.rolledBackBy && (
          <>
            <dt>Rolled back</dt>
            <dd>
              By{' '}
              <Link to={`/deploys/${deploy.rolledBackBy.id}`}>
                <span className="mono">{shortSha(deploy.rolledBackBy.commitSha)}</span>
                {deploy.rolledBackBy.version ? ` · ${deploy.rolledBackBy.version}` : ''}
              </Link>{' '}
              at {formatDateTime(deploy.rolledBackBy.deployedAt)}; it counts as a failed change.
            </dd>
          </>
        )}
        <dt>Deployed</dt>
        <dd>{formatDateTime(deploy.deployedAt)}</dd>
        <dt>Health</dt>
        <dd data-health>
          Hour after: {count(deploy.health.alertsAfter, 'alert')}, {count(deploy.health.incidentsAfter, 'incident')}{' '}
          <span className="subtle">
            (hour before: {count(deploy.health.alertsBefore, 'alert')}, {count(deploy.health.incidentsBefore, 'incident')})
          </span>
        </dd>
        <dt>Received</dt>
        <dd>{formatDateTime(deploy.receivedAt)}</dd>
        <dt>Commit</dt>
        <dd className="mono wrap">
          <ExternalLink href={deploy.commitUrl}>{deploy.commitSha}</ExternalLink>
        </dd>
        {(deploy.compareUrl || deploy.pullRequestUrl) && (
          <>
            <dt>In the repository</dt>
            <dd>
              {deploy.pullRequestUrl && <ExternalLink href={deploy.pullRequestUrl}>Pull request</ExternalLink>}
              {deploy.pullRequestUrl && deploy.compareUrl && ' · '}
              {deploy.compareUrl && <ExternalLink href={deploy.compareUrl}>Compare with the previous deploy</ExternalLink>}
            </dd>
          </>
        )}
        {deploy.commitMessage && (
          <>
            <dt>Message</dt>
            <dd>
              <CommitMessage message={deploy.commitMessage} />
            </dd>
          </>
        )}
        {deploy.branch && (
          <>
            <dt>Branch</dt>
            <dd>{deploy.branch}</dd>
          </>
        )}
        {deploy.deployedBy && (
          <>
            <dt>Deployed by</dt>
            <dd>{deploy.deployedBy}</dd>
          </>
        )}
        {deploy.description && (
          <>
            <dt>Description</dt>
            <dd>{deploy.description}</dd>
          </>
        )}
        {safeUrl && (
          <>
            <dt>CI run</dt>
            <dd>
              <a href={safeUrl} rel="noreferrer noopener" target="_blank">
                {safeUrl}
              </a>
            </dd>
          </>
        )}
        <dt>Previous deploy</dt>
        <dd>
          {deploy.previousDeploy ? (
            <Link to={`/deploys/${deploy.previousDeploy.id}`}>
              <span className="mono">{shortSha(deploy.previousDeploy.commitSha)}</span>
              {deploy.previousDeploy.version ? ` · ${deploy.previousDeploy.version}` : ''} (
              {formatDateTime(deploy.previousDeploy.deployedAt)})
            </Link>
          ) : (
            'none: this is the first deploy of this service to this environment'
          )}
        </dd>
        <dt>Authors</dt>
        <dd>{deploy.authors.length > 0 ? deploy.authors.join(', ') : '—'}</dd>
      </dl>

      <h2>Commits in this deploy</h2>
      {deploy.commitsSincePrevious.length === 0 ? (
        <Empty>
          <p>Nothing new: the previous deploy had the same commit (a redeploy).</p>
        </Empty>
      ) : (
        <>
          {deploy.commitsSincePrevious.some((commit) => commit.derived) && (
            <p className="help">The pipeline sent no commit list: the deployed head commit stands for the change.</p>
          )}
          <TableWrap label="Commits in this deploy">
            <thead>
              <tr>
                <th scope="col">Commit</th>
                <th scope="col">Message</th>
                <th scope="col">Author</th>
                <th scope="col">Committed</th>
                <th scope="col" title="Deploy time minus commit time">
                  Lead time
                </th>
              </tr>
            </thead>
            <tbody>
              {deploy.commitsSincePrevious.map((commit, index) => (
                <tr key={index}>
                  <td className="mono">
                    <ExternalLink href={commit.url}>{shortSha(commit.sha)}</ExternalLink>
                    {commit.derived && <span className="subtle"> (head commit)</span>}
                  </td>
                  <td>
                    {commit.message ? <CommitMessage message={commit.message} /> : '—'}
                    {commit.pullRequestUrl && (
                      <>
                        {' '}
                        <ExternalLink href={commit.pullRequestUrl}>pull request</ExternalLink>
                      </>
                    )}
                  </td>
                  <td>{commit.author ?? '—'}</td>
                  <td>{formatDateTime(commit.timestamp)}</td>
                  <td>{formatSeconds(commit.leadTimeSeconds)}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        </>
      )}

      <h2>Suspect in incidents</h2>
      {deploy.suspectIn.length === 0 ? (
        <Empty>
          <p>This deploy is not a suspect of any incident.</p>
        </Empty>
      ) : (
        <ul className="plain-list">
          {deploy.suspectIn.map((suspect) => (
            <li key={suspect.incident.id}>
              <Badge value={suspect.incident.severity} /> <Badge value={suspect.incident.status} />{' '}
              <Link to={`/incidents/${suspect.incident.id}`}>{suspect.incident.title}</Link>{' '}
              <span className="subtle">
                rank {suspect.rank}, score {formatPercent(suspect.score)}
              </span>
              {suspect.verdict && (
                <>
                  {' '}
                  <Badge value={suspect.verdict} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** "1 alert", "3 incidents". */
function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
