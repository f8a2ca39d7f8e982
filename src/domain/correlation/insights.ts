// What a deploy means in context: its previous deploy, the commits it brought and their
// authors and lead times; and the DORA four keys of a service or organization.
import type { Deploy, PrismaClient } from '../../generated/prisma/client.ts';
import sql, { join, raw, type Sql } from 'sql-template-tag';
import type { Statement } from '../../db/statement.ts';
import { addBuckets, computeDora, MS_PER_DAY, type DeployFigures, type DoraMetrics, type TimeRange } from './dora.ts';
import { environmentSpellings } from './environments.ts';
import { InputError, NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';

/** What finding a deploy's previous one needs. */
export interface DeployRef {
  id: string;
  serviceId: string;
  environment: string | null;
  deployedAt: Date;
}

/**
 * The previous deploy of each (the latest earlier one of its service and environment; ties: the
 * smaller id first), in the order of `deploys`, for a whole page at once. Raw SQL: the latest
 * earlier row per deploy is one probe each of the (service_id, environment, deployed_at, id)
 * index, which Prisma cannot ask for. The environment is compared with `=`, and deploys without
 * one probe the index of those (IS NOT DISTINCT FROM would leave the environment out of the
 * index range and read the service's whole history).
 */
export async function previousDeploys(prisma: PrismaClient, deploys: readonly DeployRef[]): Promise<(Deploy | null)[]> {
  if (deploys.length === 0) return [];
  const links = await prisma.$queryRaw<{ id: string; previousId: string | null }[]>`
    SELECT d.id::text AS id, previous.id::text AS "previousId"
      FROM deploys d
      LEFT JOIN LATERAL (
        (SELECT p.id FROM deploys p
          WHERE p.service_id = d.service_id AND p.environment = d.environment AND (p.deployed_at, p.id) < (d.deployed_at, d.id)
          ORDER BY p.deployed_at DESC, p.id DESC
          LIMIT 1)
        UNION ALL
        (SELECT p.id FROM deploys p
          WHERE p.service_id = d.service_id AND p.environment IS NULL AND d.environment IS NULL AND (p.deployed_at, p.id) < (d.deployed_at, d.id)
          ORDER BY p.deployed_at DESC, p.id DESC
          LIMIT 1)
      ) AS previous ON true
     WHERE d.id = ANY (${deploys.map((deploy) => deploy.id)}::uuid[])`;
  const previousIds = links.flatMap((link) => (link.previousId ? [link.previousId] : []));
  const found = previousIds.length === 0 ? [] : await prisma.deploy.findMany({ where: { id: { in: previousIds } } });
  const byId = new Map(found.map((deploy) => [deploy.id, deploy]));
  const previousOf = new Map(links.map((link) => [link.id, link.previousId ? (byId.get(link.previousId) ?? null) : null]));
  return deploys.map((deploy) => previousOf.get(deploy.id) ?? null);
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
 * The commits each deploy brought since its previous one, in the order of `deploys`: those the
 * pipeline sent or, when it sent none, the deployed head commit itself unless the previous
 * deploy had the same one (a redeploy brings nothing new). Two queries for a whole page.
 */
export async function changesSincePrevious(
  prisma: PrismaClient,
  deploys: readonly (DeployRef & { commitSha: string; commitMessage: string | null })[],
): Promise<ChangeCommit[][]> {
  const sent = await prisma.commit.findMany({
    where: { deployId: { in: deploys.map((deploy) => deploy.id) } },
    orderBy: [{ deployId: 'asc' }, { position: 'asc' }],
  });
  const sentBy = new Map<string, typeof sent>();
  for (const commit of sent) sentBy.set(commit.deployId, [...(sentBy.get(commit.deployId) ?? []), commit]);
  const withoutCommits = deploys.filter((deploy) => !sentBy.has(deploy.id));
  const previous = new Map((await previousDeploys(prisma, withoutCommits)).map((deploy, index) => [withoutCommits[index]!.id, deploy]));
  return deploys.map((deploy) => {
    const leadTime = (timestamp: Date | null) =>
      timestamp ? Math.max(0, (deploy.deployedAt.getTime() - timestamp.getTime()) / 1000) : null;
    const commits = sentBy.get(deploy.id);
    if (commits) return commits.map((commit) => ({ ...commit, leadTimeSeconds: leadTime(commit.timestamp), derived: false }));
    if (previous.get(deploy.id)?.commitSha === deploy.commitSha) return [];
    return [{ sha: deploy.commitSha, message: deploy.commitMessage, author: null, timestamp: null, leadTimeSeconds: null, derived: true }];
  });
}

export interface DoraScope {
  serviceId?: string | null;
  environment?: string | null;
  from: Date;
  to: Date;
}

/** Midnight UTC at or after `time`. */
function dayAtOrAfter(time: Date): Date {
  const midnight = Math.floor(time.getTime() / MS_PER_DAY) * MS_PER_DAY;
  return new Date(midnight === time.getTime() ? midnight : midnight + MS_PER_DAY);
}

/** Midnight UTC at or before `time`. */
function dayAtOrBefore(time: Date): Date {
  return new Date(Math.floor(time.getTime() / MS_PER_DAY) * MS_PER_DAY);
}

/**
 * Loads what the four keys need for an organization (or one of its services and an
 * environment) and computes them. The whole days (UTC) of the period are read from the daily
 * figures that worker processes keep from the deploys ingested (within a pass, a few seconds):
 * for a service one row per environment and day with every lead time (the median exact), for a
 * whole organization one row per environment and day with its lead times in a histogram (the
 * median approximate). The partial days at either end are read from the deploys themselves, and
 * everything is added up by the database, so the cost follows the period, not the deploys kept
 * nor, for an organization, their number a day. A deploy counts as failed when someone judged it CAUSED for
 * an incident, or when it was the top suspect of an incident and nobody DISMISSED it nor judged
 * another suspect of that incident CAUSED, or when a later deploy rolled it back (as Datadog
 * counts them: a rollback is the team saying the change failed, with or without an incident);
 * whether a deploy is rolled back is kept on it, and counted per day, as deploys are ingested
 * (deploys.rolled_back, judged by worker processes after ingest). The period must not be empty; a service that is not
 * the organization's (an empty id included: it does not mean the whole organization) is not found.
 */
export async function doraMetrics(prisma: PrismaClient, organizationId: string, scope: DoraScope): Promise<DoraMetrics> {
  const [metrics] = await doraMetricsOfPieces(prisma, organizationId, scope, [
    { serviceId: scope.serviceId ?? null, from: scope.from, to: scope.to },
  ]);
  return metrics!;
}

/** A piece of a DORA scope: its period, and its service (null: the whole organization). */
export interface DoraPiece extends TimeRange {
  serviceId: string | null;
}

/**
 * The four keys of each piece of `scope` (in its environment), each exactly as doraMetrics computes
 * them for that piece alone: the days or weeks of its period (DoraMetrics.byDay, byWeek), or its
 * services over the period (byService). The pieces are all of the organization, or all of
 * services, within the scope's period. A fixed number of statements whatever their number (each
 * piece is a few index ranges in them): the failures and incidents of the scope's whole period
 * once, then each piece's figures in one statement (two for an organization).
 */
export async function doraMetricsOfPieces(
  prisma: PrismaClient,
  organizationId: string,
  scope: DoraScope,
  pieces: readonly DoraPiece[],
): Promise<DoraMetrics[]> {
  const { environments, target } = await resolveDoraScope(prisma, organizationId, scope);
  if (pieces.length === 0) return [];
  const ofOrganization = pieces[0]!.serviceId === null;
  if (pieces.some((piece) => (piece.serviceId === null) !== ofOrganization))
    throw new RangeError('DORA pieces are all of the organization or all of services');
  const cuts = pieces.map((piece) => ({ ...piece, ...daysOf(piece) }));
  const whole = { from: scope.from, to: scope.to };
  // Independent reads, side by side on the pool.
  const [failed, incidents, figures] = await Promise.all([
    prisma.$queryRawUnsafe<{ id: string; serviceId: string; deployedAt: Date; judgedCaused: boolean }[]>(
      ...spread(failedForIncidents(organizationId, scope.serviceId ?? null, environments, whole)),
    ),
    prisma.incident.findMany({
      where: { ...target, resolvedAt: { gte: whole.from, lt: whole.to } },
      select: { serviceId: true, startedAt: true, resolvedAt: true },
    }),
    ofOrganization
      ? figuresOfOrganization(prisma, organizationId, target, environments, cuts)
      : figuresOfServices(prisma, environments, cuts),
  ]);
  const ofPiece = (piece: DoraPiece) => (row: { serviceId: string }) => piece.serviceId === null || row.serviceId === piece.serviceId;
  return cuts.map((piece, i) =>
    computeDora({
      from: piece.from,
      to: piece.to,
      deploys: [],
      days: figures[i]!,
      failedDeploys: failed.filter(ofPiece(piece)),
      incidents: incidents.filter(ofPiece(piece)),
    }),
  );
}

/** A piece cut into its whole UTC days [firstDay, endDay) (none when firstDay is not before endDay) and the partial days around them. */
type CutPiece = DoraPiece & ReturnType<typeof daysOf>;

function daysOf(period: TimeRange) {
  const firstDay = dayAtOrAfter(period.from);
  const endDay = dayAtOrBefore(period.to);
  const wholeDays = firstDay < endDay;
  const partialDays: TimeRange[] = wholeDays
    ? [
        { from: period.from, to: firstDay },
        { from: endDay, to: period.to },
      ]
    : [{ from: period.from, to: period.to }];
  return { firstDay, endDay, wholeDays, partialDays };
}

/**
 * Each piece's figures for an organization: its whole days from one row a day and environment
 * (one read for all pieces), its partial days added up by the database (one statement for all).
 */
async function figuresOfOrganization(
  prisma: PrismaClient,
  organizationId: string,
  target: ResolvedDoraScope['target'],
  environments: string[] | null,
  pieces: readonly CutPiece[],
): Promise<DeployFigures[]> {
  const withDays = pieces.filter((piece) => piece.wholeDays);
  const [partials, days] = await Promise.all([
    prisma.$queryRawUnsafe<(PartialDays & { piece: number })[]>(...spread(partialDaysOfOrganization(organizationId, environments, pieces))),
    withDays.length === 0
      ? []
      : prisma.doraOrganizationDay.findMany({
          where: {
            ...target,
            day: {
              gte: new Date(Math.min(...withDays.map((piece) => piece.firstDay.getTime()))),
              lt: new Date(Math.max(...withDays.map((piece) => piece.endDay.getTime()))),
            },
          },
          select: { day: true, deployCount: true, leadTimeBuckets: true, rolledBackCount: true },
        }),
  ]);
  return pieces.map((piece, i) => {
    const partial = partials.find((row) => row.piece === i);
    const own = days.filter((day) => day.day >= piece.firstDay && day.day < piece.endDay);
    return {
      deployCount: (partial?.deployCount ?? 0) + own.reduce((sum, day) => sum + day.deployCount, 0),
      leadTimeBuckets: addBuckets(partial?.leadTimeBuckets, ...own.map((day) => day.leadTimeBuckets)),
      rolledBackCount: (partial?.rolledBackCount ?? 0) + own.reduce((sum, day) => sum + day.rolledBackCount, 0),
    };
  });
}

/**
 * Each piece's figures for its service, added up by the database in one statement: whole days
 * from their figures and partial days from the deploys, with the exact median of every lead time
 * (a busy service's year holds tens of thousands of them: taking their median where they are
 * beats sending them).
 */
async function figuresOfServices(
  prisma: PrismaClient,
  environments: string[] | null,
  pieces: readonly CutPiece[],
): Promise<DeployFigures[]> {
  const rows = await prisma.$queryRawUnsafe<(ServicePeriod & { piece: number })[]>(...spread(periodsOfServices(environments, pieces)));
  return pieces.map((_, i) => rows.find((row) => row.piece === i)!);
}

/** A DORA scope checked and resolved: its environments' every name, and the period cut into whole UTC days and the partial days around them. */
interface ResolvedDoraScope {
  environments: string[] | null;
  /** The Prisma filter of the scope's rows (organization, service, environment). */
  target: { organizationId: string; serviceId?: string; environment?: { in: string[] } };
  firstDay: Date;
  endDay: Date;
  wholeDays: boolean;
  partialDays: TimeRange[];
}

/** The period must not be empty; a service that is not the organization's (an empty id included: it does not mean the whole organization) is not found. */
async function resolveDoraScope(prisma: PrismaClient, organizationId: string, scope: DoraScope): Promise<ResolvedDoraScope> {
  if (scope.from.getTime() >= scope.to.getTime())
    throw new InputError([{ field: 'to', message: 'must be after from' }], 'from must be before to');
  if (scope.serviceId != null) {
    const service = isUuid(scope.serviceId)
      ? await prisma.service.findFirst({ where: { id: scope.serviceId, organizationId }, select: { id: true } })
      : null;
    if (!service) throw new NotFoundError('Service', scope.serviceId);
  }
  // The environment as every name that means it (case, aliases), compared with `=` on the indexes.
  const environments = scope.environment ? await environmentSpellings(prisma, organizationId, scope.environment) : null;
  const target = {
    organizationId,
    ...(scope.serviceId ? { serviceId: scope.serviceId } : {}),
    ...(environments ? { environment: { in: environments } } : {}),
  };
  return { environments, target, ...daysOf(scope) };
}

/** Why a deploy counts as failed, in the order the four keys count them (each deploy once). */
export type DoraFailureReason = 'ROLLED_BACK' | 'JUDGED_CAUSED' | 'TOP_SUSPECT';

/**
 * The deploys that the change failure rate of `scope` counts, newest first, at most `limit`, each
 * with the reason it counts for. Rolled-back ones are found from the days whose figures count
 * some (dora_days, then those days' deploys of that target by index) and from the partial days'
 * deploys; the others as doraMetrics finds them, from the incidents started in the period.
 */
export async function doraFailedDeploys(
  prisma: PrismaClient,
  organizationId: string,
  scope: DoraScope,
  limit: number,
): Promise<{ id: string; deployedAt: Date; reason: DoraFailureReason }[]> {
  const { environments, firstDay, endDay, wholeDays, partialDays } = await resolveDoraScope(prisma, organizationId, scope);
  const serviceId = scope.serviceId ?? null;
  const [rolledBack, forIncidents] = await Promise.all([
    prisma.$queryRawUnsafe<{ id: string; deployedAt: Date }[]>(
      ...spread(rolledBackDeploys(organizationId, serviceId, environments, wholeDays ? { firstDay, endDay } : null, partialDays, limit)),
    ),
    prisma.$queryRawUnsafe<{ id: string; deployedAt: Date; judgedCaused: boolean }[]>(
      ...spread(failedForIncidents(organizationId, serviceId, environments, scope)),
    ),
  ]);
  return [
    ...rolledBack.map((deploy) => ({ ...deploy, reason: 'ROLLED_BACK' as const })),
    ...forIncidents.map(({ id, deployedAt, judgedCaused }) => ({
      id,
      deployedAt,
      reason: judgedCaused ? ('JUDGED_CAUSED' as const) : ('TOP_SUSPECT' as const),
    })),
  ]
    .sort((a, b) => b.deployedAt.getTime() - a.deployedAt.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, limit);
}

/**
 * The rolled-back deploys of a scope within its whole days (read through the days whose figures
 * count one: a year of a busy organization holds a million deploys and a few rolled back) and its
 * partial days, newest first, at most `limit`.
 */
function rolledBackDeploys(
  organizationId: string,
  serviceId: string | null,
  environments: string[] | null,
  days: { firstDay: Date; endDay: Date } | null,
  partialDays: readonly TimeRange[],
  limit: number,
): Sql {
  const inScope = sql`d.organization_id = ${organizationId}::uuid AND (${serviceId}::uuid IS NULL OR d.service_id = ${serviceId}::uuid)
     AND (${environments}::text[] IS NULL OR d.environment = ANY (${environments}::text[]))`;
  const partial = sql`SELECT d.id, d.deployed_at FROM deploys d WHERE ${inScope} AND ${deployedWithin(partialDays)} AND d.rolled_back`;
  if (!days)
    return sql`SELECT id::text AS id, deployed_at AS "deployedAt" FROM (${partial}) f ORDER BY deployed_at DESC, id DESC LIMIT ${limit}`;
  // A day's target '' stands for deploys without an environment: two index probes, one for each spelling.
  return sql`SELECT id::text AS id, deployed_at AS "deployedAt" FROM (
  SELECT d.id, d.deployed_at FROM dora_days k CROSS JOIN LATERAL (
    SELECT d.id, d.deployed_at FROM deploys d
     WHERE d.service_id = k.service_id AND d.environment = k.environment
       AND d.deployed_at >= k.day::timestamp AT TIME ZONE 'UTC' AND d.deployed_at < (k.day + 1)::timestamp AT TIME ZONE 'UTC' AND d.rolled_back
    UNION ALL
    SELECT d.id, d.deployed_at FROM deploys d
     WHERE k.environment = '' AND d.service_id = k.service_id AND d.environment IS NULL
       AND d.deployed_at >= k.day::timestamp AT TIME ZONE 'UTC' AND d.deployed_at < (k.day + 1)::timestamp AT TIME ZONE 'UTC' AND d.rolled_back
  ) d
   WHERE k.organization_id = ${organizationId}::uuid AND k.day >= ${days.firstDay}::date AND k.day < ${days.endDay}::date AND k.rolled_back_count > 0
     AND (${serviceId}::uuid IS NULL OR k.service_id = ${serviceId}::uuid)
     AND (${environments}::text[] IS NULL OR k.environment = ANY (${environments}::text[]))
  UNION ALL
  ${partial}
) f ORDER BY deployed_at DESC, id DESC LIMIT ${limit}`;
}

/**
 * The incidents whose restore times the four keys of `scope` take the median of (resolved in the
 * period, not before they started), the latest resolved first, at most `limit`.
 */
export async function doraRestoreIncidents(prisma: PrismaClient, organizationId: string, scope: DoraScope, limit: number) {
  const { target } = await resolveDoraScope(prisma, organizationId, scope);
  return prisma.incident.findMany({
    where: {
      ...target,
      AND: [{ resolvedAt: { gte: scope.from, lt: scope.to } }, { resolvedAt: { gte: prisma.incident.fields.startedAt } }],
    },
    orderBy: [{ resolvedAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/**
 * The deploys of the scope within [from, to) that an incident counts as failed, rolled-back ones
 * aside (they are counted as such already): those someone judged CAUSED, and the top-ranked
 * suspect of an incident whose cause nobody named, unless DISMISSED (a verdict wins over the
 * score); `judgedCaused` tells the first from the second. Found from the incidents, not from
 * the deploys: a suspect is never deployed after its incident started, so the incidents started
 * since `from` hold them all, and there are far fewer
 * of those than deploys in a busy period. Each incident's judged and first-ranked suspects are
 * read through the partial index that holds only those, so the statement reads the
 * organization's rows and never every organization's suspects.
 */
function failedForIncidents(organizationId: string, serviceId: string | null, environments: string[] | null, { from, to }: TimeRange): Sql {
  // OFFSET 0 keeps each deploy a look-up by id: as a join, the planner may read the period's deploys instead.
  return sql`SELECT d.id::text AS id, d.service_id::text AS "serviceId", d.deployed_at AS "deployedAt", bool_or(x.verdict = 'CAUSED') AS "judgedCaused"
FROM incidents i
CROSS JOIN LATERAL (
  SELECT x.deploy_id, x.verdict FROM (
    SELECT s.deploy_id, s.rank, s.verdict, count(*) FILTER (WHERE s.verdict = 'CAUSED') OVER () > 0 AS cause_named
      FROM incident_suspects s WHERE s.incident_id = i.id AND ${FAILING_SUSPECT}) x
   WHERE x.verdict = 'CAUSED' OR (x.rank = 1 AND x.verdict IS NULL AND NOT x.cause_named)) x
CROSS JOIN LATERAL (
  SELECT d.id, d.service_id, d.deployed_at FROM deploys d
   WHERE d.id = x.deploy_id AND d.organization_id = ${organizationId}::uuid AND (${serviceId}::uuid IS NULL OR d.service_id = ${serviceId}::uuid)
     AND (${environments}::text[] IS NULL OR d.environment = ANY (${environments}::text[])) AND d.deployed_at >= ${from} AND d.deployed_at < ${to} AND NOT d.rolled_back
  OFFSET 0) d
WHERE i.organization_id = ${organizationId}::uuid AND i.started_at >= ${from}
GROUP BY d.id, d.service_id, d.deployed_at`;
}

/** The suspects that can make an incident's deploy failed (within incident_suspects_judged_or_first_idx). */
const FAILING_SUSPECT = raw(`(s.verdict = 'CAUSED' OR (s.rank = 1 AND s.verdict IS NULL))`);

/** What a service's period adds up to. */
interface ServicePeriod {
  deployCount: number;
  rolledBackCount: number;
  /** The exact median of its commits' lead times (ms), null for none. */
  leadTimeMedianMs: number | null;
}

/**
 * The period of each piece's service (in one of `environments`, when given), one row per piece
 * (`piece`: its index): the figures of its whole days [firstDay, endDay) and the deploys made
 * within its partial days with their commits, added up. Each table is read once, a few index
 * ranges of the piece's service per piece.
 */
function periodsOfServices(environments: string[] | null, pieces: readonly CutPiece[]): Sql {
  const inEnvironment = (column: string) => sql`(${environments}::text[] IS NULL OR ${raw(column)} = ANY (${environments}::text[]))`;
  // The second partial range is empty (its end at its start) when the piece has no whole day.
  const first = pieces.map((piece) => piece.partialDays[0]!);
  const last = pieces.map((piece) => piece.partialDays[1] ?? { from: piece.to, to: piece.to });
  // OFFSET 0 keeps each piece's look-up a range of the index: as a join, the planner may hash a service's history.
  return sql`WITH p AS (
  SELECT * FROM unnest(${pieces.map((piece) => piece.serviceId)}::uuid[], ${pieces.map((piece) => piece.firstDay)}::date[], ${pieces.map((piece) => piece.endDay)}::date[],
                       ${first.map((range) => range.from)}::timestamptz[], ${first.map((range) => range.to)}::timestamptz[],
                       ${last.map((range) => range.from)}::timestamptz[], ${last.map((range) => range.to)}::timestamptz[])
    WITH ORDINALITY AS p(service_id, first_day, end_day, first_from, first_to, last_from, last_to, n)
), whole_days AS MATERIALIZED (
  SELECT p.n, w.deploy_count, w.rolled_back_count, w.lead_times_ms FROM p CROSS JOIN LATERAL (
    SELECT w.deploy_count, w.rolled_back_count, w.lead_times_ms FROM dora_days w
     WHERE w.service_id = p.service_id AND ${inEnvironment('w.environment')} AND w.day >= p.first_day AND w.day < p.end_day OFFSET 0) w
), partial_days AS MATERIALIZED (
  SELECT p.n, d.id, d.deployed_at, d.rolled_back FROM p CROSS JOIN LATERAL (
    SELECT d.id, d.deployed_at, d.rolled_back FROM deploys d
     WHERE d.service_id = p.service_id AND ${inEnvironment('d.environment')}
       AND ((d.deployed_at >= p.first_from AND d.deployed_at < p.first_to) OR (d.deployed_at >= p.last_from AND d.deployed_at < p.last_to)) OFFSET 0) d
), lead_times AS (
  SELECT n, unnest(lead_times_ms) AS ms FROM whole_days
  UNION ALL
  SELECT x.n, (extract(epoch FROM x.deployed_at - c.timestamp) * 1000)::float8 FROM partial_days x JOIN commits c ON c.deploy_id = x.id
   WHERE c.timestamp <= x.deployed_at
)
SELECT (p.n - 1)::int AS piece,
       ((SELECT coalesce(sum(deploy_count), 0) FROM whole_days w WHERE w.n = p.n) + (SELECT count(*) FROM partial_days x WHERE x.n = p.n))::int AS "deployCount",
       ((SELECT coalesce(sum(rolled_back_count), 0) FROM whole_days w WHERE w.n = p.n)
        + (SELECT count(*) FILTER (WHERE rolled_back) FROM partial_days x WHERE x.n = p.n))::int AS "rolledBackCount",
       (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FROM lead_times l WHERE l.n = p.n) AS "leadTimeMedianMs"
FROM p ORDER BY p.n`;
}

/** SQL: deploys `d` made within one of `ranges` (at least one). */
function deployedWithin(ranges: readonly TimeRange[]): Sql {
  return join(
    ranges.map(({ from, to }) => sql`(d.deployed_at >= ${from} AND d.deployed_at < ${to})`),
    ' OR ',
    '(',
    ')',
  );
}

/** What the partial days of an organization's period add up to. */
interface PartialDays {
  deployCount: number;
  rolledBackCount: number;
  /** Their commits' lead times, as a histogram of dora_lead_time_bucket. */
  leadTimeBuckets: number[];
}

/**
 * The deploys of an organization (in one of `environments`, when given) made within each piece's
 * partial days, and their commits' lead times, added up in one row per piece that has any
 * (`piece`: its index). Each range is read by the (organization_id, deployed_at) index.
 */
function partialDaysOfOrganization(organizationId: string, environments: string[] | null, pieces: readonly CutPiece[]): Sql {
  const ranges = pieces.flatMap((piece, i) =>
    piece.partialDays.filter((range) => range.from < range.to).map((range) => ({ ...range, piece: i })),
  );
  return sql`SELECT p.piece, count(DISTINCT d.id)::int AS "deployCount", count(DISTINCT d.id) FILTER (WHERE d.rolled_back)::int AS "rolledBackCount",
       dora_lead_time_buckets(array_agg((extract(epoch FROM d.deployed_at - c.timestamp) * 1000)::float8) FILTER (WHERE c.timestamp <= d.deployed_at)) AS "leadTimeBuckets"
FROM unnest(${ranges.map((range) => range.piece)}::int[], ${ranges.map((range) => range.from)}::timestamptz[], ${ranges.map((range) => range.to)}::timestamptz[]) AS p(piece, from_at, to_at)
-- A range of the index per piece (OFFSET 0 keeps it one: as a join, the planner may hash the organization's deploys).
CROSS JOIN LATERAL (
  SELECT d.id, d.deployed_at, d.rolled_back FROM deploys d
   WHERE d.organization_id = ${organizationId}::uuid AND (${environments}::text[] IS NULL OR d.environment = ANY (${environments}::text[]))
     AND d.deployed_at >= p.from_at AND d.deployed_at < p.to_at
  OFFSET 0) d
LEFT JOIN commits c ON c.deploy_id = d.id
GROUP BY p.piece`;
}

const spread = (statement: Statement): [string, ...unknown[]] => [statement.text, ...statement.values];
