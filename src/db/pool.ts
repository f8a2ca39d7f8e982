// The pg pool of a process: where hand-written SQL runs, and what Prisma's driver adapter speaks
// through in the processes that load Prisma (src/db/client.ts).
import pg from 'pg';
import { createBulkhead, type Bulkhead } from './bulkhead.ts';
import { currentRequestScope, type RequestScope } from './request-scope.ts';

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

/** The connections of a process's pool, for its requests or deliveries. */
export const POOL_SIZE = 10;

export interface ConnectOptions {
  maxConnections?: number;
  /** `url` is a pooler in transaction mode (PgBouncer): no named prepared statements, no session settings. */
  pooled?: boolean;
  /**
   * Connections one organization's requests may hold at once (see request-scope.ts), and one
   * for each oneConnectionKey; unset: no limit.
   */
  connectionsPerOrganization?: number;
}

/** The statement_timeout each client's session has now, where it is not the server's default. */
const sessionStatementTimeouts = new WeakMap<pg.PoolClient, number>();

/**
 * Gives the session the statement timeout of the request about to use it, or back the server's
 * default for work outside any request. A round trip only when that changes: in an api process
 * every checkout is a request's, so after its first use a connection needs none.
 */
async function applyStatementTimeout(client: pg.PoolClient, timeoutMs: number | undefined): Promise<void> {
  if (sessionStatementTimeouts.get(client) === timeoutMs) return;
  if (timeoutMs === undefined) {
    await client.query('RESET statement_timeout');
    sessionStatementTimeouts.delete(client);
  } else {
    await client.query(`SET statement_timeout = ${Math.trunc(timeoutMs)}`);
    sessionStatementTimeouts.set(client, timeoutMs);
  }
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void;

/**
 * A pg pool whose checkouts follow the request they are made for (request-scope.ts): one
 * organization's requests hold at most their share of the connections, so others always find one,
 * and a request's statements run under its statement timeout. Every checkout passes here, pool.query
 * and Prisma's driver adapter included (both call connect).
 */
class RequestAwarePool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly shares: { organizations: Bulkhead; oneConnection: Bulkhead } | undefined,
    /** Behind a transaction pooler a session setting would reach other clients' transactions. */
    private readonly sessionSettings: boolean,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    const checkout = this.checkOut(currentRequestScope());
    if (!callback) return checkout;
    checkout.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }

  /**
   * The request's one connection (of its oneConnectionKey) and a slot of its organization's share,
   * as far as it has them, when shares are kept; always taken in this order, so that nobody holds
   * an organization's slot while waiting for a one-connection key.
   */
  private async takeShare(scope: RequestScope | undefined): Promise<(() => void) | undefined> {
    if (!this.shares || !scope) return undefined;
    const releaseOne = scope.oneConnectionKey === undefined ? undefined : await this.shares.oneConnection.acquire(scope.oneConnectionKey);
    if (scope.organizationId === undefined) return releaseOne;
    let releaseShare: () => void;
    try {
      releaseShare = await this.shares.organizations.acquire(scope.organizationId);
    } catch (error) {
      releaseOne?.();
      throw error;
    }
    return () => {
      releaseShare();
      releaseOne?.();
    };
  }

  private async checkOut(scope: RequestScope | undefined): Promise<pg.PoolClient> {
    const releaseShare = await this.takeShare(scope);
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      releaseShare?.();
      throw error;
    }
    if (this.sessionSettings) {
      try {
        await applyStatementTimeout(client, scope?.statementTimeoutMs);
      } catch (error) {
        releaseShare?.();
        // Its session is in a state nobody knows: the pool drops it.
        client.release(error as Error);
        throw error;
      }
    }
    if (releaseShare) {
      const release = client.release;
      client.release = (error?: Error | boolean) => {
        releaseShare();
        release(error);
      };
    }
    return client;
  }
}

export function connectPool(url: string, options: ConnectOptions = {}): pg.Pool {
  const shares =
    options.connectionsPerOrganization === undefined
      ? undefined
      : {
          organizations: createBulkhead({ slotsPerKey: options.connectionsPerOrganization, maxWaitMs: CONNECTION_WAIT_MS }),
          // A token check is one short statement; a held flood's query reads one field after another.
          oneConnection: createBulkhead({ slotsPerKey: 1, maxWaitMs: CONNECTION_WAIT_MS }),
        };
  const config: pg.PoolConfig = {
    connectionString: url,
    max: options.maxConnections ?? POOL_SIZE,
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
    // Hookline's statements each read a page by index; on a large table the planner's estimates
    // still pass JIT's cost thresholds (the delivery fetch over a big backlog, a year of
    // deliveries), and compiling then costs 50 ms to seconds per statement for nothing.
    // (Behind PgBouncer this startup option is ignored: set jit = off for the role there.)
    options: '-c jit=off',
  };
  const pool = new RequestAwarePool(config, shares, !options.pooled);
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
