// Transactions, in the two forms Hookline uses: a pooled pg client for the hot paths that speak
// SQL directly (ingest, the worker's outcomes), and Prisma's interactive transactions elsewhere.
// Work that must join the caller's transaction (queueing jobs) takes either.
import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';

/** A transaction in progress: a pg client between BEGIN and COMMIT, or a Prisma transaction client. */
export type Transaction = pg.PoolClient | Prisma.TransactionClient;

/** Runs `work` in a transaction on one pooled client; rolls back if it throws. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Whether `db` is a pg client (rather than a Prisma transaction client). */
export function isPgClient(db: Transaction): db is pg.PoolClient {
  return typeof (db as pg.PoolClient).query === 'function';
}
