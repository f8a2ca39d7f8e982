// Makes the partitions of webhook history's months ahead (domain/webhooks/retention.ts: this month
// and MONTHS_AHEAD more), at a worker process's start and every few hours, so that a month's
// partitions exist long before its first row: a row of a month without them lands in its table's
// default partition, and keeps that month's partition from being made until it is moved out.
// Every worker process runs it; making the months holds a transaction-scoped advisory lock, and a
// pass that finds them made changes nothing.
import type pg from 'pg';
import { makeMonthsAhead } from '../domain/webhooks/retention.ts';
import type { BackgroundJob } from './scheduler.ts';

/** Hours between passes: a month ahead is made weeks before it starts, so a few missed passes cost nothing. */
const INTERVAL_MS = 6 * 3_600_000;

export interface MakeHistoryMonthsOptions {
  pool: pg.Pool;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
}

export function makeHistoryMonthsJob({ pool, log }: MakeHistoryMonthsOptions): BackgroundJob {
  return {
    name: 'make-history-months',
    msUntilNextPass: () => INTERVAL_MS,
    async pass() {
      try {
        const made = await makeMonthsAhead(pool);
        if (made.length > 0) log.info({ months: made }, `made the partitions of webhook history for ${made.join(', ')}`);
      } catch (error) {
        log.error({ err: error }, "could not make the partitions of webhook history's months ahead; the next pass tries again");
      }
    },
  };
}
