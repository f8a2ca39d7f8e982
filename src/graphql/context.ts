// What every resolver receives: the database and the organization the Bearer token belongs
// to (null when the token is missing or invalid; resolvers that need one refuse).
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DeliveryChanges } from '../delivery/notifications.ts';
import type { DeliveryPolicy } from '../delivery/worker.ts';
import { authenticateApiToken } from '../domain/organizations.ts';

/** What resolvers need besides the caller: the same for every request of a process. */
export interface Services {
  prisma: PrismaClient;
  pool: pg.Pool;
  boss: PgBoss;
  policy: DeliveryPolicy;
  deliveryChanges: DeliveryChanges;
  /** How far before an incident's start deploys are suspects (INCIDENT_LOOKBACK_HOURS), in ms. */
  incidentLookbackMs: number;
}

export interface Context extends Services {
  organization: { id: string; name: string } | null;
}

export function bearerToken(authorization: string | null | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

export async function createContext(services: Services, authorization: string | null | undefined): Promise<Context> {
  return { ...services, organization: await authenticateApiToken(services.prisma, bearerToken(authorization)) };
}
