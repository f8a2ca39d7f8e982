// Suspects of an incident: which recent deploys and other changes (feature-flag flips, config
// changes) may have caused it, each with a score in 0..1 and the reasons behind it. Pure: plain
// inputs, plain outputs, no database (a loader gathers the inputs).
//
//   score = round3( relation × environment × prior × clamp01(evidence) )
//
//   relation    = 1 for the incident's service (and each other service it affects);
//                 for a service one of them depends on, h hops upstream (the nearest):
//                   OTHER_SERVICE_FACTOR + (DIRECT_DEPENDENCY_FACTOR − OTHER_SERVICE_FACTOR) × DEPENDENCY_HOP_DECAY^(h−1)
//                   (0.7 direct, 0.5 at two hops, 0.4 at three, approaching 0.3);
//                 OTHER_SERVICE_FACTOR (0.3) for any other service of the organization;
//   environment = 1 when the incident has no environment or the change's is the same one (names
//                 match case-insensitively and through the organization's aliases: prod = production),
//                 ENVIRONMENT_UNKNOWN_FACTOR (0.6) when the change has none,
//                 ENVIRONMENT_MISMATCH_FACTOR (0.15) when they differ;
//   prior       = 1 ± up to PRIOR_MAX_EFFECT (0.15) from past verdicts on this service's changes
//                 of this kind (see priors.ts);
//   evidence    = RECENCY_WEIGHT (0.5) × recency(age)
//               + settled(age) × STANDING_WEIGHT (0.25) × [deploy: last deploy of its service+environment
//                                           before the incident, rollbacks aside, or rolled back since;
//                                           change event: always, it is live the moment it is made]
//               + settled(age) × CHANGE_SIZE_WEIGHT (0.25) × risk (the size, log-scaled commit count,
//                                           CHANGE_SIZE_UNKNOWN (0.5) when no commits were sent, one
//                                           commit for a change event; part of it taken over by the
//                                           record of past verdicts, see priors.ts riskTerm)
//               − REDEPLOY_PENALTY (0.5) × [redeploy of the commit or version deployed right before]
//               + HEALTH_WEIGHT (0.25) × (1 − 2^(−rise)) for a deploy after which its service's alerts
//                                           (or incidents) rose before the incident started (deploy-health.ts)
//   settled(t)  = SETTLED_FLOOR + (1 − SETTLED_FLOOR) × 2^(−max(0, t − 1 h) / SETTLED_HALF_LIFE)
//   recency(t)  = RECENCY_FAST_SHARE × 2^(−t / RECENCY_FAST_HALF_LIFE) + (1 − RECENCY_FAST_SHARE) × 2^(−t / RECENCY_SLOW_HALF_LIFE)
//
// Why: the relation and the environment decide whether a change *could* reach the broken system
// at all, so they gate (multiply) the rest: a staging deploy stays low however recent, and a
// dependency's deploy ranks between the service's own and unrelated ones. A deploy that ran for
// a long time without trouble is weak evidence: incidents a deploy causes mostly begin within
// its first hour (new code takes traffic within minutes), with a long thin tail (latent bugs,
// traffic peaks, caches expiring), so recency mixes a fast decay (half-life 20 min, 85 % of the
// weight) with a slow one (half-life 6 h). The last deploy is the code actually running when the
// incident began; a deploy rolled back since keeps that standing (it was undone for a reason),
// while the rollback itself only restores a state that ran before and is not a suspect. Bigger
// changes carry more risk (log-scaled: 40 commits are riskier than 4, not ten times). A redeploy
// of what ran right before changes nothing. Being the running code and being big say less once a
// change ran half a day without trouble. Past verdicts nudge, and can outweigh size; not a gate.
// A deploy after which its service alerted more than before, before this incident began, did not
// run without trouble, however long ago it was: the alerts are evidence recency cannot see.
//
// Candidates: deploys and change events in [startedAt − lookback, startedAt]; a change after
// the start cannot have caused the incident, one exactly at the start can. A deploy or change a
// person named for the incident (a verdict) is one too, however old: the slow leak a window
// cannot see.
import { HEALTH_WINDOW_MS, type DeployHealth, type HealthCounts } from './deploy-health.ts';
import { upstreamDistances, type DependencyEdge } from './dependencies.ts';
import { canonicalEnvironment, type EnvironmentAliases } from './environments.ts';
import { DEPLOY_KIND, priorFactor, priorKey, riskTerm, type VerdictTally } from './priors.ts';
import { detectReverts, detectRollbacks, targetKey, type ChangeState, type DeployVersion } from './rollbacks.ts';

export interface CandidateDeploy extends DeployVersion {
  serviceName: string;
  /** Commits the pipeline sent with the deploy; null when it sent none (size unknown). */
  commitCount: number | null;
  /** A staged rollout's stages as reported (the first at deployedAt); absent or empty: not staged. */
  rolloutStages?: readonly RolloutStage[];
}

export interface RolloutStage {
  percentage: number;
  at: Date;
}

export interface CandidateChange extends Omit<ChangeState, 'subject' | 'previous' | 'value'> {
  serviceName: string;
  summary: string;
  /** The flag or key it changed, and its values before and after (canonical JSON text); absent when not sent. */
  subject?: string | null;
  previous?: string | null;
  value?: string | null;
}

export interface IncidentFacts {
  serviceId: string;
  /** Other services it affects (a shared outage): each counts as its own service, and their dependencies as upstream. */
  alsoAffectedServiceIds?: readonly string[];
  environment: string | null;
  startedAt: Date;
}

export interface SuspectInput {
  incident: IncidentFacts;
  /** Deploys of the organization; those outside the window are left out. */
  deploys: readonly CandidateDeploy[];
  /**
   * Earlier deploys of the same services and environments, to tell rollbacks and redeploys
   * (what detectRollbacks needs beyond `deploys`).
   */
  history?: readonly DeployVersion[];
  /** Change events of the organization; those outside the window are left out. */
  changes?: readonly CandidateChange[];
  /** Which service depends on which, in the organization. */
  dependencies?: readonly DependencyEdge[];
  /** Past verdicts per service and kind of change. */
  verdicts?: readonly VerdictTally[];
  /**
   * Deploys and change events a person judged for this incident: candidates even when they are
   * older than the look-back window (a slow leak), never when they came after the start.
   */
  named?: readonly string[];
  /** The organization's environment aliases; environments also match case-insensitively. */
  environmentAliases?: EnvironmentAliases;
  /**
   * Per deploy id, its service's alerts and incidents after it up to the incident's start (at most
   * an hour: healthWindowMs), against as long before it; deploys without an entry count as calm.
   * Counted before the start, they never hold the incident being ranked nor its alerts.
   */
  health?: ReadonlyMap<string, DeployHealth>;
}

export type SuspectReasonCode =
  | 'same_service'
  | 'upstream_dependency'
  | 'other_service'
  | 'environment_match'
  | 'environment_unknown'
  | 'environment_mismatch'
  | 'recency'
  | 'last_before_incident'
  | 'rolled_back'
  | 'change_size'
  | 'redeploy'
  | 'change_event'
  | 'reverted'
  | 'no_change'
  | 'rollout'
  | 'trouble_after'
  | 'prior';

export interface SuspectReason {
  code: SuspectReasonCode;
  detail: string;
}

/** A reason with the score points it moved (null: ranked before effects were recorded). */
export interface WeighedReason extends SuspectReason {
  effect: number | null;
}

/** Stored reasons with their effects (a parallel list; empty for suspects ranked before effects were kept). */
export function weighReasons(reasons: readonly SuspectReason[], effects: readonly number[]): WeighedReason[] {
  return reasons.map((reason, i) => ({ ...reason, effect: effects[i] ?? null }));
}

/**
 * The reason that decided the score: the largest effect either way (an environment mismatch that
 * took 0.45 away says more than the dependency that put the suspect in the list), the earlier on
 * a tie; without effects, the first reason.
 */
export function mainReason(reasons: readonly WeighedReason[]): WeighedReason | undefined {
  return reasons.reduce<WeighedReason | undefined>(
    (best, reason) => (best === undefined || Math.abs(reason.effect ?? 0) > Math.abs(best.effect ?? 0) ? reason : best),
    undefined,
  );
}

export interface RankedSuspect {
  type: 'deploy' | 'change';
  /** The deploy's or the change event's id. */
  id: string;
  rank: number;
  score: number;
  reasons: SuspectReason[];
  /**
   * Per reason (same order), the score points it added (+) or took away (−): the score minus what
   * it would be without that reason. The largest either way is the reason that decided the score.
   */
  effects: number[];
}

export interface RankingOptions {
  /** How far before the incident start changes are considered, in ms (default 24 h). */
  lookbackMs: number;
  /** How many of the best are kept (default MAX_SUSPECTS). */
  maxSuspects: number;
}

export const MAX_SUSPECTS = 20;
/** Relation, environment, recency, rollout, last deploy or rolled back, size, redeploy, trouble after it and prior at most. */
export const MAX_REASONS_PER_SUSPECT = 9;

export const DEFAULT_LOOKBACK_MS = 24 * 60 * 60 * 1000;

// Gates (multiplied).
export const SAME_SERVICE_FACTOR = 1;
export const DIRECT_DEPENDENCY_FACTOR = 0.7;
export const DEPENDENCY_HOP_DECAY = 0.5;
export const OTHER_SERVICE_FACTOR = 0.3;
export const ENVIRONMENT_MATCH_FACTOR = 1;
export const ENVIRONMENT_UNKNOWN_FACTOR = 0.6;
export const ENVIRONMENT_MISMATCH_FACTOR = 0.15;

// Evidence (added; the positive weights sum to 1).
export const RECENCY_WEIGHT = 0.5;
export const RECENCY_FAST_SHARE = 0.85;
export const RECENCY_FAST_HALF_LIFE_MS = 20 * 60 * 1000;
export const RECENCY_SLOW_HALF_LIFE_MS = 6 * 60 * 60 * 1000;
export const STANDING_WEIGHT = 0.25;
export const CHANGE_SIZE_WEIGHT = 0.25;
/** Commit count at which the size term saturates at 1. */
export const CHANGE_SIZE_SATURATION_COMMITS = 50;
/** Size term when no commits were sent: neutral, about what 6 commits give. */
export const CHANGE_SIZE_UNKNOWN = 0.5;
/**
 * Size term of a change event: one setting or flag, no bigger than a one-commit deploy (as
 * neutral as an unknown deploy, it outweighed a small deploy on size alone).
 */
export const CHANGE_EVENT_COMMITS = 1;
export const REDEPLOY_PENALTY = 0.5;
/** Standing and size of a change that ran long without trouble fade towards half their weight, from an hour on, halving the rest every 6 h. */
export const SETTLED_AFTER_MS = 60 * 60 * 1000;
export const SETTLED_FLOOR = 0.5;
export const SETTLED_HALF_LIFE_MS = 6 * 60 * 60 * 1000;
/** Trouble after a deploy: up to this much evidence, half of it for one more alert than before, each further one halving the rest. */
export const HEALTH_WEIGHT = 0.25;

export const SCORE_DECIMALS = 3;

const HOUR_MS = 60 * 60 * 1000;

/** Recency term in 0..1: 1 at the incident start, mostly gone after an hour, with a thin tail. */
export function recencyTerm(ageMs: number): number {
  const age = Math.max(0, ageMs);
  return RECENCY_FAST_SHARE * 2 ** (-age / RECENCY_FAST_HALF_LIFE_MS) + (1 - RECENCY_FAST_SHARE) * 2 ** (-age / RECENCY_SLOW_HALF_LIFE_MS);
}

/**
 * What a change's standing and size still say after it ran `ageMs` without trouble, in
 * SETTLED_FLOOR..1: whole through the first hour (when most incidents a change causes begin), then
 * fading: being the running code, and being big, say less after half a day of uneventful traffic.
 */
export function settledTerm(ageMs: number): number {
  const settledMs = Math.max(0, ageMs - SETTLED_AFTER_MS);
  return SETTLED_FLOOR + (1 - SETTLED_FLOOR) * 2 ** (-settledMs / SETTLED_HALF_LIFE_MS);
}

/** Change-size term in 0..1, log-scaled; CHANGE_SIZE_UNKNOWN when the count is unknown. */
export function changeSizeTerm(commitCount: number | null): number {
  if (commitCount === null || !Number.isFinite(commitCount)) return CHANGE_SIZE_UNKNOWN;
  const commits = Math.max(0, commitCount);
  return Math.min(1, Math.log2(1 + commits) / Math.log2(1 + CHANGE_SIZE_SATURATION_COMMITS));
}

/** The relation gate for a service `hops` upstream of the incident's (1: a direct dependency). */
export function dependencyFactor(hops: number): number {
  return OTHER_SERVICE_FACTOR + (DIRECT_DEPENDENCY_FACTOR - OTHER_SERVICE_FACTOR) * DEPENDENCY_HOP_DECAY ** (hops - 1);
}

/** The length of the windows a deploy's health is compared over: the hour after it, cut at the incident's start. */
export function healthWindowMs(deployedAt: Date, incidentStart: Date): number {
  return Math.max(0, Math.min(HEALTH_WINDOW_MS, incidentStart.getTime() - deployedAt.getTime()));
}

/**
 * A window's trouble: its alerts, or its incidents where they outnumber them (a service that
 * alerts through no integration still has incidents). Both count the same trouble, so the larger
 * stands for it rather than their sum.
 */
function troublesIn(counts: HealthCounts): { what: 'alerts' | 'incidents'; count: number } {
  return counts.incidents > counts.alerts ? { what: 'incidents', count: counts.incidents } : { what: 'alerts', count: counts.alerts };
}

/** How much more trouble the window after a deploy had than the one before; 0 when not more. */
export function troubleRise(health: DeployHealth): number {
  return Math.max(0, troublesIn(health.after).count - troublesIn(health.before).count);
}

/** The evidence that trouble after a deploy adds: HEALTH_WEIGHT / 2 for one more, approaching HEALTH_WEIGHT. */
export function troubleTerm(rise: number): number {
  return rise <= 0 ? 0 : HEALTH_WEIGHT * (1 - 2 ** -rise);
}

interface Scored {
  type: 'deploy' | 'change';
  id: string;
  at: Date;
  score: number;
  /** The highest score trouble after it could give it (its score when it cannot have any: a change event). */
  ceiling: number;
  reasons: SuspectReason[];
  effects: number[];
}

/** Best first; equal scores go to the later change, then deploys before change events, then by id. */
function bestFirst(a: Scored, b: Scored): number {
  return (
    b.score - a.score || b.at.getTime() - a.at.getTime() || (a.type === b.type ? 0 : a.type === 'deploy' ? -1 : 1) || compareIds(a.id, b.id)
  );
}

export function rankSuspects(input: SuspectInput, options: Partial<RankingOptions> = {}): RankedSuspect[] {
  const scored = scoreCandidates(input, options.lookbackMs ?? DEFAULT_LOOKBACK_MS).sort(bestFirst);
  const kept = scored.slice(0, options.maxSuspects ?? MAX_SUSPECTS);
  return kept.map((s, i) => ({ type: s.type, id: s.id, rank: i + 1, score: s.score, reasons: s.reasons, effects: s.effects }));
}

/**
 * The deploys whose health is worth reading before ranking, at most `limit`: those trouble after
 * them could lift to the `keep`-th best score or above (ranked without health, its ceiling is the
 * score with the whole HEALTH_WEIGHT; any other stays below every one kept), and the `named`
 * first, since they are kept whatever their place. So a busy day's ranking reads a bounded few.
 */
export function deploysWorthHealth(input: SuspectInput, options: { lookbackMs: number; keep: number; limit: number }): string[] {
  const scored = scoreCandidates({ ...input, health: undefined }, options.lookbackMs).sort(bestFirst);
  const cut = scored[options.keep - 1]?.score ?? Number.NEGATIVE_INFINITY;
  const named = new Set(input.named ?? []);
  return scored
    .filter((s) => s.type === 'deploy' && (named.has(s.id) || s.ceiling >= cut))
    .sort((a, b) => Number(named.has(b.id)) - Number(named.has(a.id)) || b.ceiling - a.ceiling || bestFirst(a, b))
    .slice(0, options.limit)
    .map((s) => s.id);
}

function scoreCandidates(input: SuspectInput, lookbackMs: number): Scored[] {
  if (!Number.isFinite(lookbackMs) || lookbackMs < 0) {
    throw new RangeError(`lookbackMs must be a finite number ≥ 0, got ${lookbackMs}`);
  }
  const { incident } = input;
  const start = incident.startedAt.getTime();
  if (Number.isNaN(start)) throw new RangeError('incident.startedAt is not a valid date');
  const named = new Set(input.named ?? []);
  const beforeWindow = (at: Date) => at.getTime() < start - lookbackMs;
  const isCandidate = (subject: { id: string }, at: Date) => at.getTime() <= start && (named.has(subject.id) || !beforeWindow(at));

  const deploys = input.deploys.filter((d) => isCandidate(d, d.deployedAt));
  // Only what happened up to the start tells rollbacks apart: a rollback after it is not known yet.
  const known = [...(input.history ?? []), ...deploys].filter((d) => d.deployedAt.getTime() <= start);
  const rollbacks = detectRollbacks(known);
  const knownById = new Map(known.map((d) => [d.id, d]));

  // The last deploy per service+environment, rollbacks aside: the change running when it began.
  const lastByTarget = new Map<string, CandidateDeploy>();
  for (const d of [...deploys].sort((a, b) => a.deployedAt.getTime() - b.deployedAt.getTime() || compareIds(a.id, b.id))) {
    if (!rollbacks.restores.has(d.id)) lastByTarget.set(targetKey(d), d);
  }

  const aliases = input.environmentAliases ?? new Map<string, string>();
  const incidentEnvironment = incident.environment === null ? null : canonicalEnvironment(incident.environment, aliases);
  const affected = new Set([incident.serviceId, ...(incident.alsoAffectedServiceIds ?? [])]);
  // The union of the affected services' dependency graphs, each service at its nearest hop.
  const upstream = new Map<string, number>();
  for (const service of affected) {
    for (const [id, hops] of upstreamDistances(input.dependencies ?? [], service)) {
      if (!affected.has(id) && !(upstream.get(id)! <= hops)) upstream.set(id, hops);
    }
  }
  const dependent = affected.size > 1 ? 'an affected service' : "the incident's service";
  const tallies = new Map((input.verdicts ?? []).map((t) => [priorKey(t.serviceId, t.kind), t]));

  /** The gates of a suspect: each reason with the factor it multiplies the score by. */
  const gates = (subject: { serviceId: string; serviceName: string; environment: string | null }, kind: string) => {
    const terms: Term[] = [];
    const hops = upstream.get(subject.serviceId);
    if (affected.has(subject.serviceId)) {
      const which = subject.serviceId === incident.serviceId ? 'same service' : 'affected service';
      terms.push({ code: 'same_service', detail: `${which} (${subject.serviceName})`, factor: SAME_SERVICE_FACTOR });
    } else if (hops !== undefined) {
      const how = hops === 1 ? 'directly' : `through ${hops - 1} other service${hops === 2 ? '' : 's'}`;
      terms.push({
        code: 'upstream_dependency',
        detail: `${dependent} depends on ${subject.serviceName} ${how}`,
        factor: dependencyFactor(hops),
      });
    } else {
      terms.push({
        code: 'other_service',
        detail: `other service (${subject.serviceName}) of the organization`,
        factor: OTHER_SERVICE_FACTOR,
      });
    }

    if (incident.environment !== null) {
      const environment = subject.environment === null ? null : canonicalEnvironment(subject.environment, aliases);
      if (environment === incidentEnvironment) {
        const named =
          subject.environment === incident.environment ? subject.environment : `${subject.environment} = ${incident.environment}`;
        terms.push({ code: 'environment_match', detail: `same environment (${named})`, factor: ENVIRONMENT_MATCH_FACTOR });
      } else if (subject.environment === null) {
        terms.push({
          code: 'environment_unknown',
          detail: `environment unknown; incident in ${incident.environment}`,
          factor: ENVIRONMENT_UNKNOWN_FACTOR,
        });
      } else {
        terms.push({
          code: 'environment_mismatch',
          detail: `environment ${subject.environment} ≠ ${incident.environment}`,
          factor: ENVIRONMENT_MISMATCH_FACTOR,
        });
      }
    }
    return { terms, tally: tallies.get(priorKey(subject.serviceId, kind)) };
  };

  /**
   * The record's terms, listed last: the prior's factor, and the share of the size term the record
   * took over (riskTerm), both undone when the reason is left out.
   */
  const priorTerm = (
    subject: { serviceName: string },
    kind: string,
    tally: VerdictTally | undefined,
    sizeWeight: number,
    size: number,
  ): Term | undefined => {
    const prior = priorFactor(tally);
    if (!tally || prior === 1) return undefined;
    const what = kind === DEPLOY_KIND ? 'deploys' : `${kind} changes`;
    return {
      code: 'prior',
      detail: `past verdicts on ${subject.serviceName} ${what}: ${tally.caused} caused, ${tally.dismissed} dismissed (score × ${prior.toFixed(2)})`,
      factor: prior,
      evidence: sizeWeight * (riskTerm(size, tally) - size),
    };
  };

  const scored: Scored[] = [];
  for (const deploy of deploys) {
    if (rollbacks.restores.has(deploy.id)) continue; // a rollback restores a state that ran before
    const { terms, tally } = gates(deploy, DEPLOY_KIND);
    // A staged rollout counts from its latest stage reached by the start: each stage sends the
    // change to more traffic, and the errors follow the traffic.
    const stages = (deploy.rolloutStages ?? []).filter((stage) => stage.at.getTime() <= start);
    const stage = stages.reduce<RolloutStage | undefined>((latest, next) => (!latest || next.at > latest.at ? next : latest), undefined);
    const firstAgeMs = start - deploy.deployedAt.getTime();
    const ageMs = start - Math.max(deploy.deployedAt.getTime(), stage?.at.getTime() ?? 0);
    const settled = settledTerm(ageMs);
    const health = input.health?.get(deploy.id);
    const rise = health ? troubleRise(health) : 0;
    terms.push({
      ...recencyReason('deployed', firstAgeMs, beforeWindow(deploy.deployedAt) ? lookbackMs : null, rise > 0),
      evidence: RECENCY_WEIGHT * recencyTerm(firstAgeMs),
    });
    if (stage) {
      const when =
        stage.at.getTime() === start
          ? 'at the moment the incident started'
          : `${formatDuration(start - stage.at.getTime())} before the incident`;
      const detail =
        stages.length > 1
          ? `rolled out in ${stages.length} stages, to ${stage.percentage} % ${when}: recency counts from there`
          : `at ${stage.percentage} % of traffic when the incident started`;
      terms.push({ code: 'rollout', detail, evidence: RECENCY_WEIGHT * (recencyTerm(ageMs) - recencyTerm(firstAgeMs)) });
    }

    const isLast = lastByTarget.get(targetKey(deploy)) === deploy;
    const rollbackId = rollbacks.rolledBackBy.get(deploy.id);
    const rollback = rollbackId === undefined ? undefined : knownById.get(rollbackId);
    // Rolled back, it is not what ran at the start: its standing comes from having been undone.
    if (isLast && !rollback) {
      const where = deploy.environment === null ? ' (no environment)' : ` to ${deploy.environment}`;
      terms.push({
        code: 'last_before_incident',
        detail: `last deploy of ${deploy.serviceName}${where} before the incident`,
        evidence: STANDING_WEIGHT * settled,
      });
    }
    if (rollback) {
      terms.push({
        code: 'rolled_back',
        detail: `rolled back by the deploy of ${shortSha(rollback.commitSha)} at ${rollback.deployedAt.toISOString()}`,
        evidence: STANDING_WEIGHT * settled,
      });
    }

    const size = changeSizeTerm(deploy.commitCount);
    terms.push({ code: 'change_size', detail: describeChangeSize(deploy.commitCount), evidence: CHANGE_SIZE_WEIGHT * settled * size });

    const redeployOf = rollbacks.redeployOf.get(deploy.id);
    if (redeployOf !== undefined) {
      const original = knownById.get(redeployOf)!;
      const what = original.commitSha === deploy.commitSha ? shortSha(deploy.commitSha) : `version ${deploy.version}`;
      terms.push({
        code: 'redeploy',
        detail: `redeploy of ${what}, already deployed right before at ${original.deployedAt.toISOString()}`,
        evidence: -REDEPLOY_PENALTY,
      });
    }
    if (health && rise > 0) {
      terms.push({
        code: 'trouble_after',
        detail: describeTrouble(deploy.serviceName, health, healthWindowMs(deploy.deployedAt, incident.startedAt)),
        evidence: troubleTerm(rise),
      });
    }
    const prior = priorTerm(deploy, DEPLOY_KIND, tally, CHANGE_SIZE_WEIGHT * settled, size);
    if (prior) terms.push(prior);
    const untroubled = terms.filter((term) => term.code !== 'trouble_after');
    const ceiling = round(scoreFrom([...untroubled, { code: 'trouble_after', detail: '', evidence: HEALTH_WEIGHT }]), SCORE_DECIMALS);
    scored.push({ type: 'deploy', id: deploy.id, at: deploy.deployedAt, ceiling, ...scoreOf(terms) });
  }

  const changes = (input.changes ?? []).filter((c) => isCandidate(c, c.changedAt));
  // As for rollbacks, only what happened up to the start: all candidates are.
  const reverts = detectReverts(
    changes.map((c) => ({ ...c, subject: c.subject ?? null, previous: c.previous ?? null, value: c.value ?? null })),
  );
  const changesById = new Map(changes.map((c) => [c.id, c]));
  for (const change of changes) {
    if (reverts.reverts.has(change.id)) continue; // a revert brings back a state that ran before
    const { terms, tally } = gates(change, change.kind);
    const ageMs = start - change.changedAt.getTime();
    const settled = settledTerm(ageMs);
    const size = changeSizeTerm(CHANGE_EVENT_COMMITS);
    terms.push({
      ...recencyReason('changed', ageMs, beforeWindow(change.changedAt) ? lookbackMs : null),
      evidence: RECENCY_WEIGHT * recencyTerm(ageMs),
    });
    terms.push({
      code: 'change_event',
      detail: `${describeChange(change)}, live at once: ${truncate(change.summary, 80)}`,
      evidence: settled * (STANDING_WEIGHT + CHANGE_SIZE_WEIGHT * size),
    });
    const revert = changesById.get(reverts.revertedBy.get(change.id) ?? '');
    if (revert) {
      // Undone for a reason, like a rolled-back deploy: it keeps its suspicion.
      terms.push({
        code: 'reverted',
        detail: `${revert.subject} set back to ${truncate(revert.value!, 40)} at ${revert.changedAt.toISOString()}`,
      });
    }
    if (reverts.unchanged.has(change.id)) {
      terms.push({
        code: 'no_change',
        detail: `${change.subject} already was ${truncate(change.value!, 40)}: nothing changed`,
        evidence: -REDEPLOY_PENALTY,
      });
    }
    const prior = priorTerm(change, change.kind, tally, CHANGE_SIZE_WEIGHT * settled, size);
    if (prior) terms.push(prior);
    const result = scoreOf(terms);
    scored.push({ type: 'change', id: change.id, at: change.changedAt, ceiling: result.score, ...result });
  }
  return scored;
}

/** A reason with its part of the score: a gate's factor, or what it adds to (or takes from) the evidence. */
interface Term extends SuspectReason {
  factor?: number;
  evidence?: number;
}

function scoreFrom(terms: readonly Term[]): number {
  const factor = terms.reduce((product, term) => product * (term.factor ?? 1), 1);
  return factor * clamp01(terms.reduce((sum, term) => sum + (term.evidence ?? 0), 0));
}

/**
 * The score, the reasons, and each reason's effect: the score minus what it would be without that
 * reason (its factor at 1, its evidence left out). The reason whose effect is largest either way
 * is the one that decided the score.
 */
function scoreOf(terms: readonly Term[]): Pick<Scored, 'score' | 'reasons' | 'effects'> {
  const score = scoreFrom(terms);
  return {
    score: round(score, SCORE_DECIMALS),
    reasons: terms.map(({ code, detail }) => ({ code, detail })),
    effects: terms.map((term) => round(score - scoreFrom(terms.filter((other) => other !== term)), SCORE_DECIMALS) + 0),
  };
}

/**
 * `beforeWindowOf`: the look-back window a suspect named by a person is older than, else null;
 * `troubled`: its service alerted more after it (it did not run without trouble).
 */
function recencyReason(verb: 'deployed' | 'changed', ageMs: number, beforeWindowOf: number | null, troubled = false): SuspectReason {
  if (ageMs === 0) return { code: 'recency', detail: `${verb} at the moment the incident started` };
  const age = formatDuration(ageMs);
  if (beforeWindowOf !== null) {
    return {
      code: 'recency',
      detail: `${verb} ${age} before the incident, before its ${formatDuration(beforeWindowOf)} look-back: a person named it`,
    };
  }
  if (ageMs < HOUR_MS) {
    return { code: 'recency', detail: `${verb} ${age} before the incident, within the hour in which most incidents a change causes begin` };
  }
  if (troubled) return { code: 'recency', detail: `${verb} ${age} before the incident` };
  return { code: 'recency', detail: `${verb} ${age} before the incident: it ran ${age} without trouble first` };
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function shortSha(sha: string): string {
  return /^[0-9a-f]{8,}$/i.test(sha) ? sha.slice(0, 7) : sha;
}

/** "feature_flag change", or with its subject "feature_flag new-checkout: false → true". */
function describeChange(change: CandidateChange): string {
  if (!change.subject) return `${change.kind} change`;
  const values = change.value == null ? '' : `: ${truncate(change.previous ?? '?', 40)} → ${truncate(change.value, 40)}`;
  return `${change.kind} ${truncate(change.subject, 60)}${values}`;
}

/**
 * "alerts on checkout rose after it: 0 → 4 in the hour", or over the minutes left before the
 * incident; the counts are the ones troubleRise scored, so where each window's trouble was of
 * another kind, both are named: "trouble on checkout rose after it: 3 incidents → 4 alerts".
 */
function describeTrouble(serviceName: string, health: DeployHealth, windowMs: number): string {
  const before = troublesIn(health.before);
  const after = troublesIn(health.after);
  const window = formatDuration(windowMs);
  const within = windowMs >= HEALTH_WINDOW_MS ? 'in the hour' : `in the ${window} up to the incident, against the ${window} before it`;
  if (before.count === 0 || before.what === after.what) {
    return `${after.what} on ${serviceName} rose after it: ${before.count} → ${after.count} ${within}`;
  }
  const counted = ({ what, count }: typeof before) => `${count} ${count === 1 ? what.slice(0, -1) : what}`;
  return `trouble on ${serviceName} rose after it: ${counted(before)} → ${counted(after)} ${within}`;
}

function describeChangeSize(commitCount: number | null): string {
  if (commitCount === null) return 'change size unknown (no commits sent)';
  if (commitCount <= 0) return 'no new commits since the previous deploy';
  if (commitCount === 1) return '1 commit since the previous deploy';
  return `${commitCount} commits since the previous deploy`;
}

/** "40 s", "14 min", "2 h", "2 h 5 min" (minutes rounded down). */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
