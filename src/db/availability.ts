// Telling "the database cannot serve this right now" (a restart, a failover, a dropped connection,
// a database refusing connections, a pool with no free connection) apart from every other error,
// so callers can answer 503 and retry instead of reporting a bug; and a statement cancelled by
// its timeout.

/**
 * SQLSTATEs of a lost or refused session: connection exceptions (08…), shutdowns in progress,
 * too many connections, and 55000, which PostgreSQL gives a connection to a database that does
 * not accept any (`ALTER DATABASE … ALLOW_CONNECTIONS false`); none of Hookline's statements
 * can raise 55000 otherwise.
 */
const UNAVAILABLE_SQLSTATE = /^(08\d{3}|57P01|57P02|57P03|53300|55000)$/;
/** Socket-level failures reaching the server. */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
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
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown; originalMessage?: unknown } } };
}

/** `error` and its causes, outermost first (Prisma and pg wrap what went wrong). */
export function* causeChain(error: unknown): Generator<ErrorLike> {
  for (let current = error as ErrorLike | undefined, depth = 0; current && typeof current === 'object' && depth < 10; depth++) {
    yield current;
    current = current.cause as ErrorLike | undefined;
  }
}

/** What a node-postgres message without a code says happened. */
const UNAVAILABLE_MESSAGE_CAUSES: [RegExp, string][] = [
  [/Connection terminated/, 'connection terminated'],
  [/connection error and is not queryable|Client was closed and is not queryable/, 'connection closed'],
  [/timeout exceeded when trying to connect/, 'no free connection in time'],
];

/**
 * Why the database cannot serve, in a few words (the kind an operator counts: "connection refused
 * (ECONNREFUSED)", "no free connection in time"), or undefined when `error` is something else.
 */
export function unavailabilityCause(error: unknown): string | undefined {
  for (const current of causeChain(error)) {
    const code = typeof current.code === 'string' ? current.code : undefined;
    if (code && UNAVAILABLE_SQLSTATE.test(code)) return `SQLSTATE ${code}`;
    if (code && UNAVAILABLE_ERRNO.has(code)) return `network error (${code})`;
    if (typeof current.message === 'string') {
      const known = UNAVAILABLE_MESSAGE_CAUSES.find(([pattern]) => pattern.test(current.message as string));
      if (known) return known[1];
    }
    if (code === TRANSACTION_START_TIMEOUT.code && TRANSACTION_START_TIMEOUT.message.test(String(current.message))) {
      return 'no free connection in time';
    }
    const adapterCause = current.meta?.driverAdapterError?.cause;
    if (adapterCause) {
      if (UNAVAILABLE_ADAPTER_KINDS.has(String(adapterCause.kind))) return String(adapterCause.kind);
      if (typeof adapterCause.originalCode === 'string' && UNAVAILABLE_SQLSTATE.test(adapterCause.originalCode)) {
        return `SQLSTATE ${adapterCause.originalCode}`;
      }
    }
  }
  return undefined;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailabilityCause(error) !== undefined;
}

/** PostgreSQL cancelled a statement that ran past its statement_timeout (57014 is also a cancel on request). */
export function isStatementTimeout(error: unknown): boolean {
  for (const current of causeChain(error)) {
    if (current.code === '57014' && /statement timeout/.test(String(current.message))) return true;
    const adapterCause = current.meta?.driverAdapterError?.cause;
    if (adapterCause?.originalCode === '57014' && /statement timeout/.test(String(adapterCause.originalMessage))) return true;
  }
  return false;
}

/** What clients are told to wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** What clients are told to wait after a statement timeout: the database is busy, not gone. */
export const STATEMENT_TIMEOUT_RETRY_AFTER_SECONDS = 1;

export const STATEMENT_TIMEOUT_MESSAGE = `A database statement ran past the statement timeout and was cancelled; ask for less, or retry in ${STATEMENT_TIMEOUT_RETRY_AFTER_SECONDS} s`;
