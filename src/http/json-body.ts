// Reading a JSON request body. JSON exchanged between systems is UTF-8 (RFC 8259), so a declared
// charset other than UTF-8 is refused (415) and bytes that are not UTF-8 are refused (400),
// rather than being turned silently into U+FFFD.
import { parse as parseContentType } from 'content-type';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/** The body limit of every route but ingest (which has its own), GraphQL's included: 1 MiB. */
export const BODY_LIMIT_BYTES = 1_048_576;

/** The body limit of the ingest routes (deploys, changes, alerts): 100 KB. */
export const INGEST_BODY_LIMIT_BYTES = 102_400;

/** The WHATWG Encoding labels of UTF-8 that clients actually send. */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export type JsonBody = { ok: true; value: unknown } | { ok: false; error: HttpError };

function refuse(status: number, code: string, message: string): JsonBody {
  return { ok: false, error: new HttpError(status, code, message) };
}

/**
 * Bodies of `scope`'s routes read by readJsonBody: application/json only (Fastify's default
 * text/plain parser would hand a handler a string, a 400 rather than a 415), and its JSON parser
 * would take any declared charset and turn bytes that are not UTF-8 into U+FFFD.
 */
export function takeJsonBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const json = readJsonBody(request.headers['content-type'], body as Buffer);
    if (json.ok) done(null, json.value);
    else done(json.error);
  });
}

export function readJsonBody(contentType: string | undefined, body: Buffer | undefined): JsonBody {
  let mediaType: ReturnType<typeof parseContentType> | undefined;
  try {
    mediaType = contentType ? parseContentType(contentType) : undefined;
  } catch {
    mediaType = undefined; // not a media type at all
  }
  if (mediaType?.type !== 'application/json') return refuse(415, 'unsupported_media_type', 'Content-Type must be application/json');
  const charset = mediaType.parameters.charset;
  if (charset !== undefined && !UTF8_CHARSETS.has(charset.toLowerCase())) {
    return refuse(415, 'unsupported_media_type', 'Content-Type charset must be utf-8');
  }
  let text: string;
  try {
    text = utf8Decoder.decode(body ?? Buffer.alloc(0));
  } catch {
    return refuse(400, 'invalid_json', 'Body is not valid UTF-8');
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return refuse(400, 'invalid_json', 'Body is not valid JSON');
  }
}
