// Services: the list, and a new service with its deploy token shown once.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { Empty, ErrorAlert, FieldError, Loading, PageHeader, SecretOnce, TableWrap } from '../components';
import { formErrors } from '../errors';
import { formatDateTime } from '../format';
import { graphql } from '../gql';

const SERVICES = graphql(`
  query Services($first: Int) {
    services(first: $first) {
      edges { node { id name deployTokenPrefix createdAt } }
      pageInfo { hasNextPage }
    }
  }
`);

const CREATE_SERVICE = graphql(`
  mutation CreateService($name: String!) {
    createService(name: $name) {
      deployToken
      service { id name deployTokenPrefix createdAt }
    }
  }
`);

/** Refetch when a service is made, even while the list is empty. */
const SERVICES_CONTEXT = { additionalTypenames: ['Service'] };

export function ServicesPage() {
  const [{ data, fetching, error }] = useQuery({ query: SERVICES, variables: { first: 100 }, context: SERVICES_CONTEXT });
  const services = data?.services.edges.map((edge) => edge.node) ?? [];
  // Services and their deploy tokens are an ADMIN's (the server refuses the rest with FORBIDDEN).
  const admin = useCan('ADMIN');
  return (
    <>
      <PageHeader title="Services" />
      {admin && <CreateServiceForm />}
      <h2>All services</h2>
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading services" />}
      {data && services.length === 0 && (
        <Empty>
          <p>No services yet.{admin && ' Create one above: its deploy token lets a CI pipeline report deploys.'}</p>
        </Empty>
      )}
      {services.length > 0 && (
        <TableWrap label="Services">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Deploy token</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {services.map((service) => (
              <tr key={service.id}>
                <td>
                  <Link to={`/services/${service.id}`}>{service.name}</Link>
                </td>
                <td className="mono">{service.deployTokenPrefix ? `${service.deployTokenPrefix}…` : '—'}</td>
                <td>{formatDateTime(service.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {data?.services.pageInfo.hasNextPage && <p className="help">Showing the first 100 services.</p>}
    </>
  );
}

function CreateServiceForm() {
  const id = useId();
  const [name, setName] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; id: string; token: string } | null>(null);
  const [{ fetching, error }, createService] = useMutation(CREATE_SERVICE);
  const errors = formErrors(error, ['name']);
  const nameError = localError ?? errors.fields.name;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setLocalError('Give the service a name.');
      return;
    }
    setLocalError(null);
    const result = await createService({ name: trimmed });
    if (result.data) {
      const { service, deployToken } = result.data.createService;
      setCreated({ name: service.name, id: service.id, token: deployToken });
      setName('');
    }
  };

  if (created) {
    return (
      <SecretOnce
        keptAs="hash"
        title={`Service ${created.name} created`}
        label="Deploy token"
        value={created.token}
        onDismiss={() => setCreated(null)}
      >
        <p>
          CI pipelines send it as <code>X-Deploy-Token</code> to <code>POST /api/ingest/deploy</code>. You can rotate it from the{' '}
          <Link to={`/services/${created.id}`}>service page</Link>.
        </p>
      </SecretOnce>
    );
  }

  return (
    <form className="card inline-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New service</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          placeholder="checkout"
        />
        <FieldError id={`${id}-name-error`} message={nameError} />
      </div>
      <button type="submit" className="primary" disabled={fetching}>
        {fetching ? 'Creating…' : 'Create service'}
      </button>
      {errors.general && <ErrorAlert>{errors.general}</ErrorAlert>}
    </form>
  );
}
