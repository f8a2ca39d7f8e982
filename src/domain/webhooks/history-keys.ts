// Webhook history (events, deliveries, their attempts) is partitioned by month, so each row's key
// holds its month: (id, createdAt), an attempt's (id, deliveryCreatedAt). The API names them by
// id alone (the plain UUID); these find the rest of the key where only the id is known, reading
// each month's index once. Ids that name nothing get a key that matches nothing.
import type { PrismaClient } from '../../generated/prisma/client.ts';

/** A time no row was made at. */
const NEVER = new Date(0);

export async function deliveryKey(prisma: PrismaClient, id: string): Promise<{ id: string; createdAt: Date }> {
  const found = await prisma.delivery.findFirst({ where: { id }, select: { createdAt: true } });
  return { id, createdAt: found?.createdAt ?? NEVER };
}

export async function eventKey(prisma: PrismaClient, id: string): Promise<{ id: string; createdAt: Date }> {
  const found = await prisma.event.findFirst({ where: { id }, select: { createdAt: true } });
  return { id, createdAt: found?.createdAt ?? NEVER };
}

export async function attemptKey(prisma: PrismaClient, id: string): Promise<{ id: string; deliveryCreatedAt: Date }> {
  const found = await prisma.deliveryAttempt.findFirst({ where: { id }, select: { deliveryCreatedAt: true } });
  return { id, deliveryCreatedAt: found?.deliveryCreatedAt ?? NEVER };
}
