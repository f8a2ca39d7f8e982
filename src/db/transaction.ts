// Transactions, in the two forms Hookline uses: a pooled pg client for the hot paths that speak
// SQL directly (ingest, the worker's outcomes), and Prisma's interactive transactions elsewhere.
// Work that must join the caller's transaction (queueing jobs) takes either.
import type pg from 'pg';
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';

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

/**
 * `tx` seen as a PrismaClient, for code written against one: what it runs joins `tx`, and its own
 * `$transaction` runs inside `tx` rather than opening another (so a change and what is recorded
 * of it commit together). A batch runs its statements one after another: a transaction is one
 * connection, and pg refuses statements sent side by side on one.
 */
export function joinedTransaction(tx: Prisma.TransactionClient): PrismaClient {
  const $transaction = async (work: unknown) => {
    if (typeof work === 'function') return work(tx);
    const results: unknown[] = [];
    for (const statement of work as PromiseLike<unknown>[]) results.push(await statement);
    return results;
  };
  return new Proxy(tx, {
    get(target, property) {
      if (property === '$transaction') return $transaction;
      const value = Reflect.get(target, property, target);
      // Methods ($queryRaw, $executeRaw, ...) run on the transaction client itself, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as PrismaClient;
}
