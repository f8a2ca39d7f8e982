// API errors for forms: BAD_USER_INPUT carries `extensions.fields` ([{field, message}]),
// shown next to the field they name; everything else is shown next to the action.
import type { CombinedError } from 'urql';

export interface FormErrors {
  /** Messages by field name (`eventTypes[2]` and `headers[2].name` count as `eventTypes` and `headers`). */
  fields: Record<string, string>;
  /** What no field of the form explains. */
  general: string | null;
}

interface FieldDetail {
  field: string;
  message: string;
}

function isFieldDetail(value: unknown): value is FieldDetail {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as FieldDetail).field === 'string' &&
    typeof (value as FieldDetail).message === 'string'
  );
}

/** "must use https" → "Must use https." (the API's field messages name no subject: the field shows it). */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** What a failed request says when no GraphQL answer came back: the server is down, restarting, or out of reach. */
function unreachable(error: CombinedError): string {
  const status = error.response?.status;
  if (typeof status === 'number' && status >= 400)
    return `Hookline answered HTTP ${status} instead of data: the server may be restarting. Try again in a moment.`;
  return 'Hookline is not answering: the server may be down or restarting, or the network is out. Try again in a moment (change a filter or reload).';
}

/** A person-readable message of any error (network or GraphQL). */
export function errorMessage(error: CombinedError | Error | null | undefined): string | null {
  if (!error) return null;
  if ('graphQLErrors' in error) {
    if (error.graphQLErrors.length > 0) return error.graphQLErrors.map((e) => e.message).join(' ');
    if (error.networkError) return unreachable(error);
  }
  return error.message;
}

/** Splits an error between the form's fields (`known`) and a general message. */
export function formErrors(error: CombinedError | null | undefined, known: readonly string[]): FormErrors {
  const result: FormErrors = { fields: {}, general: null };
  if (!error) return result;
  const leftover: string[] = [];
  for (const graphQLError of error.graphQLErrors) {
    const details = Array.isArray(graphQLError.extensions?.fields) ? graphQLError.extensions.fields.filter(isFieldDetail) : [];
    let placed = false;
    for (const detail of details) {
      // `eventTypes[2]` counts as `eventTypes`; a part of a list item (`headers[2].name`) too,
      // and every such message is kept, each saying which line it is about.
      const item = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(detail.field);
      const field = item ? item[1]! : detail.field.replace(/\[\d+\]$/, '');
      if (!known.includes(field)) continue;
      if (item) {
        const message = `Line ${Number(item[2]) + 1} (${item[3]}): ${detail.message}`;
        result.fields[field] = result.fields[field] ? `${result.fields[field]} ${sentence(message)}` : sentence(message);
      } else result.fields[field] ??= sentence(detail.message);
      placed = true;
    }
    if (!placed) leftover.push(graphQLError.message);
  }
  if (error.networkError && error.graphQLErrors.length === 0) leftover.push(unreachable(error));
  result.general = leftover.length > 0 ? leftover.join(' ') : null;
  return result;
}
