// Rollbacks judged after ingest: the insert trigger on deploys only notes which target (service
// and environment) is due from which deploy (rollback_judgements_due), so that an ingest waits on
// no other ingest of its service. Worker processes then judge each due target in one statement
// under the service's lock (judge_due_rollbacks), keeping deploys.rolled_back and
// dora_days.rolled_back_count equal to what detectRollbacks finds.
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
