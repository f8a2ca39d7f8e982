// Search filters kept in the page's address (so a filtered list can be shared and survives a
// reload), the form fields that edit them, and the pages loaded so far (back to the first page
// whenever a filter changes).
import { useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { usePages } from './paging';

export interface Choice {
  value: string;
  label: string;
}

/** A datetime-local value (the browser's time zone) as an ISO instant, or null. */
const instant = (local: string) => (local ? new Date(local).toISOString() : null);

export function useAddressFilters() {
  const [params, setParams] = useSearchParams();
  const id = useId();
  const key = params.toString();
  const pages = usePages(key);

  const value = (name: string) => params.get(name) ?? '';
  const setFilter = (name: string, next: string) => {
    // From the address as it is now, not as this render read it: a navigation's render may still
    // be running (the router renders it as a transition) when the next filter is chosen, and
    // would otherwise be undone by it.
    const changed = new URLSearchParams(window.location.search);
    if (next) changed.set(name, next);
    else changed.delete(name);
    setParams(changed, { replace: true });
  };

  const select = (name: string, label: string, choices: Choice[], none: string): ReactNode => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <select id={`${id}-${name}`} value={value(name)} onChange={(event) => setFilter(name, event.target.value)}>
        <option value="">{none}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );

  /** A free-text filter, applied as it is typed. */
  const text = (name: string, label: string, placeholder: string): ReactNode => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type="search"
        placeholder={placeholder}
        value={value(name)}
        onChange={(event) => setFilter(name, event.target.value.trim())}
      />
    </div>
  );

  /** From / To fields and, once anything is filtered, a button clearing every filter. */
  const timeWindowAndClear: ReactNode = (
    <>
      {(['from', 'to'] as const).map((name) => (
        <div className="field" key={name}>
          <label htmlFor={`${id}-${name}`}>{name === 'from' ? 'From' : 'To'}</label>
          <input id={`${id}-${name}`} type="datetime-local" value={value(name)} onChange={(event) => setFilter(name, event.target.value)} />
        </div>
      ))}
      {key && (
        <button type="button" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
          Clear filters
        </button>
      )}
    </>
  );

  return {
    value,
    select,
    text,
    timeWindowAndClear,
    timeWindow: { from: instant(value('from')), to: instant(value('to')) },
    pages,
  };
}
