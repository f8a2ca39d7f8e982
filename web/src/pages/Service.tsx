// One service: its token (rotate with confirmation), its GitHub webhook (secret made or replaced
// with confirmation, shown once with the Payload URL), its dependencies (edit which services it
// depends on; see which depend on it), recent deploys and incidents.
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { Breadcrumbs, Badge, ConfirmButton, CopyField, Empty, ErrorAlert, Loading, PageHeader, SecretOnce, TableWrap } from '../components';
import { DependenciesEditor } from './ServiceDependencies';
import { formatDateTime, shortSha } from '../format';
import { graphql } from '../gql';

const SERVICE = graphql(`
  query Service($id: ID!) {
    service(id: $id) {
      id name deployTokenPrefix createdAt gitHubWebhookSecretCreatedAt repositoryUrl
      dependsOn { id name }
      dependents { id name }
      deploys(first: 10) {
        edges { node { id commitSha headline environment version deployedBy deployedAt } }
      }
      incidents(first: 5) {
        edges { node { id title severity status openedAt } }
      }
    }
  }
`);

const ROTATE_DEPLOY_TOKEN = graphql(`
  mutation RotateDeployToken($serviceId: ID!) {
    rotateDeployToken(serviceId: $serviceId) {
      deployToken
      service { id deployTokenPrefix }
    }
  }
`);

const ROTATE_GITHUB_WEBHOOK_SECRET = graphql(`
  mutation RotateGitHubWebhookSecret($serviceId: ID!) {
    rotateGitHubWebhookSecret(serviceId: $serviceId) {
      secret payloadPath
      service { id gitHubWebhookSecretCreatedAt }
    }
  }
`);

const SET_REPOSITORY = graphql(`
  mutation SetServiceRepositoryUrl($serviceId: ID!, $url: String) {
    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }
  }
`);

/** The service's repository: links to commits, pull requests and comparisons; set here (ADMIN) or by the first deploy that names one. */
function Repository({ service, mayChange }: { service: { id: string; name: string; repositoryUrl?: string | null }; mayChange: boolean }) {
  const [saving, save] = useMutation(SET_REPOSITORY);
  const [url, setUrl] = useState(service.repositoryUrl ?? '');
  const id = useId();
  const link = service.repositoryUrl && /^https?:\/\//i.test(service.repositoryUrl) ? service.repositoryUrl : null;
  return (
    <>
      <h2>Repository</h2>
      <p>
        {link ? (
          <a href={link} rel="noreferrer noopener" target="_blank" data-testid="repository-link">
            {link}
          </a>
        ) : (
          'No repository set.'
        )}{' '}
        Deploys and incidents link to its commits, pull requests and comparisons (GitHub, GitLab and Bitbucket).{' '}
        <code>hookline deploy</code> sets it from GitHub Actions, GitLab CI or Bitbucket Pipelines while none is set.
      </p>
      {mayChange && (
        <form
          className="filters"
          aria-label={`Repository of ${service.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            void save({ serviceId: service.id, url: url.trim() || null });
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-repository`}>Repository URL</label>
            <input
              id={`${id}-repository`}
              type="url"
              value={url}
              placeholder="https://github.com/acme/checkout"
              onChange={(e) => setUrl(e.target.value)}
            />
          </div>
          <button type="submit" disabled={saving.fetching}>
            Save repository
          </button>
        </form>
      )}
      {saving.error && <ErrorAlert error={saving.error} />}
    </>
  );
}

/** The service's GitHub webhook: deployment_status events from GitHub record its deploys. */
function GitHubWebhook({
  service,
  mayChange,
}: {
  service: { id: string; name: string; gitHubWebhookSecretCreatedAt?: string | null };
  mayChange: boolean;
}) {
  const [rotation, rotate] = useMutation(ROTATE_GITHUB_WEBHOOK_SECRET);
  const [made, setMade] = useState<{ secret: string; payloadUrl: string } | null>(null);
  const exists = Boolean(service.gitHubWebhookSecretCreatedAt);
  return (
    <>
      <h2>GitHub deployments</h2>
      <p>
        A GitHub webhook records a deploy of {service.name} each time a GitHub deployment succeeds (event <em>Deployment statuses</em>).
      </p>
      <dl className="facts">
        <dt>Webhook secret</dt>
        <dd>{exists ? `made ${formatDateTime(service.gitHubWebhookSecretCreatedAt!)}` : 'none yet'}</dd>
      </dl>
      {mayChange && (
        <ConfirmButton
          label={exists ? 'Replace GitHub secret' : 'Make GitHub secret'}
          title={exists ? `Replace the GitHub webhook secret of ${service.name}?` : `Make a GitHub webhook secret for ${service.name}?`}
          confirmLabel={exists ? 'Replace secret now' : 'Make secret'}
          danger={exists}
          onConfirm={async () => {
            const result = await rotate({ serviceId: service.id });
            const payload = result.data?.rotateGitHubWebhookSecret;
            if (payload) setMade({ secret: payload.secret, payloadUrl: `${window.location.origin}${payload.payloadPath}` });
          }}
        >
          {exists ? (
            <p>
              <strong>Deliveries signed with the current secret are refused at once</strong>, until the webhook on GitHub has the new one.
              The new secret is shown once.
            </p>
          ) : (
            <p>The secret is shown once, with the Payload URL to give GitHub.</p>
          )}
        </ConfirmButton>
      )}
      {rotation.error && <ErrorAlert error={rotation.error} />}
      {made && (
        <SecretOnce keptAs="verifyingKey" title="GitHub webhook secret" label="Secret" value={made.secret} onDismiss={() => setMade(null)}>
          <p>
            On GitHub, in the repository's <em>Settings › Webhooks › Add webhook</em>: Payload URL below, Content type{' '}
            <code>application/json</code>, this Secret, and <em>Let me select individual events › Deployment statuses</em>.
          </p>
          <CopyField label="Payload URL" value={made.payloadUrl} />
        </SecretOnce>
      )}
    </>
  );
}

export function ServicePage() {
  const { id = '' } = useParams();
  const [{ data, fetching, error }] = useQuery({ query: SERVICE, variables: { id } });
  const [rotation, rotate] = useMutation(ROTATE_DEPLOY_TOKEN);
  const [newToken, setNewToken] = useState<string | null>(null);
  // Deploy tokens, the GitHub secret and dependencies are an ADMIN's to change.
  const admin = useCan('ADMIN');

  if (!data && fetching) return <Loading what="Loading the service" />;
  if (error && !data) return <ErrorAlert error={error} />;
  const service = data?.service;
  if (!service) {
    return (
      <>
        <PageHeader title="Service not found" />
        <p>
          No service of your organization has this id. See <Link to="/services">all services</Link>.
        </p>
      </>
    );
  }
  const deploys = service.deploys.edges.map((edge) => edge.node);
  const incidents = service.incidents.edges.map((edge) => edge.node);

  return (
    <>
      <Breadcrumbs trail={[{ label: 'Services', to: '/services' }]} />
      <PageHeader title={service.name}>
        <Link className="button" to={`/dora?service=${service.id}`}>
          DORA metrics
        </Link>
        {admin && (
          <ConfirmButton
            label="Rotate token"
            title={`Rotate the deploy token of ${service.name}?`}
            confirmLabel="Rotate token now"
            danger
            onConfirm={async () => {
              const result = await rotate({ serviceId: service.id });
              if (result.data) setNewToken(result.data.rotateDeployToken.deployToken);
            }}
          >
            <p>
              <strong>The current token stops working at once.</strong> Every pipeline that still sends it gets 401 on its next deploy until
              you give it the new token. The new token is shown once.
            </p>
          </ConfirmButton>
        )}
      </PageHeader>
      {rotation.error && <ErrorAlert error={rotation.error} />}
      {newToken && (
        <SecretOnce keptAs="hash" title="New deploy token" label="Deploy token" value={newToken} onDismiss={() => setNewToken(null)}>
          <p>The previous token has stopped working. Put this one in your pipelines' secrets.</p>
        </SecretOnce>
      )}
      <dl className="facts">
        <dt>Deploy token</dt>
        <dd className="mono">{service.deployTokenPrefix ? `${service.deployTokenPrefix}…` : '—'}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(service.createdAt)}</dd>
        <dt>Id</dt>
        <dd className="mono">{service.id}</dd>
      </dl>

      <Repository key={service.repositoryUrl ?? ''} service={service} mayChange={admin} />

      <GitHubWebhook service={service} mayChange={admin} />

      <DependenciesEditor service={service} mayChange={admin} />

      <h2>Recent deploys</h2>
      {deploys.length === 0 ? (
        <Empty>
          <p>
            No deploys yet. A pipeline reports one with <code>hookline deploy --environment production</code> (or{' '}
            <code>POST /api/ingest/deploy</code>) and this service's deploy token.
          </p>
        </Empty>
      ) : (
        <TableWrap label="Recent deploys">
          <thead>
            <tr>
              <th scope="col">Deployed</th>
              <th scope="col">Commit</th>
              <th scope="col">Environment</th>
              <th scope="col">Version</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {deploys.map((deploy) => (
              <tr key={deploy.id}>
                <td>
                  <Link to={`/deploys/${deploy.id}`}>{formatDateTime(deploy.deployedAt)}</Link>
                </td>
                <td>
                  <span className="mono">{shortSha(deploy.commitSha)}</span>{' '}
                  <span className="subtle">{deploy.headline?.split('\n')[0] ?? ''}</span>
                </td>
                <td>{deploy.environment ?? '—'}</td>
                <td>{deploy.version ?? '—'}</td>
                <td>{deploy.deployedBy ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      <p>
        <Link to={`/deploys?service=${service.id}`}>All deploys of {service.name}</Link>
      </p>

      <h2>Recent incidents</h2>
      {incidents.length === 0 ? (
        <Empty>
          <p>No incidents. </p>
        </Empty>
      ) : (
        <ul className="plain-list">
          {incidents.map((incident) => (
            <li key={incident.id}>
              <Badge value={incident.severity} /> <Badge value={incident.status} />{' '}
              <Link to={`/incidents/${incident.id}`}>{incident.title}</Link>{' '}
              <span className="subtle">opened {formatDateTime(incident.openedAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
