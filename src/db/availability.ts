// Telling "the database cannot serve this right now" (a restart, a failover, a dropped connection,
// a database refusing connections, a pool with no free connection) apart from every other error,
// so callers can answer 503 and retry instead of reporting a bug.

/**
 * SQLSTATEs of a lost or refused session: connection exceptions (08…), shutdowns in progress,
 * too many connections, and 55000, which PostgreSQL gives a connection to a database that does
 * not accept any (`ALTER DATABASE … ALLOW_CONNECTIONS false`); none of Hookline's statements
 * can raise 55000 otherwise.
 */
const UNAVAILABLE_SQLSTATE = /^(08\d{3}|57P01|57P02|57P03|53300|55000)$/;
/** Socket-level failures reaching the server. */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** node-postgres reports these as plain Errors without a code. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/;
/**
 * Prisma's interactive transaction found no free connection within its wait (P2028 is every
 * transaction API error; only this one means the pool is exhausted).
 */
const TRANSACTION_START_TIMEOUT = { code: 'P2028', message: /Unable to start a transaction in the given time/ };
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
    if (code === TRANSACTION_START_TIMEOUT.code && TRANSACTION_START_TIMEOUT.message.test(String(current.message))) return true;
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
