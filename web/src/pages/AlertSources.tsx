// Alert sources: the monitoring systems that open and resolve incidents. Create one (its token
// shown once, with the configuration to paste into Alertmanager, Grafana or a PagerDuty-compatible
// tool), rotate or delete it, and see the alerts that named no service, with what to change.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { alertmanagerConfig, grafanaContactPoint, pagerDutySettings } from '../alert-config';
import { ConfirmButton, Empty, ErrorAlert, FieldError, FormButtons, Loading, PageHeader, SecretOnce, TableWrap } from '../components';
import { errorMessage, formErrors } from '../errors';
import { formatDateTime, labelText, timeAgo } from '../format';
import { graphql } from '../gql';
import type { AlertSourceKind, AlertSourcesPageQuery } from '../gql/graphql';

const PAGE_SIZE = 100;
const UNROUTED_SHOWN = 10;

const ALERT_SOURCES = graphql(`
  query AlertSourcesPage($first: Int, $unrouted: Int) {
    alertSources(first: $first) {
      edges {
        node {
          id name kind ingestPath tokenPrefix createdAt lastReceivedAt unroutedAlertCount
          unroutedAlerts(first: $unrouted) {
            totalCount
            edges { node { id fingerprint status labels startsAt receivedAt unroutedReason } }
          }
        }
      }
      pageInfo { hasNextPage }
    }
    alertSourceKinds { kind label detail ingestInstructions }
  }
`);

const CREATE_ALERT_SOURCE = graphql(`
  mutation CreateAlertSourcePage($name: String!, $kind: AlertSourceKind!) {
    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix } }
  }
`);

const ROTATE_ALERT_SOURCE_TOKEN = graphql(`
  mutation RotateAlertSourceTokenPage($id: ID!) {
    rotateAlertSourceToken(id: $id) { token alertSource { id name kind ingestPath tokenPrefix } }
  }
`);

const DELETE_ALERT_SOURCE = graphql(`
  mutation DeleteAlertSourcePage($id: ID!) { deleteAlertSource(id: $id) }
`);

const SOURCES_CONTEXT = { additionalTypenames: ['AlertSource', 'Alert'] };

type AlertSource = AlertSourcesPageQuery['alertSources']['edges'][number]['node'];
type Kind = AlertSourcesPageQuery['alertSourceKinds'][number];
type Shown = { title: string; kind: AlertSourceKind; ingestPath: string; token: string };

export function AlertSourcesPage() {
  const [{ data, fetching, error }] = useQuery({
    query: ALERT_SOURCES,
    variables: { first: PAGE_SIZE, unrouted: UNROUTED_SHOWN },
    context: SOURCES_CONTEXT,
  });
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  // Alert sources are an ADMIN's to add, rotate and delete.
  const admin = useCan('ADMIN');
  const sources = data?.alertSources.edges.map((edge) => edge.node) ?? [];
  const kinds = data?.alertSourceKinds ?? [];
  const unrouted = sources.filter((source) => source.unroutedAlertCount > 0);
  return (
    <>
      <PageHeader title="Alert sources">
        {admin && !creating && !shown && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Add alert source
          </button>
        )}
      </PageHeader>
      <p className="help">
        Your alerting opens incidents here at the alert's own start time, with the deploys before it ranked as suspects, and resolves them
        when every alert of them is resolved. Each alert goes to the service named by its <code>service</code>, <code>app</code> or{' '}
        <code>job</code> label (PagerDuty: <code>payload.component</code> or <code>payload.source</code>), in any letter case.
      </p>
      {shown && <TokenShown shown={shown} kinds={kinds} onDismiss={() => setShown(null)} />}
      {creating && data && (
        <CreateAlertSource
          kinds={kinds}
          onClose={() => setCreating(false)}
          onCreated={(created) => {
            setCreating(false);
            setShown(created);
          }}
        />
      )}
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading alert sources" />}
      {data && sources.length === 0 && (
        <Empty>
          <p>No alert sources yet. Add one to let Alertmanager, Grafana or a PagerDuty-compatible tool open incidents.</p>
        </Empty>
      )}
      {sources.length > 0 && (
        <TableWrap label="Alert sources">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Token</th>
              <th scope="col">Last received</th>
              <th scope="col">Unrouted alerts</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {sources.map((source) => (
              <SourceRow key={source.id} source={source} kinds={kinds} onRotated={setShown} mayChange={admin} />
            ))}
          </tbody>
        </TableWrap>
      )}
      {data?.alertSources.pageInfo.hasNextPage && <p className="help">Showing the {PAGE_SIZE} newest alert sources.</p>}
      {unrouted.length > 0 && (
        <>
          <h2>Unrouted alerts</h2>
          <p className="help">
            These alerts named no service of your organization, so they opened no incident. Create the service they name, or change the
            label in your alerting rules; the next notification of each alert then opens its incident.
          </p>
          {unrouted.map((source) => (
            <UnroutedAlerts key={source.id} source={source} />
          ))}
        </>
      )}
    </>
  );
}

/** What the dashboard calls a kind (the API's label). */
const kindLabel = (kinds: Kind[], kind: AlertSourceKind) => kinds.find((entry) => entry.kind === kind)?.label ?? kind;

function SourceRow({
  source,
  kinds,
  onRotated,
  mayChange,
}: {
  source: AlertSource;
  kinds: Kind[];
  onRotated(shown: Shown): void;
  mayChange: boolean;
}) {
  const [rotation, rotate] = useMutation(ROTATE_ALERT_SOURCE_TOKEN);
  const [deletion, remove] = useMutation(DELETE_ALERT_SOURCE);
  const rotateToken = async () => {
    const result = await rotate({ id: source.id }, SOURCES_CONTEXT);
    if (result.data) {
      const { token, alertSource } = result.data.rotateAlertSourceToken;
      onRotated({ title: `New token for ${alertSource.name}`, kind: alertSource.kind, ingestPath: alertSource.ingestPath, token });
    }
  };
  return (
    <tr data-alert-source-id={source.id}>
      <td>{source.name}</td>
      <td>{kindLabel(kinds, source.kind)}</td>
      <td className="mono">{source.tokenPrefix}…</td>
      <td title={source.lastReceivedAt ? formatDateTime(source.lastReceivedAt) : undefined}>
        {source.lastReceivedAt ? timeAgo(source.lastReceivedAt) : 'never'}
      </td>
      <td>
        {source.unroutedAlertCount === 0 ? (
          <span className="subtle">none</span>
        ) : (
          <span className="tag warning">{source.unroutedAlertCount}</span>
        )}
      </td>
      {mayChange && (
        <td>
          <div className="button-row tight">
            <ConfirmButton
              label="Rotate token"
              title={`Rotate the token of ${source.name}?`}
              confirmLabel="Rotate token"
              onConfirm={rotateToken}
            >
              <p>The current token is refused from now on: paste the new one into your alerting configuration right away.</p>
            </ConfirmButton>
            <ConfirmButton
              label="Delete"
              title={`Delete ${source.name}?`}
              confirmLabel="Delete alert source"
              danger
              onConfirm={() => void remove({ id: source.id }, SOURCES_CONTEXT)}
            >
              <p>
                Its token is refused from now on and its unrouted alerts are dropped. The incidents it opened stay, with their alerts.{' '}
                <strong>This cannot be undone.</strong>
              </p>
            </ConfirmButton>
          </div>
          {(rotation.error ?? deletion.error) && <ErrorAlert>{errorMessage((rotation.error ?? deletion.error)!)}</ErrorAlert>}
        </td>
      )}
    </tr>
  );
}

function UnroutedAlerts({ source }: { source: AlertSource }) {
  const alerts = source.unroutedAlerts.edges.map((edge) => edge.node);
  return (
    <section className="card" aria-label={`Unrouted alerts of ${source.name}`}>
      <h3>
        {source.name} <span className="subtle">({source.unroutedAlerts.totalCount})</span>
      </h3>
      <ul className="unrouted">
        {alerts.map((alert) => (
          <li key={alert.id} data-fingerprint={alert.fingerprint}>
            <div>
              <span className="mono">{labelText(alert.labels)}</span>{' '}
              <span className="subtle">
                · {alert.status.toLowerCase()} since {formatDateTime(alert.startsAt)}
              </span>
            </div>
            <p className="card-text">{alert.unroutedReason}</p>
          </li>
        ))}
      </ul>
      {source.unroutedAlerts.totalCount > alerts.length && <p className="help">Showing the {alerts.length} latest.</p>}
    </section>
  );
}

/** The configuration to paste, for the kinds whose senders have one; any other kind is told its request. */
const SETUP: Partial<Record<AlertSourceKind, (url: string, token: string) => ReactNode>> = {
  ALERTMANAGER: (url, token) => (
    <>
      <h3>Prometheus Alertmanager</h3>
      <p>
        Add this receiver to <code>alertmanager.yml</code> (or only its <code>webhook_configs</code> entry to a receiver you have), then
        reload Alertmanager:
      </p>
      <pre className="config" data-testid="alertmanager-config">
        {alertmanagerConfig(url, token)}
      </pre>
      <h3>Grafana</h3>
      <p>
        In Alerting › Contact points, add a Webhook integration with URL <code>{url}</code>, and under Optional Webhook settings the
        Authorization header scheme <code>Bearer</code> with this token as credentials; or provision it:
      </p>
      <pre className="config" data-testid="grafana-config">
        {grafanaContactPoint(url, token)}
      </pre>
    </>
  ),
  PAGERDUTY_EVENTS: (url, token) => (
    <>
      <h3>PagerDuty Events API v2</h3>
      <p>Point the tool's PagerDuty integration at this server, with this token as its routing (integration) key:</p>
      <pre className="config" data-testid="pagerduty-config">
        {pagerDutySettings(url, token)}
      </pre>
    </>
  ),
};

function TokenShown({ shown, kinds, onDismiss }: { shown: Shown; kinds: Kind[]; onDismiss(): void }) {
  const url = `${window.location.origin}${shown.ingestPath}`;
  const setup = SETUP[shown.kind];
  const kind = kinds.find((entry) => entry.kind === shown.kind);
  return (
    <SecretOnce keptAs="hash" title={shown.title} label="Alert source token" value={shown.token} onDismiss={onDismiss}>
      {setup ? (
        setup(url, shown.token)
      ) : (
        <p>
          Send to <code>{url}</code>: {kind?.ingestInstructions ?? 'with this token'}.
        </p>
      )}
    </SecretOnce>
  );
}

function CreateAlertSource({ kinds, onClose, onCreated }: { kinds: Kind[]; onClose(): void; onCreated(shown: Shown): void }) {
  const id = useId();
  const [name, setName] = useState('');
  // The API lists at least one kind; the first is the usual choice.
  const [kind, setKind] = useState<AlertSourceKind>(kinds[0]!.kind);
  const [{ fetching, error }, create] = useMutation(CREATE_ALERT_SOURCE);
  const api = formErrors(error, ['name']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ name, kind }, SOURCES_CONTEXT);
    if (result.data) {
      const { token, alertSource } = result.data.createAlertSource;
      onCreated({ title: `Alert source ${alertSource.name} created`, kind: alertSource.kind, ingestPath: alertSource.ingestPath, token });
    }
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add an alert source</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          placeholder="Production Alertmanager"
          onChange={(e) => setName(e.target.value)}
          aria-invalid={api.fields.name ? true : undefined}
          aria-describedby={api.fields.name ? `${id}-name-error` : undefined}
        />
        <FieldError id={`${id}-name-error`} message={api.fields.name} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-kind`}>Sends</label>
        <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as AlertSourceKind)}>
          {kinds.map((entry) => (
            <option key={entry.kind} value={entry.kind}>
              {entry.label} ({entry.detail})
            </option>
          ))}
        </select>
      </div>
      <FormButtons error={api.general} busy={fetching} label="Add alert source" busyLabel="Adding…" onCancel={onClose} />
    </form>
  );
}
