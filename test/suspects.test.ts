// Suspect ranking: which deploys may have caused an incident, scored 0..1 with reasons.
import { describe, expect, it } from 'vitest';
import type { DeployHealth } from '../src/domain/correlation/deploy-health.ts';
import { PRIOR_MAX_EFFECT, priorFactor, RECORD_MAX_SHARE, riskTerm } from '../src/domain/correlation/priors.ts';
import {
  CHANGE_SIZE_UNKNOWN,
  CHANGE_SIZE_WEIGHT,
  DEFAULT_LOOKBACK_MS,
  deploysWorthHealth,
  DIRECT_DEPENDENCY_FACTOR,
  dependencyFactor,
  ENVIRONMENT_MISMATCH_FACTOR,
  ENVIRONMENT_UNKNOWN_FACTOR,
  HEALTH_WEIGHT,
  mainReason,
  MAX_REASONS_PER_SUSPECT,
  MAX_SUSPECTS,
  OTHER_SERVICE_FACTOR,
  RECENCY_FAST_HALF_LIFE_MS,
  RECENCY_FAST_SHARE,
  RECENCY_WEIGHT,
  recencyTerm,
  rankSuspects,
  settledTerm,
  SAME_SERVICE_FACTOR,
  STANDING_WEIGHT,
  troubleRise,
  troubleTerm,
  weighReasons,
  type CandidateDeploy,
  type IncidentFacts,
  type RankingOptions,
} from '../src/domain/correlation/suspects.ts';

const START = new Date('2026-01-15T12:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
/** A time `ms` before the incident start (negative: after it). */
const before = (ms: number) => new Date(START.getTime() - ms);

const SERVICES = { checkout: 'svc-checkout', payments: 'svc-payments', search: 'svc-search' } as const;
type ServiceName = keyof typeof SERVICES;

let shaCounter = 0;
function deploy(
  id: string,
  service: ServiceName,
  environment: string | null,
  agoMs: number,
  extra: Partial<CandidateDeploy> = {},
): CandidateDeploy {
  shaCounter += 1;
  return {
    id,
    serviceId: SERVICES[service],
    serviceName: service,
    environment,
    commitSha: (shaCounter.toString(16).padStart(8, '0') + '0'.repeat(32)).slice(0, 40),
    version: null,
    deployedAt: before(agoMs),
    commitCount: null,
    ...extra,
  };
}

const prodIncident: IncidentFacts = { serviceId: SERVICES.checkout, environment: 'production', startedAt: START };

interface Scenario {
  name: string;
  incident: IncidentFacts;
  deploys: CandidateDeploy[];
  options?: Partial<RankingOptions>;
  /** Expected rank-1 deploy, or null for no suspects at all. */
  top: string | null;
  absent: string[];
  /** Present, but must not be ranked first. */
  notTop?: string[];
}

const SHA_A = 'a1b2c3d4e5f60718293a4b5c6d7e8f9011223344';
const SHA_B = 'b1b2c3d4e5f60718293a4b5c6d7e8f9011223344';

const scenarios: Scenario[] = [
  {
    name: 'a deploy after the incident start is not a suspect',
    incident: prodIncident,
    deploys: [
      deploy('checkout-after-5m', 'checkout', 'production', -5 * MIN),
      deploy('checkout-after-1ms', 'checkout', 'production', -1),
      deploy('checkout-2h', 'checkout', 'production', 2 * HOUR),
    ],
    top: 'checkout-2h',
    absent: ['checkout-after-5m', 'checkout-after-1ms'],
  },
  {
    name: 'deploys outside the 24 h window are left out; the window start itself counts',
    incident: prodIncident,
    deploys: [
      deploy('checkout-25h', 'checkout', 'production', 25 * HOUR, { commitCount: 50 }),
      deploy('checkout-24h-plus-1ms', 'checkout', 'production', DEFAULT_LOOKBACK_MS + 1),
      deploy('payments-24h-exactly', 'payments', 'production', DEFAULT_LOOKBACK_MS),
      deploy('payments-3h', 'payments', 'production', 3 * HOUR),
    ],
    top: 'payments-3h',
    absent: ['checkout-25h', 'checkout-24h-plus-1ms'],
  },
  {
    name: 'a shorter look-back option narrows the window',
    incident: prodIncident,
    options: { lookbackMs: 2 * HOUR },
    deploys: [deploy('checkout-3h', 'checkout', 'production', 3 * HOUR), deploy('payments-1h', 'payments', 'production', 1 * HOUR)],
    top: 'payments-1h',
    absent: ['checkout-3h'],
  },
  {
    name: 'incident without environment: environments are not compared, recency decides',
    incident: { ...prodIncident, environment: null },
    deploys: [
      deploy('checkout-staging-10m', 'checkout', 'staging', 10 * MIN),
      deploy('checkout-prod-30m', 'checkout', 'production', 30 * MIN),
    ],
    top: 'checkout-staging-10m',
    absent: [],
  },
  {
    name: 'a deploy exactly at the incident start is included',
    incident: prodIncident,
    deploys: [deploy('checkout-at-start', 'checkout', 'production', 0), deploy('checkout-1h', 'checkout', 'production', 1 * HOUR)],
    top: 'checkout-at-start',
    absent: [],
  },
  {
    name: 'no deploys at all: no suspects',
    incident: prodIncident,
    deploys: [],
    top: null,
    absent: [],
  },
  {
    name: 'only deploys after the incident: no suspects',
    incident: prodIncident,
    deploys: [deploy('late', 'checkout', 'production', -1 * MIN)],
    top: null,
    absent: ['late'],
  },
];

describe('rankSuspects window', () => {
  it.each(scenarios)('$name', ({ incident, deploys, options, top, absent, notTop = [] }) => {
    const ranked = rankSuspects({ incident, deploys }, options);
    const ids = ranked.map((s) => s.id);
    if (top === null) expect(ranked).toEqual([]);
    else expect(ranked[0]?.id).toBe(top);
    for (const id of absent) expect(ids).not.toContain(id);
    for (const id of notTop) {
      expect(ids).toContain(id);
      expect(ranked[0]?.id).not.toBe(id);
    }
    // Everything in the window and not after the start is ranked.
    const lookback = options?.lookbackMs ?? DEFAULT_LOOKBACK_MS;
    const expected = deploys.filter((d) => d.deployedAt <= START && START.getTime() - d.deployedAt.getTime() <= lookback).map((d) => d.id);
    expect([...ids].sort()).toEqual([...expected].sort());
    checkInvariants(ranked);
  });
});

describe('rankSuspects scores and reasons', () => {
  it('follows the formula: 20 min, last deploy, size unknown', () => {
    // recency(20 min) = 0.85 × 2^−1 + 0.15 × 2^(−20/360) = 0.425 + 0.14434 = 0.56934
    // evidence = 0.5 × 0.56934 + 0.25 + 0.25 × 0.5 = 0.65967 → 0.66
    expect(recencyTerm(20 * MIN)).toBeCloseTo(0.85 * 0.5 + 0.15 * 2 ** (-20 / 360), 12);
    const [only] = rankSuspects({ incident: prodIncident, deploys: [deploy('d', 'checkout', 'production', 20 * MIN)] });
    expect(only!.score).toBe(0.66);
    expect(RECENCY_WEIGHT * recencyTerm(20 * MIN) + STANDING_WEIGHT + CHANGE_SIZE_WEIGHT * CHANGE_SIZE_UNKNOWN).toBeCloseTo(0.65967, 5);

    // The same evidence for another service deployed to staging: 0.3 × 0.15 × 0.65967 = 0.02969 → 0.03
    const [gated] = rankSuspects({ incident: prodIncident, deploys: [deploy('g', 'payments', 'staging', 20 * MIN)] });
    expect(OTHER_SERVICE_FACTOR * ENVIRONMENT_MISMATCH_FACTOR).toBeCloseTo(0.045, 12);
    expect(gated!.score).toBe(0.03);
  });

  it('recency: most of the weight is gone within the first hour, a thin tail stays for a day', () => {
    expect(recencyTerm(0)).toBe(1);
    expect(recencyTerm(RECENCY_FAST_HALF_LIFE_MS)).toBeCloseTo(0.5 * RECENCY_FAST_SHARE + (1 - RECENCY_FAST_SHARE) * 2 ** (-1 / 18), 12);
    expect(recencyTerm(HOUR)).toBeLessThan(0.25);
    expect(recencyTerm(4 * HOUR)).toBeGreaterThan(0.08);
    expect(recencyTerm(DEFAULT_LOOKBACK_MS)).toBeGreaterThan(0);
    expect(recencyTerm(DEFAULT_LOOKBACK_MS)).toBeLessThan(0.01);
  });

  it('is 1 for the ideal suspect: at the start, last, 50+ commits', () => {
    const [best] = rankSuspects({ incident: prodIncident, deploys: [deploy('d', 'checkout', 'production', 0, { commitCount: 80 })] });
    expect(best!.score).toBe(1);
  });

  it('explains a same-service production deploy, and one that ran for hours', () => {
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [
        deploy('d', 'checkout', 'production', 14 * MIN, { commitCount: 12 }),
        deploy('old', 'checkout', 'production', 5 * HOUR + 5 * MIN),
      ],
    });
    expect(ranked[0]!.reasons).toEqual([
      { code: 'same_service', detail: 'same service (checkout)' },
      { code: 'environment_match', detail: 'same environment (production)' },
      { code: 'recency', detail: 'deployed 14 min before the incident, within the hour in which most incidents a change causes begin' },
      { code: 'last_before_incident', detail: 'last deploy of checkout to production before the incident' },
      { code: 'change_size', detail: '12 commits since the previous deploy' },
    ]);
    expect(ranked[1]!.reasons).toContainEqual({
      code: 'recency',
      detail: 'deployed 5 h 5 min before the incident: it ran 5 h 5 min without trouble first',
    });
  });

  it('explains another service, a mismatched or unknown environment, and a redeploy', () => {
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [
        deploy('first', 'payments', 'staging', 2 * HOUR + 5 * MIN, { commitSha: SHA_A, commitCount: 1 }),
        deploy('again', 'payments', 'staging', 40_000, { commitSha: SHA_A, commitCount: 0 }),
        deploy('noenv', 'search', null, 3 * HOUR),
      ],
    });
    const byId = new Map(ranked.map((s) => [s.id, s.reasons]));
    expect(byId.get('first')).toEqual([
      { code: 'other_service', detail: 'other service (payments) of the organization' },
      { code: 'environment_mismatch', detail: 'environment staging ≠ production' },
      { code: 'recency', detail: 'deployed 2 h 5 min before the incident: it ran 2 h 5 min without trouble first' },
      { code: 'change_size', detail: '1 commit since the previous deploy' },
    ]);
    expect(byId.get('again')).toEqual([
      { code: 'other_service', detail: 'other service (payments) of the organization' },
      { code: 'environment_mismatch', detail: 'environment staging ≠ production' },
      { code: 'recency', detail: 'deployed 40 s before the incident, within the hour in which most incidents a change causes begin' },
      { code: 'last_before_incident', detail: 'last deploy of payments to staging before the incident' },
      { code: 'change_size', detail: 'no new commits since the previous deploy' },
      { code: 'redeploy', detail: 'redeploy of a1b2c3d, already deployed right before at 2026-01-15T09:55:00.000Z' },
    ]);
    expect(byId.get('noenv')).toEqual([
      { code: 'other_service', detail: 'other service (search) of the organization' },
      { code: 'environment_unknown', detail: 'environment unknown; incident in production' },
      { code: 'recency', detail: 'deployed 3 h before the incident: it ran 3 h without trouble first' },
      { code: 'last_before_incident', detail: 'last deploy of search (no environment) before the incident' },
      { code: 'change_size', detail: 'change size unknown (no commits sent)' },
    ]);
  });

  it('names a redeploy by version when only the version repeats, and at the start', () => {
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [
        deploy('v1', 'checkout', 'production', 1 * HOUR, { version: '1.4.2' }),
        deploy('v1-again', 'checkout', 'production', 0, { version: '1.4.2' }),
      ],
    });
    const again = ranked.find((s) => s.id === 'v1-again')!;
    expect(again.reasons).toContainEqual({ code: 'recency', detail: 'deployed at the moment the incident started' });
    expect(again.reasons).toContainEqual({
      code: 'redeploy',
      detail: 'redeploy of version 1.4.2, already deployed right before at 2026-01-15T11:00:00.000Z',
    });
  });

  it('only compares redeploys within the same service and environment', () => {
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [
        deploy('staging', 'checkout', 'staging', 1 * HOUR, { commitSha: SHA_A }),
        deploy('prod', 'checkout', 'production', 10 * MIN, { commitSha: SHA_A }),
      ],
    });
    expect(ranked.flatMap((s) => s.reasons).some((r) => r.code === 'redeploy')).toBe(false);
  });

  it('leaves a rollback out and gives the deploys it undid a rolled_back reason, the last-deploy standing included', () => {
    const deploys = [
      deploy('good', 'checkout', 'production', 3 * HOUR, { commitSha: SHA_A }),
      deploy('bad', 'checkout', 'production', 1 * HOUR, { commitSha: SHA_B, commitCount: 5 }),
      deploy('rollback', 'checkout', 'production', 10 * MIN, { commitSha: SHA_A }),
    ];
    const ranked = rankSuspects({ incident: prodIncident, deploys, history: deploys });
    expect(ranked.map((s) => s.id)).toEqual(['bad', 'good']);
    const bad = ranked[0]!;
    expect(bad.reasons.map((r) => r.code)).not.toContain('last_before_incident');
    expect(bad.reasons).toContainEqual({ code: 'rolled_back', detail: 'rolled back by the deploy of a1b2c3d at 2026-01-15T11:50:00.000Z' });
    // Standing counts once: the same score as if it were still running.
    const [alone] = rankSuspects({ incident: prodIncident, deploys: [deploys[1]!] });
    expect(bad.score).toBe(alone!.score);
    // A rollback after the start is not known at the start: then bad is just the last deploy.
    const later = rankSuspects({
      incident: prodIncident,
      deploys: deploys.slice(0, 2),
      history: [...deploys.slice(0, 2), deploy('rb', 'checkout', 'production', -5 * MIN, { commitSha: SHA_A })],
    });
    expect(later[0]!.reasons.map((r) => r.code)).toContain('last_before_incident');
    expect(later[0]!.reasons.map((r) => r.code)).not.toContain('rolled_back');
  });

  it('ranks a direct dependency between the own service and unrelated ones, and less per hop', () => {
    const dependencies = [
      { serviceId: SERVICES.checkout, dependsOnId: SERVICES.payments },
      { serviceId: SERVICES.payments, dependsOnId: SERVICES.search },
      { serviceId: SERVICES.search, dependsOnId: SERVICES.checkout }, // a cycle
    ];
    const at = 10 * MIN;
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [
        deploy('own', 'checkout', 'production', at),
        deploy('direct', 'payments', 'production', at),
        deploy('two-hops', 'search', 'production', at),
      ],
      dependencies,
    });
    expect(ranked.map((s) => s.id)).toEqual(['own', 'direct', 'two-hops']);
    expect(ranked[1]!.score / ranked[0]!.score).toBeCloseTo(DIRECT_DEPENDENCY_FACTOR, 2);
    expect(ranked[2]!.score / ranked[0]!.score).toBeCloseTo(dependencyFactor(2), 2);
    expect(ranked[1]!.reasons[0]).toEqual({ code: 'upstream_dependency', detail: "the incident's service depends on payments directly" });
    expect(ranked[2]!.reasons[0]).toEqual({
      code: 'upstream_dependency',
      detail: "the incident's service depends on search through 1 other service",
    });
    expect(dependencyFactor(3)).toBeCloseTo(0.4, 12);
    for (let hops = 1; hops < 30; hops++) expect(dependencyFactor(hops)).toBeGreaterThan(OTHER_SERVICE_FACTOR);
  });

  it('ranks change events with their own reason', () => {
    const [flip] = rankSuspects({
      incident: prodIncident,
      deploys: [],
      changes: [
        {
          id: 'flip',
          serviceId: SERVICES.checkout,
          serviceName: 'checkout',
          environment: 'production',
          kind: 'feature_flag',
          summary: 'new-checkout on for 50 %',
          changedAt: before(3 * MIN),
        },
      ],
    });
    expect(flip).toEqual({
      type: 'change',
      id: 'flip',
      rank: 1,
      score: expect.any(Number),
      effects: expect.any(Array),
      reasons: [
        { code: 'same_service', detail: 'same service (checkout)' },
        { code: 'environment_match', detail: 'same environment (production)' },
        { code: 'recency', detail: 'changed 3 min before the incident, within the hour in which most incidents a change causes begin' },
        { code: 'change_event', detail: 'feature_flag change, live at once: new-checkout on for 50 %' },
      ],
    });
  });

  it('gives no environment reason when the incident has no environment', () => {
    const [s] = rankSuspects({ incident: { ...prodIncident, environment: null }, deploys: [deploy('d', 'checkout', 'staging', 5 * MIN)] });
    expect(s!.reasons.map((r) => r.code)).toEqual(['same_service', 'recency', 'last_before_incident', 'change_size']);
  });

  it('breaks equal scores by later time, then by id', () => {
    // Two other services deployed at the same moment, both last of their service: equal scores.
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [
        deploy('b-same-time', 'payments', 'production', 30 * MIN),
        deploy('a-same-time', 'search', 'production', 30 * MIN),
        deploy('z-earlier', 'payments', 'staging', 1 * HOUR, { commitCount: 0 }),
        deploy('y-earlier', 'search', 'staging', 1 * HOUR - 1, { commitCount: 0 }),
      ],
    });
    expect(ranked.map((s) => s.id)).toEqual(['a-same-time', 'b-same-time', 'y-earlier', 'z-earlier']);
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
  });

  it('refuses a negative or non-finite look-back', () => {
    expect(() => rankSuspects({ incident: prodIncident, deploys: [] }, { lookbackMs: -1 })).toThrow(RangeError);
    expect(() => rankSuspects({ incident: prodIncident, deploys: [] }, { lookbackMs: Number.NaN })).toThrow(RangeError);
  });
});

describe('rankSuspects priors from verdicts', () => {
  const deploys = [deploy('payments-10m', 'payments', 'production', 10 * MIN), deploy('search-12m', 'search', 'production', 12 * MIN)];

  it('without verdicts, the ranking is what time and service make it, and stays so', () => {
    const first = rankSuspects({ incident: prodIncident, deploys, verdicts: [] });
    expect(first.map((s) => s.id)).toEqual(['payments-10m', 'search-12m']);
    expect(rankSuspects({ incident: prodIncident, deploys })).toEqual(first);
    expect(first.flatMap((s) => s.reasons).some((r) => r.code === 'prior')).toBe(false);
  });

  it('verdicts shift close suspects, with a prior reason, by at most ±15 %', () => {
    const verdicts = [
      { serviceId: SERVICES.search, kind: 'deploy', caused: 4, dismissed: 0 },
      { serviceId: SERVICES.payments, kind: 'deploy', caused: 0, dismissed: 3 },
    ];
    const shifted = rankSuspects({ incident: prodIncident, deploys, verdicts });
    expect(shifted.map((s) => s.id)).toEqual(['search-12m', 'payments-10m']);
    expect(shifted[0]!.reasons.at(-1)).toEqual({
      code: 'prior',
      detail: 'past verdicts on search deploys: 4 caused, 0 dismissed (score × 1.10)',
    });
    expect(shifted[1]!.reasons.at(-1)).toEqual({
      code: 'prior',
      detail: 'past verdicts on payments deploys: 0 caused, 3 dismissed (score × 0.91)',
    });
    expect(priorFactor({ caused: 1000, dismissed: 0 })).toBeLessThan(1 + PRIOR_MAX_EFFECT);
    expect(priorFactor({ caused: 0, dismissed: 1000 })).toBeGreaterThan(1 - PRIOR_MAX_EFFECT);
    expect(priorFactor({ caused: 0, dismissed: 0 })).toBe(1);
  });

  it('never outweighs service or environment: the strongest prior cannot lift a gated suspect over an otherwise equal better one', () => {
    const gateRatio = Math.max(
      DIRECT_DEPENDENCY_FACTOR / SAME_SERVICE_FACTOR,
      OTHER_SERVICE_FACTOR / DIRECT_DEPENDENCY_FACTOR,
      ENVIRONMENT_UNKNOWN_FACTOR,
    );
    expect((1 + PRIOR_MAX_EFFECT) / (1 - PRIOR_MAX_EFFECT)).toBeLessThan(1 / gateRatio);
  });
});

describe('rankSuspects: what the record can outweigh, and what it cannot', () => {
  const config = (id: string, minutesBefore: number) => ({
    id,
    serviceId: SERVICES.checkout,
    serviceName: 'checkout',
    environment: 'production',
    kind: 'config',
    summary: id,
    changedAt: before(minutesBefore * MIN),
  });
  const oneCommit = deploy('deploy-12m', 'checkout', 'production', 12 * MIN, { commitCount: 1 });

  it('three deploys CAUSED and three config pushes DISMISSED: a one-commit deploy 12 min before outranks a config push 4 min before', () => {
    const verdicts = [
      { serviceId: SERVICES.checkout, kind: 'deploy', caused: 3, dismissed: 0 },
      { serviceId: SERVICES.checkout, kind: 'config', caused: 0, dismissed: 3 },
    ];
    const ranked = rankSuspects({ incident: prodIncident, deploys: [oneCommit], changes: [config('config-4m', 4)], verdicts });
    expect(ranked.map((s) => s.id)).toEqual(['deploy-12m', 'config-4m']);
    // The record took a share of the size term: more than its size said, either way.
    expect(riskTerm(0.5, { caused: 3, dismissed: 0 })).toBeGreaterThan(0.5);
    expect(riskTerm(0.5, { caused: 0, dismissed: 3 })).toBeLessThan(0.5);
    expect(riskTerm(0.2, undefined)).toBe(0.2);
    expect(riskTerm(0, { caused: 1000, dismissed: 0 })).toBeLessThan(RECORD_MAX_SHARE);
  });

  it('a change event weighs like a one-commit deploy: at the same moment, without verdicts, the scores are equal', () => {
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [deploy('deploy-7m', 'checkout', 'production', 7 * MIN, { commitCount: 1 })],
      changes: [config('config-7m', 7)],
    });
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
  });

  it("a dependency's record does not lift its deploy over the service's own of the same moment and size", () => {
    const ranked = rankSuspects({
      incident: prodIncident,
      deploys: [
        deploy('payments-5m', 'payments', 'production', 5 * MIN, { commitCount: 1 }),
        deploy('checkout-5m', 'checkout', 'production', 5 * MIN, { commitCount: 1 }),
      ],
      dependencies: [{ serviceId: SERVICES.checkout, dependsOnId: SERVICES.payments }],
      verdicts: [
        { serviceId: SERVICES.payments, kind: 'deploy', caused: 50, dismissed: 0 },
        { serviceId: SERVICES.checkout, kind: 'deploy', caused: 0, dismissed: 2 },
      ],
    });
    expect(ranked.map((s) => s.id)).toEqual(['checkout-5m', 'payments-5m']);
  });

  it('standing and size fade after the first hour, to half their weight', () => {
    expect(settledTerm(0)).toBe(1);
    expect(settledTerm(HOUR)).toBe(1);
    expect(settledTerm(7 * HOUR)).toBeCloseTo(0.75, 10);
    expect(settledTerm(1000 * HOUR)).toBeCloseTo(0.5, 10);
  });
});

describe('change events with a subject: reverts and changes that change nothing', () => {
  const flip = (id: string, minutesBefore: number, previous: unknown, value: unknown, subject = 'new-checkout') => ({
    id,
    serviceId: SERVICES.checkout,
    serviceName: 'checkout',
    environment: 'production',
    kind: 'feature_flag',
    summary: `${id}`,
    changedAt: before(minutesBefore * MIN),
    subject,
    previous: previous === undefined ? null : JSON.stringify(previous),
    value: JSON.stringify(value),
  });
  const rank = (changes: ReturnType<typeof flip>[]) => rankSuspects({ incident: prodIncident, deploys: [], changes });

  it('a flag set back to an earlier value reverts every change since: the revert is no suspect, the reverted keep theirs', () => {
    const ranked = rank([
      flip('on', 30, false, true),
      flip('to-50', 20, true, 50),
      flip('off', 5, 50, false),
      flip('other-key', 4, 1, 2, 'other'),
    ]);
    expect(ranked.map((s) => s.id)).toEqual(['other-key', 'to-50', 'on']);
    expect(ranked.find((s) => s.id === 'on')!.reasons).toContainEqual({
      code: 'reverted',
      detail: `new-checkout set back to false at ${before(5 * MIN).toISOString()}`,
    });
    expect(ranked.find((s) => s.id === 'to-50')!.reasons).toContainEqual({
      code: 'change_event',
      detail: 'feature_flag new-checkout: true → 50, live at once: to-50',
    });
  });

  it('without previous, the state before a change is what the change before it set', () => {
    // Turning it on again undoes the turn-off (whatever came before `on` is unknown).
    expect(
      rank([flip('on', 30, undefined, true), flip('off', 20, undefined, false), flip('on-again', 10, undefined, true)]).map((s) => s.id),
    ).toEqual(['off', 'on']);
    const reverted = rank([flip('first', 40, false, true), flip('second', 30, undefined, 'x'), flip('back', 10, undefined, true)]);
    expect(reverted.map((s) => s.id)).toEqual(['second', 'first']);
  });

  it('a change to the value its subject already had is pushed down as no change', () => {
    const [same] = rank([flip('same', 2, 40, 40)]);
    expect(same!.reasons).toContainEqual({ code: 'no_change', detail: 'new-checkout already was 40: nothing changed' });
    const [changed] = rank([flip('changed', 2, 40, 41)]);
    expect(same!.score).toBeLessThan(changed!.score - 0.3);
  });
});

describe('rankSuspects: trouble after a deploy, before the incident', () => {
  const health = (before: number, after: number, incidents: [number, number] = [0, 0]): DeployHealth => ({
    before: { alerts: before, incidents: incidents[0] },
    after: { alerts: after, incidents: incidents[1] },
  });

  it('an own deploy 3 h before whose service alerted 0 → 5 in the hour after it gets the evidence, and shows it as its main reason', () => {
    const old = deploy('checkout-3h', 'checkout', 'production', 3 * HOUR, { commitCount: 3 });
    const [calm] = rankSuspects({ incident: prodIncident, deploys: [old] });
    const [troubled] = rankSuspects({ incident: prodIncident, deploys: [old], health: new Map([['checkout-3h', health(0, 5)]]) });
    expect(troubleTerm(1)).toBe(HEALTH_WEIGHT / 2);
    expect(troubled!.score).toBe(Math.round((calm!.score + troubleTerm(5)) * 1000) / 1000);
    const reason = mainReason(weighReasons(troubled!.reasons, troubled!.effects));
    expect(reason).toEqual({ code: 'trouble_after', detail: 'alerts on checkout rose after it: 0 → 5 in the hour', effect: 0.242 });
    // It did not run without trouble, so its time no longer says so.
    expect(calm!.reasons.find((r) => r.code === 'recency')!.detail).toBe(
      'deployed 3 h before the incident: it ran 3 h without trouble first',
    );
    expect(troubled!.reasons.find((r) => r.code === 'recency')!.detail).toBe('deployed 3 h before the incident');
  });

  it('no more alerts or incidents after than before: no reason and no change; incidents count where they had no alerts', () => {
    const old = deploy('checkout-2h', 'checkout', 'production', 2 * HOUR, { commitCount: 3 });
    const [calm] = rankSuspects({ incident: prodIncident, deploys: [old] });
    expect(calm!.reasons.map((r) => r.code)).not.toContain('trouble_after');
    for (const same of [health(3, 3), health(5, 1), health(0, 0, [1, 1])]) {
      expect(rankSuspects({ incident: prodIncident, deploys: [old], health: new Map([['checkout-2h', same]]) })).toEqual([calm]);
    }
    const [manual] = rankSuspects({ incident: prodIncident, deploys: [old], health: new Map([['checkout-2h', health(0, 0, [0, 2])]]) });
    expect(manual!.reasons.find((r) => r.code === 'trouble_after')!.detail).toBe('incidents on checkout rose after it: 0 → 2 in the hour');
  });

  it('names the counts the score was given: the larger of alerts and incidents in each window', () => {
    const old = deploy('checkout-2h', 'checkout', 'production', 2 * HOUR, { commitCount: 3 });
    const [calm] = rankSuspects({ incident: prodIncident, deploys: [old] });
    const cases: [DeployHealth, number, string][] = [
      // Three incidents without an alert before, four alerts after: trouble rose by one, not by four.
      [health(0, 4, [3, 3]), 1, 'trouble on checkout rose after it: 3 incidents → 4 alerts in the hour'],
      [health(2, 0, [0, 5]), 3, 'trouble on checkout rose after it: 2 alerts → 5 incidents in the hour'],
      [health(1, 0, [0, 2]), 1, 'trouble on checkout rose after it: 1 alert → 2 incidents in the hour'],
      [health(2, 6, [1, 1]), 4, 'alerts on checkout rose after it: 2 → 6 in the hour'],
    ];
    for (const [counts, rise, detail] of cases) {
      const [troubled] = rankSuspects({ incident: prodIncident, deploys: [old], health: new Map([['checkout-2h', counts]]) });
      expect(troubleRise(counts)).toBe(rise);
      expect(troubled!.score).toBe(Math.round((calm!.score + troubleTerm(rise)) * 1000) / 1000);
      expect(troubled!.reasons.find((r) => r.code === 'trouble_after')!.detail).toBe(detail);
    }
  });

  it('a deploy less than an hour before compares the time up to the incident with as long before it', () => {
    const [recent] = rankSuspects({
      incident: prodIncident,
      deploys: [deploy('checkout-25m', 'checkout', 'production', 25 * MIN)],
      health: new Map([['checkout-25m', health(1, 3)]]),
    });
    expect(recent!.reasons.find((r) => r.code === 'trouble_after')!.detail).toBe(
      'alerts on checkout rose after it: 1 → 3 in the 25 min up to the incident, against the 25 min before it',
    );
  });

  it('reads the health of the deploys it could lift among the kept only, the named first, at most `limit`', () => {
    const deploys = [
      deploy('own-40m', 'checkout', 'production', 40 * MIN, { commitCount: 2 }),
      deploy('own-staging-3h', 'checkout', 'staging', 3 * HOUR, { commitCount: 2 }),
      deploy('search-20h', 'search', 'production', 20 * HOUR),
      deploy('search-22h', 'search', 'production', 22 * HOUR),
    ];
    const input = { incident: { ...prodIncident, environment: null }, deploys, named: ['search-22h'] };
    // Kept: one (own-40m, 0.49). Trouble can lift the own staging deploy of 3 h (0.34 + 0.25), not
    // another service's (× 0.3); the named one is read all the same.
    expect(deploysWorthHealth(input, { lookbackMs: DEFAULT_LOOKBACK_MS, keep: 1, limit: 10 })).toEqual([
      'search-22h',
      'own-40m',
      'own-staging-3h',
    ]);
    expect(deploysWorthHealth(input, { lookbackMs: DEFAULT_LOOKBACK_MS, keep: 1, limit: 2 })).toEqual(['search-22h', 'own-40m']);
    expect(deploysWorthHealth({ ...input, named: [] }, { lookbackMs: DEFAULT_LOOKBACK_MS, keep: 10, limit: 10 })).toHaveLength(4);
  });

  it('the kept ranking with the health of the deploys worth it is the ranking with every deploy’s health', () => {
    const random = mulberry32(7);
    const names = Object.keys(SERVICES) as ServiceName[];
    const keep = 5;
    for (let round = 0; round < 100; round++) {
      const deploys = Array.from({ length: 5 + Math.floor(random() * 30) }, (_, i) =>
        deploy(
          `d${round}-${i}`,
          pick(random, names),
          pick(random, ['production', 'staging', null] as const),
          Math.floor(random() * 24 * HOUR),
          {
            commitCount: random() < 0.3 ? null : Math.floor(random() * 40),
          },
        ),
      );
      const everyHealth = new Map(deploys.map((d) => [d.id, health(Math.floor(random() * 3), Math.floor(random() * 6))]));
      const input = { incident: prodIncident, deploys, history: deploys };
      const worth = new Set(deploysWorthHealth(input, { lookbackMs: DEFAULT_LOOKBACK_MS, keep, limit: Number.POSITIVE_INFINITY }));
      const readOnly = new Map([...everyHealth].filter(([id]) => worth.has(id)));
      expect(rankSuspects({ ...input, health: readOnly }, { maxSuspects: keep })).toEqual(
        rankSuspects({ ...input, health: everyHealth }, { maxSuspects: keep }),
      );
      expect(worth.size).toBeLessThan(deploys.length + 1);
    }
  });
});

describe('rankSuspects properties', () => {
  it('scores in [0,1] with 3 decimals, ranks 1..n in order, reasons non-empty, deterministic', () => {
    const random = mulberry32(42);
    const envs = ['production', 'staging', null] as const;
    const names = Object.keys(SERVICES) as ServiceName[];
    const shas = [SHA_A, SHA_B, 'c'.repeat(40), 'd'.repeat(40)];
    for (let round = 0; round < 200; round++) {
      const incident: IncidentFacts = {
        serviceId: SERVICES[pick(random, names)],
        environment: pick(random, envs),
        startedAt: START,
      };
      const count = Math.floor(random() * 25);
      const deploys = Array.from({ length: count }, (_, i) =>
        deploy(`d${round}-${i}`, pick(random, names), pick(random, envs), Math.floor((random() * 30 - 3) * HOUR), {
          commitSha: pick(random, shas),
          version: random() < 0.3 ? pick(random, ['1.0.0', '1.1.0']) : null,
          commitCount: random() < 0.3 ? null : Math.floor(random() * 100),
          // Some exact time collisions to exercise tie-breaking.
          ...(random() < 0.2 ? { deployedAt: before(30 * MIN) } : {}),
        }),
      );
      const changes = Array.from({ length: Math.floor(random() * 5) }, (_, i) => ({
        id: `c${round}-${i}`,
        serviceId: SERVICES[pick(random, names)],
        serviceName: 'x',
        environment: pick(random, envs),
        kind: pick(random, ['feature_flag', 'config']),
        summary: 'flip',
        changedAt: before(Math.floor((random() * 30 - 3) * HOUR)),
      }));
      const dependencies = names.flatMap((a) =>
        names.filter((b) => b !== a && random() < 0.3).map((b) => ({ serviceId: SERVICES[a], dependsOnId: SERVICES[b] })),
      );
      const verdicts = names.map((name) => ({
        serviceId: SERVICES[name],
        kind: 'deploy',
        caused: Math.floor(random() * 4),
        dismissed: Math.floor(random() * 4),
      }));
      const input = { incident, deploys, history: deploys, changes, dependencies, verdicts };
      const ranked = rankSuspects(input);
      checkInvariants(ranked);
      const shuffled = [...deploys].sort(() => random() - 0.5);
      expect(rankSuspects({ ...input, deploys: shuffled, history: [...shuffled].reverse() })).toEqual(ranked);
      expect(rankSuspects(input)).toEqual(ranked);
    }
  });
});

function checkInvariants(ranked: ReturnType<typeof rankSuspects>) {
  expect(ranked.length).toBeLessThanOrEqual(MAX_SUSPECTS);
  ranked.forEach((s, i) => {
    expect(s.reasons.length).toBeLessThanOrEqual(MAX_REASONS_PER_SUSPECT);
    expect(s.rank).toBe(i + 1);
    expect(s.score).toBeGreaterThanOrEqual(0);
    expect(s.score).toBeLessThanOrEqual(1);
    expect(Math.round(s.score * 1000) / 1000).toBe(s.score);
    expect(s.reasons.length).toBeGreaterThan(0);
    for (const r of s.reasons) expect(r.detail.length).toBeGreaterThan(0);
    if (i > 0) expect(s.score).toBeLessThanOrEqual(ranked[i - 1]!.score);
  });
  expect(new Set(ranked.map((s) => s.id)).size).toBe(ranked.length);
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
