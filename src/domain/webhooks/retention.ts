// Retention of webhook history: events, deliveries and delivery attempts are partitioned by month
// (a delivery and its event on created_at, an attempt on its delivery's), and a month goes whole
// once every day of it is older than RETENTION_DAYS: its three partitions are detached and
// dropped, so their space returns to the disk and almost no WAL is written (deleting the rows one
// by one wrote 25 GB of WAL on a year of data and gave no space back). History is thus kept for
// RETENTION_DAYS and at most a month more. A month holding a PENDING delivery (its attempts are
// still to come) is kept whole until none is left. The partitions of the months ahead are made
// in advance (makeHistoryMonths), so that no row lands in a table's default partition, which takes
// the rows of months without one (and whose rows of a month keep that month's partition from
// being made). Deploys, their commits, change events and incidents are not webhook history: DORA
// and the ranking of suspects read them for any period asked, so they are kept.
import pg from 'pg';
import sql from 'sql-template-tag';
import { transaction } from '../../db/transaction.ts';

const { escapeIdentifier } = pg;

const MS_PER_DAY = 86_400_000;

/** The partitioned tables of webhook history, in the order a month of them is dropped (each references the next). */
export const HISTORY_TABLES = ['delivery_attempts', 'deliveries', 'events'] as const;
/** Months made ahead of the current one, so that a month's partitions exist long before its first row. */
export const MONTHS_AHEAD = 2;
/**
 * Dropping a month takes each history table's ACCESS EXCLUSIVE lock, and the tables they reference
 * (dropping a partition drops its foreign keys' triggers there). Waiting for them while holding
 * some deadlocked with the recorder's transactions, which take the same tables in other orders,
 * and a waiting lock holds up every later statement on its table: so they are asked for all at
 * once without waiting (NOWAIT), up to LOCK_TRIES times LOCK_PAUSE_MS apart, between the short
 * transactions of ingest and the workers. A month that never gets them is left for the next run.
 */
const LOCK_TRIES = 3000;
const LOCK_PAUSE_MS = 20;

/** The earliest time from which deliveries and events are kept. */
export function historyStartsAt(retentionDays: number, now = new Date()): Date {
  return new Date(now.getTime() - retentionDays * MS_PER_DAY);
}

/** The first instant (UTC) of the month of `at`. */
function monthStart(at: Date, monthsLater = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + monthsLater, 1));
}

/** A month's partitions are named <table>_YYYY_MM. */
function monthSuffix(month: Date): string {
  return `${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The partition of `table` for the month `suffix` names, as an identifier. */
function partition(table: (typeof HISTORY_TABLES)[number], suffix: string): string {
  return escapeIdentifier(`${table}_${suffix}`);
}

/**
 * Makes the partitions of every month from `from`'s to `to`'s (both included) that does not have
 * them yet, for the three tables; returns the months made (YYYY_MM). Under a transaction-scoped
 * advisory lock: two processes making the same partition at once would collide.
 */
export async function makeHistoryMonths(pool: pg.Pool, from: Date, to: Date): Promise<string[]> {
  const months: Date[] = [];
  for (let month = monthStart(from); month <= to; month = monthStart(month, 1)) months.push(month);
  return transaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('hookline.history-months'))`);
    const { rows } = await client.query<{ month: string }>(sql`
WITH wanted AS (
  SELECT m::date AS month, to_char(m, 'YYYY_MM') AS suffix FROM unnest(${months}::timestamptz[]) AS m
), missing AS (
  SELECT * FROM wanted WHERE to_regclass('events_' || suffix) IS NULL
     OR to_regclass('deliveries_' || suffix) IS NULL OR to_regclass('delivery_attempts_' || suffix) IS NULL
), made AS (
  SELECT suffix, hookline_history_partition(t, month) FROM missing CROSS JOIN unnest(${[...HISTORY_TABLES].reverse()}::text[]) AS t
)
SELECT DISTINCT suffix AS month FROM made ORDER BY 1`);
    return rows.map((row) => row.month);
  });
}

/** Makes this month's partitions and those of MONTHS_AHEAD months after it, where missing. */
export function makeMonthsAhead(pool: pg.Pool, now = new Date()): Promise<string[]> {
  return makeHistoryMonths(pool, now, monthStart(now, MONTHS_AHEAD));
}

/** The months that have partitions, oldest first, as the first instant of each. */
async function partitionedMonths(pool: pg.Pool): Promise<Date[]> {
  const { rows } = await pool.query<{ suffix: string }>(sql`
SELECT DISTINCT substring(c.relname FROM '_(\\d{4}_\\d{2})$') AS suffix
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = ANY (${[...HISTORY_TABLES]}::regclass[]) AND c.relname ~ '_\\d{4}_\\d{2}$'
ORDER BY 1`);
  return rows.map(({ suffix }) => new Date(`${suffix.replace('_', '-')}-01T00:00:00Z`));
}

export interface PruneOptions {
  /** Rows older than this go, each with its whole month. */
  cutoff: Date;
  /** How many times a month's locks are asked for before it is left for the next run (LOCK_TRIES). */
  lockTries?: number;
}

export interface PruneResult {
  /** The months dropped (YYYY_MM), oldest first. */
  months: string[];
  /** The rows they held. */
  deliveries: number;
  attempts: number;
  events: number;
  /** Months past the cutoff kept because a delivery of theirs is still PENDING. */
  keptPending: string[];
  /** The month whose tables stayed busy (their locks never free at once): it and later ones wait for the next run. */
  busy: string | null;
}

/** lock_not_available: a lock asked for with NOWAIT was held; nothing changed. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Drops every month whose end is at or before `cutoff`, oldest first, each in a transaction of its
 * own: its attempts, its deliveries (detached first: the attempts of other months are checked not
 * to reference them), then its events (the same, for deliveries). A month with a PENDING delivery
 * is kept. Its locks are taken first, all at once and without waiting (LOCK_TRIES); a month whose
 * tables stay busy is left, with the later ones, for the next run.
 */
export async function pruneHistory(pool: pg.Pool, { cutoff, lockTries = LOCK_TRIES }: PruneOptions): Promise<PruneResult> {
  const result: PruneResult = { months: [], deliveries: 0, attempts: 0, events: 0, keptPending: [], busy: null };
  const expired = (await partitionedMonths(pool)).filter((month) => monthStart(month, 1) <= cutoff);
  for (const month of expired) {
    const suffix = monthSuffix(month);
    const dropped = await dropMonthWhenFree(pool, suffix, lockTries);
    if (dropped === 'busy') {
      result.busy = suffix;
      break;
    }
    if (!dropped) {
      result.keptPending.push(suffix);
      continue;
    }
    result.months.push(suffix);
    result.deliveries += dropped.deliveries;
    result.attempts += dropped.attempts;
    result.events += dropped.events;
  }
  return result;
}

interface DroppedRows {
  deliveries: number;
  attempts: number;
  events: number;
}

/** Counts the month's rows, then drops it (dropMonth), tried until it has the locks (or 'busy'). */
async function dropMonthWhenFree(pool: pg.Pool, suffix: string, lockTries: number): Promise<DroppedRows | undefined | 'busy'> {
  // Counted before the locks, which hold up every write to the three tables: the counts only
  // report what went, and a past month's rows hardly change meanwhile.
  const { rows } = await pool.query<DroppedRows>(`
SELECT (SELECT count(*) FROM ${partition('deliveries', suffix)})::int AS deliveries,
       (SELECT count(*) FROM ${partition('delivery_attempts', suffix)})::int AS attempts,
       (SELECT count(*) FROM ${partition('events', suffix)})::int AS events`);
  for (let tries = 1; ; tries++) {
    try {
      return (await dropMonth(pool, suffix)) ? rows[0]! : undefined;
    } catch (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
      if (tries >= lockTries) return 'busy';
      await new Promise((resolve) => setTimeout(resolve, LOCK_PAUSE_MS));
    }
  }
}

/** Drops the month `suffix` names, unless a delivery of it is PENDING (false then); throws 55P03 when a lock is held. */
async function dropMonth(pool: pg.Pool, suffix: string): Promise<boolean> {
  return transaction(pool, async (client) => {
    await client.query(`LOCK TABLE ${HISTORY_TABLES.join(', ')} IN ACCESS EXCLUSIVE MODE NOWAIT`);
    await client.query('LOCK TABLE webhook_endpoints, organizations IN SHARE ROW EXCLUSIVE MODE NOWAIT');
    // Under the locks: a re-send makes a past month's delivery PENDING again.
    const pending = await client.query(`SELECT 1 FROM ${partition('deliveries', suffix)} WHERE status = 'PENDING' LIMIT 1`);
    if (pending.rowCount) return false;
    for (const table of HISTORY_TABLES) {
      const name = partition(table, suffix);
      // A referenced partition is detached before it is dropped; attempts are referenced by nothing.
      if (table !== 'delivery_attempts') await client.query(`ALTER TABLE ${table} DETACH PARTITION ${name}`);
      await client.query(`DROP TABLE ${name}`);
    }
    return true;
  });
}
