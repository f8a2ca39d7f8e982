// The organization's environments: every name its deploys, change events and incidents use,
// grouped by what they mean (case aside, and through aliases), and the aliases of each, editable:
// a team that sends `prod` gets its deploys ranked, counted and filtered as production.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useCan } from '../auth';
import { Empty, ErrorAlert, FormButtons, Loading, PageHeader, TableWrap } from '../components';
import { errorMessage } from '../errors';
import { graphql } from '../gql';

const ENVIRONMENTS = graphql(`
  query DashboardEnvironments { environments { name aliases spellings } }
`);

const SET_ALIASES = graphql(`
  mutation DashboardSetEnvironmentAliases($environment: String!, $aliases: [String!]!) {
    setEnvironmentAliases(environment: $environment, aliases: $aliases) { name aliases spellings }
  }
`);

/** "prod, PRD" → ["prod", "PRD"]; blanks dropped. */
function parseAliases(text: string): string[] {
  return text
    .split(',')
    .map((alias) => alias.trim())
    .filter((alias) => alias !== '');
}

function AliasesEditor({ environment, aliases, onDone }: { environment: string; aliases: string[]; onDone(): void }) {
  const [draft, setDraft] = useState(aliases.join(', '));
  const [saving, save] = useMutation(SET_ALIASES);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await save({ environment, aliases: parseAliases(draft) });
    if (!result.error) onDone();
  };
  return (
    <form onSubmit={submit} aria-label={`Aliases of ${environment}`}>
      <div className="field">
        <label htmlFor={`${id}-aliases`}>Aliases of {environment}, separated by commas</label>
        <input id={`${id}-aliases`} value={draft} onChange={(e) => setDraft(e.target.value)} autoFocus />
      </div>
      <FormButtons
        error={saving.error ? errorMessage(saving.error) : null}
        busy={saving.fetching}
        label="Save aliases"
        busyLabel="Saving…"
        onCancel={onDone}
      />
    </form>
  );
}

export function EnvironmentsPage() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: ENVIRONMENTS });
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState('');
  const id = useId();
  // Aliases are an ADMIN's to set.
  const admin = useCan('ADMIN');
  const done = () => {
    setEditing(null);
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <>
      <PageHeader title="Environments" />
      <p className="help">
        Environment names match whatever their case, and through their aliases: with <span className="mono">prod</span> an alias of{' '}
        <span className="mono">production</span>, a deploy to prod is ranked as a production suspect, counted in production's DORA figures
        and found by the production filters.
      </p>
      {error && <ErrorAlert error={error} />}
      {!data && fetching && <Loading what="Loading environments" />}
      {data && data.environments.length === 0 && (
        <Empty>
          <p>No environments yet: they appear as deploys, change events and incidents name them.</p>
        </Empty>
      )}
      {data && data.environments.length > 0 && (
        <TableWrap label="Environments">
          <thead>
            <tr>
              <th scope="col">Environment</th>
              <th scope="col">Names sent</th>
              <th scope="col">Aliases</th>
            </tr>
          </thead>
          <tbody>
            {data.environments.map((environment) => (
              <tr key={environment.name}>
                <th scope="row" className="mono">
                  {environment.name}
                </th>
                <td className="mono">{environment.spellings.join(', ') || '—'}</td>
                <td>
                  {editing === environment.name ? (
                    <AliasesEditor environment={environment.name} aliases={environment.aliases} onDone={done} />
                  ) : (
                    <>
                      <span className="mono">{environment.aliases.join(', ') || 'none'}</span>{' '}
                      {admin && (
                        <button
                          type="button"
                          onClick={() => setEditing(environment.name)}
                          aria-label={`Edit aliases of ${environment.name}`}
                        >
                          Edit
                        </button>
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {admin && (
        <form
          className="filters"
          aria-label="Aliases of another environment"
          onSubmit={(event) => {
            event.preventDefault();
            if (adding.trim()) setEditing(adding.trim().toLowerCase());
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-new`}>Environment</label>
            <input id={`${id}-new`} value={adding} placeholder="production" onChange={(e) => setAdding(e.target.value)} />
          </div>
          <button type="submit">Set its aliases</button>
        </form>
      )}
      {editing !== null && !data?.environments.some((environment) => environment.name === editing) && (
        <AliasesEditor environment={editing} aliases={[]} onDone={done} />
      )}
    </>
  );
}
