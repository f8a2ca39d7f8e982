// Webhook history (events, deliveries, their attempts) is partitioned by month, so each row's key
// holds its month: (id, createdAt), an attempt's (id, deliveryCreatedAt). The API names them by
// id alone (the plain UUID). node(id:) finds a row's month with its kind and loads it by
// `<id>@<time>` (monthKeyedId); elsewhere these find the time where only the id is known, reading
// each month's index once. Ids that name nothing get a key that matches nothing.
import type { PrismaClient } from '../../generated/prisma/client.ts';

/** A time no row was made at. */
const NEVER = new Date(0);

/** A row's id with the time naming its month, as node loading passes it to the key functions below. */
export function monthKeyedId(id: string, month: Date): string {
  return `${id}@${month.toISOString()}`;
}

/** The id and time of a monthKeyedId; the time is looked up with `find` for a plain id. */
async function keyOf(idOrKeyed: string, find: (id: string) => Promise<Date | undefined>): Promise<{ id: string; month: Date }> {
  const [id, at] = idOrKeyed.split('@') as [string, string | undefined];
  return { id, month: at ? new Date(at) : ((await find(id)) ?? NEVER) };
}

export async function deliveryKey(prisma: PrismaClient, idOrKeyed: string): Promise<{ id: string; createdAt: Date }> {
  const { id, month } = await keyOf(
    idOrKeyed,
    async (id) => (await prisma.delivery.findFirst({ where: { id }, select: { createdAt: true } }))?.createdAt,
  );
  return { id, createdAt: month };
}

export async function eventKey(prisma: PrismaClient, idOrKeyed: string): Promise<{ id: string; createdAt: Date }> {
  const { id, month } = await keyOf(
    idOrKeyed,
    async (id) => (await prisma.event.findFirst({ where: { id }, select: { createdAt: true } }))?.createdAt,
  );
  return { id, createdAt: month };
}

export async function attemptKey(prisma: PrismaClient, idOrKeyed: string): Promise<{ id: string; deliveryCreatedAt: Date }> {
  const { id, month } = await keyOf(
    idOrKeyed,
    async (id) => (await prisma.deliveryAttempt.findFirst({ where: { id }, select: { deliveryCreatedAt: true } }))?.deliveryCreatedAt,
  );
  return { id, deliveryCreatedAt: month };
}
