// Rollbacks judged after ingest: the insert trigger on deploys only notes which target (service
// and environment) is due from which deploy (rollback_judgements_due), so that an ingest waits on
// no other ingest of its service. Worker processes then judge each due target under the service's
// lock (judge_due_rollbacks), a batch of its deploys per statement, keeping deploys.rolled_back
// and dora_days.rolled_back_count equal to what detectRollbacks finds. They also add the deploys
// ingested since to DORA's daily figures (foldDueDoraFigures, a job of its own), which ingest only
// notes.
import type pg from 'pg';
import sql from 'sql-template-tag';
import type { Statement } from '../../db/statement.ts';

/** Targets one pass lists at most; a pass goes on listing until none is due. */
const TARGETS_PER_LIST = 500;

/** Deploys one call of judge_due_rollbacks judges at most (a short statement); the pass calls again for the rest. */
const DEPLOYS_PER_JUDGEMENT = 500;

function dueTargets(limit: number): Statement {
  return sql`SELECT DISTINCT service_id AS "serviceId", environment FROM rollback_judgements_due LIMIT ${limit}`;
}

function judgeDueRollbacksOf(serviceId: string, environment: string, batch: number): Statement {
  return sql`SELECT judge_due_rollbacks(${serviceId}, ${environment}, ${batch}) AS judged`;
}

/**
 * Whether deploys has changed since its statistics were taken by more than autovacuum's rule
 * would let pass before analyzing it (the rule's own settings).
 */
function deployStatisticsStale(): Statement {
  return {
    text: `
SELECT s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
         + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0) AS stale
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.relid = 'deploys'::regclass`,
    values: [],
  };
}

/**
 * Analyzes deploys first when autovacuum would have (it may be off, or not have come round yet
 * after a burst of ingest). The judgement looks up the deploy each deploy restores; with nothing
 * known of a target's rows, the planner takes that look-up through the target's time index rather
 * than its commit index, reading all the target's earlier deploys for each deploy judged (10,000
 * deploys of a new service: 50 million rows read, 30 s, instead of 0.5 s).
 */
async function analyzeDeploysIfStale(pool: pg.Pool | pg.ClientBase): Promise<void> {
  const { rows } = await pool.query<{ stale: boolean }>(deployStatisticsStale());
  // Another process's ANALYZE of it under way (a worker's, autovacuum's) will do.
  if (rows[0]?.stale) await pool.query('ANALYZE (SKIP_LOCKED) deploys');
}

/** Judges every target due now; resolves with the deploys it judged. */
export async function judgeDueRollbacks(pool: pg.Pool | pg.ClientBase, shouldStop: () => boolean = () => false): Promise<number> {
  let judged = 0;
  for (;;) {
    const { rows: targets } = await pool.query<{ serviceId: string; environment: string }>(dueTargets(TARGETS_PER_LIST));
    if (targets.length === 0) return judged;
    await analyzeDeploysIfStale(pool);
    for (const { serviceId, environment } of targets) {
      if (shouldStop()) return judged;
      const { rows } = await pool.query<{ judged: number }>(judgeDueRollbacksOf(serviceId, environment, DEPLOYS_PER_JUDGEMENT));
      judged += rows[0]!.judged;
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
    const { rows } = await pool.query<{ taken: number }>(sql`SELECT fold_due_dora_figures(${DEPLOYS_PER_FOLD}) AS taken`);
    folded += rows[0]!.taken;
    if (rows[0]!.taken < DEPLOYS_PER_FOLD) break;
  }
  return folded;
}
