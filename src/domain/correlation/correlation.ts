// Feeds the suspect ranking (suspects.ts) from the database and keeps an incident's suspects
// current: ranked when the incident opens, and again whenever a deploy or change event whose
// time falls in the window of an incident still open arrives later (a late, retried or
// backfilled report), so that it joins the suspects it belongs to.
// Raw SQL here: the window's candidates with their commit counts, the history a rollback needs
// (LATERAL look-ups per commit and version, over arrays of targets) and the upserts of a
// ranking are single statements Prisma's query API cannot express.
import sql, { raw, type Sql } from 'sql-template-tag';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import { loadDependencyEdges } from './dependencies.ts';
import { loadDeployHealth, MAX_HEALTH_DEPLOYS } from './deploy-health.ts';
import { loadEnvironmentAliases } from './environments.ts';
import { loadVerdictTallies } from './priors.ts';
import { recordIncidentActivity } from './incident-activity.ts';
import { SYSTEM_ACTOR, type Actor } from '../shared/actors.ts';
import { detectRollbacks, targetKey, type DeployVersion, type RollbackFacts } from './rollbacks.ts';
import {
  deploysWorthHealth,
  MAX_SUSPECTS,
  rankSuspects,
  type CandidateChange,
  type CandidateDeploy,
  type RankedSuspect,
  type SuspectInput,
} from './suspects.ts';

/** Where the loaders read: the client, or a transaction in progress. */
export type Db = PrismaClient | Prisma.TransactionClient;

export interface CorrelationDependencies {
  prisma: PrismaClient;
  /** How far before an incident's start deploys and changes are suspects, in ms. */
  incidentLookbackMs: number;
}

export interface RankedIncident {
  id: string;
  organizationId: string;
  serviceId: string;
  environment: string | null;
  startedAt: Date;
  /** Its own look-back in hours; null: the server's. */
  lookbackHours: number | null;
  alsoAffectedServiceIds: string[];
}

export const HOUR_MS = 60 * 60 * 1000;

/** The look-back of an incident: its own, else the server's (`defaultMs`). */
export function lookbackOf(incident: Pick<RankedIncident, 'lookbackHours'>, defaultMs: number): number {
  return incident.lookbackHours === null ? defaultMs : incident.lookbackHours * HOUR_MS;
}

// The window's candidates, plus those named by a verdict before it (by id: a second branch, so
// that the window stays one range of the (organization_id, time) index).
function candidates(organizationId: string, from: Date, to: Date, named: readonly string[]): { deploys: Sql; changes: Sql } {
  return {
    deploys: sql`
SELECT d.id, d.service_id AS "serviceId", s.name AS "serviceName", d.environment, d.commit_sha AS "commitSha",
       d.version, d.deployed_at AS "deployedAt",
       nullif((SELECT count(*) FROM commits c WHERE c.deploy_id = d.id), 0)::int AS "commitCount", d.rollout_stages AS "rolloutStages"
FROM (SELECT * FROM deploys WHERE organization_id = ${organizationId}::uuid AND deployed_at BETWEEN ${from}::timestamptz AND ${to}::timestamptz
      UNION ALL
      SELECT * FROM deploys WHERE organization_id = ${organizationId}::uuid AND id = ANY(${named}::uuid[]) AND deployed_at < ${from}::timestamptz) d
JOIN services s ON s.id = d.service_id`,
    changes: sql`
SELECT c.id, c.service_id AS "serviceId", s.name AS "serviceName", c.environment, c.kind, c.summary, c.changed_at AS "changedAt",
       c.subject, c.previous::text AS previous, c.value::text AS value
FROM (SELECT * FROM change_events WHERE organization_id = ${organizationId}::uuid AND changed_at BETWEEN ${from}::timestamptz AND ${to}::timestamptz
      UNION ALL
      SELECT * FROM change_events WHERE organization_id = ${organizationId}::uuid AND id = ANY(${named}::uuid[]) AND changed_at < ${from}::timestamptz) c
JOIN services s ON s.id = c.service_id`,
  };
}

const DEPLOY_VERSION_COLUMNS = raw(
  `id, service_id AS "serviceId", environment, commit_sha AS "commitSha", version, deployed_at AS "deployedAt"`,
);

/**
 * The deploys of some targets (service and environment) from a time on (up to `until`, or to
 * now), plus what detectRollbacks needs from before that time: the deploy right before it, and
 * the latest deploy before it of every commit and every version deployed since. Every look-up is
 * a range of the (service_id, environment, ...) indexes: the environment is compared with `=`,
 * or with IS NULL for the targets without one (IS NOT DISTINCT FROM cannot use an index, and a
 * look-up would scan the service's whole history), so targets with and without an environment
 * are loaded by two statements. A target's deploys of one commit or version are few: they are
 * all read by that index and the latest before the time taken from them (OFFSET 0). With the time
 * in the look-up, the planner, which takes every service for an average one, may walk the
 * target's deploys by time instead, reading its whole history when none matches.
 */
function targetHistory(group: readonly HistoryTarget[], until: Date | null, withoutEnvironment: boolean): Sql {
  const sameTarget = (row: string, target: string) =>
    raw(
      `${row}.service_id = ${target}.service_id AND ${withoutEnvironment ? `${row}.environment IS NULL` : `${row}.environment = ${target}.environment`}`,
    );
  return sql`
WITH target AS (
  SELECT * FROM unnest(${group.map((t) => t.serviceId)}::uuid[], ${group.map((t) => t.environment)}::text[], ${group.map((t) => t.since)}::timestamptz[]) AS t(service_id, environment, since)
), later AS (
  -- A LATERAL range per target (its ORDER BY keeps it one): a join could hash every deploy.
  SELECT d.*, t.since FROM target t CROSS JOIN LATERAL (
    SELECT d.id, d.service_id, d.environment, d.commit_sha, d.version, d.deployed_at FROM deploys d
    WHERE ${sameTarget('d', 't')} AND d.deployed_at >= t.since AND (${until}::timestamptz IS NULL OR d.deployed_at <= ${until})
    ORDER BY d.deployed_at) d
)
SELECT ${DEPLOY_VERSION_COLUMNS} FROM later
UNION
SELECT e.* FROM target t CROSS JOIN LATERAL (
  SELECT ${DEPLOY_VERSION_COLUMNS} FROM deploys e
  WHERE ${sameTarget('e', 't')} AND e.deployed_at < t.since
  ORDER BY e.deployed_at DESC, e.id DESC LIMIT 1) e
UNION
SELECT e.* FROM (SELECT DISTINCT service_id, environment, commit_sha, since FROM later) k CROSS JOIN LATERAL (
  SELECT * FROM (SELECT ${DEPLOY_VERSION_COLUMNS} FROM deploys e WHERE ${sameTarget('e', 'k')} AND e.commit_sha = k.commit_sha OFFSET 0) e
  WHERE "deployedAt" < k.since ORDER BY "deployedAt" DESC, id DESC LIMIT 1) e
UNION
SELECT e.* FROM (SELECT DISTINCT service_id, environment, version, since FROM later WHERE version IS NOT NULL) k CROSS JOIN LATERAL (
  SELECT * FROM (SELECT ${DEPLOY_VERSION_COLUMNS} FROM deploys e WHERE ${sameTarget('e', 'k')} AND e.version = k.version OFFSET 0) e
  WHERE "deployedAt" < k.since ORDER BY "deployedAt" DESC, id DESC LIMIT 1) e`;
}

export interface HistoryTarget {
  serviceId: string;
  environment: string | null;
  since: Date;
}

/** What detectRollbacks needs to judge every deploy of the targets from `since` on (up to `until`). */
export async function loadTargetHistory(db: Db, targets: readonly HistoryTarget[], until: Date | null): Promise<DeployVersion[]> {
  const history: DeployVersion[] = [];
  for (const withoutEnvironment of [false, true]) {
    const group = targets.filter((t) => (t.environment === null) === withoutEnvironment);
    if (group.length === 0) continue;
    const statement = targetHistory(group, until, withoutEnvironment);
    history.push(...(await db.$queryRawUnsafe<DeployVersion[]>(statement.text, ...statement.values)));
  }
  return history;
}

/** The targets of `deploys`, each from its oldest deploy among them. */
export function targetsOf(deploys: readonly { serviceId: string; environment: string | null; deployedAt: Date }[]): HistoryTarget[] {
  const targets = new Map<string, HistoryTarget>();
  for (const deploy of deploys) {
    const key = targetKey(deploy);
    const known = targets.get(key);
    if (!known || deploy.deployedAt < known.since) {
      targets.set(key, { serviceId: deploy.serviceId, environment: deploy.environment, since: deploy.deployedAt });
    }
  }
  return [...targets.values()];
}

/** Rollbacks and redeploys among `deploys` and the deploys of their targets after them, to now. */
export async function loadRollbackFacts(
  db: Db,
  deploys: readonly { serviceId: string; environment: string | null; deployedAt: Date }[],
): Promise<RollbackFacts> {
  return detectRollbacks(await loadTargetHistory(db, targetsOf(deploys), null));
}

/**
 * Everything the ranking of one incident needs; the incident's own verdicts do not count as
 * priors. `named`: deploys and change events a person judged for this incident, candidates
 * even before the look-back window (with their targets' history from their time on). The health
 * of the deploys it could lift among the kept (deploysWorthHealth), up to the incident's start,
 * comes last, in one statement of at most MAX_HEALTH_DEPLOYS deploys.
 */
export async function loadSuspectInput(
  db: Db,
  incident: RankedIncident,
  lookbackMs: number,
  named: readonly string[] = [],
): Promise<SuspectInput> {
  const from = new Date(incident.startedAt.getTime() - lookbackMs);
  const window = candidates(incident.organizationId, from, incident.startedAt, named);
  const rows = await db.$queryRawUnsafe<
    (Omit<CandidateDeploy, 'rolloutStages'> & { rolloutStages: { percentage: number; at: string }[] })[]
  >(window.deploys.text, ...window.deploys.values);
  const deploys: CandidateDeploy[] = rows.map((row) => ({
    ...row,
    rolloutStages: row.rolloutStages.map((stage) => ({ ...stage, at: new Date(stage.at) })),
  }));
  const changes = await db.$queryRawUnsafe<CandidateChange[]>(window.changes.text, ...window.changes.values);
  const history = await loadTargetHistory(
    db,
    targetsOf(deploys.map((deploy) => (deploy.deployedAt < from ? deploy : { ...deploy, deployedAt: from }))),
    incident.startedAt,
  );
  const input: SuspectInput = {
    incident: {
      serviceId: incident.serviceId,
      alsoAffectedServiceIds: incident.alsoAffectedServiceIds,
      environment: incident.environment,
      startedAt: incident.startedAt,
    },
    deploys,
    changes,
    history,
    named,
    dependencies: await loadDependencyEdges(db, incident.organizationId),
    environmentAliases: await loadEnvironmentAliases(db, incident.organizationId),
    verdicts: await loadVerdictTallies(db, incident.organizationId, incident.id),
  };
  const worth = deploysWorthHealth(input, { lookbackMs, keep: MAX_SUSPECTS, limit: MAX_HEALTH_DEPLOYS });
  const health = worth.length === 0 ? new Map() : await loadDeployHealth(db, incident.organizationId, worth, incident.startedAt);
  return { ...input, health };
}

/**
 * Ranks the incident's suspects over its look-back (its own, else `defaultLookbackMs`) and stores the MAX_SUSPECTS best. Suspects someone judged stay,
 * whatever their new place (their verdict is a person's, not the score's); the others make room
 * for them. Ranks are places in the whole ranking. Runs in the caller's transaction, which
 * holds the incident's row lock, so that two rankings of one incident do not interleave.
 */
export async function rankIncidentSuspects(
  tx: Prisma.TransactionClient,
  incident: RankedIncident,
  defaultLookbackMs: number,
): Promise<void> {
  const lookbackMs = lookbackOf(incident, defaultLookbackMs);
  const judged = await tx.incidentSuspect.findMany({
    where: { incidentId: incident.id, verdict: { not: null } },
    select: { deployId: true, changeEventId: true },
  });
  const judgedIds = new Set(judged.map((row) => (row.deployId ?? row.changeEventId)!));
  const input = await loadSuspectInput(tx, incident, lookbackMs, [...judgedIds]);
  const ranking = rankSuspects(input, { lookbackMs, maxSuspects: Number.POSITIVE_INFINITY });
  let room = MAX_SUSPECTS - judgedIds.size;
  const kept = ranking.filter((suspect) => judgedIds.has(suspect.id) || room-- > 0);

  const unkept = sql`DELETE FROM incident_suspects
     WHERE incident_id = ${incident.id}::uuid AND verdict IS NULL
       AND NOT (coalesce(deploy_id, change_event_id) = ANY(${kept.map((suspect) => suspect.id)}::uuid[]))`;
  await tx.$executeRawUnsafe(unkept.text, ...unkept.values);
  for (const [type, column] of [
    ['deploy', 'deploy_id'],
    ['change', 'change_event_id'],
  ] as const) {
    const rows = kept.filter((suspect) => suspect.type === type);
    if (rows.length === 0) continue;
    const upsert = upsertSuspects(incident.id, raw(column), rows);
    await tx.$executeRawUnsafe(upsert.text, ...upsert.values);
  }
}

/** The incident's suspects, best first, as ids of their deploy or change event. */
async function suspectOrder(tx: Prisma.TransactionClient, incidentId: string) {
  return tx.incidentSuspect.findMany({
    where: { incidentId },
    orderBy: { rank: 'asc' },
    select: { deployId: true, changeEventId: true },
  });
}

/**
 * Ranks an open incident's suspects again (rankIncidentSuspects) and, when that changed them or
 * their order, records it on its timeline as `actor`'s doing, with the suspect now first.
 */
export async function rerankIncidentSuspects(
  tx: Prisma.TransactionClient,
  incident: RankedIncident,
  defaultLookbackMs: number,
  actor: Actor,
): Promise<void> {
  const key = (suspects: { deployId: string | null; changeEventId: string | null }[]) =>
    suspects.map((suspect) => suspect.deployId ?? suspect.changeEventId).join(' ');
  const before = await suspectOrder(tx, incident.id);
  await rankIncidentSuspects(tx, incident, defaultLookbackMs);
  const after = await suspectOrder(tx, incident.id);
  if (key(before) === key(after)) return;
  await recordIncidentActivity(tx, {
    incidentId: incident.id,
    kind: 'RERANKED',
    actor,
    deployId: after[0]?.deployId,
    changeEventId: after[0]?.changeEventId,
  });
}

/** The incident's suspects `suspects`, of the kind whose id is in `column`, inserted or ranked anew. */
function upsertSuspects(incidentId: string, column: Sql, suspects: RankedSuspect[]): Sql {
  return sql`INSERT INTO incident_suspects (incident_id, ${column}, rank, score, reasons, reason_effects)
       SELECT ${incidentId}::uuid, s.id, s.rank, s.score, s.reasons, s.effects
       FROM unnest(${suspects.map((s) => s.id)}::uuid[], ${suspects.map((s) => s.rank)}::int[], ${suspects.map((s) => s.score)}::float8[], ${suspects.map((s) => JSON.stringify(s.reasons))}::jsonb[], ${suspects.map((s) => JSON.stringify(s.effects))}::jsonb[]) AS s(id, rank, score, reasons, effects)
       ON CONFLICT (incident_id, ${column}) DO UPDATE SET rank = excluded.rank, score = excluded.score, reasons = excluded.reasons, reason_effects = excluded.reason_effects`;
}

export const INCIDENT_COLUMNS =
  'i.id, i.organization_id AS "organizationId", i.service_id AS "serviceId", i.environment, i.started_at AS "startedAt", i.lookback_hours AS "lookbackHours", ' +
  'i.also_affected_service_ids::text[] AS "alsoAffectedServiceIds"';

/** Incidents not resolved yet whose window (their own look-back, else `lookbackMs`) holds the deploy or change event just recorded. */
function openIncidentsCovering(subject: { type: 'deploy' | 'change'; id: string }, lookbackMs: number): Sql {
  const [table, at] = subject.type === 'deploy' ? [raw('deploys'), raw('x.deployed_at')] : [raw('change_events'), raw('x.changed_at')];
  return sql`SELECT ${raw(INCIDENT_COLUMNS)} FROM ${table} x JOIN incidents i ON i.organization_id = x.organization_id
           WHERE x.id = ${subject.id}::uuid AND i.status <> 'RESOLVED'
             AND i.started_at >= ${at} AND i.started_at <= ${at} + coalesce(i.lookback_hours * 3600000.0, ${lookbackMs}::float8) * interval '1 millisecond'`;
}

/**
 * Ranks again the open incidents that a newly recorded deploy or change event may have caused
 * (its time is inside their window). Nothing to do, the usual case, costs one indexed query.
 */
export async function refreshSuspectsAfter(
  deps: CorrelationDependencies,
  subject: { type: 'deploy' | 'change'; id: string },
): Promise<void> {
  const covering = openIncidentsCovering(subject, deps.incidentLookbackMs);
  const incidents = await deps.prisma.$queryRawUnsafe<RankedIncident[]>(covering.text, ...covering.values);
  for (const incident of incidents) {
    await deps.prisma.$transaction(async (tx) => {
      // The lock orders this ranking after any other of the same incident; resolved meanwhile: leave it.
      const open = await tx.$queryRaw<
        unknown[]
      >`SELECT 1 FROM incidents WHERE id = ${incident.id}::uuid AND status <> 'RESOLVED' FOR UPDATE`;
      // Hookline itself ranks again, for a deploy or change that arrived late.
      if (open.length > 0) await rerankIncidentSuspects(tx, incident, deps.incidentLookbackMs, SYSTEM_ACTOR);
    });
  }
}
