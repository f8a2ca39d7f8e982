// Judges the rollbacks ingest noted (domain/correlation/rollback-judgement.ts), so that no ingest
// waits for a judgement. Every worker process runs it; a target is judged under its service's lock.
import type pg from 'pg';
import { judgeDueRollbacks } from '../domain/correlation/rollback-judgement.ts';
import type { BackgroundJob } from './scheduler.ts';

export interface JudgeRollbacksOptions {
  pool: pg.Pool;
  log: { warn(object: object, message: string): void };
  intervalMs: number;
}

/** Judges the targets due, `intervalMs` after each pass ends. */
export function judgeRollbacksJob({ pool, log, intervalMs }: JudgeRollbacksOptions): BackgroundJob {
  return {
    name: 'judge-rollbacks',
    msUntilNextPass: () => intervalMs,
    async pass(stopping) {
      try {
        await judgeDueRollbacks(pool, stopping);
      } catch (error) {
        log.warn({ err: error }, 'could not judge the rollbacks of the deploys ingested lately; trying again at the next pass');
      }
    },
  };
}
