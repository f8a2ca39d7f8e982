// One HTTP attempt of a delivery, reduced to what is recorded: status, duration, the first
// 4 KB of the answer (response-body.ts), or the error. Success is a 2xx; anything else is a
// failed attempt.
import type { $Fetch } from 'ofetch';
import { findDestinationRefusal } from './destination.ts';
import { keepBody, storableText, type KeptBody } from './response-body.ts';
import { ATTEMPT_HEADERS_MAX } from '../domain/webhooks/deliveries.ts';
import { sendAttempt } from './transport.ts';

export const RESPONSE_BODY_LIMIT_BYTES = 4096;
/** An answer's headers are kept up to this size (names and values), so a receiver cannot fill the database. */
export const RESPONSE_HEADERS_LIMIT_BYTES = 16_384;

export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  succeeded: boolean;
  status: number | null;
  retryAfter: string | null;
  body: KeptBody | null;
  /** The request's headers as sent, for the delivery's page. */
  requestHeaders: Record<string, string>;
  /** The answer's headers (see keptHeaders); null without an answer. */
  responseHeaders: Record<string, string> | null;
  error: string | null;
  /** It ran out of time (connecting, or waiting for the answer): it held its slot to the end. */
  timedOut: boolean;
}

interface SystemError {
  code?: string;
  message?: string;
  hostname?: string;
  address?: string;
  port?: number;
  cause?: unknown;
}

/** The error with a code behind what the transport threw (ofetch wraps it in a FetchError). */
function systemError(error: unknown): SystemError {
  for (let current = error as SystemError | undefined, depth = 0; current && depth < 5; depth++, current = current.cause as SystemError) {
    if (typeof current.code === 'string') return current;
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** TLS verification failures (OpenSSL's X509 codes) and Node's own TLS errors. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|HOSTNAME_MISMATCH)/;

/** What went wrong, said for the endpoint's owner, with the system's code. */
function describeFailure(error: unknown): string {
  const refusal = findDestinationRefusal(error);
  if (refusal) return refusal.message;
  const { code, message = '', hostname, address, port } = systemError(error);
  switch (code) {
    case 'ENOTFOUND':
      return `DNS: no address for ${hostname ?? message.replace(/^.*ENOTFOUND\s*/, '')} (ENOTFOUND)`;
    case 'EAI_AGAIN':
      return `DNS: lookup of ${hostname ?? 'the host'} failed for now (EAI_AGAIN)`;
    case 'ECONNREFUSED':
      return `connection refused by ${address}:${port} (ECONNREFUSED)`;
    case 'ECONNRESET':
      return 'connection reset by the receiver (ECONNRESET)';
    case 'UND_ERR_SOCKET':
      return 'the receiver closed the connection without answering (UND_ERR_SOCKET)';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect within ${message.match(/timeout: (\d+)ms/)?.[1] ?? '?'} ms (UND_ERR_CONNECT_TIMEOUT)`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no route to ${address ?? 'the host'} (${code})`;
    default:
      if (code && TLS_CODE.test(code)) return `TLS: ${message} (${code})`;
      return code ? `${message} (${code})` : message;
  }
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
    const response = await sendAttempt(send, { url: request.url, body: request.body, headers: request.headers, signal: deadline.signal });
    status = response.status;
    const body = await keepBody(response.body, response.headers.get('content-encoding'), RESPONSE_BODY_LIMIT_BYTES);
    return {
      startedAt,
      durationMs: elapsed(),
      succeeded: response.status >= 200 && response.status < 300,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body,
      requestHeaders: request.headers,
      responseHeaders: keptHeaders(response.headers.all()),
      error: response.status >= 300 && response.status < 400 ? `redirect to ${response.headers.get('location') ?? '?'} not followed` : null,
      timedOut: false,
    };
  } catch (error) {
    const message = !deadline.signal.aborted
      ? describeFailure(error)
      : status === null
        ? `connected, but no answer within ${request.timeoutMs} ms`
        : `answer (status ${status}) not complete within ${request.timeoutMs} ms`;
    const timedOut = deadline.signal.aborted || systemError(error).code === 'UND_ERR_CONNECT_TIMEOUT';
    // System messages may quote the receiver (a certificate's names), NUL bytes included.
    return {
      startedAt,
      durationMs: elapsed(),
      succeeded: false,
      status,
      retryAfter: null,
      body: null,
      requestHeaders: request.headers,
      responseHeaders: null,
      error: storableText(message),
      timedOut,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The answer's headers in their order, up to ATTEMPT_HEADERS_MAX of them and RESPONSE_HEADERS_LIMIT_BYTES, as text PostgreSQL can store. */
export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  let size = 0;
  for (const [name, value] of Object.entries(headers).slice(0, ATTEMPT_HEADERS_MAX)) {
    size += name.length + value.length;
    if (size > RESPONSE_HEADERS_LIMIT_BYTES) break;
    kept[storableText(name)] = storableText(value);
  }
  return kept;
}
