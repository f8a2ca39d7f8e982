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

/** How deep a JSON value sent to be kept as it is (a change's value, PagerDuty's custom_details) may nest. */
export const MAX_JSON_DEPTH = 32;

type JsonProblem = { path: (string | number)[]; message: string };

/**
 * Why a parsed JSON value cannot be kept in a jsonb column as sent, and where; undefined when it
 * can. Its strings and keys must be storable text, its numbers finite (JSON can write 1e400,
 * which parses to Infinity and would be stored as null), and it must nest at most
 * MAX_JSON_DEPTH levels (reported on the value itself). Walked without recursion, so that any
 * depth is judged without overflowing the stack.
 */
export function jsonStorageProblem(value: unknown): JsonProblem | undefined {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string' && !isStorableText(value)) return { path, message: NOT_STORABLE_MESSAGE };
    if (typeof value === 'number' && !Number.isFinite(value)) return { path, message: 'must be a finite number' };
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_JSON_DEPTH) return { path: [], message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` };
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return { path, message: `must not have keys that contain NUL (\\u0000) or unpaired surrogate characters` };
      pending.push({ value: item, path: [...path, Array.isArray(value) ? Number(key) : key] });
    }
  }
  return undefined;
}

/** Any JSON value that jsonb can keep as sent (see jsonStorageProblem); failures name the part at fault. */
export const storableJson = z.unknown().superRefine((value, context) => {
  const problem = jsonStorageProblem(value);
  if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message, input: value });
});

/** storableText that, when absent, "is required" (rather than "must be a string"). */
export const requiredText = () => storableText({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

/** `text` (storable text by default) trimmed, then of 1 to `maxLength` characters: one message for both bounds. */
export function trimmedText(maxLength: number, text = storableText()) {
  const message = `must be 1 to ${maxLength} characters`;
  return text.trim().min(1, message).max(maxLength, message);
}

// Years 1970 to 9999 in UTC, checked before any arithmetic on a time: a look-back subtracted
// from year 1 lands in year 0, which PostgreSQL refuses, and past 9999 an ISO 8601 date needs six
// digits and a sign, which the dates we write back would then carry. Nothing Hookline records
// (deploys, commits, alerts, incidents) happened before the Unix epoch.
const EARLIEST_TIMESTAMP_MS = Date.parse('1970-01-01T00:00:00.000Z');
const LATEST_TIMESTAMP_MS = Date.parse('9999-12-31T23:59:59.999Z');

export const NOT_STORABLE_TIME_MESSAGE = 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z';

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
