// One HTTP attempt of a delivery, reduced to what is recorded: status, duration, the first
// 4 KB of the answer, or the error. Success is a 2xx; anything else is a failed attempt.
import type { $Fetch } from 'ofetch';
import { findDestinationRefusal } from './destination.ts';

export const RESPONSE_BODY_LIMIT_BYTES = 4096;

export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  succeeded: boolean;
  status: number | null;
  retryAfter: string | null;
  body: string | null;
  error: string | null;
}

async function readPrefix(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // The rest of a large answer is not wanted: stop reading it.
    await reader.cancel().catch(() => {});
  }
  // `stream` drops a multi-byte character cut at the limit instead of adding U+FFFD.
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit), { stream: true });
}

function describeFailure(error: unknown): string {
  const refusal = findDestinationRefusal(error);
  if (refusal) return refusal.message;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${cause.code}: ${cause.message}` : (cause?.message ?? (error as Error).message);
}

/**
 * One attempt. `timeoutMs` bounds all of it, from connecting to reading the last byte kept: a
 * receiver that answers its headers and then stalls the body fails at the timeout like one
 * that never answers.
 */
export async function attemptDelivery(
  send: $Fetch,
  request: { url: string; body: string; headers: Record<string, string>; timeoutMs: number },
): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), request.timeoutMs);
  let status: number | null = null;
  try {
    const response = await send.raw<ReadableStream<Uint8Array>, 'stream'>(request.url, {
      method: 'POST',
      body: request.body,
      headers: request.headers,
      responseType: 'stream',
      signal: deadline.signal,
    });
    status = response.status;
    const body = await readPrefix(response.body, RESPONSE_BODY_LIMIT_BYTES);
    return {
      startedAt,
      durationMs: elapsed(),
      succeeded: response.status >= 200 && response.status < 300,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body,
      error: response.status >= 300 && response.status < 400 ? `redirect to ${response.headers.get('location') ?? '?'} not followed` : null,
    };
  } catch (error) {
    const message = !deadline.signal.aborted
      ? describeFailure(error)
      : status === null
        ? `no answer within ${request.timeoutMs} ms`
        : `answer (status ${status}) not complete within ${request.timeoutMs} ms`;
    return { startedAt, durationMs: elapsed(), succeeded: false, status, retryAfter: null, body: null, error: message };
  } finally {
    clearTimeout(timer);
  }
}
