// Service dependencies: a service depends on another when it calls it or shares its state, so
// a change to the dependency can break the dependent. Cycles are allowed (two services that
// call each other); every walk of the graph ends at services already seen.
import { z } from 'zod';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import { InputError, NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseInput } from '../shared/input.ts';

/** The most services one service may depend on directly. */
export const MAX_DEPENDENCIES = 50;

export interface DependencyEdge {
  serviceId: string;
  dependsOnId: string;
}

/**
 * How many hops upstream each service is from `serviceId`: 1 for a direct dependency, 2 for a
 * dependency of a dependency, and so on (the shortest way). The service itself and services
 * it does not depend on are absent.
 */
export function upstreamDistances(edges: readonly DependencyEdge[], serviceId: string): Map<string, number> {
  const dependsOn = new Map<string, string[]>();
  for (const edge of edges) {
    const list = dependsOn.get(edge.serviceId);
    if (list) list.push(edge.dependsOnId);
    else dependsOn.set(edge.serviceId, [edge.dependsOnId]);
  }
  const distances = new Map<string, number>();
  let frontier = [serviceId];
  for (let hops = 1; frontier.length > 0; hops++) {
    const next: string[] = [];
    for (const service of frontier) {
      for (const upstream of dependsOn.get(service) ?? []) {
        if (upstream === serviceId || distances.has(upstream)) continue;
        distances.set(upstream, hops);
        next.push(upstream);
      }
    }
    frontier = next;
  }
  return distances;
}

const dependenciesSchema = z.object({
  dependsOn: z
    .array(z.string().refine(isUuid, 'must be a service id'), { error: 'must be a list of service ids' })
    .max(MAX_DEPENDENCIES, `must have at most ${MAX_DEPENDENCIES} services`)
    // Ids are compared as PostgreSQL prints them.
    .transform((ids) => ids.map((id) => id.toLowerCase())),
});

/**
 * Replaces what `serviceId` depends on. NotFoundError when the organization has no such service;
 * InputError (per item) for ids that are not other services of the organization. The same id
 * twice counts once.
 */
export async function setServiceDependencies(
  prisma: PrismaClient,
  organizationId: string,
  serviceId: string,
  dependsOn: readonly string[],
): Promise<void> {
  if (!isUuid(serviceId)) throw new NotFoundError('Service', serviceId);
  const ids = parseInput(dependenciesSchema, { dependsOn }).dependsOn;
  await prisma.$transaction(async (tx) => {
    // Locking the service row serialises concurrent replacements of its list (raw: Prisma has no FOR UPDATE).
    const [service] = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM services WHERE id = ${serviceId}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
    if (!service) throw new NotFoundError('Service', serviceId);
    const owned = new Set(
      (await tx.service.findMany({ where: { id: { in: ids }, organizationId }, select: { id: true } })).map((s) => s.id),
    );
    const problems = ids.flatMap((id, index) => {
      const field = `dependsOn[${index}]`;
      if (id === service.id) return [{ field, message: 'must not be the service itself' }];
      if (!owned.has(id)) return [{ field, message: 'is not a service of this organization' }];
      return [];
    });
    if (problems.length > 0) throw new InputError(problems);
    await tx.serviceDependency.deleteMany({ where: { serviceId } });
    await tx.serviceDependency.createMany({ data: [...new Set(ids)].map((dependsOnId) => ({ serviceId, dependsOnId })) });
  });
}

/** Every dependency between the organization's services. */
export function loadDependencyEdges(db: PrismaClient | Prisma.TransactionClient, organizationId: string): Promise<DependencyEdge[]> {
  return db.serviceDependency.findMany({ where: { service: { organizationId } }, select: { serviceId: true, dependsOnId: true } });
}
