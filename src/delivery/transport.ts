// The HTTP transport of webhook attempts: ofetch (the API the worker uses) over undici's
// `request()` on one keep-alive Agent whose every connection goes through the destination guard.
//
// Why not a WHATWG fetch underneath: building a fetch Request and Response (headers objects,
// web streams, CORS bookkeeping) cost about 300 µs of CPU per attempt here, five times the
// HTTP exchange itself, and added browser headers (sec-fetch-mode, accept-language) that a
// webhook has no use for. This transport answers with the part of a Response that ofetch and
// an attempt use: status, headers, and the body as undici's stream (which reads itself as
// text, JSON or bytes when ofetch is asked to parse it).
import type { Readable } from 'node:stream';
import { ofetch, type $Fetch } from 'ofetch';
import { Agent, request } from 'undici';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import { checkBeforeSending, createPinnedLookup, type Resolver } from './destination.ts';

/** What the transport answers (ofetch's types say Response; this is the part it provides). */
export interface AttemptResponse extends Pick<Response, 'status' | 'statusText' | 'ok' | 'text' | 'json' | 'arrayBuffer' | 'blob'> {
  /** `all()`: every header, names lower-cased, repeated ones joined with ", ". */
  headers: { get(name: string): string | null; all(): Record<string, string> };
  body: Readable;
}

export interface TransportOptions {
  /** The attempt timeout (DELIVERY_TIMEOUT_MS): connecting gets part of it, see below. */
  timeoutMs: number;
  /** Replaces the system resolver (tests). */
  resolve?: Resolver;
}

/**
 * Connecting (DNS, TCP, TLS handshake) may take this share of the attempt timeout, at most
 * MAX_CONNECT_MS: a connection not made by then fails as a connect timeout, which tells the
 * endpoint's owner something different from a receiver that connected and did not answer.
 */
const CONNECT_SHARE = 0.8;
const MAX_CONNECT_MS = 10_000;

/**
 * An ofetch instance for webhook attempts: the scheme and literal hosts are checked before sending, names
 * after resolution (with the connection pinned to the checked address), redirects are
 * returned rather than followed, there are no retries (the queue retries) and non-2xx answers
 * resolve instead of throwing. The caller's `signal` bounds the whole attempt; connecting has
 * its own, shorter, limit.
 * A refusal reaches the caller as an ofetch FetchError whose `cause` chain holds a
 * DestinationRefusedError (see findDestinationRefusal).
 */
export function createWebhookTransport(policy: DestinationPolicy, { timeoutMs, resolve }: TransportOptions): $Fetch {
  const dispatcher = new Agent({
    connect: {
      lookup: createPinnedLookup(policy, resolve),
      timeout: Math.min(MAX_CONNECT_MS, Math.ceil(timeoutMs * CONNECT_SHARE)),
    },
  });
  const send = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' || input instanceof URL ? input : input.url;
    const refusal = checkBeforeSending(url, policy);
    if (refusal) throw refusal;
    const answer = await request(url, {
      method: (init.method ?? 'GET') as 'POST',
      headers: init.headers as Headers,
      body: init.body as string | undefined,
      signal: init.signal ?? undefined,
      dispatcher,
    });
    const { body } = answer;
    const response: AttemptResponse = {
      status: answer.statusCode,
      statusText: '',
      ok: answer.statusCode >= 200 && answer.statusCode < 300,
      text: () => body.text(),
      json: () => body.json(),
      arrayBuffer: () => body.arrayBuffer(),
      blob: () => body.blob() as Promise<Blob>,
      headers: {
        get(name) {
          const value = answer.headers[name.toLowerCase()];
          return Array.isArray(value) ? value.join(', ') : (value ?? null);
        },
        all() {
          return Object.fromEntries(
            Object.entries(answer.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
          );
        },
      },
      body,
    };
    // ofetch's custom fetch must answer a Response; sendAttempt() below gives back the type this is.
    return response as unknown as Response;
  };
  return ofetch.create({ retry: 0, ignoreResponseError: true }, { fetch: send });
}

/**
 * POSTs one attempt through a transport made by createWebhookTransport, its answer typed as
 * that transport gives it: the body unread (undici's stream), for the caller to read as far as it keeps.
 */
export async function sendAttempt(
  transport: $Fetch,
  request: { url: string; body: string; headers: Record<string, string>; signal: AbortSignal },
): Promise<AttemptResponse> {
  const response = await transport.raw(request.url, {
    method: 'POST',
    body: request.body,
    headers: request.headers,
    responseType: 'stream',
    signal: request.signal,
  });
  return response as unknown as AttemptResponse;
}
