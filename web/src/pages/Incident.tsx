// One incident: acknowledge and resolve it, and judge its ranked suspects (deploys and other changes).
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Badge, Empty, ErrorAlert, Loading, PageHeader } from '../components';
import { errorMessage } from '../errors';
import { formatDateTime, formatPercent, shortSha } from '../format';
import { graphql } from '../gql';
import type { SuspectVerdict } from '../gql/graphql';

graphql(`
  fragment IncidentFields on Incident {
    id title severity status environment startedAt openedAt acknowledgedAt resolvedAt
    service { id name }
    suspects {
      rank score verdict verdictAt
      reasons { code detail }
      deploy { id commitSha commitMessage version environment deployedAt deployedBy isRollback rolledBack service { id name } }
      change { id kind summary url environment changedAt service { id name } }
    }
  }
`);

const INCIDENT = graphql(`
  query Incident($id: ID!) {
    incident(id: $id) { ...IncidentFields }
  }
`);

const ACKNOWLEDGE = graphql(`
  mutation AcknowledgeIncident($id: ID!) {
    acknowledgeIncident(id: $id) { ...IncidentFields }
  }
`);

const RESOLVE = graphql(`
  mutation ResolveIncident($id: ID!) {
    resolveIncident(id: $id) { ...IncidentFields }
  }
`);

const MARK_SUSPECT = graphql(`
  mutation MarkSuspect($incidentId: ID!, $deployId: ID, $changeId: ID, $verdict: SuspectVerdict!) {
    markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: $verdict) { ...IncidentFields }
  }
`);

export function IncidentPage() {
  const { id = '' } = useParams();
  const [{ data, fetching, error }] = useQuery({ query: INCIDENT, variables: { id } });
  const [acknowledgement, acknowledge] = useMutation(ACKNOWLEDGE);
  const [resolution, resolve] = useMutation(RESOLVE);
  const [verdictState, markSuspect] = useMutation(MARK_SUSPECT);
  const [verdictFor, setVerdictFor] = useState<string | null>(null);

  if (!data && fetching) return <Loading what="Loading the incident" />;
  if (error && !data) return <ErrorAlert error={error} />;
  const incident = data?.incident;
  if (!incident) {
    return (
      <>
        <PageHeader title="Incident not found" />
        <p>
          No incident of your organization has this id. See <Link to="/incidents">all incidents</Link>.
        </p>
      </>
    );
  }
  const judge = (suspect: { deploy?: { id: string } | null; change?: { id: string } | null }, verdict: SuspectVerdict) => {
    setVerdictFor(suspect.deploy?.id ?? suspect.change!.id);
    void markSuspect({ incidentId: incident.id, deployId: suspect.deploy?.id, changeId: suspect.change?.id, verdict });
  };
  const transitionError = acknowledgement.error ?? resolution.error;

  return (
    <>
      <p className="breadcrumb">
        <Link to="/incidents">Incidents</Link> ›
      </p>
      <PageHeader title={incident.title}>
        <Badge value={incident.severity} />
        <Badge value={incident.status} />
      </PageHeader>
      <div className="button-row">
        {incident.status === 'OPEN' && (
          <button type="button" disabled={acknowledgement.fetching} onClick={() => acknowledge({ id: incident.id })}>
            Acknowledge
          </button>
        )}
        {incident.status !== 'RESOLVED' && (
          <button type="button" className="primary" disabled={resolution.fetching} onClick={() => resolve({ id: incident.id })}>
            Resolve
          </button>
        )}
      </div>
      {transitionError && <ErrorAlert error={transitionError} />}
      <dl className="facts">
        <dt>Service</dt>
        <dd><Link to={`/services/${incident.service.id}`}>{incident.service.name}</Link></dd>
        <dt>Environment</dt>
        <dd>{incident.environment ?? 'any'}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(incident.startedAt)}</dd>
        <dt>Opened</dt>
        <dd>{formatDateTime(incident.openedAt)}</dd>
        <dt>Acknowledged</dt>
        <dd>{formatDateTime(incident.acknowledgedAt)}</dd>
        <dt>Resolved</dt>
        <dd>{formatDateTime(incident.resolvedAt)}</dd>
      </dl>

      <h2>Suspects</h2>
      <p className="help">
        Deploys and other changes (feature flags, configuration) ranked by service and its dependencies, environment, how shortly before the
        incident they happened, the size of the change, rollbacks and past verdicts; ranked again while the incident is open when a change
        dated before its start is reported late. Your verdict wins over the score, counts in DORA's change failure rate and teaches later
        rankings.
      </p>
      {incident.suspects.length === 0 ? (
        <Empty>
          <p>No deploys or changes in the lookback window before the incident started.</p>
        </Empty>
      ) : (
        <ol className="suspects" aria-label="Suspects">
          {incident.suspects.map((suspect) => {
            const key = suspect.deploy?.id ?? suspect.change!.id;
            return (
              <li key={key} className="card suspect" data-verdict={suspect.verdict ?? ''}>
                <div className="suspect-head">
                  <span className="rank" aria-label={`Rank ${suspect.rank}`}>#{suspect.rank}</span>
                  {suspect.deploy ? (
                    <>
                      <Link to={`/deploys/${suspect.deploy.id}`}>
                        <span className="mono">{shortSha(suspect.deploy.commitSha)}</span>
                        {suspect.deploy.version ? ` · ${suspect.deploy.version}` : ''}
                      </Link>
                      <span className="subtle">
                        {suspect.deploy.service.name} · {suspect.deploy.environment ?? 'no environment'} · {formatDateTime(suspect.deploy.deployedAt)}
                        {suspect.deploy.deployedBy ? ` · by ${suspect.deploy.deployedBy}` : ''}
                      </span>
                      {suspect.deploy.rolledBack && <span className="tag warning">rolled back</span>}
                    </>
                  ) : (
                    <>
                      <span className="tag change">{suspect.change!.kind}</span>
                      <span className="subtle">
                        {suspect.change!.service.name} · {suspect.change!.environment ?? 'no environment'} · {formatDateTime(suspect.change!.changedAt)}
                      </span>
                    </>
                  )}
                  {suspect.verdict && <Badge value={suspect.verdict} />}
                </div>
                <div className="score">
                  <span>Score {formatPercent(suspect.score)}</span>
                  <meter min={0} max={1} value={suspect.score} aria-label={`Score of suspect ${suspect.rank}`}>
                    {formatPercent(suspect.score)}
                  </meter>
                </div>
                {suspect.deploy?.commitMessage && <p className="card-text">{suspect.deploy.commitMessage}</p>}
                {suspect.change && (
                  <p className="card-text">
                    {suspect.change.url ? <a href={suspect.change.url}>{suspect.change.summary}</a> : suspect.change.summary}
                  </p>
                )}
                <ul className="reasons">
                  {suspect.reasons.map((reason) => (
                    <li key={reason.code} data-code={reason.code}>
                      {reason.detail}
                    </li>
                  ))}
                </ul>
                <div className="button-row">
                  <button type="button" className="small" aria-pressed={suspect.verdict === 'CAUSED'} disabled={verdictState.fetching} onClick={() => judge(suspect, 'CAUSED')}>
                    Caused it
                  </button>
                  <button type="button" className="small" aria-pressed={suspect.verdict === 'DISMISSED'} disabled={verdictState.fetching} onClick={() => judge(suspect, 'DISMISSED')}>
                    Dismiss
                  </button>
                </div>
                {verdictFor === key && verdictState.error && <ErrorAlert>{errorMessage(verdictState.error)}</ErrorAlert>}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
