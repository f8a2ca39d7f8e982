// The Four Keys (DORA metrics) for a service or an organization over the half-open period
// [from, to). Pure: the caller loads deploys, failures and incidents; this only computes.
//
// Definitions followed (Google's Four Keys project and the DORA research):
// - Deployment frequency: how often changes reach the environment; here the deploys in the
//   period divided by its length in days (fractional days allowed).
// - Lead time for changes: the median time from a commit to its deploy, over every commit
//   (with a timestamp) carried by a deploy in the period.
// - Change failure rate: the share of deploys in the period that caused a failure.
// - Time to restore service (DORA 2024: "failed deployment recovery time"): the median time
//   from an incident's start to its resolution, over incidents resolved in the period.
//
// Deviations:
// - Four Keys reports deployment frequency as a bucket (daily / weekly / monthly / yearly);
//   we return the raw rate per day and leave bucketing to the caller.
// - Lead time uses the commit's own timestamp (author or committer time as the pipeline sent
//   it), not the time it was merged; commits without a timestamp are skipped, and negative
//   values (commit clock ahead of the deploy, rebases) are ignored rather than clamped. A
//   commit carried by two deploys in the period counts once per deploy (deploys carry the
//   commits since the previous deploy, so this is rare).
// - A "failed" deploy is one a human judged CAUSED for an incident, the top suspect of an
//   incident that was not DISMISSED, or one a later deploy rolled back, as Datadog counts them
//   (the caller decides and passes the ids); Four Keys links incidents to deploys by a
//   root-cause field instead.
// - Time to restore uses incident start, not the deploy time or the time the incident was
//   opened in a tool; unresolved incidents, incidents resolved outside [from, to) and
//   incidents resolved before they started are left out.
// - Deploys outside [from, to) are left out even if passed; empty inputs give null, not 0.
// - For a whole organization, lead times come as a histogram with fixed log-scale buckets
//   (leadTimeBucket: eight a doubling), so that days add up without keeping every lead time:
//   the median is then the geometric middle of the bucket that holds it, within about 4.5 % of
//   the exact one. A service's lead time stays exact: the database takes the median of its
//   period's lead times (leadTimeMedianMs) rather than send them all.
// Medians: middle value of the sorted list, or the mean of the two middle values for an even
// count. Durations are in seconds (not rounded).

/**
 * What deploys not given one by one add up to (kept per service, environment and day as they are
 * ingested). Their lead times (deployedAt − timestamp of each of their commits with a timestamp not
 * after the deploy) come in one of two forms, or not at all when none is given.
 */
export interface DeployFigures {
  deployCount: number;
  /**
   * As a histogram (element i counts bucket i of leadTimeBucket): the lead time is then the
   * approximate median of it and of the deploys given one by one.
   */
  leadTimeBuckets?: number[];
  /**
   * As their exact median (ms, null for none), taken over every lead time of the period: the
   * deploys given one by one must then bring none.
   */
  leadTimeMedianMs?: number | null;
  /** Those of them a later deploy rolled back (failed whatever else is known of them). */
  rolledBackCount: number;
}

/** Buckets of leadTimeBucket: 0 under a second, then eight a doubling up to the last one. */
export const LEAD_TIME_BUCKETS = 209;

/**
 * The bucket of a lead time (ms): 0 under a second; bucket i (1 to 208) holds
 * [2^((i-1)/8), 2^(i/8)) seconds, the last one everything from 2^(207/8) s (1.8 years) on. The
 * database's dora_lead_time_bucket() is the same function.
 */
export function leadTimeBucket(ms: number): number {
  if (ms < 1000) return 0;
  return Math.min(1 + Math.floor((8 * Math.log(ms / 1000)) / Math.LN2), LEAD_TIME_BUCKETS - 1);
}

/** The value a bucket stands for, in ms: the geometric middle of its bounds (half a second for bucket 0, the lower bound for the last). */
export function leadTimeOfBucket(bucket: number): number {
  if (bucket === 0) return 500;
  if (bucket === LEAD_TIME_BUCKETS - 1) return 1000 * 2 ** ((bucket - 1) / 8);
  return 1000 * 2 ** ((bucket - 0.5) / 8);
}

/** Histograms added bucket by bucket. */
export function addBuckets(...histograms: readonly (readonly number[] | null | undefined)[]): number[] {
  const sum: number[] = [];
  for (const histogram of histograms) {
    for (const [bucket, count] of (histogram ?? []).entries()) sum[bucket] = (sum[bucket] ?? 0) + count;
  }
  return Array.from(sum, (count) => count ?? 0);
}

/** The histogram of lead times (ms). */
export function bucketsOf(leadTimesMs: readonly number[]): number[] {
  const histogram: number[] = [];
  for (const ms of leadTimesMs) {
    const bucket = leadTimeBucket(ms);
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
  }
  return Array.from(histogram, (count) => count ?? 0);
}

/** The median of a histogram (as median(): the mean of the two middle values for an even count), from its buckets' values; null when empty. */
export function medianOfBuckets(histogram: readonly number[]): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  /** The value at 0-based rank `rank`. */
  const at = (rank: number) => {
    let seen = 0;
    for (const [bucket, count] of histogram.entries()) {
      seen += count;
      if (rank < seen) return leadTimeOfBucket(bucket);
    }
    throw new RangeError('rank beyond the histogram');
  };
  const mid = Math.floor(total / 2);
  return total % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

export interface DoraInput {
  from: Date;
  to: Date;
  /** Deploys (the caller filters service/environment), with their commits; those outside the period are left out. */
  deploys: { id: string; deployedAt: Date; commits: { timestamp: Date | null }[] }[];
  /** The figures of the deploys of the period that are not in `deploys` (whole days, added up). */
  days?: DeployFigures;
  /**
   * Deploys judged CAUSED by a human, ranked first for an incident and not DISMISSED, or rolled
   * back, except those already counted by `days.rolledBackCount`; those outside the period are left out.
   */
  failedDeploys: { id: string; deployedAt: Date; judgedCaused?: boolean }[];
  /** Incidents of the scope resolved in the period. */
  incidents: { startedAt: Date; resolvedAt: Date | null }[];
}

export interface DoraMetrics {
  deploymentFrequencyPerDay: number;
  deployCount: number;
  days: number;
  /** Median over commits with a timestamp of (deployedAt − commit timestamp); negatives ignored. */
  leadTimeForChangesSeconds: number | null;
  /** Failed deploys / all deploys in the period; null when there are no deploys. */
  changeFailureRate: number | null;
  /** The failed deploys of the period: rolledBackCount + judgedCausedCount + topSuspectCount. */
  failedDeployCount: number;
  /** Failed deploys that a later deploy rolled back (whatever else is known of them). */
  rolledBackCount: number;
  /** Failed deploys, not rolled back, that someone judged CAUSED for an incident. */
  judgedCausedCount: number;
  /** Failed deploys, not rolled back nor judged CAUSED, ranked first for an incident whose cause nobody named, and not DISMISSED. */
  topSuspectCount: number;
  /** Median (resolvedAt − startedAt) of incidents resolved in the period. */
  timeToRestoreSeconds: number | null;
}

export const MS_PER_DAY = 24 * 60 * 60 * 1000;

/** A half-open period [from, to). */
export interface TimeRange {
  from: Date;
  to: Date;
}

/**
 * The days (midnight to midnight UTC) that overlap `period`, each cut to it: the first and the
 * last may be partial. Days and weeks are UTC everywhere (API, dashboard), so that a figure
 * means the same for everyone who reads it.
 */
export function utcDaysOf(period: TimeRange): TimeRange[] {
  return cutInto(period, Math.floor(period.from.getTime() / MS_PER_DAY) * MS_PER_DAY, MS_PER_DAY);
}

/** Thursday 1970-01-01 + 4 days: a Monday at 00:00 UTC, from which ISO weeks count. */
const A_MONDAY = 4 * MS_PER_DAY;
const MS_PER_WEEK = 7 * MS_PER_DAY;

/** The ISO weeks (Monday 00:00 UTC to the next Monday) that overlap `period`, each cut to it. */
export function isoWeeksOf(period: TimeRange): TimeRange[] {
  const from = period.from.getTime();
  return cutInto(period, from - ((((from - A_MONDAY) % MS_PER_WEEK) + MS_PER_WEEK) % MS_PER_WEEK), MS_PER_WEEK);
}

/** `period` cut at `start` + k × `length`, the pieces in time order. */
function cutInto(period: TimeRange, start: number, length: number): TimeRange[] {
  const from = period.from.getTime();
  const to = period.to.getTime();
  const pieces: TimeRange[] = [];
  for (let cut = start; cut < to; cut += length) {
    pieces.push({ from: new Date(Math.max(cut, from)), to: new Date(Math.min(cut + length, to)) });
  }
  return pieces;
}

/** The performance clusters of the DORA report, best first. */
export type DoraPerformance = 'ELITE' | 'HIGH' | 'MEDIUM' | 'LOW';

export interface DoraBands {
  deploymentFrequency: DoraPerformance | null;
  leadTimeForChanges: DoraPerformance | null;
  changeFailureRate: DoraPerformance | null;
  timeToRestore: DoraPerformance | null;
}

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

/** The first band whose bound the value is within (`better`: which side of a bound is better), else LOW. */
function band(value: number | null, bounds: readonly [number, number, number], better: 'higher' | 'lower'): DoraPerformance | null {
  if (value === null) return null;
  const within = (bound: number) => (better === 'higher' ? value >= bound : value <= bound);
  return within(bounds[0]) ? 'ELITE' : within(bounds[1]) ? 'HIGH' : within(bounds[2]) ? 'MEDIUM' : 'LOW';
}

/**
 * Where each key stands among the DORA report's clusters (2023 State of DevOps): deploys on
 * demand (a day or more often), daily to weekly, weekly to monthly, less; lead time under a
 * day, a week, a month; time to restore under an hour, a day, a week. The report's change
 * failure rates per cluster (5, 20, 10, 40 %) are not ordered, so the bands are 5, 10 and 20 %.
 * A key without data (no deploys, no resolved incident) has no band.
 */
export function performanceBands(metrics: DoraMetrics): DoraBands {
  return {
    deploymentFrequency: metrics.deployCount === 0 ? null : band(metrics.deploymentFrequencyPerDay, [1, 1 / 7, 1 / 30], 'higher'),
    leadTimeForChanges: band(metrics.leadTimeForChangesSeconds, [DAY_S, 7 * DAY_S, 30 * DAY_S], 'lower'),
    changeFailureRate: band(metrics.changeFailureRate, [0.05, 0.1, 0.2], 'lower'),
    timeToRestore: band(metrics.timeToRestoreSeconds, [HOUR_S, DAY_S, 7 * DAY_S], 'lower'),
  };
}

export function computeDora(input: DoraInput): DoraMetrics {
  const from = input.from.getTime();
  const to = input.to.getTime();
  if (Number.isNaN(from) || Number.isNaN(to) || to <= from) {
    throw new RangeError('DORA period needs valid dates with from < to');
  }
  const inPeriod = (t: number) => t >= from && t < to;

  const deploys = input.deploys.filter((d) => inPeriod(d.deployedAt.getTime()));
  const deployCount = deploys.length + (input.days?.deployCount ?? 0);
  const days = (to - from) / MS_PER_DAY;

  const leadTimesMs: number[] = [];
  for (const deploy of deploys) {
    for (const commit of deploy.commits) {
      if (commit.timestamp === null) continue;
      const lead = deploy.deployedAt.getTime() - commit.timestamp.getTime();
      if (Number.isFinite(lead) && lead >= 0) leadTimesMs.push(lead);
    }
  }

  const failedForIncidents = new Map(input.failedDeploys.filter((d) => inPeriod(d.deployedAt.getTime())).map((d) => [d.id, d]));
  const judgedCausedCount = [...failedForIncidents.values()].filter((d) => d.judgedCaused).length;
  const rolledBackCount = input.days?.rolledBackCount ?? 0;
  const failed = failedForIncidents.size + rolledBackCount;

  const restoreMs: number[] = [];
  for (const incident of input.incidents) {
    if (incident.resolvedAt === null) continue;
    const resolved = incident.resolvedAt.getTime();
    const duration = resolved - incident.startedAt.getTime();
    if (inPeriod(resolved) && Number.isFinite(duration) && duration >= 0) restoreMs.push(duration);
  }

  const leadTimeMedianMs = input.days?.leadTimeMedianMs;
  if (leadTimeMedianMs !== undefined && leadTimesMs.length > 0)
    throw new RangeError('DORA lead times come either as their median or from the deploys, not both');

  return {
    deploymentFrequencyPerDay: deployCount / days,
    deployCount,
    days,
    leadTimeForChangesSeconds: toSeconds(
      leadTimeMedianMs !== undefined
        ? leadTimeMedianMs
        : input.days?.leadTimeBuckets
          ? medianOfBuckets(addBuckets(input.days.leadTimeBuckets, bucketsOf(leadTimesMs)))
          : median(leadTimesMs),
    ),
    changeFailureRate: deployCount === 0 ? null : failed / deployCount,
    failedDeployCount: failed,
    rolledBackCount,
    judgedCausedCount,
    topSuspectCount: failedForIncidents.size - judgedCausedCount,
    timeToRestoreSeconds: toSeconds(median(restoreMs)),
  };
}

/** Median; the mean of the two middle values for an even count; null for none. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid]!;
  return (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function toSeconds(ms: number | null): number | null {
  return ms === null ? null : ms / 1000;
}
