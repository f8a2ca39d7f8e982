// Adds the deploys ingested since the last pass to DORA's daily figures
// (domain/correlation/rollback-judgement.ts), which ingest only notes, so that no ingest waits for
// another one's figures. Every worker process runs it; one folds at a time (an advisory lock in
// fold_due_dora_figures: another process's pass returns at once).
import type pg from 'pg';
import { foldDueDoraFigures } from '../domain/correlation/rollback-judgement.ts';
import type { BackgroundJob } from './scheduler.ts';

export interface FoldDoraFiguresOptions {
  pool: pg.Pool;
  log: { warn(object: object, message: string): void };
  intervalMs: number;
}

/** Folds the deploys due, `intervalMs` after each pass ends. */
export function foldDoraFiguresJob({ pool, log, intervalMs }: FoldDoraFiguresOptions): BackgroundJob {
  return {
    name: 'fold-dora-figures',
    msUntilNextPass: () => intervalMs,
    async pass(stopping) {
      try {
        await foldDueDoraFigures(pool, stopping);
      } catch (error) {
        log.warn({ err: error }, 'could not add the deploys ingested lately to the DORA figures; trying again at the next pass');
      }
    },
  };
}
