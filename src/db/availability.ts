// Telling "the database is unreachable right now" (a restart, a failover, a dropped connection)
// apart from every other error, so callers can answer 503 and retry instead of reporting a bug.

/** SQLSTATEs of a lost or refused session: connection exceptions (08…) and shutdowns in progress. */
const UNAVAILABLE_SQLSTATE = /^(08\d{3}|57P01|57P02|57P03|53300)$/;
/** Socket-level failures reaching the server. */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** node-postgres reports these as plain Errors without a code. */
const UNAVAILABLE_MESSAGE = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/;
/** Prisma's driver-adapter error kinds for the same conditions. */
const UNAVAILABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error as ErrorLike | undefined, depth = 0; current && typeof current === 'object' && depth < 10; depth++) {
    const code = typeof current.code === 'string' ? current.code : undefined;
    if (code && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (typeof current.message === 'string' && UNAVAILABLE_MESSAGE.test(current.message)) return true;
    const adapterCause = current.meta?.driverAdapterError?.cause;
    if (adapterCause) {
      if (UNAVAILABLE_ADAPTER_KINDS.has(String(adapterCause.kind))) return true;
      if (typeof adapterCause.originalCode === 'string' && UNAVAILABLE_SQLSTATE.test(adapterCause.originalCode)) return true;
    }
    current = current.cause as ErrorLike | undefined;
  }
  return false;
}

/** What clients are told to wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
