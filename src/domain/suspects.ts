// Suspect deploys for an incident: which recent deploys may have caused it, with a score in
// 0..1 and the reasons behind it. Pure: plain inputs, plain outputs, no database.
//
//   score = round3( service × environment × clamp01(evidence) )
//
//   service     = 1 for the incident's service, OTHER_SERVICE_FACTOR (0.35) for another
//                 service of the organization (shared databases, upstream APIs: possible, but
//                 clearly less likely than a change to the broken service itself);
//   environment = 1 when the incident has no environment or the deploy's equals it,
//                 ENVIRONMENT_UNKNOWN_FACTOR (0.6) when the deploy has none,
//                 ENVIRONMENT_MISMATCH_FACTOR (0.15) when they differ (a staging deploy rarely
//                 breaks production);
//   evidence    = RECENCY_WEIGHT (0.5)  × 2^(−age / RECENCY_HALF_LIFE_MS (90 min))
//               + LAST_DEPLOY_WEIGHT (0.25) × [last deploy of its service+environment before the incident]
//               + CHANGE_SIZE_WEIGHT (0.25) × min(1, log2(1 + commits) / log2(1 + CHANGE_SIZE_SATURATION_COMMITS (50)))
//                                            (CHANGE_SIZE_UNKNOWN (0.5) when the pipeline sent no commits)
//               − REDEPLOY_PENALTY (0.5)  × [same commit or version already deployed earlier to the
//                                            same service+environment among the candidates]
//
// Why: service and environment decide whether a deploy *could* plausibly reach the broken
// system, so they gate (multiply) everything else; a staging deploy stays low however recent.
// The rest are independent pieces of evidence that add up (weights sum to 1, so the score
// stays in 0..1): changes that landed just before an incident are the usual culprits
// (exponential decay, as in Datadog's and incident.io's change correlation), the last deploy
// is the code actually running when the incident began, and bigger changes carry more risk
// (log-scaled: 40 commits are riskier than 4, but not ten times). A redeploy or rollback of a
// commit already deployed usually restores a known state, so it is pushed down.
// Candidates: deploys with deployedAt in [startedAt − lookback, startedAt]; a deploy after the
// start cannot have caused the incident, one exactly at the start can. Only the MAX_SUSPECTS best
// are kept: past the first few the scores say little, and a busy organization can have a thousand
// candidates in a day, which every reader of the incident would otherwise load.

export interface CandidateDeploy {
  id: string;
  serviceId: string;
  serviceName: string;
  environment: string | null;
  commitSha: string;
  version: string | null;
  deployedAt: Date;
  /** Commits the pipeline sent with the deploy; null when it sent none (size unknown). */
  commitCount: number | null;
}

export interface IncidentFacts {
  serviceId: string;
  environment: string | null;
  startedAt: Date;
}

export type SuspectReasonCode =
  | 'same_service'
  | 'other_service'
  | 'environment_match'
  | 'environment_unknown'
  | 'environment_mismatch'
  | 'recency'
  | 'last_before_incident'
  | 'change_size'
  | 'redeploy';

export interface SuspectReason {
  code: SuspectReasonCode;
  detail: string;
}

export interface RankedSuspect {
  deployId: string;
  rank: number;
  score: number;
  reasons: SuspectReason[];
}

export interface RankingOptions {
  /** How far before the incident start deploys are considered, in ms (default 24 h). */
  lookbackMs: number;
  /** How many of the best are kept (default MAX_SUSPECTS). */
  maxSuspects: number;
}

export const MAX_SUSPECTS = 20;
/** One of service, environment, recency, last deploy, change size and redeploy at most. */
export const MAX_REASONS_PER_SUSPECT = 6;

export const DEFAULT_LOOKBACK_MS = 24 * 60 * 60 * 1000;

// Gates (multiplied).
export const SAME_SERVICE_FACTOR = 1;
export const OTHER_SERVICE_FACTOR = 0.35;
export const ENVIRONMENT_MATCH_FACTOR = 1;
export const ENVIRONMENT_UNKNOWN_FACTOR = 0.6;
export const ENVIRONMENT_MISMATCH_FACTOR = 0.15;

// Evidence (added; the positive weights sum to 1).
export const RECENCY_WEIGHT = 0.5;
export const RECENCY_HALF_LIFE_MS = 90 * 60 * 1000;
export const LAST_DEPLOY_WEIGHT = 0.25;
export const CHANGE_SIZE_WEIGHT = 0.25;
/** Commit count at which the size term saturates at 1. */
export const CHANGE_SIZE_SATURATION_COMMITS = 50;
/** Size term when the pipeline sent no commits: neutral, about what 6 commits give. */
export const CHANGE_SIZE_UNKNOWN = 0.5;
export const REDEPLOY_PENALTY = 0.5;

export const SCORE_DECIMALS = 3;

/** Recency term in 0..1: 1 at the incident start, halved every RECENCY_HALF_LIFE_MS. */
export function recencyTerm(ageMs: number): number {
  return Math.pow(2, -Math.max(0, ageMs) / RECENCY_HALF_LIFE_MS);
}

/** Change-size term in 0..1, log-scaled; CHANGE_SIZE_UNKNOWN when the count is unknown. */
export function changeSizeTerm(commitCount: number | null): number {
  if (commitCount === null || !Number.isFinite(commitCount)) return CHANGE_SIZE_UNKNOWN;
  const commits = Math.max(0, commitCount);
  return Math.min(1, Math.log2(1 + commits) / Math.log2(1 + CHANGE_SIZE_SATURATION_COMMITS));
}

export function rankSuspects(
  incident: IncidentFacts,
  deploys: CandidateDeploy[],
  options: Partial<RankingOptions> = {},
): RankedSuspect[] {
  const lookbackMs = options.lookbackMs ?? DEFAULT_LOOKBACK_MS;
  if (!Number.isFinite(lookbackMs) || lookbackMs < 0) {
    throw new RangeError(`lookbackMs must be a finite number ≥ 0, got ${lookbackMs}`);
  }
  const start = incident.startedAt.getTime();
  if (Number.isNaN(start)) throw new RangeError('incident.startedAt is not a valid date');

  const candidates = deploys
    .filter((d) => {
      const t = d.deployedAt.getTime();
      return t >= start - lookbackMs && t <= start;
    })
    // Oldest first (id breaks ties) so "earlier" is well defined for redeploys.
    .sort((a, b) => a.deployedAt.getTime() - b.deployedAt.getTime() || compareIds(a.id, b.id));

  // Last candidate per service+environment: the code running there when the incident began.
  // And, per service+environment, the first deploy of each commit and version, for redeploys.
  const lastByTarget = new Map<string, CandidateDeploy>();
  const originals = new Map<CandidateDeploy, { original: CandidateDeploy; bySha: boolean }>();
  const firstSeen = new Map<string, { bySha: Map<string, CandidateDeploy>; byVersion: Map<string, CandidateDeploy> }>();
  for (const d of candidates) {
    const key = targetKey(d);
    lastByTarget.set(key, d);
    let seen = firstSeen.get(key);
    if (!seen) firstSeen.set(key, (seen = { bySha: new Map(), byVersion: new Map() }));
    const sameSha = seen.bySha.get(d.commitSha);
    const sameVersion = d.version === null ? undefined : seen.byVersion.get(d.version);
    if (sameSha) originals.set(d, { original: sameSha, bySha: true });
    else if (sameVersion) originals.set(d, { original: sameVersion, bySha: false });
    if (!sameSha) seen.bySha.set(d.commitSha, d);
    if (d.version !== null && !sameVersion) seen.byVersion.set(d.version, d);
  }

  const scored = candidates.map((deploy) => {
    const reasons: SuspectReason[] = [];

    const sameService = deploy.serviceId === incident.serviceId;
    const serviceFactor = sameService ? SAME_SERVICE_FACTOR : OTHER_SERVICE_FACTOR;
    reasons.push(
      sameService
        ? { code: 'same_service', detail: `same service (${deploy.serviceName})` }
        : { code: 'other_service', detail: `other service (${deploy.serviceName}) of the organization` },
    );

    let environmentFactor = ENVIRONMENT_MATCH_FACTOR;
    if (incident.environment !== null) {
      if (deploy.environment === incident.environment) {
        reasons.push({ code: 'environment_match', detail: `same environment (${deploy.environment})` });
      } else if (deploy.environment === null) {
        environmentFactor = ENVIRONMENT_UNKNOWN_FACTOR;
        reasons.push({
          code: 'environment_unknown',
          detail: `deploy environment unknown; incident in ${incident.environment}`,
        });
      } else {
        environmentFactor = ENVIRONMENT_MISMATCH_FACTOR;
        reasons.push({
          code: 'environment_mismatch',
          detail: `environment ${deploy.environment} ≠ ${incident.environment}`,
        });
      }
    }

    const ageMs = start - deploy.deployedAt.getTime();
    let evidence = RECENCY_WEIGHT * recencyTerm(ageMs);
    reasons.push({
      code: 'recency',
      detail: ageMs === 0 ? 'deployed at the moment the incident started' : `deployed ${formatDuration(ageMs)} before the incident`,
    });

    if (lastByTarget.get(targetKey(deploy)) === deploy) {
      evidence += LAST_DEPLOY_WEIGHT;
      const where = deploy.environment === null ? ' (no environment)' : ` to ${deploy.environment}`;
      reasons.push({
        code: 'last_before_incident',
        detail: `last deploy of ${deploy.serviceName}${where} before the incident`,
      });
    }

    evidence += CHANGE_SIZE_WEIGHT * changeSizeTerm(deploy.commitCount);
    reasons.push({ code: 'change_size', detail: describeChangeSize(deploy.commitCount) });

    const redeploy = originals.get(deploy);
    if (redeploy) {
      evidence -= REDEPLOY_PENALTY;
      const what = redeploy.bySha ? shortSha(deploy.commitSha) : `version ${deploy.version}`;
      reasons.push({
        code: 'redeploy',
        detail: `redeploy of ${what} already deployed at ${redeploy.original.deployedAt.toISOString()}`,
      });
    }

    const score = round(serviceFactor * environmentFactor * clamp01(evidence), SCORE_DECIMALS);
    return { deploy, score, reasons };
  });

  scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.deploy.deployedAt.getTime() - a.deploy.deployedAt.getTime() ||
      compareIds(a.deploy.id, b.deploy.id),
  );

  const kept = scored.slice(0, options.maxSuspects ?? MAX_SUSPECTS);
  return kept.map((s, i) => ({ deployId: s.deploy.id, rank: i + 1, score: s.score, reasons: s.reasons }));
}

function targetKey(d: CandidateDeploy): string {
  // JSON keeps a null environment distinct from one literally named "null".
  return JSON.stringify([d.serviceId, d.environment]);
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
