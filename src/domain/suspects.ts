// Suspects of an incident: which recent deploys and other changes (feature-flag flips, config
// changes) may have caused it, each with a score in 0..1 and the reasons behind it. Pure: plain
// inputs, plain outputs, no database (a loader gathers the inputs).
//
//   score = round3( relation × environment × prior × clamp01(evidence) )
//
//   relation    = 1 for the incident's service;
//                 for a service it depends on, h hops upstream:
//                   OTHER_SERVICE_FACTOR + (DIRECT_DEPENDENCY_FACTOR − OTHER_SERVICE_FACTOR) × DEPENDENCY_HOP_DECAY^(h−1)
//                   (0.7 direct, 0.5 at two hops, 0.4 at three, approaching 0.3);
//                 OTHER_SERVICE_FACTOR (0.3) for any other service of the organization;
//   environment = 1 when the incident has no environment or the change's equals it,
//                 ENVIRONMENT_UNKNOWN_FACTOR (0.6) when the change has none,
//                 ENVIRONMENT_MISMATCH_FACTOR (0.15) when they differ;
//   prior       = 1 ± up to PRIOR_MAX_EFFECT (0.1) from past verdicts on this service's changes
//                 of this kind (see priors.ts);
//   evidence    = RECENCY_WEIGHT (0.5) × recency(age)
//               + STANDING_WEIGHT (0.25) × [deploy: last deploy of its service+environment before the
//                                           incident, rollbacks aside, or rolled back since;
//                                           change event: always, it is live the moment it is made]
//               + CHANGE_SIZE_WEIGHT (0.25) × size (log-scaled commit count; CHANGE_SIZE_UNKNOWN (0.5)
//                                           when no commits were sent, and for change events)
//               − REDEPLOY_PENALTY (0.5) × [redeploy of the commit or version deployed right before]
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
// of what ran right before changes nothing. Past verdicts nudge, they never decide.
//
// Candidates: deploys and change events in [startedAt − lookback, startedAt]; a change after
// the start cannot have caused the incident, one exactly at the start can.
import { upstreamDistances, type DependencyEdge } from './dependencies.ts';
import { DEPLOY_KIND, priorFactor, priorKey, type VerdictTally } from './priors.ts';
import { detectRollbacks, targetKey, type DeployVersion } from './rollbacks.ts';

export interface CandidateDeploy extends DeployVersion {
  serviceName: string;
  /** Commits the pipeline sent with the deploy; null when it sent none (size unknown). */
  commitCount: number | null;
}

export interface CandidateChange {
  id: string;
  serviceId: string;
  serviceName: string;
  environment: string | null;
  kind: string;
  summary: string;
  changedAt: Date;
}

export interface IncidentFacts {
  serviceId: string;
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
  | 'prior';

export interface SuspectReason {
  code: SuspectReasonCode;
  detail: string;
}

export interface RankedSuspect {
  type: 'deploy' | 'change';
  /** The deploy's or the change event's id. */
  id: string;
  rank: number;
  score: number;
  reasons: SuspectReason[];
}

export interface RankingOptions {
  /** How far before the incident start changes are considered, in ms (default 24 h). */
  lookbackMs: number;
  /** How many of the best are kept (default MAX_SUSPECTS). */
  maxSuspects: number;
}

export const MAX_SUSPECTS = 20;
/** Relation, environment, recency, last deploy, rolled back, size, redeploy and prior at most. */
export const MAX_REASONS_PER_SUSPECT = 8;

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
export const REDEPLOY_PENALTY = 0.5;

export const SCORE_DECIMALS = 3;

const HOUR_MS = 60 * 60 * 1000;

/** Recency term in 0..1: 1 at the incident start, mostly gone after an hour, with a thin tail. */
export function recencyTerm(ageMs: number): number {
  const age = Math.max(0, ageMs);
  return (
    RECENCY_FAST_SHARE * Math.pow(2, -age / RECENCY_FAST_HALF_LIFE_MS) +
    (1 - RECENCY_FAST_SHARE) * Math.pow(2, -age / RECENCY_SLOW_HALF_LIFE_MS)
  );
}

/** Change-size term in 0..1, log-scaled; CHANGE_SIZE_UNKNOWN when the count is unknown. */
export function changeSizeTerm(commitCount: number | null): number {
  if (commitCount === null || !Number.isFinite(commitCount)) return CHANGE_SIZE_UNKNOWN;
  const commits = Math.max(0, commitCount);
  return Math.min(1, Math.log2(1 + commits) / Math.log2(1 + CHANGE_SIZE_SATURATION_COMMITS));
}

/** The relation gate for a service `hops` upstream of the incident's (1: a direct dependency). */
export function dependencyFactor(hops: number): number {
  return OTHER_SERVICE_FACTOR + (DIRECT_DEPENDENCY_FACTOR - OTHER_SERVICE_FACTOR) * Math.pow(DEPENDENCY_HOP_DECAY, hops - 1);
}

interface Scored {
  type: 'deploy' | 'change';
  id: string;
  at: Date;
  score: number;
  reasons: SuspectReason[];
}

export function rankSuspects(input: SuspectInput, options: Partial<RankingOptions> = {}): RankedSuspect[] {
  const lookbackMs = options.lookbackMs ?? DEFAULT_LOOKBACK_MS;
  if (!Number.isFinite(lookbackMs) || lookbackMs < 0) {
    throw new RangeError(`lookbackMs must be a finite number ≥ 0, got ${lookbackMs}`);
  }
  const { incident } = input;
  const start = incident.startedAt.getTime();
  if (Number.isNaN(start)) throw new RangeError('incident.startedAt is not a valid date');
  const inWindow = (at: Date) => at.getTime() >= start - lookbackMs && at.getTime() <= start;

  const deploys = input.deploys.filter((d) => inWindow(d.deployedAt));
  // Only what happened up to the start tells rollbacks apart: a rollback after it is not known yet.
  const known = [...(input.history ?? []), ...deploys].filter((d) => d.deployedAt.getTime() <= start);
  const rollbacks = detectRollbacks(known);
  const knownById = new Map(known.map((d) => [d.id, d]));

  // The last deploy per service+environment, rollbacks aside: the change running when it began.
  const lastByTarget = new Map<string, CandidateDeploy>();
  for (const d of [...deploys].sort((a, b) => a.deployedAt.getTime() - b.deployedAt.getTime() || compareIds(a.id, b.id))) {
    if (!rollbacks.restores.has(d.id)) lastByTarget.set(targetKey(d), d);
  }

  const upstream = upstreamDistances(input.dependencies ?? [], incident.serviceId);
  const tallies = new Map((input.verdicts ?? []).map((t) => [priorKey(t.serviceId, t.kind), t]));

  const gates = (subject: { serviceId: string; serviceName: string; environment: string | null }, kind: string) => {
    const reasons: SuspectReason[] = [];
    let factor: number;
    const hops = upstream.get(subject.serviceId);
    if (subject.serviceId === incident.serviceId) {
      factor = SAME_SERVICE_FACTOR;
      reasons.push({ code: 'same_service', detail: `same service (${subject.serviceName})` });
    } else if (hops !== undefined) {
      factor = dependencyFactor(hops);
      const how = hops === 1 ? 'directly' : `through ${hops - 1} other service${hops === 2 ? '' : 's'}`;
      reasons.push({ code: 'upstream_dependency', detail: `the incident's service depends on ${subject.serviceName} ${how}` });
    } else {
      factor = OTHER_SERVICE_FACTOR;
      reasons.push({ code: 'other_service', detail: `other service (${subject.serviceName}) of the organization` });
    }

    if (incident.environment !== null) {
      if (subject.environment === incident.environment) {
        reasons.push({ code: 'environment_match', detail: `same environment (${subject.environment})` });
      } else if (subject.environment === null) {
        factor *= ENVIRONMENT_UNKNOWN_FACTOR;
        reasons.push({ code: 'environment_unknown', detail: `environment unknown; incident in ${incident.environment}` });
      } else {
        factor *= ENVIRONMENT_MISMATCH_FACTOR;
        reasons.push({ code: 'environment_mismatch', detail: `environment ${subject.environment} ≠ ${incident.environment}` });
      }
    }

    // Listed last, after the evidence, since it only nudges.
    const tally = tallies.get(priorKey(subject.serviceId, kind));
    const prior = priorFactor(tally);
    const what = kind === DEPLOY_KIND ? 'deploys' : `${kind} changes`;
    const priorReason: SuspectReason | undefined =
      tally && prior !== 1
        ? {
            code: 'prior',
            detail: `past verdicts on ${subject.serviceName} ${what}: ${tally.caused} caused, ${tally.dismissed} dismissed (score × ${prior.toFixed(2)})`,
          }
        : undefined;
    return { factor: factor * prior, reasons, priorReason };
  };

  const scored: Scored[] = [];
  for (const deploy of deploys) {
    if (rollbacks.restores.has(deploy.id)) continue; // a rollback restores a state that ran before
    const { factor, reasons, priorReason } = gates(deploy, DEPLOY_KIND);
    const ageMs = start - deploy.deployedAt.getTime();
    let evidence = RECENCY_WEIGHT * recencyTerm(ageMs);
    reasons.push(recencyReason('deployed', ageMs));

    const isLast = lastByTarget.get(targetKey(deploy)) === deploy;
    const rollbackId = rollbacks.rolledBackBy.get(deploy.id);
    const rollback = rollbackId === undefined ? undefined : knownById.get(rollbackId);
    if (isLast || rollback) evidence += STANDING_WEIGHT;
    // Rolled back, it is not what ran at the start: its standing comes from having been undone.
    if (isLast && !rollback) {
      const where = deploy.environment === null ? ' (no environment)' : ` to ${deploy.environment}`;
      reasons.push({ code: 'last_before_incident', detail: `last deploy of ${deploy.serviceName}${where} before the incident` });
    }
    if (rollback) {
      reasons.push({
        code: 'rolled_back',
        detail: `rolled back by the deploy of ${shortSha(rollback.commitSha)} at ${rollback.deployedAt.toISOString()}`,
      });
    }

    evidence += CHANGE_SIZE_WEIGHT * changeSizeTerm(deploy.commitCount);
    reasons.push({ code: 'change_size', detail: describeChangeSize(deploy.commitCount) });

    const redeployOf = rollbacks.redeployOf.get(deploy.id);
    if (redeployOf !== undefined) {
      evidence -= REDEPLOY_PENALTY;
      const original = knownById.get(redeployOf)!;
      const what = original.commitSha === deploy.commitSha ? shortSha(deploy.commitSha) : `version ${deploy.version}`;
      reasons.push({ code: 'redeploy', detail: `redeploy of ${what}, already deployed right before at ${original.deployedAt.toISOString()}` });
    }
    if (priorReason) reasons.push(priorReason);

    scored.push({ type: 'deploy', id: deploy.id, at: deploy.deployedAt, score: round(factor * clamp01(evidence), SCORE_DECIMALS), reasons });
  }

  for (const change of (input.changes ?? []).filter((c) => inWindow(c.changedAt))) {
    const { factor, reasons, priorReason } = gates(change, change.kind);
    const ageMs = start - change.changedAt.getTime();
    reasons.push(recencyReason('changed', ageMs));
    reasons.push({ code: 'change_event', detail: `${change.kind} change, live at once: ${truncate(change.summary, 80)}` });
    if (priorReason) reasons.push(priorReason);
    const evidence = RECENCY_WEIGHT * recencyTerm(ageMs) + STANDING_WEIGHT + CHANGE_SIZE_WEIGHT * CHANGE_SIZE_UNKNOWN;
    scored.push({ type: 'change', id: change.id, at: change.changedAt, score: round(factor * clamp01(evidence), SCORE_DECIMALS), reasons });
  }

  scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.at.getTime() - a.at.getTime() ||
      (a.type === b.type ? 0 : a.type === 'deploy' ? -1 : 1) ||
      compareIds(a.id, b.id),
  );

  const kept = scored.slice(0, options.maxSuspects ?? MAX_SUSPECTS);
  return kept.map((s, i) => ({ type: s.type, id: s.id, rank: i + 1, score: s.score, reasons: s.reasons }));
}

function recencyReason(verb: 'deployed' | 'changed', ageMs: number): SuspectReason {
  if (ageMs === 0) return { code: 'recency', detail: `${verb} at the moment the incident started` };
  const age = formatDuration(ageMs);
  if (ageMs < HOUR_MS) {
    return { code: 'recency', detail: `${verb} ${age} before the incident, within the hour in which most incidents a change causes begin` };
  }
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
