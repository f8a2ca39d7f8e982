// When a failed delivery attempt is retried: by default on a fixed schedule that outlasts a
// receiver's day-long outage (as Standard Webhooks recommends: spread retries over days, not
// minutes); or, when DELIVERY_BACKOFF_BASE_MS / DELIVERY_BACKOFF_FACTOR are set, after
// base × factor^(n-1). Either way ±20 % jitter, unless the receiver asked for longer with
// Retry-After on a 429 or 503.

/** Fixed delays before retries 1, 2, … (the last repeats), or an exponential series. */
export type RetrySchedule = { delaysMs: readonly number[] } | { baseMs: number; factor: number };

/**
 * The default schedule: 1 min, 10 min, 2 h, 8 h, 20 h. The five retries end 30 h 11 min after
 * the first attempt, and never before 24 h even when the jitter shortens every delay by 20 %.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [60_000, 600_000, 7_200_000, 28_800_000, 72_000_000];

/**
 * A receiver's Retry-After is honoured up to this long: beyond it a buggy or hostile
 * receiver could park a delivery for days; the schedule's own long delays come later anyway.
 */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** The delay before retry number `attempt` (1-based) as the schedule says, before jitter. */
export function scheduledDelayMs(schedule: RetrySchedule, attempt: number): number {
  if ('delaysMs' in schedule) return schedule.delaysMs[Math.min(attempt, schedule.delaysMs.length) - 1]!;
  return schedule.baseMs * schedule.factor ** (attempt - 1);
}

/** Delay before retry number `attempt` (1-based): the scheduled delay ± jitter. */
export function retryDelayMs({
  attempt,
  schedule,
  jitter = 0.2,
  random = Math.random,
}: {
  attempt: number;
  schedule: RetrySchedule;
  /** Relative spread, 0.2 = ±20 %, uniform. */
  jitter?: number;
  /** In [0, 1]: 0 gives the shortest delay, 1 the longest. */
  random?: () => number;
}): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number from 1, got ${attempt}`);
  const delay = scheduledDelayMs(schedule, attempt) * (1 + jitter * (2 * random() - 1));
  return Math.max(0, Math.round(delay));
}

// The three HTTP-date forms of RFC 9110 §5.6.7; Date.parse alone accepts far more ("soon 12").
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

function parseHttpDate(value: string): number {
  if (IMF_FIXDATE.test(value) || RFC850_DATE.test(value)) return Date.parse(value);
  // asctime carries no zone but is always UTC; without one Date.parse would read local time.
  if (ASCTIME_DATE.test(value)) return Date.parse(`${value} GMT`);
  return Number.NaN;
}

/** HTTP Retry-After (delta-seconds or HTTP-date) in ms from `now`; null when absent or invalid. */
export function parseRetryAfterMs(header: string | null | undefined, now: Date): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = parseHttpDate(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}

/** The backoff delay, unless the receiver asked for longer with Retry-After on 429/503. */
export function nextAttemptDelayMs({
  attempt,
  schedule,
  status,
  retryAfterHeader,
  now,
  random,
}: {
  attempt: number;
  schedule: RetrySchedule;
  /** The failed attempt's HTTP status; undefined when it got no answer (timeout, network error). */
  status?: number | null;
  retryAfterHeader?: string | null;
  now: Date;
  random?: () => number;
}): number {
  const backoff = retryDelayMs({ attempt, schedule, random });
  if (status == null || !RETRY_AFTER_STATUSES.has(status)) return backoff;
  const retryAfter = parseRetryAfterMs(retryAfterHeader, now);
  if (retryAfter === null) return backoff;
  return Math.max(backoff, Math.min(retryAfter, MAX_RETRY_AFTER_MS));
}
