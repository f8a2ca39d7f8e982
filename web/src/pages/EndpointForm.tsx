// The form of a webhook endpoint, to add one or edit one: URL (with the destination rules of
// this server), name and event types, checked before sending; the API's refusals shown next to
// the field they name.
import { useId, useState, type FormEvent } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { FieldError, FormButtons } from '../components';
import { formErrors } from '../errors';
import { graphql } from '../gql';
import { checkEndpointInput, destinationHint, EVENT_TYPES } from '../webhooks';

const DESTINATION_POLICY = graphql(`
  query DestinationPolicy {
    webhookDestinationPolicy { allowHttp allowPrivate }
  }
`);

export interface EndpointValues {
  url: string;
  name: string;
  /** Empty: every event. */
  eventTypes: string[];
}

interface Props {
  title: string;
  initial?: EndpointValues;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  /** The API's answer to the last submission. */
  error: CombinedError | undefined;
  onSubmit(values: EndpointValues): void;
  onCancel(): void;
}

export function EndpointForm({ title, initial, submitLabel, busyLabel, busy, error, onSubmit, onCancel }: Props) {
  const id = useId();
  const [{ data: settings }] = useQuery({ query: DESTINATION_POLICY });
  const policy = settings?.webhookDestinationPolicy;
  const [url, setUrl] = useState(initial?.url ?? '');
  const [name, setName] = useState(initial?.name ?? '');
  const [eventTypes, setEventTypes] = useState<string[]>(initial?.eventTypes ?? []);
  const [checked, setChecked] = useState<Record<'url' | 'name', string | undefined>>({ url: undefined, name: undefined });
  const api = formErrors(error, ['url', 'name', 'eventTypes']);
  const urlError = checked.url ?? api.fields.url;
  const nameError = checked.name ?? api.fields.name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = checkEndpointInput(url.trim(), name, policy);
    setChecked(problems);
    if (problems.url || problems.name) return;
    onSubmit({ url: url.trim(), name: name.trim(), eventTypes });
  };

  const toggleType = (type: string) => setEventTypes((types) => (types.includes(type) ? types.filter((t) => t !== type) : [...types, type]));
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="field">
        <label htmlFor={`${id}-url`}>Endpoint URL</label>
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks/hookline"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setChecked((problems) => ({ ...problems, url: undefined }));
          }}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={`${id}-url-help${urlError ? ` ${id}-url-error` : ''}`}
        />
        <p className="help" id={`${id}-url-help`}>
          {destinationHint(policy)}
        </p>
        <FieldError id={`${id}-url-error`} message={urlError} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          placeholder="Production alerts"
          maxLength={250}
          onChange={(e) => {
            setName(e.target.value);
            setChecked((problems) => ({ ...problems, name: undefined }));
          }}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
        />
        <FieldError id={`${id}-name-error`} message={nameError} />
      </div>
      <fieldset className="field" aria-describedby={`${id}-types-help`}>
        <legend>Events</legend>
        <p className="help" id={`${id}-types-help`}>
          None selected: every event.
        </p>
        {EVENT_TYPES.map(({ type, label }) => (
          <label key={type} className="checkbox">
            <input type="checkbox" checked={eventTypes.includes(type)} onChange={() => toggleType(type)} />
            <span>
              <span className="mono">{type}</span> <span className="subtle">{label}</span>
            </span>
          </label>
        ))}
        <FieldError id={`${id}-types-error`} message={api.fields.eventTypes} />
      </fieldset>
      <FormButtons error={api.general} busy={busy} label={submitLabel} busyLabel={busyLabel} onCancel={onCancel} />
    </form>
  );
}
