// One call to Hookline's ingest API with the retries a pipeline step needs: 429 and 5xx answers
// and network failures are tried again after a growing delay, or after the server's Retry-After
// when it says so (up to a cap: a step must not hang for hours). Native fetch only: the built
// script runs without any package installed.

export interface RetryPolicy {
  /** Tries after the first. */
  retries: number;
  /** The first delay; each next one doubles. */
  delayMs: number;
  /** The longest wait accepted, Retry-After included; a longer one ends the tries. */
  maxDelayMs: number;
  /** Per request, from connecting to the last byte of the answer. */
  timeoutMs: number;
}

/** A request that did not succeed, in one line for the pipeline's log. */
export class RequestFailure extends Error {
  override name = 'RequestFailure';

  constructor(
    message: string,
    /** The HTTP status of the last answer; undefined when there was none. */
    readonly status?: number,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; details?: { field: string; message: string }[] };
}

function describeAnswer(status: number, text: string): string {
  let body: ErrorBody = {};
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    // Not ours (a proxy's page): the status says enough.
  }
  const error = body.error;
  if (!error?.code) return `HTTP ${status}`;
  const details = error.details?.map((detail) => `${detail.field} ${detail.message}`).join('; ');
  return `HTTP ${status} ${error.code}: ${error.message ?? ''}${details ? ` (${details})` : ''}`;
}

/** Retry-After in milliseconds: delta seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const isRetryable = (status: number) => status === 429 || status >= 500;

/**
 * The parsed JSON answer of a 2xx; otherwise a RequestFailure once the retries are spent (or at
 * once for an answer that a retry cannot change, such as 400 or 401). `onRetry` hears each wait.
 */
export async function requestJson<T>(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  policy: RetryPolicy,
  onRetry: (reason: string, delayMs: number) => void,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let reason: string;
    let serverDelayMs: number | null = null;
    let status: number | undefined;
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(policy.timeoutMs) });
      const text = await response.text();
      if (response.ok) {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new RequestFailure(
            `HTTP ${response.status} with a body that is not JSON: is ${new URL(url).origin} a Hookline?`,
            response.status,
          );
        }
      }
      reason = describeAnswer(response.status, text);
      status = response.status;
      if (!isRetryable(status)) throw new RequestFailure(reason, status);
      serverDelayMs = retryAfterMs(response.headers.get('retry-after'));
    } catch (error) {
      if (error instanceof RequestFailure) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${policy.timeoutMs} ms`
          : (cause?.code ?? cause?.message ?? (error as Error).message);
    }
    if (attempt >= policy.retries) throw new RequestFailure(`${reason}, after ${attempt + 1} tries`, status);
    const delayMs = Math.max(policy.delayMs * 2 ** attempt, serverDelayMs ?? 0);
    if (delayMs > policy.maxDelayMs)
      throw new RequestFailure(`${reason}, and the server asks to wait ${Math.ceil(delayMs / 1000)} s`, status);
    onRetry(reason, delayMs);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}
