// One incident: its alerts (when an alert source opened it), acknowledge and resolve it, judge its
// ranked suspects (deploys and other changes), its notes (and a form to add one) and its timeline.
import { Fragment, useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { ActorName } from '../actors';
import { Breadcrumbs, Badge, Empty, ErrorAlert, FieldError, Loading, PageHeader, TableWrap } from '../components';
import { errorMessage, formErrors } from '../errors';
import { formatDateTime, formatPercent, formatSeconds, labelText, readableTimes, shortSha } from '../format';
import { graphql } from '../gql';
import { CommitMessage, ExternalLink } from '../commits';
import type { IncidentFieldsFragment, SuspectVerdict } from '../gql/graphql';

graphql(`
  fragment IncidentFields on Incident {
    id title severity status environment startedAt openedAt acknowledgedAt resolvedAt
    acknowledgedBy { ...ActorFields }
    resolvedBy { ...ActorFields }
    notes { id body createdAt author { ...ActorFields } }
    timeline {
      kind at
      actor { ...ActorFields }
      alert { id fingerprint }
      note { id }
      verdict
      deploy { id commitSha version }
      change { id summary }
    }
    service { id name }
    alertSource { id name kind }
    alerts(first: 50) {
      totalCount
      edges { node { id fingerprint status labels annotations startsAt endsAt generatorURL } }
    }
    suspects {
      rank score verdict verdictAt
      reasons { code detail effect }
      mainReason { code detail effect }
      deploy {
        id commitSha commitMessage headline version environment deployedAt deployedBy isRollback rolledBack service { id name }
        commitUrl compareUrl pullRequestUrl
      }
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

const ADD_NOTE = graphql(`
  mutation AddIncidentNote($incidentId: ID!, $body: String!) {
    addIncidentNote(incidentId: $incidentId, body: $body) { id incident { ...IncidentFields } }
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
  // Acknowledging, resolving, verdicts and notes are a MEMBER's; a VIEWER reads.
  const member = useCan('MEMBER');

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
  const judge = (suspect: Suspect, verdict: SuspectVerdict) => {
    setVerdictFor(suspect.deploy?.id ?? suspect.change!.id);
    void markSuspect({ incidentId: incident.id, deployId: suspect.deploy?.id, changeId: suspect.change?.id, verdict });
  };
  const transitionError = acknowledgement.error ?? resolution.error;
  const openedBy = incident.timeline.find((entry) => entry.kind === 'OPENED')?.actor;

  return (
    <>
      <Breadcrumbs trail={[{ label: 'Incidents', to: '/incidents' }]} />
      <PageHeader title={incident.title}>
        <Badge value={incident.severity} />
        <Badge value={incident.status} />
      </PageHeader>
      <div className="button-row">
        {member && incident.status === 'OPEN' && (
          <button type="button" disabled={acknowledgement.fetching} onClick={() => acknowledge({ id: incident.id })}>
            Acknowledge
          </button>
        )}
        {member && incident.status !== 'RESOLVED' && (
          <button type="button" className="primary" disabled={resolution.fetching} onClick={() => resolve({ id: incident.id })}>
            Resolve
          </button>
        )}
      </div>
      {transitionError && <ErrorAlert error={transitionError} />}
      <dl className="facts">
        <dt>Service</dt>
        <dd>
          <Link to={`/services/${incident.service.id}`}>{incident.service.name}</Link>
        </dd>
        <dt>Environment</dt>
        <dd>{incident.environment ?? 'any'}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(incident.startedAt)}</dd>
        <dt>Opened</dt>
        <dd>{formatDateTime(incident.openedAt)}</dd>
        <dt>Acknowledged</dt>
        <dd>
          {formatDateTime(incident.acknowledgedAt)}
          {incident.acknowledgedAt && (
            <>
              {' by '}
              <ActorName actor={incident.acknowledgedBy} />
            </>
          )}
        </dd>
        <dt>Resolved</dt>
        <dd>
          {formatDateTime(incident.resolvedAt)}
          {incident.resolvedAt && (
            <>
              {' by '}
              <ActorName actor={incident.resolvedBy} />
            </>
          )}
        </dd>
        <dt>Opened by</dt>
        <dd>
          {incident.alertSource ? (
            <Link to="/alert-sources">{incident.alertSource.name}</Link>
          ) : openedBy?.__typename === 'ApiToken' ? (
            <ActorName actor={openedBy} />
          ) : incident.alerts.totalCount > 0 ? (
            'a deleted alert source'
          ) : (
            'a person'
          )}
        </dd>
      </dl>

      {incident.alerts.totalCount > 0 && (
        <>
          <h2>Alerts</h2>
          <p className="help">The alerts that opened this incident and joined it. It resolves itself when every one of them is resolved.</p>
          <ul className="alerts" aria-label="Alerts">
            {incident.alerts.edges.map(({ node: alert }) => {
              const annotations = (alert.annotations ?? {}) as Record<string, string>;
              return (
                <li key={alert.id} data-fingerprint={alert.fingerprint}>
                  <div className="suspect-head">
                    <Badge value={alert.status} />
                    <strong>{annotations.summary ?? (alert.labels as Record<string, string>).alertname ?? alert.fingerprint}</strong>
                    <span className="subtle">
                      since {formatDateTime(alert.startsAt)}
                      {alert.endsAt ? ` · ended ${formatDateTime(alert.endsAt)}` : ''}
                    </span>
                    {alert.generatorURL && <a href={alert.generatorURL}>source</a>}
                  </div>
                  {annotations.description && <p className="card-text">{annotations.description}</p>}
                  <p className="mono subtle">{labelText(alert.labels)}</p>
                </li>
              );
            })}
          </ul>
          {incident.alerts.totalCount > incident.alerts.edges.length && (
            <p className="help">
              Showing the first {incident.alerts.edges.length} of {incident.alerts.totalCount} alerts.
            </p>
          )}
        </>
      )}

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
        <SuspectTable
          suspects={incident.suspects}
          startedAt={incident.startedAt}
          busy={verdictState.fetching}
          onJudge={member ? judge : undefined}
          error={verdictFor !== null && verdictState.error ? { key: verdictFor, message: errorMessage(verdictState.error) } : null}
        />
      )}

      <h2>Notes</h2>
      {incident.notes.length === 0 ? (
        <p className="subtle">No notes yet.</p>
      ) : (
        <ol className="cards" aria-label="Notes">
          {incident.notes.map((note) => (
            <li key={note.id} className="card">
              <div className="card-title subtle">
                <ActorName actor={note.author} /> · {formatDateTime(note.createdAt)}
              </div>
              <p className="card-text note-body">{note.body}</p>
            </li>
          ))}
        </ol>
      )}
      {member && <AddNote incidentId={incident.id} />}

      <h2>Timeline</h2>
      <ol className="timeline" aria-label="Timeline">
        {incident.timeline.map((entry, index) => (
          <li key={`${entry.kind}-${entry.at}-${index}`} data-kind={entry.kind}>
            <span className="subtle">{formatDateTime(entry.at)}</span> {timelineText(entry)}
            {entry.actor?.__typename !== 'System' && (
              <>
                {' · '}
                <ActorName actor={entry.actor} />
              </>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

type TimelineEntry = IncidentFieldsFragment['timeline'][number];

/** What a timeline entry says happened. */
function timelineText(entry: TimelineEntry): string {
  const subject = entry.deploy
    ? `deploy ${entry.deploy.version ?? shortSha(entry.deploy.commitSha)}`
    : entry.change
      ? `change "${entry.change.summary}"`
      : 'a suspect';
  switch (entry.kind) {
    case 'OPENED':
      return 'Incident started and opened';
    case 'ALERT_JOINED':
      return `Alert ${entry.alert?.fingerprint ?? ''} joined`;
    case 'ALERT_RESOLVED':
      return `Alert ${entry.alert?.fingerprint ?? ''} resolved`;
    case 'RERANKED':
      return entry.deploy || entry.change ? `Suspects ranked again: ${subject} now first` : 'Suspects ranked again: none left';
    case 'VERDICT':
      return `${subject} judged ${entry.verdict === 'CAUSED' ? 'the cause' : 'not the cause'}`;
    case 'ACKNOWLEDGED':
      return 'Acknowledged';
    case 'NOTE':
      return 'Note added';
    case 'RESOLVED':
      return 'Resolved';
  }
}

const NOTE_MAX_LENGTH = 10_000;

function AddNote({ incidentId }: { incidentId: string }) {
  const [body, setBody] = useState('');
  const [state, addNote] = useMutation(ADD_NOTE);
  const id = useId();
  const errors = formErrors(state.error, ['body']);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await addNote({ incidentId, body });
    if (!result.error) setBody('');
  };
  return (
    <form className="note-form" onSubmit={submit} aria-label="New note">
      <div className="field">
        <label htmlFor={`${id}-body`}>Add a note</label>
        <textarea
          id={`${id}-body`}
          rows={3}
          maxLength={NOTE_MAX_LENGTH}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-describedby={errors.fields.body ? `${id}-body-error` : undefined}
          aria-invalid={errors.fields.body ? true : undefined}
        />
        <FieldError id={`${id}-body-error`} message={errors.fields.body} />
      </div>
      {errors.general && (
        <p className="error-alert" role="alert">
          {errors.general}
        </p>
      )}
      <button type="submit" disabled={state.fetching || body.trim() === ''}>
        Add note
      </button>
    </form>
  );
}

type Suspect = IncidentFieldsFragment['suspects'][number];

/** A reason's effect on the score in points of percent: "+31", "−45", "±0". */
function formatEffect(effect: number): string {
  const points = Math.round(effect * 100);
  return points === 0 ? '±0' : points > 0 ? `+${points}` : `−${-points}`;
}

/** How long before the incident's start a change went live: "2.5 h before", "at the start". */
function before(changedAt: string, startedAt: string): string {
  const seconds = (Date.parse(startedAt) - Date.parse(changedAt)) / 1000;
  return seconds <= 0 ? 'at the start' : `${formatSeconds(seconds)} before`;
}

/**
 * The suspects as a table, one line each, in the API's order (CAUSED first, then the unjudged,
 * then the DISMISSED ones), numbered by that order; a suspect's rank by score, its reasons and
 * message are a click away.
 */
function SuspectTable({
  suspects,
  startedAt,
  busy,
  onJudge,
  error,
}: {
  suspects: Suspect[];
  startedAt: string;
  busy: boolean;
  /** Absent: verdicts are shown, not offered (the caller may not give them). */
  onJudge?(suspect: Suspect, verdict: SuspectVerdict): void;
  error: { key: string; message: string | null } | null;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((keys) => {
      const next = new Set(keys);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  return (
    <TableWrap label="Suspects">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Change</th>
          <th scope="col">Service</th>
          <th scope="col">Environment</th>
          <th scope="col">When</th>
          <th scope="col">Score</th>
          <th scope="col">Main reason</th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      <tbody>
        {suspects.map((suspect, index) => {
          const key = suspect.deploy?.id ?? suspect.change!.id;
          const changedAt = suspect.deploy?.deployedAt ?? suspect.change!.changedAt;
          const reason = suspect.mainReason;
          const environment = suspect.deploy ? suspect.deploy.environment : suspect.change!.environment;
          const detailsId = `suspect-details-${key}`;
          return (
            <Fragment key={key}>
              <tr className="suspect" data-suspect={key} data-verdict={suspect.verdict ?? ''}>
                <td data-position>{index + 1}</td>
                <td>
                  {suspect.deploy ? (
                    <Link to={`/deploys/${suspect.deploy.id}`}>
                      <span className="mono">{shortSha(suspect.deploy.commitSha)}</span>
                      {suspect.deploy.version ? ` · ${suspect.deploy.version}` : ''}
                    </Link>
                  ) : (
                    <span className="tag change">{suspect.change!.kind}</span>
                  )}
                  {suspect.deploy?.rolledBack && (
                    <>
                      {' '}
                      <span className="tag warning">rolled back</span>
                    </>
                  )}
                </td>
                <td>{(suspect.deploy?.service ?? suspect.change!.service).name}</td>
                <td data-environment>{environment ?? <span className="subtle">none</span>}</td>
                <td title={formatDateTime(changedAt)}>{before(changedAt, startedAt)}</td>
                <td data-score>{formatPercent(suspect.score)}</td>
                <td className="top-reason">{reason ? readableTimes(reason.detail) : '—'}</td>
                <td>
                  <div className="verdict-cell">
                    {suspect.verdict && <Badge value={suspect.verdict} />}
                    {onJudge && (
                      <>
                        <button
                          type="button"
                          className="small"
                          aria-pressed={suspect.verdict === 'CAUSED'}
                          disabled={busy}
                          onClick={() => onJudge(suspect, 'CAUSED')}
                        >
                          Caused it
                        </button>
                        <button
                          type="button"
                          className="small"
                          aria-pressed={suspect.verdict === 'DISMISSED'}
                          disabled={busy}
                          onClick={() => onJudge(suspect, 'DISMISSED')}
                        >
                          Dismiss
                        </button>
                      </>
                    )}
                    <button
                      type="button"
                      className="small"
                      aria-expanded={open.has(key)}
                      aria-controls={detailsId}
                      onClick={() => toggle(key)}
                    >
                      Details<span className="visually-hidden"> of suspect {index + 1}</span>
                    </button>
                  </div>
                  {error?.key === key && error.message && <ErrorAlert>{error.message}</ErrorAlert>}
                </td>
              </tr>
              {open.has(key) && (
                <tr className="suspect-details" id={detailsId}>
                  <td colSpan={8}>
                    <SuspectDetails suspect={suspect} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </TableWrap>
  );
}

function SuspectDetails({ suspect }: { suspect: Suspect }) {
  const { deploy, change } = suspect;
  return (
    <div className="suspect-reasons">
      <p className="card-text">
        {deploy ? (
          <>
            {deploy.headline ? <CommitMessage message={deploy.headline} /> : 'No commit message.'}{' '}
            <span className="subtle">
              {deploy.environment ?? 'no environment'} · {formatDateTime(deploy.deployedAt)}
              {deploy.deployedBy ? ` · by ${deploy.deployedBy}` : ''}
            </span>
            {(deploy.commitUrl || deploy.pullRequestUrl || deploy.compareUrl) && (
              <span className="repository-links">
                {deploy.commitUrl && (
                  <>
                    {' · '}
                    <ExternalLink href={deploy.commitUrl}>commit</ExternalLink>
                  </>
                )}
                {deploy.pullRequestUrl && (
                  <>
                    {' · '}
                    <ExternalLink href={deploy.pullRequestUrl}>pull request</ExternalLink>
                  </>
                )}
                {deploy.compareUrl && (
                  <>
                    {' · '}
                    <ExternalLink href={deploy.compareUrl}>compare with the previous deploy</ExternalLink>
                  </>
                )}
              </span>
            )}
          </>
        ) : (
          <>
            <ExternalLink href={change!.url}>{change!.summary}</ExternalLink>{' '}
            <span className="subtle">
              {change!.environment ?? 'no environment'} · {formatDateTime(change!.changedAt)}
            </span>
          </>
        )}
      </p>
      <p className="subtle small-text">
        Ranked {suspect.rank} by score{suspect.verdictAt ? `; judged ${formatDateTime(suspect.verdictAt)}` : ''}.
      </p>
      <ul className="reasons">
        {suspect.reasons.map((reason) => (
          <li key={reason.code} data-code={reason.code}>
            {readableTimes(reason.detail)}
            {reason.effect !== null && (
              <span className="subtle" title="score points this reason added or took away">
                {' '}
                ({formatEffect(reason.effect)})
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
