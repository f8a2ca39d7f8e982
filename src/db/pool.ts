// The pg pool of a process: where hand-written SQL runs, and what Prisma's driver adapter speaks
// through in the processes that load Prisma (src/db/client.ts).
import pg from 'pg';

/** Where hand-written SQL runs: the pool, or one client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * Makes `client` send every statement unnamed (not prepared once per connection). Behind a pooler
 * in transaction mode, consecutive transactions of one client run on different server
 * connections, and PgBouncer before 1.21 does not carry a statement prepared on one over to the
 * next ("prepared statement … does not exist").
 */
function sendUnnamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) =>
    query(
      config && typeof config === 'object' && 'name' in config ? { ...config, name: undefined } : config,
      ...rest,
    )) as typeof client.query;
}

/** A request waits this long for a free connection before it fails (and is answered 503). */
const CONNECTION_WAIT_MS = 5000;

export interface ConnectOptions {
  maxConnections?: number;
  /** `url` is a pooler in transaction mode (PgBouncer): no named prepared statements. */
  pooled?: boolean;
}

export function connectPool(url: string, options: ConnectOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
    // Hookline's statements each read a page by index; on a large table the planner's estimates
    // still pass JIT's cost thresholds (the delivery fetch over a big backlog, a year of
    // deliveries), and compiling then costs 50 ms to seconds per statement for nothing.
    // (Behind PgBouncer this startup option is ignored: set jit = off for the role there.)
    options: '-c jit=off',
  });
  // A connection can drop at any moment (a PostgreSQL restart, pg_terminate_backend). An idle
  // client's error reaches the pool's listener; a checked-out client (a transaction in
  // progress) would emit it with no listener, which kills the process. Every client gets one
  // for its whole life: the statement in progress fails with the same error, and the pool
  // discards the broken client when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (options.pooled) sendUnnamedStatements(client);
  });
  return pool;
}
