// One pg pool per process, shared by Prisma (through the driver adapter) and the few
// places that speak SQL directly (migrations, rate-limit counters).
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

/** Where hand-written SQL runs: the pool, or one client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

export interface Database {
  pool: pg.Pool;
  prisma: PrismaClient;
  close(): Promise<void>;
}

/** A request waits this long for a free connection before it fails (and is answered 503). */
const CONNECTION_WAIT_MS = 5000;

export function connectDatabase(url: string, options: { maxConnections?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, connectionTimeoutMillis: CONNECTION_WAIT_MS });
  // A connection can drop at any moment (a PostgreSQL restart, pg_terminate_backend). An idle
  // client's error reaches the pool's listener; a checked-out client (a transaction in
  // progress) would emit it with no listener, which kills the process. Every client gets one
  // for its whole life: the statement in progress fails with the same error, and the pool
  // discards the broken client when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    pool,
    prisma,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
