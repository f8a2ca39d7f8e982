// Worker processes judge the rollbacks noted by ingest (domain/correlation/rollback-judgement.ts)
// now and then, so that no ingest waits for a judgement.
import type pg from 'pg';
import { judgeDueRollbacks } from './domain/correlation/rollback-judgement.ts';
import { runPeriodically, type Periodic } from './periodic.ts';

export interface RollbackJudgementOptions {
  pool: pg.Pool;
  log: { warn(object: object, message: string): void };
  intervalMs: number;
}

/** Judges the due targets at once, then `intervalMs` after each pass ends. */
export function startRollbackJudgement({ pool, log, intervalMs }: RollbackJudgementOptions): Periodic {
  let stopping = false;
  const periodic = runPeriodically(async () => {
    try {
      await judgeDueRollbacks(pool, () => stopping);
    } catch (error) {
      log.warn({ err: error }, 'could not judge the rollbacks of the deploys ingested lately; trying again at the next pass');
    }
  }, intervalMs);
  return {
    stop() {
      stopping = true;
      return periodic.stop();
    },
  };
}
