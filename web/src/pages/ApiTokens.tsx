// The organization's API tokens, for scripts and CI (people sign in with a password): the list with
// each token's scope, a new token with the scope chosen (shown once), and revocation. Making and
// revoking them is for ADMINs and OWNERs; others see the list only.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import {
  Badge,
  ConfirmButton,
  Empty,
  ErrorAlert,
  FieldError,
  FormButtons,
  Loading,
  PageHeader,
  SecretOnce,
  TableWrap,
} from '../components';
import { errorMessage, formErrors } from '../errors';
import { formatDateTime, timeAgo } from '../format';
import { graphql } from '../gql';
import type { ApiTokenScope, ApiTokensQuery } from '../gql/graphql';

const PAGE_SIZE = 100;
const NAME_MAX_LENGTH = 100;

const API_TOKENS = graphql(`
  query ApiTokens($first: Int) {
    apiTokens(first: $first) {
      edges { node { id name scope prefix createdAt lastUsedAt revokedAt } }
      pageInfo { hasNextPage }
    }
  }
`);

const CREATE_API_TOKEN = graphql(`
  mutation CreateApiToken($name: String, $scope: ApiTokenScope!) {
    createApiToken(name: $name, scope: $scope) {
      plaintextToken
      apiToken { id name scope prefix createdAt lastUsedAt revokedAt }
    }
  }
`);

const REVOKE_API_TOKEN = graphql(`
  mutation RevokeApiToken($id: ID!) {
    revokeApiToken(id: $id) { id revokedAt }
  }
`);

const TOKENS_CONTEXT = { additionalTypenames: ['ApiToken'] };

/** The scopes, least first, with what each may do (as the role it acts as). */
const SCOPES: { scope: ApiTokenScope; label: string }[] = [
  { scope: 'READ', label: 'READ: reads everything, changes nothing (as a VIEWER)' },
  { scope: 'WRITE', label: 'WRITE: also incidents, test events, resending deliveries (as a MEMBER)' },
  { scope: 'ADMIN', label: 'ADMIN: also services, endpoints and their secrets, alert sources, tokens (as an ADMIN)' },
];

type ApiToken = ApiTokensQuery['apiTokens']['edges'][number]['node'];

export function ApiTokensPage() {
  const [{ data, fetching, error }] = useQuery({ query: API_TOKENS, variables: { first: PAGE_SIZE }, context: TOKENS_CONTEXT });
  const [creating, setCreating] = useState(false);
  const admin = useCan('ADMIN');
  const tokens = data?.apiTokens.edges.map((edge) => edge.node) ?? [];
  return (
    <>
      <PageHeader title="API tokens">
        {admin && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Create token
          </button>
        )}
      </PageHeader>
      <p className="help">
        An API token lets a script or a CI job use Hookline's API as your organization (<code>Authorization: Bearer hla_…</code>). Each is
        shown once, when created: Hookline keeps only a hash. A revoked token is refused at once, everywhere.
      </p>
      {creating && <CreateApiToken onClose={() => setCreating(false)} />}
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading API tokens" />}
      {data && tokens.length === 0 && (
        <Empty>
          <p>No API tokens.</p>
        </Empty>
      )}
      {tokens.length > 0 && (
        <TableWrap label="API tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Token</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <TokenRow key={token.id} token={token} mayRevoke={admin} />
            ))}
          </tbody>
        </TableWrap>
      )}
      {data?.apiTokens.pageInfo.hasNextPage && <p className="help">Showing the {PAGE_SIZE} newest tokens.</p>}
    </>
  );
}

function TokenRow({ token, mayRevoke }: { token: ApiToken; mayRevoke: boolean }) {
  const [revocation, revokeApiToken] = useMutation(REVOKE_API_TOKEN);
  const label = token.name ?? token.prefix;
  const revoke = async () => {
    await revokeApiToken({ id: token.id }, TOKENS_CONTEXT);
  };
  return (
    <tr data-token-id={token.id}>
      <td>{token.name ?? <span className="subtle">no name</span>}</td>
      <td className="mono">{token.prefix}…</td>
      <td>
        <span className="tag">{token.scope}</span>
      </td>
      <td>{formatDateTime(token.createdAt)}</td>
      <td title={token.lastUsedAt ? formatDateTime(token.lastUsedAt) : undefined}>
        {token.lastUsedAt ? timeAgo(token.lastUsedAt) : 'never'}
      </td>
      <td>
        {token.revokedAt ? (
          <span className="subtle">Revoked {formatDateTime(token.revokedAt)}</span>
        ) : (
          <div className="button-row tight">
            <Badge value="ACTIVE" />
            {mayRevoke && (
              <ConfirmButton label="Revoke" title={`Revoke ${label}?`} confirmLabel="Revoke token" danger onConfirm={revoke}>
                <p>
                  Requests with this token are refused from now on. <strong>This cannot be undone.</strong>
                </p>
              </ConfirmButton>
            )}
          </div>
        )}
        {revocation.error && <ErrorAlert>{errorMessage(revocation.error)}</ErrorAlert>}
      </td>
    </tr>
  );
}

function CreateApiToken({ onClose }: { onClose(): void }) {
  const id = useId();
  const [name, setName] = useState('');
  // The least a token may do unless its maker chooses more.
  const [scope, setScope] = useState<ApiTokenScope>('READ');
  const [localError, setLocalError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ label: string; scope: ApiTokenScope; token: string } | null>(null);
  const [{ fetching, error }, createApiToken] = useMutation(CREATE_API_TOKEN);
  const api = formErrors(error, ['name']);
  const nameError = localError ?? api.fields.name;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length > NAME_MAX_LENGTH) {
      setLocalError(`Name must be at most ${NAME_MAX_LENGTH} characters.`);
      return;
    }
    setLocalError(null);
    const result = await createApiToken({ name: trimmed || null, scope }, TOKENS_CONTEXT);
    if (result.data) {
      const { apiToken, plaintextToken } = result.data.createApiToken;
      setCreated({ label: apiToken.name ?? apiToken.prefix, scope: apiToken.scope, token: plaintextToken });
    }
  };

  if (created) {
    return (
      <SecretOnce
        keptAs="hash"
        title={`API token ${created.label} created, scope ${created.scope}`}
        label="API token"
        value={created.token}
        onDismiss={onClose}
      >
        <p>
          Send it as <code>Authorization: Bearer …</code> to <code>/graphql</code> and <code>/api/webhooks/endpoints</code> (a script, a CI
          job).
        </p>
      </SecretOnce>
    );
  }
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create an API token</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          placeholder="CI pipeline"
          onChange={(e) => setName(e.target.value)}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`${id}-name-help${nameError ? ` ${id}-name-error` : ''}`}
        />
        <p className="help" id={`${id}-name-help`}>
          Optional: what it is for, so you know which one to revoke later.
        </p>
        <FieldError id={`${id}-name-error`} message={nameError} />
      </div>
      <fieldset className="field" aria-describedby={`${id}-scope-help`}>
        <legend>Scope</legend>
        <p className="help" id={`${id}-scope-help`}>
          What the token may do. Choose the least it needs: a status screen needs READ.
        </p>
        {SCOPES.map((option) => (
          <label key={option.scope} className="checkbox">
            <input
              type="radio"
              name={`${id}-scope`}
              value={option.scope}
              checked={scope === option.scope}
              onChange={() => setScope(option.scope)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
      <FormButtons error={api.general} busy={fetching} label="Create token" busyLabel="Creating…" onCancel={onClose} />
    </form>
  );
}
