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
// Medians: middle value of the sorted list, or the mean of the two middle values for an even
// count. Durations are in seconds (not rounded).

export interface DoraInput {
  from: Date;
  to: Date;
  /** Deploys in the period (the caller filters service/environment). */
  deploys: { id: string; deployedAt: Date; commits: { timestamp: Date | null }[] }[];
  /** Deploy ids judged CAUSED by a human, ranked first for an incident and not DISMISSED, or rolled back. */
  failedDeployIds: Set<string>;
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
  /** Median (resolvedAt − startedAt) of incidents resolved in the period. */
  timeToRestoreSeconds: number | null;
}

export const MS_PER_DAY = 24 * 60 * 60 * 1000;

export function computeDora(input: DoraInput): DoraMetrics {
  const from = input.from.getTime();
  const to = input.to.getTime();
  if (Number.isNaN(from) || Number.isNaN(to) || to <= from) {
    throw new RangeError('DORA period needs valid dates with from < to');
  }
  const inPeriod = (t: number) => t >= from && t < to;

  const deploys = input.deploys.filter((d) => inPeriod(d.deployedAt.getTime()));
  const deployCount = deploys.length;
  const days = (to - from) / MS_PER_DAY;

  const leadTimesMs: number[] = [];
  for (const deploy of deploys) {
    for (const commit of deploy.commits) {
      if (commit.timestamp === null) continue;
      const lead = deploy.deployedAt.getTime() - commit.timestamp.getTime();
      if (Number.isFinite(lead) && lead >= 0) leadTimesMs.push(lead);
    }
  }

  const failed = deploys.filter((d) => input.failedDeployIds.has(d.id)).length;

  const restoreMs: number[] = [];
  for (const incident of input.incidents) {
    if (incident.resolvedAt === null) continue;
    const resolved = incident.resolvedAt.getTime();
    const duration = resolved - incident.startedAt.getTime();
    if (inPeriod(resolved) && Number.isFinite(duration) && duration >= 0) restoreMs.push(duration);
  }

  return {
    deploymentFrequencyPerDay: deployCount / days,
    deployCount,
    days,
    leadTimeForChangesSeconds: toSeconds(median(leadTimesMs)),
    changeFailureRate: deployCount === 0 ? null : failed / deployCount,
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
