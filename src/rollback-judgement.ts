// Worker processes judge the rollbacks noted by ingest (domain/correlation/rollback-judgement.ts)
// now and then, and add the deploys ingested since to DORA's daily figures, so that no ingest
// waits for a judgement or for another ingest's figures.
import type pg from 'pg';
import { foldDueDoraFigures, judgeDueRollbacks } from './domain/correlation/rollback-judgement.ts';
import { runPeriodically, type Periodic } from './periodic.ts';

export interface RollbackJudgementOptions {
  pool: pg.Pool;
  log: { warn(object: object, message: string): void };
  intervalMs: number;
}

/** Judges the due targets and folds the due DORA figures at once, then `intervalMs` after each pass ends. */
export function startRollbackJudgement({ pool, log, intervalMs }: RollbackJudgementOptions): Periodic {
  let stopping = false;
  const periodic = runPeriodically(async () => {
    try {
      await judgeDueRollbacks(pool, () => stopping);
    } catch (error) {
      log.warn({ err: error }, 'could not judge the rollbacks of the deploys ingested lately; trying again at the next pass');
    }
    try {
      await foldDueDoraFigures(pool, () => stopping);
    } catch (error) {
      log.warn({ err: error }, 'could not add the deploys ingested lately to the DORA figures; trying again at the next pass');
    }
  }, intervalMs);
  return {
    stop() {
      stopping = true;
      return periodic.stop();
    },
  };
}
