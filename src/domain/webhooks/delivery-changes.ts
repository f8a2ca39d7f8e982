// Live changes of deliveries (every new delivery, status change and attempt), as the API's
// subscriptions and the workers' wake-ups need them. src/delivery/notifications.ts implements it
// with PostgreSQL LISTEN/NOTIFY, so a change made by any process reaches every process.

export interface DeliveryChange {
  id: string;
  /** When the delivery was made (ISO 8601): with its id, its key, which names its month's partition. */
  createdAt: string;
  organizationId: string;
  endpointId: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  attemptCount: number;
}

export interface DeliveryChangeFeed {
  /** Changes of one organization's deliveries, in the order they were committed. */
  subscribe(organizationId: string): AsyncIterable<DeliveryChange>;
  /** Calls `listener` with every change of every organization (a worker wakes on new work). */
  watch(listener: (change: DeliveryChange) => void): void;
}
