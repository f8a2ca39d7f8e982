// What an attempt keeps of the receiver's answer, whatever it is: text as it came, bytes that are
// not UTF-8 text written \xNN (and kept exactly), compressed bodies decoded (gzip, deflate
// with or without its zlib wrapper, br) and never expanded past 4 KB, codings we do not know
// and data that does not decode kept as received. A real server on loopback, through the
// worker's own transport.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery } from '../src/delivery/attempt.ts';
import { createWebhookTransport } from '../src/delivery/transport.ts';

const transport = createWebhookTransport({ allowHttp: true, allowPrivate: true }, { timeoutMs: 5000 });

/** What the server answers at each path: its Content-Encoding (if any) and its bytes. */
const answers = new Map<string, { encoding?: string; bytes: Buffer }>();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const answer = answers.get(request.url ?? '')!;
    response.writeHead(200, answer.encoding ? { 'content-encoding': answer.encoding } : {});
    response.end(answer.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let next = 0;
/** The body an attempt keeps when the server answers `bytes` (in `encoding`). */
async function kept(bytes: Buffer, encoding?: string) {
  const path = `/${next++}`;
  answers.set(path, { encoding, bytes });
  const result = await attemptDelivery(transport, { url: `${baseUrl}${path}`, body: '{}', headers: {}, timeoutMs: 5000 });
  expect(result).toMatchObject({ succeeded: true, status: 200, error: null });
  return result.body;
}

const text = (value: string) => Buffer.from(value, 'utf8');

describe('bodies that are not UTF-8 text', () => {
  it('keeps UTF-8 text exactly, control characters included', async () => {
    expect(await kept(text('{"ok":true}\r\n\tété ✓'))).toEqual({
      text: '{"ok":true}\r\n\tété ✓',
      bytes: null,
      contentEncoding: null,
      decoded: false,
    });
    expect(await kept(Buffer.alloc(0))).toEqual({ text: '', bytes: null, contentEncoding: null, decoded: false });
  });

  it('writes NUL, stray and truncated sequences \\xNN, keeping the text around them and the bytes exactly', async () => {
    const bytes = Buffer.concat([
      text('a\0b'),
      Buffer.from([0xff, 0xfe]),
      text('€'),
      Buffer.from([0xe2, 0x82]),
      text('z'),
      Buffer.from([0x80]),
    ]);
    expect(await kept(bytes)).toEqual({ text: 'a\\x00b\\xff\\xfe€\\xe2\\x82z\\x80', bytes, contentEncoding: null, decoded: false });
  });

  it('keeps the first 4096 bytes of a binary body', async () => {
    const bytes = Buffer.alloc(10_000, 0);
    const body = await kept(bytes);
    expect(body!.bytes).toEqual(Buffer.alloc(4096, 0));
    expect(body!.text).toBe('\\x00'.repeat(4096));
  });
});

describe('compressed bodies', () => {
  const json = JSON.stringify({ received: true, note: 'x'.repeat(100) });

  it.each([
    ['gzip', gzipSync(json)],
    ['x-gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['deflate', deflateRawSync(json)],
    ['br', brotliCompressSync(json)],
    ['GZip ', gzipSync(json)],
  ])('decodes %s', async (encoding, bytes) => {
    expect(await kept(bytes, encoding)).toEqual({ text: json, bytes: null, contentEncoding: encoding.trim().toLowerCase(), decoded: true });
  });

  it('decodes no further than 4 KB of a body that would expand to 20 MB', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 'a'));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await kept(bomb, 'gzip')).toEqual({ text: 'a'.repeat(4096), bytes: null, contentEncoding: 'gzip', decoded: true });
  });

  it('keeps as received a coding it does not know, and data that is not in the declared coding', async () => {
    const zstdLike = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x41]);
    expect(await kept(zstdLike, 'zstd')).toEqual({ text: '(\\xb5/\\xfd\\x00A', bytes: zstdLike, contentEncoding: 'zstd', decoded: false });
    expect(await kept(text('plain after all'), 'gzip')).toEqual({
      text: 'plain after all',
      bytes: null,
      contentEncoding: 'gzip',
      decoded: false,
    });
    expect(await kept(text('identity'), 'identity')).toEqual({ text: 'identity', bytes: null, contentEncoding: null, decoded: false });
  });
});
