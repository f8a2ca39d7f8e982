// What every resolver receives: the database and the organization the Bearer token belongs
// to (null when the token is missing or invalid; resolvers that need one refuse).
import type { PrismaClient } from '../generated/prisma/client.ts';
import { authenticateApiToken } from '../domain/organizations.ts';

export interface Context {
  prisma: PrismaClient;
  organization: { id: string; name: string } | null;
}

export function bearerToken(authorization: string | null | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

export async function createContext(prisma: PrismaClient, authorization: string | null | undefined): Promise<Context> {
  return { prisma, organization: await authenticateApiToken(prisma, bearerToken(authorization)) };
}
