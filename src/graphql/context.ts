// What every resolver receives: what the process provides (the database, the delivery queue,
// the destination rules, the live delivery changes, new events and incident changes) and who the
// request is: the organization it acts for, the caller's role there and the caller itself (an API
// token or a person's session), null without a valid credential (fields that need one are refused
// by scope-auth).
import { authenticate, type Credentials, type Viewer } from '../auth/caller.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { RequestSource } from '../domain/shared/audit.ts';
import type { AttemptQueue } from '../domain/webhooks/attempt-queue.ts';
import type { DeliveryChangeFeed } from '../domain/webhooks/delivery-changes.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import type { EventFeed } from '../domain/webhooks/listeners.ts';
import type { IncidentChangeFeed } from '../domain/correlation/incident-changes.ts';
import type { FailureLimiter } from '../domain/shared/people.ts';

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
  /** Incident changes, for dashboards' subscriptions. */
  incidentChanges: IncidentChangeFeed;
  /** How far before an incident's start deploys are suspects (INCIDENT_LOOKBACK_HOURS), in ms. */
  lookbackMs: number;
  /** Days of webhook history kept (RETENTION_DAYS). */
  retentionDays: number;
  /** A session without a request for this long ends (SESSION_IDLE_TIMEOUT_MINUTES), in ms. */
  sessionIdleMs: number;
  /** Failed password checks per email and client address, shared with sign-in: a wrong current password counts. */
  signInFailures: FailureLimiter;
}

/** Where a request came to, for the links it makes (invites): scheme, host and port. */
export interface RequestOrigin {
  origin: string;
}

export interface Context extends Services, RequestOrigin {
  /** Who calls, for which organization, with which role (see Viewer); null when not authenticated. */
  organization: Viewer | null;
  /** Why `organization` is null: no credential, a bad one, or X-Hookline-Organization naming an organization the person is not in. */
  refusal: 'none' | 'invalid' | 'not_a_member' | null;
  /** What the process's shares know the caller's credential by (credentialKey); null with `organization`. */
  credential: string | null;
  /** Where the request came from, for the audit entries of its changes. */
  requestFrom: RequestSource;
}

/** The context of a field declared with `t.withAuth({ organization: true })`: scope-auth has refused the request otherwise. */
export interface AuthenticatedContext extends Context {
  organization: Viewer;
}

export async function createContext(
  services: Services,
  credentials: Credentials,
  origin: string,
  requestFrom: RequestSource,
): Promise<Context> {
  const authentication = await authenticate(services.prisma, credentials, services.sessionIdleMs);
  return authentication.viewer
    ? { ...services, origin, requestFrom, organization: authentication.viewer, refusal: null, credential: authentication.credential }
    : { ...services, origin, requestFrom, organization: null, refusal: authentication.refusal, credential: null };
}
