// What a deploy means in context: its previous deploy, the commits it brought and their
// authors and lead times; and the DORA four keys of a service or organization.
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { loadRollbackFacts } from './correlation.ts';
import { computeDora, type DoraMetrics } from './dora.ts';
import { isUuid } from './ids.ts';

interface DeployRef {
  id: string;
  serviceId: string;
  environment: string | null;
  deployedAt: Date;
}

/** The latest earlier deploy of the same service and environment (ties: earlier id first). */
export function findPreviousDeploy(prisma: PrismaClient, deploy: DeployRef) {
  return prisma.deploy.findFirst({
    where: {
      serviceId: deploy.serviceId,
      environment: deploy.environment,
      id: { not: deploy.id },
      OR: [{ deployedAt: { lt: deploy.deployedAt } }, { deployedAt: deploy.deployedAt, id: { lt: deploy.id } }],
    },
    orderBy: [{ deployedAt: 'desc' }, { id: 'desc' }],
  });
}

export interface ChangeCommit {
  sha: string;
  message: string | null;
  author: string | null;
  timestamp: Date | null;
  /** Seconds from the commit to this deploy; null without a commit timestamp. */
  leadTimeSeconds: number | null;
  /** True when the pipeline sent no commits and this one stands for the deployed head. */
  derived: boolean;
}

/**
 * The commits this deploy brought since the previous one: those the pipeline sent or, when
 * it sent none, the deployed head commit itself unless the previous deploy had the same one
 * (a redeploy brings nothing new).
 */
export async function commitsSincePrevious(
  prisma: PrismaClient,
  deploy: DeployRef & { commitSha: string; commitMessage: string | null; deployedBy: string | null },
): Promise<ChangeCommit[]> {
  const leadTime = (timestamp: Date | null) =>
    timestamp ? Math.max(0, (deploy.deployedAt.getTime() - timestamp.getTime()) / 1000) : null;
  const sent = await prisma.commit.findMany({ where: { deployId: deploy.id }, orderBy: { position: 'asc' } });
  if (sent.length > 0) {
    return sent.map((commit) => ({ ...commit, leadTimeSeconds: leadTime(commit.timestamp), derived: false }));
  }
  const previous = await findPreviousDeploy(prisma, deploy);
  if (previous?.commitSha === deploy.commitSha) return [];
  return [{ sha: deploy.commitSha, message: deploy.commitMessage, author: null, timestamp: null, leadTimeSeconds: null, derived: true }];
}

export interface DoraScope {
  serviceId?: string | null;
  environment?: string | null;
  from: Date;
  to: Date;
}

/**
 * Loads what the four keys need for an organization (or one of its services and an
 * environment) and computes them. A deploy counts as failed when someone judged it CAUSED for
 * an incident, or when it was the top suspect of an incident and nobody DISMISSED it nor judged
 * another suspect of that incident CAUSED, or when a later deploy rolled it back (as Datadog
 * counts them: a rollback is the team saying the change failed, with or without an incident).
 */
export async function doraMetrics(
  { prisma, pool }: { prisma: PrismaClient; pool: pg.Pool },
  organizationId: string,
  scope: DoraScope,
): Promise<DoraMetrics | null> {
  if (scope.serviceId && !isUuid(scope.serviceId)) return null;
  if (scope.serviceId && !(await prisma.service.findFirst({ where: { id: scope.serviceId, organizationId }, select: { id: true } }))) {
    return null;
  }
  const deployWhere = {
    organizationId,
    ...(scope.serviceId ? { serviceId: scope.serviceId } : {}),
    ...(scope.environment ? { environment: scope.environment } : {}),
    deployedAt: { gte: scope.from, lt: scope.to },
  };
  const deploys = await prisma.deploy.findMany({
    where: deployWhere,
    select: { id: true, serviceId: true, environment: true, deployedAt: true, commits: { select: { timestamp: true } } },
  });
  const rollbacks = await loadRollbackFacts(pool, deploys);
  const failed = await prisma.incidentSuspect.findMany({
    where: {
      deploy: deployWhere,
      // A verdict wins over the score: once someone named the cause of an incident, its
      // top-ranked suspect no longer counts as failed unless it is that cause.
      OR: [{ verdict: 'CAUSED' }, { rank: 1, verdict: null, incident: { suspects: { none: { verdict: 'CAUSED' } } } }],
    },
    select: { deployId: true },
  });
  const incidents = await prisma.incident.findMany({
    where: {
      organizationId,
      ...(scope.serviceId ? { serviceId: scope.serviceId } : {}),
      ...(scope.environment ? { environment: scope.environment } : {}),
      resolvedAt: { gte: scope.from, lt: scope.to },
    },
    select: { startedAt: true, resolvedAt: true },
  });
  return computeDora({
    from: scope.from,
    to: scope.to,
    deploys,
    failedDeployIds: new Set([
      ...failed.flatMap((suspect) => (suspect.deployId ? [suspect.deployId] : [])),
      ...deploys.filter((deploy) => rollbacks.rolledBackBy.has(deploy.id)).map((deploy) => deploy.id),
    ]),
    incidents,
  });
}
