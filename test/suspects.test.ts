// Suspect ranking: which deploys may have caused an incident, scored 0..1 with reasons.
import { describe, expect, it } from 'vitest';
import {
  CHANGE_SIZE_UNKNOWN,
  CHANGE_SIZE_WEIGHT,
  DEFAULT_LOOKBACK_MS,
  ENVIRONMENT_MISMATCH_FACTOR,
  LAST_DEPLOY_WEIGHT,
  MAX_REASONS_PER_SUSPECT,
  MAX_SUSPECTS,
  OTHER_SERVICE_FACTOR,
  RECENCY_HALF_LIFE_MS,
  RECENCY_WEIGHT,
  rankSuspects,
  type CandidateDeploy,
  type IncidentFacts,
  type RankingOptions,
} from '../src/domain/suspects.ts';

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
    name: 'several services: the incident service beats more recent deploys of others',
    incident: prodIncident,
    deploys: [
      deploy('checkout-30m', 'checkout', 'production', 30 * MIN),
      deploy('payments-10m', 'payments', 'production', 10 * MIN),
      deploy('search-5m', 'search', 'production', 5 * MIN),
    ],
    top: 'checkout-30m',
    absent: [],
  },
  {
    name: 'staging vs production: a production deploy 45 min before beats a staging one 5 min before',
    incident: prodIncident,
    deploys: [
      deploy('checkout-staging-5m', 'checkout', 'staging', 5 * MIN),
      deploy('checkout-prod-45m', 'checkout', 'production', 45 * MIN),
    ],
    top: 'checkout-prod-45m',
    absent: [],
    notTop: ['checkout-staging-5m'],
  },
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
    name: 'rollback: a redeploy of a known commit is not on top, the bad change is',
    incident: prodIncident,
    deploys: [
      deploy('good-3h', 'checkout', 'production', 3 * HOUR, { commitSha: SHA_A, commitCount: 3 }),
      deploy('bad-1h', 'checkout', 'production', 1 * HOUR, { commitSha: SHA_B, commitCount: 5 }),
      deploy('rollback-10m', 'checkout', 'production', 10 * MIN, { commitSha: SHA_A, commitCount: 0 }),
    ],
    top: 'bad-1h',
    absent: [],
    notTop: ['rollback-10m'],
  },
  {
    name: 're-run of the same version: the original deploy stays the suspect',
    incident: prodIncident,
    deploys: [
      deploy('v2-20m', 'checkout', 'production', 20 * MIN, { version: '2.0.0', commitCount: 8 }),
      deploy('v2-rerun-10m', 'checkout', 'production', 10 * MIN, { version: '2.0.0' }),
    ],
    top: 'v2-20m',
    absent: [],
    notTop: ['v2-rerun-10m'],
  },
  {
    name: 'quiet day: a single deploy 5 h before is still the top suspect',
    incident: prodIncident,
    deploys: [deploy('quiet-5h', 'checkout', 'production', 5 * HOUR)],
    top: 'quiet-5h',
    absent: [],
  },
  {
    name: 'busy day: the last production deploy of the service minutes before wins',
    incident: prodIncident,
    deploys: [
      deploy('busy-7h', 'checkout', 'production', 7 * HOUR, { commitCount: 30 }),
      deploy('busy-5h', 'checkout', 'production', 5 * HOUR, { commitCount: 4 }),
      deploy('busy-3h', 'checkout', 'production', 3 * HOUR, { commitCount: 12 }),
      deploy('busy-2h', 'checkout', 'production', 2 * HOUR, { commitCount: 2 }),
      deploy('busy-40m', 'checkout', 'production', 40 * MIN, { commitCount: 20 }),
      deploy('busy-6m', 'checkout', 'production', 6 * MIN, { commitCount: 3 }),
      deploy('busy-staging-3m', 'checkout', 'staging', 3 * MIN, { commitCount: 40 }),
      deploy('busy-payments-2m', 'payments', 'production', 2 * MIN, { commitCount: 25 }),
      deploy('busy-search-1m', 'search', 'production', 1 * MIN, { commitCount: 9 }),
      deploy('busy-noenv-4m', 'checkout', null, 4 * MIN, { commitCount: 1 }),
    ],
    top: 'busy-6m',
    absent: [],
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
    deploys: [
      deploy('checkout-3h', 'checkout', 'production', 3 * HOUR),
      deploy('payments-1h', 'payments', 'production', 1 * HOUR),
    ],
    top: 'payments-1h',
    absent: ['checkout-3h'],
  },
  {
    name: 'same service vs other service at similar times: same service wins even when smaller',
    incident: prodIncident,
    deploys: [
      deploy('checkout-20m', 'checkout', 'production', 20 * MIN, { commitCount: 2 }),
      deploy('payments-15m', 'payments', 'production', 15 * MIN, { commitCount: 40 }),
    ],
    top: 'checkout-20m',
    absent: [],
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
    name: 'deploy without environment: weighed less than a matching one',
    incident: prodIncident,
    deploys: [
      deploy('checkout-noenv-5m', 'checkout', null, 5 * MIN),
      deploy('checkout-prod-20m', 'checkout', 'production', 20 * MIN),
    ],
    top: 'checkout-prod-20m',
    absent: [],
    notTop: ['checkout-noenv-5m'],
  },
  {
    name: 'a big change beats a tiny one at similar times',
    incident: prodIncident,
    deploys: [
      deploy('payments-big-20m', 'payments', 'production', 20 * MIN, { commitCount: 40 }),
      deploy('search-tiny-18m', 'search', 'production', 18 * MIN, { commitCount: 1 }),
    ],
    top: 'payments-big-20m',
    absent: [],
  },
  {
    name: 'a deploy exactly at the incident start is included',
    incident: prodIncident,
    deploys: [
      deploy('checkout-at-start', 'checkout', 'production', 0),
      deploy('checkout-1h', 'checkout', 'production', 1 * HOUR),
    ],
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

describe('rankSuspects scenarios', () => {
  it.each(scenarios)('$name', ({ incident, deploys, options, top, absent, notTop = [] }) => {
    const ranked = rankSuspects(incident, deploys, options);
    const ids = ranked.map((s) => s.deployId);
    if (top === null) expect(ranked).toEqual([]);
    else expect(ranked[0]?.deployId).toBe(top);
    for (const id of absent) expect(ids).not.toContain(id);
    for (const id of notTop) {
      expect(ids).toContain(id);
      expect(ranked[0]?.deployId).not.toBe(id);
    }
    // Everything in the window and not after the start is ranked.
    const lookback = options?.lookbackMs ?? DEFAULT_LOOKBACK_MS;
    const expected = deploys
      .filter((d) => d.deployedAt <= START && START.getTime() - d.deployedAt.getTime() <= lookback)
      .map((d) => d.id);
    expect([...ids].sort()).toEqual([...expected].sort());
    checkInvariants(ranked);
  });

  it('quiet day: the lone deploy scores lower than the busy-day winner minutes before', () => {
    const quiet = rankSuspects(prodIncident, scenarios.find((s) => s.top === 'quiet-5h')!.deploys);
    const busy = rankSuspects(prodIncident, scenarios.find((s) => s.top === 'busy-6m')!.deploys);
    expect(quiet[0]!.score).toBeLessThan(busy[0]!.score);
    expect(quiet[0]!.score).toBeGreaterThan(0);
  });
});

describe('rankSuspects scores and reasons', () => {
  it('follows the formula: one half-life, last deploy, size unknown = 0.25 + 0.25 + 0.125', () => {
    // recency 0.5 × 2^(−90/90) = 0.25; last 0.25; size 0.25 × 0.5 = 0.125 → 0.625
    const [only] = rankSuspects(prodIncident, [deploy('d', 'checkout', 'production', RECENCY_HALF_LIFE_MS)]);
    expect(only!.score).toBe(
      RECENCY_WEIGHT * 0.5 + LAST_DEPLOY_WEIGHT + CHANGE_SIZE_WEIGHT * CHANGE_SIZE_UNKNOWN,
    );
    expect(only!.score).toBe(0.625);

    // Same evidence for another service deployed to staging: 0.35 × 0.15 × 0.625 = 0.0328125 → 0.033
    const [gated] = rankSuspects(prodIncident, [deploy('g', 'payments', 'staging', RECENCY_HALF_LIFE_MS)]);
    expect(OTHER_SERVICE_FACTOR * ENVIRONMENT_MISMATCH_FACTOR * 0.625).toBeCloseTo(0.0328125, 10);
    expect(gated!.score).toBe(0.033);
  });

  it('is 1 for the ideal suspect: at the start, last, 50+ commits', () => {
    const [best] = rankSuspects(prodIncident, [deploy('d', 'checkout', 'production', 0, { commitCount: 80 })]);
    expect(best!.score).toBe(1);
  });

  it('explains a same-service production deploy', () => {
    const [s] = rankSuspects(prodIncident, [deploy('d', 'checkout', 'production', 14 * MIN, { commitCount: 12 })]);
    expect(s!.reasons).toEqual([
      { code: 'same_service', detail: 'same service (checkout)' },
      { code: 'environment_match', detail: 'same environment (production)' },
      { code: 'recency', detail: 'deployed 14 min before the incident' },
      { code: 'last_before_incident', detail: 'last deploy of checkout to production before the incident' },
      { code: 'change_size', detail: '12 commits since the previous deploy' },
    ]);
  });

  it('explains another service, a mismatched or unknown environment, and a redeploy', () => {
    const ranked = rankSuspects(prodIncident, [
      deploy('first', 'payments', 'staging', 2 * HOUR + 5 * MIN, { commitSha: SHA_A, commitCount: 1 }),
      deploy('again', 'payments', 'staging', 40_000, { commitSha: SHA_A, commitCount: 0 }),
      deploy('noenv', 'search', null, 3 * HOUR),
    ]);
    const byId = new Map(ranked.map((s) => [s.deployId, s.reasons]));
    expect(byId.get('first')).toEqual([
      { code: 'other_service', detail: 'other service (payments) of the organization' },
      { code: 'environment_mismatch', detail: 'environment staging ≠ production' },
      { code: 'recency', detail: 'deployed 2 h 5 min before the incident' },
      { code: 'change_size', detail: '1 commit since the previous deploy' },
    ]);
    expect(byId.get('again')).toEqual([
      { code: 'other_service', detail: 'other service (payments) of the organization' },
      { code: 'environment_mismatch', detail: 'environment staging ≠ production' },
      { code: 'recency', detail: 'deployed 40 s before the incident' },
      { code: 'last_before_incident', detail: 'last deploy of payments to staging before the incident' },
      { code: 'change_size', detail: 'no new commits since the previous deploy' },
      { code: 'redeploy', detail: 'redeploy of a1b2c3d already deployed at 2026-01-15T09:55:00.000Z' },
    ]);
    expect(byId.get('noenv')).toEqual([
      { code: 'other_service', detail: 'other service (search) of the organization' },
      { code: 'environment_unknown', detail: 'deploy environment unknown; incident in production' },
      { code: 'recency', detail: 'deployed 3 h before the incident' },
      { code: 'last_before_incident', detail: 'last deploy of search (no environment) before the incident' },
      { code: 'change_size', detail: 'change size unknown (no commits sent)' },
    ]);
  });

  it('names a redeploy by version when only the version repeats, and at the start', () => {
    const ranked = rankSuspects(prodIncident, [
      deploy('v1', 'checkout', 'production', 1 * HOUR, { version: '1.4.2' }),
      deploy('v1-again', 'checkout', 'production', 0, { version: '1.4.2' }),
    ]);
    const again = ranked.find((s) => s.deployId === 'v1-again')!;
    expect(again.reasons).toContainEqual({ code: 'recency', detail: 'deployed at the moment the incident started' });
    expect(again.reasons).toContainEqual({
      code: 'redeploy',
      detail: 'redeploy of version 1.4.2 already deployed at 2026-01-15T11:00:00.000Z',
    });
  });

  it('only compares redeploys within the same service and environment', () => {
    const ranked = rankSuspects(prodIncident, [
      deploy('staging', 'checkout', 'staging', 1 * HOUR, { commitSha: SHA_A }),
      deploy('prod', 'checkout', 'production', 10 * MIN, { commitSha: SHA_A }),
    ]);
    expect(ranked.flatMap((s) => s.reasons).some((r) => r.code === 'redeploy')).toBe(false);
  });

  it('gives no environment reason when the incident has no environment', () => {
    const [s] = rankSuspects({ ...prodIncident, environment: null }, [deploy('d', 'checkout', 'staging', 5 * MIN)]);
    expect(s!.reasons.map((r) => r.code)).toEqual(['same_service', 'recency', 'last_before_incident', 'change_size']);
  });

  it('breaks equal scores by later deployedAt, then by id', () => {
    // Two other services deployed at the same moment, both last of their service: equal scores.
    const ranked = rankSuspects(prodIncident, [
      deploy('b-same-time', 'payments', 'production', 30 * MIN),
      deploy('a-same-time', 'search', 'production', 30 * MIN),
      deploy('z-earlier', 'payments', 'staging', 1 * HOUR, { commitCount: 0 }),
      deploy('y-earlier', 'search', 'staging', 1 * HOUR - 1, { commitCount: 0 }),
    ]);
    expect(ranked.map((s) => s.deployId)).toEqual(['a-same-time', 'b-same-time', 'y-earlier', 'z-earlier']);
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
  });

  it('refuses a negative or non-finite look-back', () => {
    expect(() => rankSuspects(prodIncident, [], { lookbackMs: -1 })).toThrow(RangeError);
    expect(() => rankSuspects(prodIncident, [], { lookbackMs: Number.NaN })).toThrow(RangeError);
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
      const ranked = rankSuspects(incident, deploys);
      checkInvariants(ranked);
      const shuffled = [...deploys].sort(() => random() - 0.5);
      expect(rankSuspects(incident, shuffled)).toEqual(ranked);
      expect(rankSuspects(incident, deploys)).toEqual(ranked);
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
  expect(new Set(ranked.map((s) => s.deployId)).size).toBe(ranked.length);
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
