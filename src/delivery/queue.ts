// The delivery queue: pg-boss in the same PostgreSQL, one job per delivery attempt. Jobs are
// inserted inside the transaction that creates (or retries) the delivery, so a delivery is
// never stored without its job, nor queued without being stored; a job is completed inside
// the transaction that records what its attempt did.
//
// Workers take jobs with their own fetch (FETCH_ATTEMPTS_SQL) rather than pg-boss's, which
// takes the oldest due jobs whoever they are for: it keeps each endpoint under its cap of
// attempts in flight, skips endpoints whose circuit is open, and shares a worker's slots fairly
// between organizations. Each job carries what that needs: its endpoint as its pg-boss group
// (group_id, counted among active jobs by pg-boss's own index) and its organization.
import { fromPrisma, PgBoss, type Job, type JobInsert } from 'pg-boss';
import type pg from 'pg';
import type { Statement } from '../db/statement.ts';
import { isPgClient, type Transaction } from '../db/transaction.ts';
import type { AttemptQueue } from '../domain/webhooks/attempt-queue.ts';

export const DELIVER_QUEUE = 'deliver';

export interface DeliverJob {
  deliveryId: string;
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
  return boss;
}

/** pg-boss's database interface on our transaction, whichever form it has. */
function inTransaction(transaction: Transaction) {
  if (!isPgClient(transaction)) return fromPrisma(transaction);
  return { executeSql: (text: string, values?: unknown[]) => transaction.query(text, values) };
}

/**
 * SQL: the delivery `deliveryId` (a uuid expression) has a job not finished yet (created,
 * retry or active). pg-boss's table has no index on a job's data: used as NOT EXISTS in a
 * WHERE of its own (not under an OR), it is one hash anti-join over the queue's unfinished jobs,
 * fine once a minute or at a user's request.
 */
export function queuedAttemptCondition(deliveryId: string): string {
  return `EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = '${DELIVER_QUEUE}' AND j.state < 'completed' AND j.data->>'deliveryId' = (${deliveryId})::text)`;
}

/** The deliveries without a job not finished yet. */
function unqueued(deliveryIds: readonly string[]): Statement {
  return {
    text: `SELECT d.id::text AS id FROM unnest($1::uuid[]) AS d(id) WHERE NOT ${queuedAttemptCondition('d.id')}`,
    values: [deliveryIds],
  };
}

/** Each delivery's endpoint and organization, which its job carries. */
function deliveryOwners(deliveryIds: string[]): Statement {
  return {
    text: `SELECT id::text AS id, endpoint_id::text AS "endpointId", organization_id::text AS "organizationId" FROM deliveries WHERE id = ANY ($1::uuid[])`,
    values: [deliveryIds],
  };
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
      const owners = deliveryOwners(attempts.map((attempt) => attempt.deliveryId));
      const { rows } = await db.executeSql(owners.text, owners.values);
      const ownerOf = new Map((rows as { id: string; endpointId: string; organizationId: string }[]).map((row) => [row.id, row]));
      const inserts: JobInsert<DeliverJob>[] = attempts.flatMap(({ deliveryId, attempt, startAfter, slotAt }) => {
        const owner = ownerOf.get(deliveryId);
        // Gone with its organization in this same transaction: nothing to attempt.
        if (!owner) return [];
        return [
          {
            data: { deliveryId, attempt, organizationId: owner.organizationId, ...(slotAt ? { slotAt: slotAt.toISOString() } : {}) },
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
  /** Attempts in flight per endpoint at most, across all workers (pg-boss's active jobs of its group). */
  perEndpoint: number;
  /** Endpoints whose jobs are left queued (their circuit is open). */
  skippedEndpoints: string[];
  /** Endpoints allowed one attempt in flight (their circuit's probe). */
  probingEndpoints: string[];
  /** The attempts this worker holds now, per organization. */
  heldByOrganization: Map<string, number>;
  /** An organization's share: it may hold this many of the worker's slots at most. */
  organizationShare: number;
}

/**
 * SQL: takes due jobs and marks them active, as pg-boss's fetch does (the same columns, so its
 * supervision and its fenced complete work on them unchanged). Which jobs:
 * - not of a skipped endpoint ($3), nor past their endpoint's cap ($2; 1 for a probing one, $4)
 *   counting its active jobs and those taken before it in this fetch, oldest first;
 * - then by organization: the attempts it holds here ($5, a JSON object of counts) plus those
 *   taken before it in this fetch is its level, at most its share ($6); lower levels go first
 *   (the organization with the fewest in flight), then the oldest. A backlog of one
 *   organization never delays another's.
 * Rows a concurrent fetch holds are skipped. Returns the jobs and how many due jobs were left
 * (held back by a cap, the limit $1, or another worker's fetch). Counts are looked up in JSON
 * objects made once, so each due job costs a lookup, not a join the planner might loop over;
 * jobs of an endpoint or organization already at its cap are dropped before anything is
 * ranked (a flooding tenant's backlog is scanned, never sorted); ids are grouped bytewise
 * (COLLATE "C"), not by the database's language rules.
 */
const FETCH_ATTEMPTS_SQL = `
WITH busy AS MATERIALIZED (
  SELECT coalesce(jsonb_object_agg(group_id, n), '{}') AS counts FROM (
    SELECT group_id, count(*)::int AS n FROM pgboss.job
    WHERE name = '${DELIVER_QUEUE}' AND state = 'active' AND group_id IS NOT NULL
    GROUP BY group_id
  ) active
), due AS MATERIALIZED (
  SELECT j.id, j.group_id, coalesce(j.data->>'organizationId', '') AS organization_id, j.created_on,
         coalesce(((SELECT counts FROM busy) ->> j.group_id)::int, 0) AS endpoint_busy
  FROM pgboss.job j
  WHERE j.name = '${DELIVER_QUEUE}' AND j.state < 'active' AND NOT j.blocked AND j.start_after <= pgboss.job_now()
    AND (j.group_id IS NULL OR j.group_id <> ALL ($3::text[]))
), with_room AS (
  SELECT d.*, row_number() OVER (PARTITION BY d.group_id COLLATE "C" ORDER BY d.created_on, d.id) AS endpoint_rank
  FROM due d
  WHERE coalesce(($5::jsonb ->> d.organization_id)::int, 0) < $6 AND (d.group_id IS NULL OR d.endpoint_busy < $2)
), allowed AS (
  SELECT r.id, r.created_on,
         coalesce(($5::jsonb ->> r.organization_id)::int, 0)
           + row_number() OVER (PARTITION BY r.organization_id COLLATE "C" ORDER BY r.created_on, r.id) AS organization_level
  FROM with_room r
  WHERE r.group_id IS NULL OR r.endpoint_busy + r.endpoint_rank <= CASE WHEN r.group_id = ANY ($4::text[]) THEN 1 ELSE $2 END
), chosen AS (
  SELECT id FROM allowed WHERE organization_level <= $6 ORDER BY organization_level, created_on LIMIT $1
), locked AS (
  SELECT j.id FROM chosen c JOIN pgboss.job j ON j.name = '${DELIVER_QUEUE}' AND j.id = c.id
  WHERE j.state < 'active'
  FOR UPDATE OF j SKIP LOCKED
), claimed AS (
  UPDATE pgboss.job j SET state = 'active', started_on = pgboss.job_now(), heartbeat_on = pgboss.job_now(),
    retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
  FROM locked WHERE j.name = '${DELIVER_QUEUE}' AND j.id = locked.id
  RETURNING j.id, j.retry_count, j.data
)
SELECT coalesce((SELECT json_agg(json_build_object('id', id, 'retryCount', retry_count, 'data', data)) FROM claimed), '[]') AS jobs,
       (SELECT count(*)::int FROM due) - (SELECT count(*)::int FROM claimed) AS "heldBack"`;

/** Takes up to `limit` jobs of attempts that are due, fairly (FETCH_ATTEMPTS_SQL), marking them active (held by this process). */
export async function fetchAttempts(pool: pg.Pool, fetch: FairFetch): Promise<{ jobs: AttemptJob[]; heldBack: number }> {
  const { rows } = await pool.query<{ jobs: AttemptJob[]; heldBack: number }>({
    name: 'fetch-attempts',
    text: FETCH_ATTEMPTS_SQL,
    values: [
      fetch.limit,
      fetch.perEndpoint,
      fetch.skippedEndpoints,
      fetch.probingEndpoints,
      JSON.stringify(Object.fromEntries(fetch.heldByOrganization)),
      fetch.organizationShare,
    ],
  });
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
