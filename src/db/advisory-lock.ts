// Work that one process at a time does, whichever processes would: a session advisory lock on a
// connection of its own, held while the work runs. A process that dies holding it loses its
// connection, and the lock with it.
import pg from 'pg';
import sql from 'sql-template-tag';

/**
 * Runs `work` holding the advisory lock `name` and resolves true; resolves false at once, without
 * running it, while another session holds the lock. `databaseUrl` is PostgreSQL itself: behind a
 * transaction pooler the lock could be taken on one server connection and left on another.
 */
export async function runHoldingLock(databaseUrl: string, name: string, work: () => Promise<void>): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A connection lost meanwhile takes the lock with it (the work goes on); without a listener its
  // error would end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(sql`SELECT pg_try_advisory_lock(hashtext(${name})) AS locked`);
    if (!rows[0]!.locked) return false;
    await work();
    return true;
  } finally {
    // Closing the session releases the lock.
    await client.end();
  }
}
