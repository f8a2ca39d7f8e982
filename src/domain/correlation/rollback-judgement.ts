// Rollbacks judged after ingest: the insert trigger on deploys only notes which target (service
// and environment) is due from which deploy (rollback_judgements_due), so that an ingest waits on
// no other ingest of its service. Worker processes then judge each due target in one statement
// under the service's lock (judge_due_rollbacks), keeping deploys.rolled_back and
// dora_days.rolled_back_count equal to what detectRollbacks finds. The same passes add the
// deploys ingested since to DORA's daily figures (foldDueDoraFigures), which ingest only notes.
import type pg from 'pg';

/** Targets one pass lists at most; a pass goes on listing until none is due. */
const TARGETS_PER_LIST = 500;

/** Judges every target due now; resolves with the deploys it judged from. */
export async function judgeDueRollbacks(pool: pg.Pool | pg.ClientBase, shouldStop: () => boolean = () => false): Promise<number> {
  let judged = 0;
  for (;;) {
    const { rows: targets } = await pool.query<{ serviceId: string; environment: string }>(
      `SELECT DISTINCT service_id AS "serviceId", environment FROM rollback_judgements_due LIMIT $1`,
      [TARGETS_PER_LIST],
    );
    if (targets.length === 0) return judged;
    for (const { serviceId, environment } of targets) {
      if (shouldStop()) return judged;
      const { rows } = await pool.query<{ taken: number }>(`SELECT judge_due_rollbacks($1, $2) AS taken`, [serviceId, environment]);
      judged += rows[0]!.taken;
    }
  }
}

/** Deploys one fold adds at most, in one short transaction. */
export const DEPLOYS_PER_FOLD = 1000;

/**
 * Adds the deploys ingested since the last pass to DORA's daily figures (dora_days and
 * dora_organization_days), a batch per transaction, until none is due; resolves with the deploys
 * added. Each batch takes its deploys' notes in the transaction that adds them: a batch cut short
 * (a stopped worker, a lost connection) adds nothing and leaves them for the next pass, and a
 * deploy is never added twice. One worker folds at a time: another one's pass returns at once.
 */
export async function foldDueDoraFigures(pool: pg.Pool | pg.ClientBase, shouldStop: () => boolean = () => false): Promise<number> {
  let folded = 0;
  while (!shouldStop()) {
    const { rows } = await pool.query<{ taken: number }>(`SELECT fold_due_dora_figures($1) AS taken`, [DEPLOYS_PER_FOLD]);
    folded += rows[0]!.taken;
    if (rows[0]!.taken < DEPLOYS_PER_FOLD) break;
  }
  return folded;
}
