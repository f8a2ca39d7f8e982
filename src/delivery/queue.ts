// The delivery queue: pg-boss in the same PostgreSQL, one job per delivery attempt. Jobs are
// inserted inside the transaction that creates (or retries) the delivery, so a delivery is
// never stored without its job, nor queued without being stored; a job is completed inside
// the transaction that records what its attempt did.
//
// Workers take jobs with their own fetch (fetchAttemptsStatement) rather than pg-boss's, which
// takes the oldest due jobs whoever they are for: it keeps each endpoint under its cap of
// attempts in flight, skips endpoints whose circuit is open, and shares a worker's slots fairly
// between organizations. Each job carries what that needs: its endpoint as its pg-boss group
// (group_id, counted among active jobs by pg-boss's own index) and its organization.
import { fromPrisma, PgBoss, type Job, type JobInsert } from 'pg-boss';
import type pg from 'pg';
import sql, { raw, type Sql } from 'sql-template-tag';
import { named } from '../db/statement.ts';
import { isPgClient, type Transaction } from '../db/transaction.ts';
import type { AttemptQueue, QueuedAttempt } from '../domain/webhooks/attempt-queue.ts';
import { inTheirMonths } from './store.ts';

export const DELIVER_QUEUE = 'deliver';
/** The queue's name as a literal of the statements' text, not a parameter: their partial indexes apply only so. */
const QUEUE_NAME = raw(`'${DELIVER_QUEUE}'`);

export interface DeliverJob {
  deliveryId: string;
  /**
   * ISO time the delivery was made: with its id, its key, naming its month's partition (absent
   * from jobs queued before deliveries were partitioned by month: those are looked up by id alone).
   */
  deliveryCreatedAt?: string;
  /** The attempt this job makes (1-based); a job whose attempt was already made is stale. */
  attempt: number;
  /** ISO time claimed for it under its endpoint's rate limit: it is sent then without claiming another. */
  slotAt?: string;
  /** Whose delivery it is (absent from jobs queued before fair fetching: those count as one organization). */
  organizationId?: string;
}

/** A job as a worker holds it: what its attempt is, and what completing it is fenced by. */
export type AttemptJob = Pick<Job<DeliverJob>, 'id' | 'retryCount' | 'data'>;

export interface QueueOptions {
  databaseUrl: string;
  /** An active job not finished by then is handed to another worker (its worker died). */
  jobExpirySeconds: number;
  onError: (error: Error) => void;
}

export async function startQueue(options: QueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    // Workers fetch through their own dispatcher (worker.ts), woken by the deliveries' change
    // notifications, so pg-boss's own LISTEN and NOTIFY would be unused work.
    useListenNotify: false,
    max: 4,
    // Expired jobs (a worker killed mid-attempt) are found by the monitor pass; keep both
    // passes prompt so such attempts come back soon after they expire.
    superviseIntervalSeconds: Math.max(1, Math.min(10, options.jobExpirySeconds)),
    monitorIntervalSeconds: Math.max(1, Math.min(10, options.jobExpirySeconds)),
  });
  boss.on('error', options.onError);
  await boss.start();
  const queueOptions = {
    expireInSeconds: options.jobExpirySeconds,
    // Retries of an attempt's job only happen when a worker died holding it; the delivery's own
    // retry schedule is Hookline's (a new job per attempt, see worker.ts).
    retryLimit: 20,
    retryDelay: 1,
    retentionSeconds: 24 * 3600,
    deleteAfterSeconds: 24 * 3600,
    notify: false,
  };
  // Creating is a no-op when the queue exists; updating applies this process's settings.
  await boss.createQueue(DELIVER_QUEUE, queueOptions);
  await boss.updateQueue(DELIVER_QUEUE, queueOptions);
  await boss.getDb().executeSql(CREATE_QUEUE_INDEXES_SQL);
  // The hourly pruning was once this queue's pg-boss schedule; the workers' own scheduler runs it
  // now (background/prune-history.ts). Deleting the queue deletes its schedule, and does nothing
  // once it is gone. Best effort: of two processes starting at once, the second may fail, the
  // queue gone all the same.
  await boss.deleteQueue('prune-history').catch(() => {});
  return boss;
}

/**
 * Hookline's own indexes on pg-boss's job table (made here, after pg-boss has made its schema;
 * on its partitioned parent, so every partition has them). One simple query is one transaction,
 * under a transaction-scoped advisory lock, since several processes may start at once and two
 * CREATE INDEX IF NOT EXISTS can race.
 * - `hookline_deliver_waiting`: each endpoint's waiting jobs in the order they fall due, so the
 *   fair fetch reads the endpoints with waiting jobs and a few due jobs of each, never the backlog.
 * - `hookline_deliver_delivery`: a delivery's unfinished job, so a delivery's attempt is looked up
 *   by index rather than by a scan of every job.
 */
const CREATE_QUEUE_INDEXES_SQL = `
SELECT pg_advisory_xact_lock(hashtext('hookline.queue-indexes'));
CREATE INDEX IF NOT EXISTS hookline_deliver_waiting ON pgboss.job (group_id, start_after, id)
  WHERE name = '${DELIVER_QUEUE}' AND state < 'active' AND NOT blocked;
CREATE INDEX IF NOT EXISTS hookline_deliver_delivery ON pgboss.job ((data->>'deliveryId'))
  WHERE name = '${DELIVER_QUEUE}' AND state < 'completed';`;

/** pg-boss's database interface on our transaction, whichever form it has. */
function inTransaction(transaction: Transaction) {
  if (!isPgClient(transaction)) return fromPrisma(transaction);
  return { executeSql: (text: string, values?: unknown[]) => transaction.query(text, values) };
}

/**
 * SQL: the delivery `deliveryId` (a uuid expression) has a job not finished yet (created,
 * retry or active): a probe of hookline_deliver_delivery, whose conditions on name and state are
 * written here as in the index, so that the partial index applies. OFFSET 0 keeps it a probe per
 * delivery: PostgreSQL would turn a plain [NOT] EXISTS into a join, which it may make a hash join
 * reading every unfinished job of the queue.
 */
export function queuedAttemptCondition(deliveryId: Sql): Sql {
  return sql`EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = ${QUEUE_NAME} AND j.state < 'completed' AND j.data->>'deliveryId' = (${deliveryId})::text OFFSET 0)`;
}

/** The deliveries without a job not finished yet. */
function unqueued(deliveryIds: readonly string[]): Sql {
  return sql`SELECT d.id::text AS id FROM unnest(${deliveryIds}::uuid[]) AS d(id) WHERE NOT ${queuedAttemptCondition(raw('d.id'))}`;
}

/**
 * Each delivery's endpoint and organization, which its job carries. By (id, created_at), so that
 * only the partitions of those months are read.
 */
function deliveryOwners(attempts: QueuedAttempt[]): Sql {
  const times = attempts.map((attempt) => attempt.deliveryCreatedAt);
  return sql`SELECT id::text AS id, endpoint_id::text AS "endpointId", organization_id::text AS "organizationId"
             FROM deliveries
             WHERE id = ANY (${attempts.map((attempt) => attempt.deliveryId)}::uuid[])
               AND ${inTheirMonths(raw('created_at'), times)}`;
}

/** The queue the domain writes attempts to (its AttemptQueue port), on this pg-boss. */
export function attemptQueue(boss: PgBoss): AttemptQueue {
  return {
    async unqueued(transaction, deliveryIds) {
      if (deliveryIds.length === 0) return [];
      const statement = unqueued(deliveryIds);
      const { rows } = await inTransaction(transaction).executeSql(statement.text, statement.values);
      return (rows as { id: string }[]).map((row) => row.id);
    },
    async enqueue(transaction, attempts) {
      if (attempts.length === 0) return;
      const db = inTransaction(transaction);
      const owners = deliveryOwners(attempts);
      const { rows } = await db.executeSql(owners.text, owners.values);
      const ownerOf = new Map((rows as { id: string; endpointId: string; organizationId: string }[]).map((row) => [row.id, row]));
      const inserts: JobInsert<DeliverJob>[] = attempts.flatMap(({ deliveryId, deliveryCreatedAt, attempt, startAfter, slotAt }) => {
        const owner = ownerOf.get(deliveryId);
        // Gone with its organization in this same transaction: nothing to attempt.
        if (!owner) return [];
        return [
          {
            data: {
              deliveryId,
              deliveryCreatedAt: deliveryCreatedAt.toISOString(),
              attempt,
              organizationId: owner.organizationId,
              ...(slotAt ? { slotAt: slotAt.toISOString() } : {}),
            },
            group: { id: owner.endpointId },
            ...(startAfter ? { startAfter } : {}),
          },
        ];
      });
      await boss.insert(DELIVER_QUEUE, inserts, { db });
    },
  };
}

export interface FairFetch {
  /** Jobs to take at most. */
  limit: number;
  /** Attempts in flight an endpoint may have (its group's active jobs, across every worker), unless `endpointCaps` names it. */
  defaultEndpointCap: number;
  /** The caps of particular endpoints: learned from their answers, 0 while a circuit is open, 1 for its probe. */
  endpointCaps: Map<string, number>;
  /** Jobs whose attempts this worker has made, active until their outcomes are written: they hold no slot. */
  finishedJobIds: string[];
  /** The attempts this worker holds now, per organization. */
  heldByOrganization: Map<string, number>;
  /** An organization's share: it may hold this many of the worker's slots at most. */
  organizationShare: number;
}

/**
 * SQL: takes due jobs and marks them active, as pg-boss's fetch does (the same columns, so its
 * supervision and its fenced complete work on them unchanged). Its cost follows the jobs it may
 * take, never the backlog behind them:
 * - `waiting`: the endpoints with waiting jobs, one index probe each (a loose scan of
 *   hookline_deliver_waiting).
 * - `room`: of those not capped at 0 in `endpointCaps` (an open circuit), the free slots of each
 *   (materialized: counted once, not once per job read), and its organization (every job of an
 *   endpoint is its organization's: read from one of them), and
 * - `candidates`: of each, its oldest due jobs up to its free slots (its cap, in `endpointCaps` or
 *   `defaultEndpointCap`, less its active jobs across every worker, counted in pg-boss's own index of them, but for
 *   those whose attempts are made and outcomes not yet written, `finishedJobIds`), plus
 *   one: read only to tell that work is held back. Jobs queued before endpoints were their groups
 *   (none has a group) are read the same way, as one endpoint capped at the limit.
 * - then by organization: the attempts it holds here (`heldByOrganization`) plus those taken
 *   before it in this fetch is its level, at most its share (`organizationShare`); lower levels go first (the
 *   organization holding fewest), then the oldest. A backlog of one organization never delays another's.
 * Rows a concurrent fetch holds are skipped. Returns the jobs, and whether due jobs were left
 * behind a cap, a share or the limit. The chosen ids reach the UPDATE as one array, so the planner
 * cannot join the ranking to the job table row by row.
 */
function fetchAttemptsStatement(fetch: FairFetch): Sql {
  const caps = JSON.stringify(Object.fromEntries(fetch.endpointCaps));
  return sql`
WITH RECURSIVE waiting (group_id) AS (
  (SELECT j.group_id FROM pgboss.job j
   WHERE j.name = ${QUEUE_NAME} AND j.state < 'active' AND NOT j.blocked AND j.group_id IS NOT NULL
   ORDER BY j.group_id LIMIT 1)
  UNION ALL
  SELECT (SELECT j.group_id FROM pgboss.job j
          WHERE j.name = ${QUEUE_NAME} AND j.state < 'active' AND NOT j.blocked AND j.group_id > w.group_id
          ORDER BY j.group_id LIMIT 1)
  FROM waiting w WHERE w.group_id IS NOT NULL
), room AS MATERIALIZED (
  SELECT w.group_id,
         coalesce((${caps}::jsonb ->> w.group_id)::int, ${fetch.defaultEndpointCap})
           - (SELECT count(*)::int FROM pgboss.job a
              WHERE a.name = ${QUEUE_NAME} AND a.state = 'active' AND a.group_id = w.group_id AND a.id <> ALL (${fetch.finishedJobIds}::uuid[])) AS free,
         (SELECT coalesce(o.data->>'organizationId', '') FROM pgboss.job o
          WHERE o.name = ${QUEUE_NAME} AND o.state < 'active' AND NOT o.blocked AND o.group_id = w.group_id
          ORDER BY o.start_after, o.id LIMIT 1) AS organization_id
  FROM waiting w
  WHERE w.group_id IS NOT NULL AND coalesce((${caps}::jsonb ->> w.group_id)::int, ${fetch.defaultEndpointCap}) > 0
), candidates AS (
  SELECT c.id, c.start_after, r.organization_id, c.endpoint_rank <= r.free AS has_room
  FROM room r CROSS JOIN LATERAL (
    SELECT j.id, j.start_after, row_number() OVER (ORDER BY j.start_after, j.id) AS endpoint_rank
    FROM pgboss.job j
    WHERE j.name = ${QUEUE_NAME} AND j.state < 'active' AND NOT j.blocked AND j.group_id = r.group_id
      AND j.start_after <= pgboss.job_now()
    ORDER BY j.start_after, j.id
    LIMIT greatest(r.free, 0) + 1
  ) c
  UNION ALL
  (SELECT j.id, j.start_after, coalesce(j.data->>'organizationId', ''), true
   FROM pgboss.job j
   WHERE j.name = ${QUEUE_NAME} AND j.state < 'active' AND NOT j.blocked AND j.group_id IS NULL
     AND j.start_after <= pgboss.job_now()
   ORDER BY j.start_after, j.id
   LIMIT ${fetch.limit})
), ranked AS (
  SELECT c.id, c.start_after,
         coalesce((${JSON.stringify(Object.fromEntries(fetch.heldByOrganization))}::jsonb ->> c.organization_id)::int, 0)
           + row_number() OVER (PARTITION BY c.organization_id ORDER BY c.start_after, c.id) AS organization_level
  FROM candidates c WHERE c.has_room
), chosen AS (
  SELECT r.id FROM ranked r WHERE r.organization_level <= ${fetch.organizationShare} ORDER BY r.organization_level, r.start_after, r.id LIMIT ${fetch.limit}
), locked AS (
  SELECT j.id FROM pgboss.job j
  WHERE j.name = ${QUEUE_NAME} AND j.id = ANY (ARRAY(SELECT id FROM chosen)) AND j.state < 'active'
  FOR UPDATE OF j SKIP LOCKED
), claimed AS (
  UPDATE pgboss.job j SET state = 'active', started_on = pgboss.job_now(), heartbeat_on = pgboss.job_now(),
    retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
  FROM locked WHERE j.name = ${QUEUE_NAME} AND j.id = locked.id
  RETURNING j.id, j.retry_count, j.data
)
SELECT coalesce((SELECT json_agg(json_build_object('id', id, 'retryCount', retry_count, 'data', data)) FROM claimed), '[]') AS jobs,
       (SELECT count(*) FROM candidates) > (SELECT count(*) FROM claimed) AS "heldBack"`;
}

/** Anything that runs a query: the worker's pool, or one client (a benchmark's rolled-back transaction). */
type Queryable = Pick<pg.Pool, 'query'>;

/** Takes up to `limit` jobs of attempts that are due, fairly (fetchAttemptsStatement), marking them active (held by this process). */
export async function fetchAttempts(db: Queryable, fetch: FairFetch): Promise<{ jobs: AttemptJob[]; heldBack: boolean }> {
  const { rows } = await db.query<{ jobs: AttemptJob[]; heldBack: boolean }>(named('fetch-attempts', fetchAttemptsStatement(fetch)));
  return rows[0]!;
}

/**
 * Completes jobs inside the transaction that records what their attempts did, so a job is done
 * exactly when its outcome is stored. Fenced by each job's retry count: a job that expired and
 * was handed out again is left to its new holder.
 */
export async function completeAttempts(boss: PgBoss, client: pg.PoolClient, jobs: AttemptJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await boss.complete(DELIVER_QUEUE, jobs, undefined, { db: inTransaction(client) });
}
