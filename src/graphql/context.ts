// What every resolver receives: what the process provides (the database, the delivery queue,
// the destination rules, the live delivery changes and new events) and the organization the request's API
// token belongs to (null without a valid one: fields that need one are refused by scope-auth).
import { authenticate, type Viewer } from '../auth/bearer.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { AttemptQueue } from '../domain/attempt-queue.ts';
import type { DeliveryChangeFeed } from '../domain/delivery-changes.ts';
import type { DestinationPolicy } from '../domain/destinations.ts';
import type { EventFeed } from '../domain/listeners.ts';

/** What resolvers need besides the caller: the same for every request of a process. */
export interface Services {
  prisma: PrismaClient;
  queue: AttemptQueue;
  destination: DestinationPolicy;
  deliveryChanges: DeliveryChangeFeed;
  /** New events, for listeners' subscriptions. */
  events: EventFeed;
  /** How far before an incident's start deploys are suspects (INCIDENT_LOOKBACK_HOURS), in ms. */
  lookbackMs: number;
}

export interface Context extends Services {
  organization: Viewer | null;
}

/**
 * The caller's organization, in a field that declares `authScopes: { organization: true }`:
 * scope-auth has refused the request (UNAUTHENTICATED) before the resolver runs otherwise, so
 * missing here it is a bug in the schema, not a caller's mistake.
 */
export function viewerOf(context: Context): Viewer {
  if (!context.organization) throw new Error('a field without authScopes { organization: true } needed the organization');
  return context.organization;
}

export async function createContext(services: Services, authorization: string | null | undefined): Promise<Context> {
  return { ...services, organization: await authenticate(services.prisma, authorization) };
}
