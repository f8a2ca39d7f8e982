// GraphiQL's page carries every asset inside it (about 9 MB), so browsers that accept it get it
// compressed (about 2 MB). Compressing it costs the better part of a second of CPU, so each
// encoding is compressed once and kept, for as long as the page stays the same.
import negotiate from '@fastify/accept-negotiator';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const COMPRESS: Record<Encoding, (page: string) => Promise<Buffer>> = {
  // Brotli's default (quality 11) takes many seconds on a page this size; 6 is nearly as small.
  br: (page) => brotli(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  gzip: (page) => gzipped(page),
};

export interface CompressedPage {
  encoding: Encoding;
  body: Promise<Buffer>;
}

/** Compresses pages for the encoding a request's Accept-Encoding prefers, or says none applies. */
export function createPageCompressor(): (page: string, acceptEncoding: string | undefined) => CompressedPage | undefined {
  const kept = new Map<Encoding, { page: string; body: Promise<Buffer> }>();
  return (page, acceptEncoding) => {
    const encoding = acceptEncoding ? negotiate(acceptEncoding, [...ENCODINGS]) : null;
    if (!encoding) return undefined;
    let entry = kept.get(encoding);
    if (entry?.page !== page) {
      const body = COMPRESS[encoding](page);
      // A failure is not kept: the next visit tries again.
      body.catch(() => kept.delete(encoding));
      entry = { page, body };
      kept.set(encoding, entry);
    }
    return { encoding, body: entry.body };
  };
}
