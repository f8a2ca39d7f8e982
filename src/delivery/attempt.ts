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

function describeFailure(error: unknown, timeoutMs: number): string {
  const refusal = findDestinationRefusal(error);
  if (refusal) return refusal.message;
  const text = error instanceof Error ? `${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}` : String(error);
  if (/timeout|aborted/i.test(text)) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${cause.code}: ${cause.message}` : (cause?.message ?? (error as Error).message);
}

export async function attemptDelivery(
  send: $Fetch,
  request: { url: string; body: string; headers: Record<string, string>; timeoutMs: number },
): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await send.raw<ReadableStream<Uint8Array>, 'stream'>(request.url, {
      method: 'POST',
      body: request.body,
      headers: request.headers,
      responseType: 'stream',
    });
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
    return { startedAt, durationMs: elapsed(), succeeded: false, status: null, retryAfter: null, body: null, error: describeFailure(error, request.timeoutMs) };
  }
}
