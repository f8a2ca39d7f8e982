// Rules every input of the domain shares (zod schemas), and how their failures are reported:
// one FieldError per field at fault, with paths like `commits[3].sha`.
import { z } from 'zod';
import { InputError, type FieldError } from './errors.ts';

export type Validated<T> = { ok: true; value: T } | { ok: false; details: FieldError[] };

/**
 * How many field errors one answer lists: an invalid list of 80,000 items must not become an
 * 80,000-entry (21 MB) error; the first ones show the client what is wrong.
 */
export const MAX_FIELD_ERRORS = 20;

// PostgreSQL's text cannot hold U+0000 and its jsonb refuses unpaired UTF-16 surrogates (in text
// columns node-postgres would silently store U+FFFD instead). With the `u` flag a surrogate
// pair is one code point, so only an unpaired surrogate matches \p{Cs}.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character refused
const NOT_STORABLE_CHARACTER = /[\u0000\p{Cs}]/u;
export const NOT_STORABLE_MESSAGE = 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters';

export function isStorableText(value: string): boolean {
  return !NOT_STORABLE_CHARACTER.test(value);
}

/** A string PostgreSQL can store and compare; `error` as for z.string (e.g. "is required"). */
export function storableText(params?: Parameters<typeof z.string>[0]) {
  // abort: a string that cannot be stored is not measured or parsed any further.
  return z.string(params ?? { error: 'must be a string' }).refine(isStorableText, { message: NOT_STORABLE_MESSAGE, abort: true });
}

/** storableText that, when absent, "is required" (rather than "must be a string"). */
export const requiredText = () => storableText({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

/** `text` (storable text by default) trimmed, then of 1 to `maxLength` characters: one message for both bounds. */
export function trimmedText(maxLength: number, text = storableText()) {
  const message = `must be 1 to ${maxLength} characters`;
  return text.trim().min(1, message).max(maxLength, message);
}

// Years 1 to 9999 in UTC: PostgreSQL refuses year 0 as ISO 8601 writes it, and past 9999 an
// ISO 8601 date needs six digits and a sign, which the dates we write back would then carry.
const EARLIEST_TIMESTAMP_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_TIMESTAMP_MS = Date.parse('9999-12-31T23:59:59.999Z');

export const NOT_STORABLE_TIME_MESSAGE = 'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z';

export function isStorableTime(milliseconds: number): boolean {
  return milliseconds >= EARLIEST_TIMESTAMP_MS && milliseconds <= LATEST_TIMESTAMP_MS;
}

/** An ISO 8601 date-time with a time zone, whose instant PostgreSQL can store. */
export const storableTimestamp = z.iso
  .datetime({ offset: true, abort: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z' })
  .refine((value) => isStorableTime(Date.parse(value)), NOT_STORABLE_TIME_MESSAGE);

/** A Date (as GraphQL's DateTime gives it) whose instant PostgreSQL can store. */
export const storableDate = z.date().refine((date) => isStorableTime(date.getTime()), { message: NOT_STORABLE_TIME_MESSAGE, abort: true });

/**
 * How far ahead of the server's clock a caller's time may be (the clock skew of CI runners and
 * laptops): a deploy or incident dated later than that is a mistake, not the future.
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
export const IN_FUTURE_MESSAGE = 'must not be more than 5 minutes in the future';

/** False for a time more than MAX_CLOCK_SKEW_MS ahead; NaN (reported elsewhere) passes. */
export function isNotInFuture(milliseconds: number, now = Date.now()): boolean {
  return !(milliseconds > now + MAX_CLOCK_SKEW_MS);
}

/** `['commits', 3, 'sha']` → `commits[3].sha`; the root is `body`. */
function fieldPath(path: PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );
}

/** The value `schema` makes of `input`, or an InputError naming every invalid field (up to MAX_FIELD_ERRORS). */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const validation = validateInput(schema, input);
  if (!validation.ok) throw new InputError(validation.details);
  return validation.value;
}

/** Every invalid field is reported (up to MAX_FIELD_ERRORS), not only the first. */
export function validateInput<Schema extends z.ZodType>(schema: Schema, input: unknown): Validated<z.output<Schema>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    details: result.error.issues.slice(0, MAX_FIELD_ERRORS).map((issue) => ({ field: fieldPath(issue.path), message: issue.message })),
  };
}
