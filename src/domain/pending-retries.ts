// The deliveries "failing now" of webhook endpoints: PENDING after at least one failed attempt,
// waiting for their next retry. A FAILED delivery has given up (it counts among the failures in
// a row instead); a first attempt still in flight has not failed yet.
import type { PrismaClient } from '../generated/prisma/client.ts';

/** Pending retries of each endpoint of the organization, in the order of `endpointIds` (0 for none). */
export async function countPendingRetries(prisma: PrismaClient, organizationId: string, endpointIds: readonly string[]): Promise<number[]> {
  // (organization_id, status) is indexed, and an organization's PENDING deliveries are its queue: few.
  const groups = await prisma.delivery.groupBy({
    by: ['endpointId'],
    where: { organizationId, status: 'PENDING', attemptCount: { gt: 0 }, endpointId: { in: [...endpointIds] } },
    _count: { _all: true },
  });
  const byEndpoint = new Map(groups.map((group) => [group.endpointId, group._count._all]));
  return endpointIds.map((id) => byEndpoint.get(id) ?? 0);
}
