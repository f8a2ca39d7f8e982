// What the domain needs of the delivery queue, and no more: to queue attempts inside the
// transaction that stores their deliveries, so a delivery is never stored without its job nor
// queued without being stored. src/delivery/queue.ts implements it with pg-boss.
import type { Transaction } from '../../db/transaction.ts';

export interface QueuedAttempt {
  deliveryId: string;
  /** The delivery's createdAt: with its id, its key (deliveries are partitioned by month on it). */
  deliveryCreatedAt: Date;
  /** The attempt the job makes (1-based). */
  attempt: number;
  /** Not before this time (a retry's backoff); now when absent. */
  startAfter?: Date;
  /** The start time already claimed under the endpoint's rate limit (a throttled attempt's turn). */
  slotAt?: Date;
}

export interface AttemptQueue {
  /** Queues the attempts as part of `transaction`: they exist exactly when it commits. */
  enqueue(transaction: Transaction, attempts: QueuedAttempt[]): Promise<void>;
  /**
   * Those of `deliveryIds` with no attempt queued or in progress, as `transaction` sees the
   * queue now. For a PENDING delivery that means it lost its attempt (its job failed or was
   * deleted) and may be queued again. One index probe of the queue per delivery.
   */
  unqueued(transaction: Transaction, deliveryIds: string[]): Promise<string[]>;
}
