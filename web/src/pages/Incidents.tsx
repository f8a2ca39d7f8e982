// Incidents: open one, and the list by status, kept current by the live connection (an incident
// opened or changed anywhere re-reads the list).
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { Badge, Empty, ErrorAlert, FieldError, Loading, PageHeader, FormButtons, ServiceOptions, TableWrap } from '../components';
import { formErrors } from '../errors';
import { formatDateTime, formatPercent, formatSeconds, shortSha } from '../format';
import { graphql } from '../gql';
import { LiveStatus, useIncidentChanges, useRereadOn } from '../live';
import type { IncidentsQuery, IncidentStatus, Severity } from '../gql/graphql';
import { SERVICE_OPTIONS } from './Deploys';

const STATUSES: IncidentStatus[] = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED'];
const SEVERITIES: Severity[] = ['SEV1', 'SEV2', 'SEV3', 'SEV4'];
const INCIDENT_CONTEXT = { additionalTypenames: ['Incident'] };

const INCIDENTS = graphql(`
  query Incidents($status: IncidentStatus, $after: String) {
    incidents(first: 50, status: $status, after: $after, orderBy: STARTED_AT) {
      edges {
        node {
          id title severity status environment startedAt openedAt resolvedAt service { id name }
          suspects { score deploy { id commitSha version service { id name } } change { id kind summary service { id name } } }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const OPEN_INCIDENT = graphql(`
  mutation OpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {
    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) { id }
  }
`);

export function IncidentsPage() {
  const [params, setParams] = useSearchParams();
  const status = (params.get('status') as IncidentStatus | null) ?? null;
  const filterId = useId();
  const [opening, setOpening] = useState(false);
  // Opening an incident by hand is a MEMBER's.
  const member = useCan('MEMBER');
  const [{ data, fetching, error }, reexecute] = useQuery({ query: INCIDENTS, variables: { status }, context: INCIDENT_CONTEXT });
  const live = useIncidentChanges();
  useRereadOn(live.changes, reexecute);
  const incidents = data?.incidents.edges.map((edge) => edge.node) ?? [];
  return (
    <>
      <PageHeader title="Incidents">
        <LiveStatus error={live.error} />
        {member && !opening && (
          <button type="button" className="primary" onClick={() => setOpening(true)}>
            Open incident
          </button>
        )}
      </PageHeader>
      {opening && <OpenIncidentForm onClose={() => setOpening(false)} />}
      <div className="filters">
        <div className="field">
          <label htmlFor={`${filterId}-status`}>Status</label>
          <select
            id={`${filterId}-status`}
            value={status ?? ''}
            onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {}, { replace: true })}
          >
            <option value="">All</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading incidents" />}
      {data && incidents.length === 0 && (
        <Empty>
          <p>
            {status
              ? `No ${status.toLowerCase()} incidents.`
              : member
                ? 'No incidents. When something breaks, open one: Hookline ranks the deploys that may have caused it.'
                : 'No incidents.'}
          </p>
        </Empty>
      )}
      {incidents.length > 0 && (
        <TableWrap label="Incidents">
          <thead>
            <tr>
              <th scope="col">Incident</th>
              <th scope="col">Severity</th>
              <th scope="col">Status</th>
              <th scope="col">Service</th>
              <th scope="col">Environment</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
              <th scope="col">Top suspect</th>
            </tr>
          </thead>
          <tbody>
            {incidents.map((incident) => (
              <tr key={incident.id}>
                <td>
                  <Link to={`/incidents/${incident.id}`}>{incident.title}</Link>
                </td>
                <td>
                  <Badge value={incident.severity} />
                </td>
                <td>
                  <Badge value={incident.status} />
                </td>
                <td>
                  <Link to={`/services/${incident.service.id}`}>{incident.service.name}</Link>
                </td>
                <td>{incident.environment ?? '—'}</td>
                <td>{formatDateTime(incident.startedAt)}</td>
                <td data-duration>{duration(incident)}</td>
                <td data-top-suspect>
                  <TopSuspect suspect={incident.suspects[0]} />
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {data?.incidents.pageInfo.hasNextPage && <p className="help">Showing the 50 most recently started incidents.</p>}
    </>
  );
}

function OpenIncidentForm({ onClose }: { onClose(): void }) {
  const id = useId();
  const navigate = useNavigate();
  const [{ data: options }] = useQuery({ query: SERVICE_OPTIONS });
  const [serviceId, setServiceId] = useState('');
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<Severity>('SEV3');
  const [environment, setEnvironment] = useState('');
  const [startedAt, setStartedAt] = useState('');
  const [local, setLocal] = useState<Record<string, string>>({});
  const [{ fetching, error }, openIncident] = useMutation(OPEN_INCIDENT);
  const api = formErrors(error, ['serviceId', 'title', 'severity', 'environment', 'startedAt']);
  const fieldError = (field: string) => local[field] ?? api.fields[field];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!serviceId) problems.serviceId = 'Choose the service that is broken.';
    if (!title.trim()) problems.title = 'Say what is broken.';
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    const result = await openIncident(
      {
        serviceId,
        title: title.trim(),
        severity,
        environment: environment.trim() || null,
        startedAt: startedAt ? new Date(startedAt).toISOString() : null,
      },
      INCIDENT_CONTEXT,
    );
    if (result.data) navigate(`/incidents/${result.data.openIncident.id}`);
  };

  const describedBy = (field: string) => (fieldError(field) ? `${id}-${field}-error` : undefined);
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Open incident</h2>
      <div className="field">
        <label htmlFor={`${id}-serviceId`}>Service</label>
        <select
          id={`${id}-serviceId`}
          value={serviceId}
          onChange={(e) => setServiceId(e.target.value)}
          aria-invalid={fieldError('serviceId') ? true : undefined}
          aria-describedby={describedBy('serviceId')}
        >
          <ServiceOptions none="Choose a service" services={options?.services.edges} />
        </select>
        <FieldError id={`${id}-serviceId-error`} message={fieldError('serviceId')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-title-input`}>Title</label>
        <input
          id={`${id}-title-input`}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder="Checkout errors above 5 %"
          aria-invalid={fieldError('title') ? true : undefined}
          aria-describedby={describedBy('title')}
        />
        <FieldError id={`${id}-title-error`} message={fieldError('title')} />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-severity`}>Severity</label>
          <select
            id={`${id}-severity`}
            value={severity}
            onChange={(e) => setSeverity(e.target.value as Severity)}
            aria-describedby={describedBy('severity')}
          >
            {SEVERITIES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-severity-error`} message={fieldError('severity')} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-environment`}>Environment</label>
          <input
            id={`${id}-environment`}
            value={environment}
            onChange={(e) => setEnvironment(e.target.value)}
            placeholder="production"
            aria-invalid={fieldError('environment') ? true : undefined}
            aria-describedby={describedBy('environment')}
          />
          <FieldError id={`${id}-environment-error`} message={fieldError('environment')} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-startedAt`}>Started (default: now)</label>
          <input
            id={`${id}-startedAt`}
            type="datetime-local"
            value={startedAt}
            onChange={(e) => setStartedAt(e.target.value)}
            aria-invalid={fieldError('startedAt') ? true : undefined}
            aria-describedby={describedBy('startedAt')}
          />
          <FieldError id={`${id}-startedAt-error`} message={fieldError('startedAt')} />
        </div>
      </div>
      <FormButtons error={api.general} busy={fetching} label="Open incident" busyLabel="Opening…" onCancel={onClose} />
    </form>
  );
}

type ListedIncident = IncidentsQuery['incidents']['edges'][number]['node'];

/** From the start of the problem to its resolution, or to now while it lasts. */
function duration(incident: Pick<ListedIncident, 'startedAt' | 'resolvedAt'>, now = Date.now()): string {
  const end = incident.resolvedAt ? Date.parse(incident.resolvedAt) : now;
  const text = formatSeconds(Math.max(0, (end - Date.parse(incident.startedAt)) / 1000));
  return incident.resolvedAt ? text : `${text}, open`;
}

/** The first suspect as the incident's page lists them (a CAUSED verdict first, then by rank). */
function TopSuspect({ suspect }: { suspect: ListedIncident['suspects'][number] | undefined }) {
  if (!suspect) return <span className="subtle">none</span>;
  return (
    <>
      {suspect.deploy ? (
        <Link to={`/deploys/${suspect.deploy.id}`}>
          {suspect.deploy.service.name} {suspect.deploy.version ?? <span className="mono">{shortSha(suspect.deploy.commitSha)}</span>}
        </Link>
      ) : (
        <span title={suspect.change!.summary}>
          {suspect.change!.service.name} <span className="tag change">{suspect.change!.kind}</span>
        </span>
      )}{' '}
      <span className="subtle">{formatPercent(suspect.score)}</span>
    </>
  );
}
