// The delivery queue: pg-boss in the same PostgreSQL, one job per delivery attempt. Jobs are
// inserted inside the transaction that creates (or retries) the delivery, so a delivery is
// never stored without its job, nor queued without being stored; a job is completed inside
// the transaction that records what its attempt did.
import { fromPrisma, PgBoss, type Job, type JobInsert } from 'pg-boss';
import type pg from 'pg';
import { isPgClient, type Transaction } from '../db/transaction.ts';
import type { AttemptQueue } from '../domain/attempt-queue.ts';

export const DELIVER_QUEUE = 'deliver';

export interface DeliverJob {
  deliveryId: string;
  /** The attempt this job makes (1-based); a job whose attempt was already made is stale. */
  attempt: number;
  /** ISO time claimed for it under its endpoint's rate limit: it is sent then without claiming another. */
  slotAt?: string;
}

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

/** The queue the domain writes attempts to (its AttemptQueue port), on this pg-boss. */
export function attemptQueue(boss: PgBoss): AttemptQueue {
  return {
    async enqueue(transaction, attempts) {
      if (attempts.length === 0) return;
      const inserts: JobInsert<DeliverJob>[] = attempts.map(({ deliveryId, attempt, startAfter, slotAt }) => ({
        data: slotAt ? { deliveryId, attempt, slotAt: slotAt.toISOString() } : { deliveryId, attempt },
        ...(startAfter ? { startAfter } : {}),
      }));
      await boss.insert(DELIVER_QUEUE, inserts, { db: inTransaction(transaction) });
    },
  };
}

/** Takes `count` jobs (at most) of attempts that are due, marking them active (held by this process). */
export function fetchAttempts(boss: PgBoss, count: number): Promise<Job<DeliverJob>[]> {
  return boss.fetch<DeliverJob>(DELIVER_QUEUE, { batchSize: count });
}

/**
 * Completes jobs inside the transaction that records what their attempts did, so a job is done
 * exactly when its outcome is stored. Fenced by each job's retry count: a job that expired and
 * was handed out again is left to its new holder.
 */
export async function completeAttempts(boss: PgBoss, client: pg.PoolClient, jobs: Job<DeliverJob>[]): Promise<void> {
  if (jobs.length === 0) return;
  await boss.complete(DELIVER_QUEUE, jobs, undefined, { db: inTransaction(client) });
}
