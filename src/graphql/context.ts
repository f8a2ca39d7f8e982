// What every resolver receives: what the process provides (the database, the delivery queue,
// the destination rules, the live delivery changes and new events) and the organization the request's API
// token belongs to (null without a valid one: fields that need one are refused by scope-auth).
import { authenticate, type Viewer } from '../auth/bearer.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { AttemptQueue } from '../domain/webhooks/attempt-queue.ts';
import type { DeliveryChangeFeed } from '../domain/webhooks/delivery-changes.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import type { EventFeed } from '../domain/webhooks/listeners.ts';

/** What resolvers need besides the caller: the same for every request of a process. */
export interface Services {
  prisma: PrismaClient;
  queue: AttemptQueue;
  destination: DestinationPolicy;
  /** Live webhook endpoints one organization may have (WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION). */
  maxEndpointsPerOrganization: number;
  deliveryChanges: DeliveryChangeFeed;
  /** New events, for listeners' subscriptions. */
  events: EventFeed;
  /** How far before an incident's start deploys are suspects (INCIDENT_LOOKBACK_HOURS), in ms. */
  lookbackMs: number;
  /** Days of webhook history kept (RETENTION_DAYS). */
  retentionDays: number;
}

/** Where a request came from, as the audit log records it. */
export interface RequestOrigin {
  /** The client's address (after TRUST_PROXY); null when unknown. */
  ip: string | null;
  userAgent: string | null;
}

export interface Context extends Services {
  organization: Viewer | null;
  origin: RequestOrigin;
}

/** The context of a field declared with `t.withAuth({ organization: true })`: scope-auth has refused the request otherwise. */
export interface AuthenticatedContext extends Context {
  organization: Viewer;
}

export async function createContext(services: Services, authorization: string | null | undefined, origin: RequestOrigin): Promise<Context> {
  return { ...services, organization: await authenticate(services.prisma, authorization), origin };
}
