// A service's dependencies: the services it depends on (editable: a deploy or change of one of
// them becomes a related suspect of this service's incidents) and the services that depend on it.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { FormButtons } from '../components';
import { errorMessage } from '../errors';
import { graphql } from '../gql';
import { SERVICE_OPTIONS } from './Deploys';

const SET_DEPENDENCIES = graphql(`
  mutation SetServiceDependencies($serviceId: ID!, $dependsOn: [ID!]!) {
    setServiceDependencies(serviceId: $serviceId, dependsOn: $dependsOn) { id dependsOn { id name } dependents { id name } }
  }
`);

interface ServiceRef {
  id: string;
  name: string;
}

function ServiceList({ services, none, label }: { services: ServiceRef[]; none: string; label: string }) {
  if (services.length === 0) return <p className="subtle">{none}</p>;
  return (
    <ul className="plain-list inline-list" aria-label={label}>
      {services.map((service) => (
        <li key={service.id}>
          <Link to={`/services/${service.id}`}>{service.name}</Link>
        </li>
      ))}
    </ul>
  );
}

export function DependenciesEditor({
  service,
  mayChange,
}: {
  service: ServiceRef & { dependsOn: ServiceRef[]; dependents: ServiceRef[] };
  /** Whether the caller may change them (ADMIN): otherwise they are only shown. */
  mayChange: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [{ data: options }] = useQuery({ query: SERVICE_OPTIONS, pause: !editing });
  const [saving, save] = useMutation(SET_DEPENDENCIES);
  const id = useId();

  const start = () => {
    setChosen(new Set(service.dependsOn.map((dependency) => dependency.id)));
    setEditing(true);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({ serviceId: service.id, dependsOn: [...chosen] });
    if (!result.error) setEditing(false);
  };
  const others = (options?.services.edges ?? []).map((edge) => edge.node).filter((other) => other.id !== service.id);

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Dependencies</h2>
      <p className="help">
        A deploy or change of a service this one depends on is a suspect of its incidents, ranked after its own changes and before unrelated
        ones (less for each hop further upstream).
      </p>
      <h3>Depends on</h3>
      {editing ? (
        <form onSubmit={submit} aria-label={`Services ${service.name} depends on`}>
          <fieldset className="checkbox-list">
            <legend>Services {service.name} depends on</legend>
            {others.length === 0 && <p className="subtle">No other services yet.</p>}
            {others.map((other) => (
              <label key={other.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.has(other.id)}
                  onChange={(e) => {
                    const next = new Set(chosen);
                    if (e.target.checked) next.add(other.id);
                    else next.delete(other.id);
                    setChosen(next);
                  }}
                />
                {other.name}
              </label>
            ))}
          </fieldset>
          <FormButtons
            error={saving.error ? errorMessage(saving.error) : null}
            busy={saving.fetching}
            label="Save dependencies"
            busyLabel="Saving…"
            onCancel={() => setEditing(false)}
          />
        </form>
      ) : (
        <>
          <ServiceList services={service.dependsOn} none="No dependencies recorded." label={`Services ${service.name} depends on`} />
          {mayChange && (
            <button type="button" onClick={start}>
              Edit dependencies
            </button>
          )}
        </>
      )}
      <h3>Used by</h3>
      <ServiceList services={service.dependents} none="No service depends on this one." label={`Services that depend on ${service.name}`} />
    </section>
  );
}
