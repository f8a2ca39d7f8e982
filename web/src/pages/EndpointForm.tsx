// The form of a webhook endpoint, to add one or edit one: URL (with the destination rules of
// this server), name, event types and the delivery settings (custom headers, timeout, rate
// limit), checked before sending; the API's refusals shown next to the field they name.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { FieldError, FormButtons } from '../components';
import { formErrors } from '../errors';
import { graphql } from '../gql';
import { checkEndpointInput, destinationHint, headersFromText, headersToText } from '../webhooks';

const ENDPOINT_FORM_SETTINGS = graphql(`
  query EndpointFormSettings {
    webhookDestinationPolicy { allowHttp allowPrivate minTimeoutMs maxTimeoutMs maxRateLimitPerSecond }
    eventTypes { name label }
  }
`);

export interface EndpointValues {
  url: string;
  name: string;
  /** Empty: every event. */
  eventTypes: string[];
  headers: { name: string; value: string }[];
  /** null: the server's timeout. */
  timeoutMs: number | null;
  /** null: no limit. */
  rateLimitPerSecond: number | null;
}

/** An optional whole number typed in a form: empty is null; anything else goes to the API as typed, which says if it is wrong. */
const optionalNumber = (text: string): number | null => (text.trim() === '' ? null : Number(text));

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
  const [{ data: settings }] = useQuery({ query: ENDPOINT_FORM_SETTINGS });
  const policy = settings?.webhookDestinationPolicy;
  const [url, setUrl] = useState(initial?.url ?? '');
  const [name, setName] = useState(initial?.name ?? '');
  const [eventTypes, setEventTypes] = useState<string[]>(initial?.eventTypes ?? []);
  const [headers, setHeaders] = useState(headersToText(initial?.headers ?? []));
  const [timeoutMs, setTimeoutMs] = useState(initial?.timeoutMs?.toString() ?? '');
  const [rateLimit, setRateLimit] = useState(initial?.rateLimitPerSecond?.toString() ?? '');
  const [checked, setChecked] = useState<Record<'url' | 'name', string | undefined>>({ url: undefined, name: undefined });
  const api = formErrors(error, ['url', 'name', 'eventTypes', 'headers', 'timeoutMs', 'rateLimitPerSecond']);
  const urlError = checked.url ?? api.fields.url;
  const nameError = checked.name ?? api.fields.name;
  // After each submission that came back refused (here or by the API), the first field at fault
  // (or the general error) is brought into view: on a phone the form is longer than the screen.
  const form = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (error) setRefusals((count) => count + 1);
  }, [error]);
  useEffect(() => {
    if (refusals === 0) return;
    const target =
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.current?.querySelector<HTMLElement>('.error-alert');
    target?.focus({ preventScroll: true });
    target?.scrollIntoView({ block: 'center' });
  }, [refusals]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = checkEndpointInput(url.trim(), name, policy);
    setChecked(problems);
    if (problems.url || problems.name) {
      setRefusals((count) => count + 1);
      return;
    }
    onSubmit({
      url: url.trim(),
      name: name.trim(),
      eventTypes,
      headers: headersFromText(headers),
      timeoutMs: optionalNumber(timeoutMs),
      rateLimitPerSecond: optionalNumber(rateLimit),
    });
  };

  const toggleType = (type: string) =>
    setEventTypes((types) => (types.includes(type) ? types.filter((t) => t !== type) : [...types, type]));
  return (
    <form ref={form} className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
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
        {settings?.eventTypes.map(({ name: type, label }) => (
          <label key={type} className="checkbox">
            <input type="checkbox" checked={eventTypes.includes(type)} onChange={() => toggleType(type)} />
            <span>
              <span className="mono">{type}</span> <span className="subtle">{label}</span>
            </span>
          </label>
        ))}
        <FieldError id={`${id}-types-error`} message={api.fields.eventTypes} />
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-headers`}>Custom headers</label>
        <textarea
          id={`${id}-headers`}
          rows={3}
          className="mono"
          placeholder="Authorization: Bearer …"
          value={headers}
          onChange={(e) => setHeaders(e.target.value)}
          aria-invalid={api.fields.headers ? true : undefined}
          aria-describedby={`${id}-headers-help${api.fields.headers ? ` ${id}-headers-error` : ''}`}
        />
        <p className="help" id={`${id}-headers-help`}>
          One <span className="mono">Name: value</span> per line, sent with every attempt (at most 20). Hookline's own headers (webhook-*,
          x-service-*), host, content-type and connection headers cannot be set.
        </p>
        <FieldError id={`${id}-headers-error`} message={api.fields.headers} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-timeout`}>Timeout (ms)</label>
        <input
          id={`${id}-timeout`}
          type="number"
          inputMode="numeric"
          min={policy?.minTimeoutMs}
          max={policy?.maxTimeoutMs}
          placeholder={policy ? String(policy.maxTimeoutMs) : ''}
          value={timeoutMs}
          onChange={(e) => setTimeoutMs(e.target.value)}
          aria-invalid={api.fields.timeoutMs ? true : undefined}
          aria-describedby={`${id}-timeout-help${api.fields.timeoutMs ? ` ${id}-timeout-error` : ''}`}
        />
        <p className="help" id={`${id}-timeout-help`}>
          {policy
            ? `${policy.minTimeoutMs} to ${policy.maxTimeoutMs} ms; empty: the server's ${policy.maxTimeoutMs} ms.`
            : "Empty: the server's timeout."}
        </p>
        <FieldError id={`${id}-timeout-error`} message={api.fields.timeoutMs} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-rate`}>Rate limit (deliveries per second)</label>
        <input
          id={`${id}-rate`}
          type="number"
          inputMode="numeric"
          min={1}
          max={policy?.maxRateLimitPerSecond}
          placeholder="no limit"
          value={rateLimit}
          onChange={(e) => setRateLimit(e.target.value)}
          aria-invalid={api.fields.rateLimitPerSecond ? true : undefined}
          aria-describedby={`${id}-rate-help${api.fields.rateLimitPerSecond ? ` ${id}-rate-error` : ''}`}
        />
        <p className="help" id={`${id}-rate-help`}>
          Deliveries beyond it wait their turn; none is dropped. Empty: no limit.
        </p>
        <FieldError id={`${id}-rate-error`} message={api.fields.rateLimitPerSecond} />
      </div>
      <FormButtons error={api.general} busy={busy} label={submitLabel} busyLabel={busyLabel} onCancel={onCancel} />
    </form>
  );
}
