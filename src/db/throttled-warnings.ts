// Warnings that arrive at request rate when the database is away or overloaded (each request
// answered 503) would bury everything else in the log: thousands of identical stack traces a
// minute. Each kind is logged at once the first time, with its error, then once per interval
// with the count of the rest, and logged afresh after an interval without any.

/** pino's (Fastify's) logger: an object first, then the message. */
export interface WarningLog {
  warn(object: Record<string, unknown>, message: string): void;
}

export interface ThrottledWarnings {
  /** `kind` says what happened and why, e.g. "database unavailable: network error (ECONNREFUSED)". */
  warn(kind: string, error: unknown): void;
}

export function createThrottledWarnings(log: WarningLog, intervalMs: number): ThrottledWarnings {
  /** The kinds logged within the current interval, and how many more came since. */
  const recent = new Map<string, { more: number }>();
  const seconds = intervalMs / 1000;

  function startInterval(kind: string): void {
    const interval = { more: 0 };
    recent.set(kind, interval);
    setTimeout(() => {
      if (interval.more === 0) {
        recent.delete(kind);
        return;
      }
      log.warn({ kind, count: interval.more, intervalMs }, `${interval.more} more ${kind} in the last ${seconds} s`);
      startInterval(kind);
    }, intervalMs).unref(); // a count still open must not keep a stopping process alive
  }

  return {
    warn(kind, error) {
      const interval = recent.get(kind);
      if (interval) {
        interval.more++;
        return;
      }
      log.warn({ err: error }, kind);
      startInterval(kind);
    },
  };
}
