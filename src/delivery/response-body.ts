// What is kept of a receiver's answer: its first bytes, decoded when the receiver compressed
// them (gzip, deflate, br), as text PostgreSQL can store whatever they are. A receiver may
// answer anything (NUL bytes, Latin-1, images, a compressed body): none of it may stop the
// outcome from being recorded, and the owner of the endpoint should be able to read it.
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

export interface KeptBody {
  /**
   * The body as text: exactly the body when it is UTF-8 text without NUL bytes (cut at a
   * character boundary); otherwise each byte that is not part of such text is written \xNN.
   */
  text: string;
  /** The exact bytes when `text` is not exactly them; null when it is. */
  bytes: Buffer | null;
  /** The Content-Encoding the receiver declared, lower-cased; null when none (or identity). */
  contentEncoding: string | null;
  /** Whether `text` (and `bytes`) are decoded from `contentEncoding`. */
  decoded: boolean;
}

/**
 * Compressed data decodes to at least about as many bytes as it takes (encoders fall back to
 * stored blocks), so this many raw bytes are enough for `limit` decoded ones.
 */
const ENCODED_READ_FACTOR = 2;

/** Reads the first `limit` bytes of `body` (decoded, when it is compressed in a coding we know). */
export async function keepBody(body: Readable, contentEncodingHeader: string | null, limit: number): Promise<KeptBody> {
  const contentEncoding = contentEncodingHeader?.trim().toLowerCase() || null;
  const coding = contentEncoding === 'identity' ? null : contentEncoding;
  if (coding === null) return asText(await readPrefix(body, limit), limit, { contentEncoding: null, decoded: false });
  const raw = await readPrefix(body, limit * ENCODED_READ_FACTOR);
  const decoded = await decode(raw, coding, limit);
  return decoded
    ? asText(decoded, limit, { contentEncoding: coding, decoded: true })
    : asText(raw, limit, { contentEncoding: coding, decoded: false });
}

async function readPrefix(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream: the rest of a large answer is not wanted.
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  return Buffer.concat(chunks);
}

/**
 * The first `limit` bytes `raw` decodes to, or undefined for a coding we do not know (or data
 * that is not in it). A prefix of a compressed body decodes as far as it goes (a sync flush at
 * the end rather than an error), and decoding stops at `limit`, however much the data would
 * expand to.
 */
async function decode(raw: Buffer, coding: string, limit: number): Promise<Buffer | undefined> {
  const decoder = decoderFor(coding, raw);
  if (!decoder) return undefined;
  decoder.end(raw);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of decoder as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= limit) break;
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks);
}

function decoderFor(coding: string, raw: Buffer): zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | undefined {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(flush);
    case 'deflate':
      // Meant to be zlib-wrapped; some servers send raw deflate (a zlib header's low nibble is 8).
      return raw.length > 0 && (raw[0]! & 0x0f) === 0x08 ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

function asText(bytes: Buffer, limit: number, coding: Pick<KeptBody, 'contentEncoding' | 'decoded'>): KeptBody {
  const kept = bytes.subarray(0, limit);
  const text = kept.subarray(0, textEnd(bytes, limit));
  if (isUtf8(text) && !text.includes(0)) return { text: text.toString('utf8'), bytes: null, ...coding };
  return { text: escapeBytes(kept), bytes: Buffer.from(kept), ...coding };
}

/** Where text cut at `limit` bytes ends: before the character the limit cuts through, if it does. */
function textEnd(bytes: Buffer, limit: number): number {
  if (bytes.length <= limit) return bytes.length;
  let end = limit;
  // Continuation bytes are 10xxxxxx: step back to the first byte of the character that straddles the limit.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return end;
}

/** `text` as PostgreSQL stores it: a NUL character (which text columns cannot hold) written \x00, as in bodies. */
export function storableText(text: string): string {
  return text.replaceAll('\0', '\\x00');
}

/** The bytes as UTF-8 text, with NUL and every byte that does not begin a valid character written \xNN. */
function escapeBytes(bytes: Buffer): string {
  let text = '';
  let runStart = 0;
  for (let i = 0; i < bytes.length; ) {
    const length = bytes[i] === 0 ? 0 : characterLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += `${bytes.toString('utf8', runStart, i)}\\x${bytes[i]!.toString(16).padStart(2, '0')}`;
    runStart = ++i;
  }
  return text + bytes.toString('utf8', runStart);
}

/** The length of the valid UTF-8 character starting at `i`, or 0 when none does. */
function characterLength(bytes: Buffer, i: number): number {
  if (bytes[i]! < 0x80) return 1;
  // No proper prefix of a character is valid on its own, so the first valid length is the character's.
  for (let length = 2; length <= 4 && i + length <= bytes.length; length++) {
    if (isUtf8(bytes.subarray(i, i + length))) return length;
  }
  return 0;
}
