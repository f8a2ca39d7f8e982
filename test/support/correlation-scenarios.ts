// Labelled correlation scenarios: what happened before an incident, and the change a careful SRE
// would name as its cause. The labels were written from the timeline alone, before the scores were
// tuned; the suite reports how often the ranking puts that change first (top-1) and among the
// first three (top-3). The same scenarios run against rankSuspects directly and, those marked
// `api`, through the REST and GraphQL APIs.
import type { DeployHealth } from '../../src/domain/correlation/deploy-health.ts';
import type { CandidateChange, CandidateDeploy, SuspectInput } from '../../src/domain/correlation/suspects.ts';

export interface ScenarioEvent {
  /** The scenario's name for this change; also its commit when no `sha` is given. */
  id: string;
  service: string;
  /** Default production; null for none. */
  environment?: string | null;
  /** Minutes before the incident start (negative: after it). */
  minutesBefore: number;
  /** A change event of this kind (feature_flag, config); a deploy when absent. */
  change?: string;
  sha?: string;
  version?: string;
  /** Commits sent with the deploy; none sent when absent. */
  commits?: number;
  /** Reported only after the incident was opened (with its real time in deployed_at / changed_at). */
  late?: boolean;
  /** A staged rollout's later stages: the percentage reached, minutes before the incident start. */
  stages?: { percentage: number; minutesBefore: number }[];
  /** A change event's flag or key, and its values before and after (JSON values). */
  subject?: string;
  previous?: unknown;
  value?: unknown;
  /** A deploy's health: its service's alerts and incidents after it up to the incident (an hour at most), against as long before. */
  health?: DeployHealth;
}

export interface Scenario {
  name: string;
  tags: (
    | 'own'
    | 'staging'
    | 'dependency'
    | 'rollback'
    | 'flag'
    | 'busy'
    | 'late'
    | 'prior'
    | 'redeploy'
    | 'time'
    | 'revert'
    | 'alias'
    | 'lookback'
    | 'shared'
    | 'history'
    | 'named'
    | 'rollout'
    | 'health'
  )[];
  /** lookbackHours: the incident's own look-back (default 24 h, the server's). */
  incident: { service: string; environment?: string | null; lookbackHours?: number; alsoAffected?: string[] };
  /** service → the services it depends on. */
  dependencies?: Record<string, string[]>;
  events: ScenarioEvent[];
  /** Changes a person named by a verdict for this incident (candidates even before the look-back). */
  named?: string[];
  /** The organization's environment aliases: alias → environment. */
  aliases?: Record<string, string>;
  /** Past verdicts on a service's changes of a kind (deploy, or a change kind). */
  verdicts?: { service: string; kind: string; caused: number; dismissed: number }[];
  culprit: string;
  /** Why an SRE would name it. */
  why: string;
  /** Also run through the APIs. */
  api?: boolean;
}

const d = (id: string, service: string, minutesBefore: number, extra: Partial<ScenarioEvent> = {}): ScenarioEvent => ({
  id,
  service,
  minutesBefore,
  ...extra,
});
const flag = (id: string, service: string, minutesBefore: number, extra: Partial<ScenarioEvent> = {}): ScenarioEvent => ({
  id,
  service,
  minutesBefore,
  change: 'feature_flag',
  ...extra,
});

const CHECKOUT_STACK = { checkout: ['payments', 'cart'], payments: ['ledger'], cart: [] as string[] };

export const SCENARIOS: Scenario[] = [
  // Own service and time to incident.
  {
    name: 'a lone deploy of the service 12 min before',
    tags: ['own'],
    incident: { service: 'checkout' },
    events: [d('checkout-12m', 'checkout', 12, { commits: 4 })],
    culprit: 'checkout-12m',
    why: 'the only change',
    api: true,
  },
  {
    name: 'own deploy 25 min before beats an unrelated deploy 5 min before',
    tags: ['own'],
    incident: { service: 'checkout' },
    events: [d('checkout-25m', 'checkout', 25, { commits: 8 }), d('search-5m', 'search', 5, { commits: 3 })],
    culprit: 'checkout-25m',
    why: 'nothing links search to checkout',
  },
  {
    name: 'a deploy at the very start beats one an hour earlier',
    tags: ['own', 'time'],
    incident: { service: 'checkout' },
    events: [d('checkout-60m', 'checkout', 60, { commits: 6 }), d('checkout-0m', 'checkout', 0, { commits: 2 })],
    culprit: 'checkout-0m',
    why: 'the earlier one ran an hour without trouble',
  },
  {
    name: 'of two own deploys, the one 20 min before beats the one 3 h before',
    tags: ['own', 'time'],
    incident: { service: 'checkout' },
    events: [d('checkout-3h', 'checkout', 180, { commits: 20 }), d('checkout-20m', 'checkout', 20, { commits: 5 })],
    culprit: 'checkout-20m',
    why: 'the older one ran for hours without trouble',
  },
  {
    name: 'quiet day: own deploy 5 h before, unrelated deploys 2 h before',
    tags: ['own', 'time'],
    incident: { service: 'checkout' },
    events: [d('checkout-5h', 'checkout', 300, { commits: 7 }), d('search-2h', 'search', 120), d('mail-2h', 'mail', 110)],
    culprit: 'checkout-5h',
    why: 'the only change to the broken service',
  },
  {
    name: 'own deploy 40 min before with 30 commits beats an unrelated deploy 2 min before',
    tags: ['own'],
    incident: { service: 'checkout' },
    events: [d('checkout-40m', 'checkout', 40, { commits: 30 }), d('search-2m', 'search', 2, { commits: 2 })],
    culprit: 'checkout-40m',
    why: 'search is not related to checkout',
  },
  {
    name: 'a deploy 9 h before is still the suspect when only unrelated services changed since',
    tags: ['own', 'time'],
    incident: { service: 'checkout' },
    events: [d('checkout-9h', 'checkout', 540, { commits: 12 }), d('search-30m', 'search', 30), d('mail-50m', 'mail', 50)],
    culprit: 'checkout-9h',
    why: 'a latent bug of the only change to checkout',
  },
  {
    name: 'two own deploys 2 min and 50 min before: the last one',
    tags: ['own', 'time'],
    incident: { service: 'checkout' },
    events: [d('checkout-50m', 'checkout', 50, { commits: 9 }), d('checkout-2m', 'checkout', 2, { commits: 9 })],
    culprit: 'checkout-2m',
    why: 'the incident began right after it',
    api: true,
  },

  // Staging noise.
  {
    name: 'staging deploy 2 min before, production deploy 50 min before',
    tags: ['staging'],
    incident: { service: 'checkout', environment: 'production' },
    events: [d('checkout-staging-2m', 'checkout', 2, { environment: 'staging' }), d('checkout-prod-50m', 'checkout', 50, { commits: 6 })],
    culprit: 'checkout-prod-50m',
    why: 'staging does not serve production traffic',
    api: true,
  },
  {
    name: 'many staging deploys, one production deploy 6 h before',
    tags: ['staging', 'busy'],
    incident: { service: 'checkout', environment: 'production' },
    events: [
      d('checkout-prod-6h', 'checkout', 360, { commits: 10 }),
      d('checkout-staging-10m', 'checkout', 10, { environment: 'staging', commits: 3 }),
      d('checkout-staging-30m', 'checkout', 30, { environment: 'staging', commits: 12 }),
      d('checkout-staging-90m', 'checkout', 90, { environment: 'staging', commits: 2 }),
      d('payments-staging-5m', 'payments', 5, { environment: 'staging' }),
    ],
    culprit: 'checkout-prod-6h',
    why: 'the only production change',
  },
  {
    name: 'incident in staging: the staging deploy, not the production one',
    tags: ['staging'],
    incident: { service: 'checkout', environment: 'staging' },
    events: [
      d('checkout-staging-30m', 'checkout', 30, { environment: 'staging', commits: 5 }),
      d('checkout-prod-5m', 'checkout', 5, { commits: 5 }),
    ],
    culprit: 'checkout-staging-30m',
    why: 'production is another system',
  },
  {
    name: 'a deploy without environment 5 min before vs a production deploy 30 min before',
    tags: ['staging'],
    incident: { service: 'checkout', environment: 'production' },
    events: [d('checkout-noenv-5m', 'checkout', 5, { environment: null }), d('checkout-prod-30m', 'checkout', 30, { commits: 8 })],
    culprit: 'checkout-prod-30m',
    why: 'the one known to have reached production',
  },
  {
    name: 'a staging flag flip 1 min before, a production deploy 20 min before',
    tags: ['staging', 'flag'],
    incident: { service: 'checkout', environment: 'production' },
    events: [flag('flag-staging-1m', 'checkout', 1, { environment: 'staging' }), d('checkout-prod-20m', 'checkout', 20, { commits: 4 })],
    culprit: 'checkout-prod-20m',
    why: 'the flag flipped in staging only',
  },

  // Dependencies.
  {
    name: 'upstream deploy 3 min before beats own deploy that ran 4 h without trouble',
    tags: ['dependency', 'time'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('checkout-4h', 'checkout', 240, { commits: 10 }), d('payments-3m', 'payments', 3, { commits: 6 })],
    culprit: 'payments-3m',
    why: 'checkout calls payments, which changed minutes before',
    api: true,
  },
  {
    name: 'upstream deploy 10 min before beats an unrelated deploy 5 min before',
    tags: ['dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('payments-10m', 'payments', 10, { commits: 5 }), d('search-5m', 'search', 5, { commits: 5 })],
    culprit: 'payments-10m',
    why: 'checkout depends on payments, not on search',
  },
  {
    name: 'own deploy and upstream deploy at the same time: own first',
    tags: ['dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('checkout-15m', 'checkout', 15, { commits: 5 }), d('payments-15m', 'payments', 15, { commits: 5 })],
    culprit: 'checkout-15m',
    why: 'the broken service changed itself',
  },
  {
    name: 'a dependency two hops away beats an unrelated service',
    tags: ['dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('ledger-5m', 'ledger', 5, { commits: 3 }), d('search-4m', 'search', 4, { commits: 3 })],
    culprit: 'ledger-5m',
    why: 'checkout → payments → ledger',
    api: true,
  },
  {
    name: 'a direct dependency beats a transitive one at the same time',
    tags: ['dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('payments-20m', 'payments', 20, { commits: 4 }), d('ledger-20m', 'ledger', 20, { commits: 4 })],
    culprit: 'payments-20m',
    why: 'one hop is closer than two',
  },
  {
    name: 'services that call each other (a cycle): the other one deployed minutes before',
    tags: ['dependency'],
    incident: { service: 'payments' },
    dependencies: { checkout: ['payments'], payments: ['checkout'] },
    events: [d('checkout-5m', 'checkout', 5, { commits: 6 }), d('payments-6h', 'payments', 360, { commits: 6 })],
    culprit: 'checkout-5m',
    why: 'payments depends on checkout too, and checkout changed just before',
  },
  {
    name: 'a dependent is not upstream: own deploy 40 min before beats it',
    tags: ['dependency'],
    incident: { service: 'payments' },
    dependencies: CHECKOUT_STACK,
    events: [d('checkout-5m', 'checkout', 5, { commits: 5 }), d('payments-40m', 'payments', 40, { commits: 5 })],
    culprit: 'payments-40m',
    why: 'checkout calls payments, not the other way round',
  },
  {
    name: 'an upstream deploy in staging does not count',
    tags: ['dependency', 'staging'],
    incident: { service: 'checkout', environment: 'production' },
    dependencies: CHECKOUT_STACK,
    events: [d('payments-staging-2m', 'payments', 2, { environment: 'staging' }), d('checkout-prod-2h', 'checkout', 120, { commits: 5 })],
    culprit: 'checkout-prod-2h',
    why: 'production payments did not change',
  },
  {
    name: 'upstream deploy 45 min before vs own deploy that ran 3 h',
    tags: ['dependency', 'time'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('checkout-3h', 'checkout', 180, { commits: 6 }), d('cart-45m', 'cart', 45, { commits: 6 })],
    culprit: 'cart-45m',
    why: 'checkout ran 2 h 15 min fine after its own deploy; cart changed since',
  },

  // Rollbacks.
  {
    name: 'a bad deploy rolled back before the incident: the rollback is not a suspect',
    tags: ['rollback'],
    incident: { service: 'checkout' },
    events: [
      d('good-3h', 'checkout', 180, { sha: 'aaa111', commits: 3 }),
      d('bad-60m', 'checkout', 60, { sha: 'bbb222', commits: 5 }),
      d('rollback-10m', 'checkout', 10, { sha: 'aaa111', commits: 0 }),
    ],
    culprit: 'bad-60m',
    why: 'it was undone for a reason, and its effects (data, caches) can outlive it',
    api: true,
  },
  {
    name: 'a rollback by version with a rebuilt commit',
    tags: ['rollback'],
    incident: { service: 'checkout' },
    events: [
      d('v140-2h', 'checkout', 120, { version: '1.4.0', sha: 'c140a' }),
      d('v150-40m', 'checkout', 40, { version: '1.5.0', sha: 'c150', commits: 12 }),
      d('v140-again-5m', 'checkout', 5, { version: '1.4.0', sha: 'c140b' }),
    ],
    culprit: 'v150-40m',
    why: 'version 1.4.0 again is a rollback of 1.5.0',
  },
  {
    name: 'a rollback of two deploys: the bigger, later one',
    tags: ['rollback'],
    incident: { service: 'checkout' },
    events: [
      d('base-5h', 'checkout', 300, { sha: 'base' }),
      d('small-90m', 'checkout', 90, { sha: 'small', commits: 2 }),
      d('big-50m', 'checkout', 50, { sha: 'big', commits: 40 }),
      d('rollback-5m', 'checkout', 5, { sha: 'base' }),
    ],
    culprit: 'big-50m',
    why: 'both were undone; the big one was running when they decided to roll back',
  },
  {
    name: 'a rollback to a version older than the look-back window',
    tags: ['rollback'],
    incident: { service: 'checkout' },
    events: [
      d('v1-30h', 'checkout', 1800, { sha: 'v1sha', version: '1.0' }),
      d('v2-2h', 'checkout', 120, { sha: 'v2sha', version: '2.0', commits: 15 }),
      d('v1-again-15m', 'checkout', 15, { sha: 'v1sha', version: '1.0' }),
    ],
    culprit: 'v2-2h',
    why: "the rollback brought back yesterday's 1.0; 2.0 was the change",
  },
  {
    name: 'a re-run of the same deploy is not a rollback; the original stays the suspect',
    tags: ['redeploy'],
    incident: { service: 'checkout' },
    events: [d('v2-20m', 'checkout', 20, { version: '2.0.0', commits: 8 }), d('v2-rerun-10m', 'checkout', 10, { version: '2.0.0' })],
    culprit: 'v2-20m',
    why: 'the re-run changed nothing',
  },
  {
    name: 'rolled back 2 h ago, and upstream deployed 5 min before',
    tags: ['rollback', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('v1-4h', 'checkout', 240, { sha: 'one' }),
      d('v2-3h', 'checkout', 180, { sha: 'two', commits: 6 }),
      d('v1-again-2h', 'checkout', 120, { sha: 'one' }),
      d('payments-5m', 'payments', 5, { commits: 4 }),
    ],
    culprit: 'payments-5m',
    why: 'checkout ran its old code fine for 2 h; payments just changed',
  },
  {
    name: 'a rolled-back deploy beats an unrelated deploy 3 min before',
    tags: ['rollback'],
    incident: { service: 'checkout' },
    events: [
      d('base-2h', 'checkout', 120, { sha: 'base' }),
      d('bad-40m', 'checkout', 40, { sha: 'bad', commits: 7 }),
      d('rollback-10m', 'checkout', 10, { sha: 'base' }),
      d('search-3m', 'search', 3),
    ],
    culprit: 'bad-40m',
    why: 'it was rolled back for a reason; search is unrelated',
  },
  {
    name: 'a fix rolled forward after a rollback',
    tags: ['rollback'],
    incident: { service: 'checkout' },
    events: [
      d('v1-3h', 'checkout', 180, { sha: 'one' }),
      d('v2-2h', 'checkout', 120, { sha: 'two', commits: 10 }),
      d('v1-again-90m', 'checkout', 90, { sha: 'one' }),
      d('v3-15m', 'checkout', 15, { sha: 'three', commits: 4 }),
    ],
    culprit: 'v3-15m',
    why: 'the new attempt went out minutes before',
  },

  // Feature flags and configuration changes.
  {
    name: 'a flag flip on the service 4 min before; its deploy 3 h before',
    tags: ['flag'],
    incident: { service: 'checkout' },
    events: [flag('flag-4m', 'checkout', 4), d('checkout-3h', 'checkout', 180, { commits: 8 })],
    culprit: 'flag-4m',
    why: 'a flag flip is live at once, and it came right before',
    api: true,
  },
  {
    name: 'an upstream config change 2 min before; own deploy 2 h before',
    tags: ['flag', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      { id: 'payments-config-2m', service: 'payments', minutesBefore: 2, change: 'config' },
      d('checkout-2h', 'checkout', 120, { commits: 5 }),
    ],
    culprit: 'payments-config-2m',
    why: 'payments timeouts changed just before checkout broke',
  },
  {
    name: 'own deploy 10 min before; own flag flip 2 h before',
    tags: ['flag'],
    incident: { service: 'checkout' },
    events: [d('checkout-10m', 'checkout', 10, { commits: 6 }), flag('flag-2h', 'checkout', 120)],
    culprit: 'checkout-10m',
    why: 'the flag has been on for 2 h without trouble',
  },
  {
    name: 'an unrelated flag flip 1 min before; own deploy 35 min before',
    tags: ['flag'],
    incident: { service: 'checkout' },
    events: [flag('search-flag-1m', 'search', 1), d('checkout-35m', 'checkout', 35, { commits: 10 })],
    culprit: 'checkout-35m',
    why: 'the flag belongs to another, unrelated service',
  },
  {
    name: 'two flag flips, 50 min and 3 min before',
    tags: ['flag'],
    incident: { service: 'checkout' },
    events: [flag('flag-50m', 'checkout', 50), flag('flag-3m', 'checkout', 3)],
    culprit: 'flag-3m',
    why: 'the earlier one ran for most of an hour',
  },
  {
    name: 'a flag flip without environment 5 min before; own production deploy 4 h before',
    tags: ['flag', 'time'],
    incident: { service: 'checkout', environment: 'production' },
    events: [flag('flag-global-5m', 'checkout', 5, { environment: null }), d('checkout-prod-4h', 'checkout', 240, { commits: 6 })],
    culprit: 'flag-global-5m',
    why: 'a flag for every environment, flipped right before',
  },
  {
    name: 'a config change 30 min before; own deploy 25 min before with 20 commits',
    tags: ['flag'],
    incident: { service: 'checkout' },
    events: [
      { id: 'config-30m', service: 'checkout', minutesBefore: 30, change: 'config' },
      d('checkout-25m', 'checkout', 25, { commits: 20 }),
    ],
    culprit: 'checkout-25m',
    why: 'the larger, later change',
  },

  // Busy days.
  {
    name: 'busy day: the last production deploy of the service minutes before',
    tags: ['busy'],
    incident: { service: 'checkout', environment: 'production' },
    events: [
      d('busy-7h', 'checkout', 420, { commits: 30 }),
      d('busy-5h', 'checkout', 300, { commits: 4 }),
      d('busy-3h', 'checkout', 180, { commits: 12 }),
      d('busy-2h', 'checkout', 120, { commits: 2 }),
      d('busy-40m', 'checkout', 40, { commits: 20 }),
      d('busy-6m', 'checkout', 6, { commits: 3 }),
      d('busy-staging-3m', 'checkout', 3, { environment: 'staging', commits: 40 }),
      d('busy-payments-2m', 'payments', 2, { commits: 25 }),
      d('busy-search-1m', 'search', 1, { commits: 9 }),
      d('busy-noenv-4m', 'checkout', 4, { environment: null, commits: 1 }),
    ],
    culprit: 'busy-6m',
    why: 'the last production change of checkout, minutes before',
    api: true,
  },
  {
    name: 'busy organization: 15 deploys across 6 services, own deploy 8 min before',
    tags: ['busy'],
    incident: { service: 'checkout' },
    events: [
      d('checkout-8m', 'checkout', 8, { commits: 3 }),
      ...['search', 'mail', 'auth', 'profile', 'reports'].flatMap((service, i) => [
        d(`${service}-a`, service, 5 + i * 7, { commits: 2 + i }),
        d(`${service}-b`, service, 40 + i * 11, { commits: 5 }),
      ]),
      d('checkout-90m', 'checkout', 90, { commits: 14 }),
      d('checkout-3h', 'checkout', 180, { commits: 6 }),
      d('search-2m', 'search', 2),
    ],
    culprit: 'checkout-8m',
    why: 'only checkout matters to checkout',
  },
  {
    name: 'busy day with dependencies: upstream 6 min before, own deploys an hour and more before',
    tags: ['busy', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('checkout-2h', 'checkout', 120, { commits: 6 }),
      d('checkout-70m', 'checkout', 70, { commits: 5 }),
      d('payments-6m', 'payments', 6, { commits: 5 }),
      d('search-4m', 'search', 4),
      d('mail-9m', 'mail', 9),
      d('auth-12m', 'auth', 12),
      d('reports-20m', 'reports', 20),
    ],
    culprit: 'payments-6m',
    why: 'checkout ran more than an hour fine; its dependency changed minutes before',
  },
  {
    name: 'busy day: own service deploys every 20 min, the last at 5 min before',
    tags: ['busy', 'own'],
    incident: { service: 'checkout' },
    events: [65, 45, 25, 5].map((minutes) => d(`checkout-${minutes}m`, 'checkout', minutes, { commits: 3 })),
    culprit: 'checkout-5m',
    why: 'the others ran without trouble',
  },
  {
    name: 'busy day: an upstream flag flip among many unrelated changes',
    tags: ['busy', 'flag', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      flag('payments-flag-3m', 'payments', 3),
      flag('search-flag-2m', 'search', 2),
      flag('mail-flag-1m', 'mail', 1),
      d('auth-4m', 'auth', 4, { commits: 20 }),
      d('checkout-3h', 'checkout', 180, { commits: 5 }),
    ],
    culprit: 'payments-flag-3m',
    why: 'the only recent change on checkout’s path',
  },

  // Late reports (deployed_at / changed_at in the past, sent after the incident was opened).
  {
    name: 'a deploy reported 30 min late, dated 8 min before the start',
    tags: ['late'],
    incident: { service: 'checkout' },
    events: [d('checkout-2h', 'checkout', 120, { commits: 5 }), d('checkout-8m-late', 'checkout', 8, { commits: 4, late: true })],
    culprit: 'checkout-8m-late',
    why: 'it went out minutes before; the report was late, not the deploy',
    api: true,
  },
  {
    name: 'a retried upstream deploy arrives late',
    tags: ['late', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('checkout-3h', 'checkout', 180, { commits: 8 }), d('payments-4m-late', 'payments', 4, { commits: 3, late: true })],
    culprit: 'payments-4m-late',
    why: 'checkout calls payments, which changed minutes before',
    api: true,
  },
  {
    name: 'a late report dated after the start is not a suspect',
    tags: ['late'],
    incident: { service: 'checkout' },
    events: [d('checkout-30m', 'checkout', 30, { commits: 5 }), d('checkout-after-late', 'checkout', -5, { commits: 2, late: true })],
    culprit: 'checkout-30m',
    why: 'a change after the start cannot have caused it',
    api: true,
  },
  {
    name: 'a backfilled flag flip',
    tags: ['late', 'flag'],
    incident: { service: 'checkout' },
    events: [d('checkout-2h', 'checkout', 120, { commits: 6 }), flag('flag-3m-late', 'checkout', 3, { late: true })],
    culprit: 'flag-3m-late',
    why: 'the flag flipped right before; the tool reported it late',
    api: true,
  },
  {
    name: 'a rollback reported late',
    tags: ['late', 'rollback'],
    incident: { service: 'checkout' },
    events: [
      d('base-3h', 'checkout', 180, { sha: 'base' }),
      d('bad-45m', 'checkout', 45, { sha: 'bad', commits: 9 }),
      d('rollback-10m-late', 'checkout', 10, { sha: 'base', late: true }),
    ],
    culprit: 'bad-45m',
    why: 'the late rollback shows bad-45m was undone; the rollback itself changed nothing new',
    api: true,
  },

  // Learning from verdicts.
  {
    name: "two upstream deploys minutes apart; one service's deploys caused incidents before",
    tags: ['prior', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('payments-10m', 'payments', 10, { commits: 4 }), d('cart-12m', 'cart', 12, { commits: 4 })],
    verdicts: [
      { service: 'cart', kind: 'deploy', caused: 6, dismissed: 0 },
      { service: 'payments', kind: 'deploy', caused: 0, dismissed: 5 },
    ],
    culprit: 'cart-12m',
    why: 'cart deploys have caused six incidents; payments deploys were dismissed five times',
  },
  {
    name: 'a bad record does not outweigh time: such a deploy 6 h before vs own deploy 5 min before',
    tags: ['prior', 'time'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('payments-6h', 'payments', 360, { commits: 4 }), d('checkout-5m', 'checkout', 5, { commits: 4 })],
    verdicts: [{ service: 'payments', kind: 'deploy', caused: 10, dismissed: 0 }],
    culprit: 'checkout-5m',
    why: 'history does not beat a change minutes before',
  },
  {
    name: 'a bad record does not outweigh service: an unrelated service with ten CAUSED',
    tags: ['prior'],
    incident: { service: 'checkout' },
    events: [d('search-5m', 'search', 5, { commits: 4 }), d('checkout-30m', 'checkout', 30, { commits: 4 })],
    verdicts: [{ service: 'search', kind: 'deploy', caused: 10, dismissed: 0 }],
    culprit: 'checkout-30m',
    why: 'search is still unrelated to checkout',
  },
  {
    name: 'flag flips of this service are usually dismissed',
    tags: ['prior', 'flag'],
    incident: { service: 'checkout' },
    events: [flag('flag-8m', 'checkout', 8), d('checkout-11m', 'checkout', 11, { commits: 12 })],
    verdicts: [{ service: 'checkout', kind: 'feature_flag', caused: 0, dismissed: 8 }],
    culprit: 'checkout-11m',
    why: 'its flags are experiments that rarely break anything',
  },

  // Change events with their subject and values: reverts and changes that change nothing.
  {
    name: 'a flag turned on 20 min before and off again 3 min before; own deploy 2 h before',
    tags: ['revert', 'flag'],
    incident: { service: 'checkout' },
    events: [
      d('checkout-2h', 'checkout', 120, { commits: 6 }),
      flag('flag-on-20m', 'checkout', 20, { subject: 'new-checkout', previous: false, value: true }),
      flag('flag-off-3m', 'checkout', 3, { subject: 'new-checkout', previous: true, value: false }),
    ],
    culprit: 'flag-on-20m',
    why: 'turning it off again is the team undoing the flag that broke checkout; the revert itself changes nothing new',
    api: true,
  },
  {
    name: 'a config key set to the value it already had 2 min before; upstream deploy 15 min before',
    tags: ['revert', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      flag('pool-same-2m', 'checkout', 2, { change: 'config', subject: 'db.pool.size', previous: 40, value: 40 }),
      d('payments-15m', 'payments', 15, { commits: 5 }),
    ],
    culprit: 'payments-15m',
    why: 'the pool size did not change',
  },

  // Environment aliases.
  {
    name: 'a team that sends prod: its deploy 40 min before vs a staging deploy 5 min before',
    tags: ['alias', 'staging'],
    incident: { service: 'checkout', environment: 'production' },
    aliases: { prod: 'production' },
    events: [
      d('checkout-prod-40m', 'checkout', 40, { environment: 'prod', commits: 6 }),
      d('checkout-staging-5m', 'checkout', 5, { environment: 'staging', commits: 3 }),
    ],
    culprit: 'checkout-prod-40m',
    why: 'prod is their name for production; staging serves no production traffic',
    api: true,
  },
  {
    name: 'an alert says Production, the pipeline says PRD',
    tags: ['alias', 'dependency'],
    incident: { service: 'checkout', environment: 'Production' },
    aliases: { prd: 'production' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('payments-prd-12m', 'payments', 12, { environment: 'PRD', commits: 4 }),
      d('checkout-dev-3m', 'checkout', 3, { environment: 'dev', commits: 2 }),
    ],
    culprit: 'payments-prd-12m',
    why: 'the only production change, upstream of checkout',
  },

  // Incidents on several services.
  {
    name: 'checkout and search down together: the cache both depend on deployed 15 min before',
    tags: ['shared', 'dependency'],
    incident: { service: 'checkout', alsoAffected: ['search'] },
    dependencies: { checkout: ['payments'], search: ['cache'] },
    events: [
      d('cache-15m', 'cache', 15, { commits: 3 }),
      d('payments-40m', 'payments', 40, { commits: 4 }),
      d('mail-5m', 'mail', 5, { commits: 2 }),
    ],
    culprit: 'cache-15m',
    why: 'search depends on the cache; one change behind a shared outage is likelier than two',
    api: true,
  },
  {
    name: 'a shared outage of checkout and search: the search deploy minutes before',
    tags: ['shared'],
    incident: { service: 'checkout', alsoAffected: ['search'] },
    dependencies: CHECKOUT_STACK,
    events: [
      d('search-6m', 'search', 6, { commits: 5 }),
      d('checkout-2h', 'checkout', 120, { commits: 7 }),
      d('cart-50m', 'cart', 50, { commits: 2 }),
    ],
    culprit: 'search-6m',
    why: 'search is one of the broken services and changed right before',
  },

  // A look-back of the incident's own.
  {
    name: 'a slow leak: own deploy 30 h before, found with a 48 h look-back; unrelated deploys since',
    tags: ['lookback', 'time'],
    incident: { service: 'checkout', lookbackHours: 48 },
    events: [
      d('checkout-leak-30h', 'checkout', 30 * 60, { commits: 9 }),
      d('search-3h', 'search', 180, { commits: 2 }),
      d('mail-20h', 'mail', 20 * 60),
    ],
    culprit: 'checkout-leak-30h',
    why: 'memory grew for a day after the only checkout change; nothing related changed since',
    api: true,
  },
  {
    name: 'a disk filling for 2½ days: production deploy 60 h before with a 72 h look-back; staging deploys since',
    tags: ['lookback', 'staging'],
    incident: { service: 'checkout', environment: 'production', lookbackHours: 72 },
    events: [
      d('checkout-prod-60h', 'checkout', 60 * 60, { commits: 3 }),
      d('checkout-staging-1h', 'checkout', 60, { environment: 'staging', commits: 5 }),
      d('checkout-staging-26h', 'checkout', 26 * 60, { environment: 'staging', commits: 8 }),
    ],
    culprit: 'checkout-prod-60h',
    why: 'the only production change; its new log level filled the disk slowly',
  },

  // Staged rollouts.
  {
    name: 'a canary at 5 % 3 h before, at 100 % 6 min before; an upstream deploy 40 min before',
    tags: ['rollout', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('checkout-canary', 'checkout', 180, {
        commits: 6,
        stages: [
          { percentage: 5, minutesBefore: 180 },
          { percentage: 100, minutesBefore: 6 },
        ],
      }),
      d('payments-40m', 'payments', 40, { commits: 4 }),
    ],
    culprit: 'checkout-canary',
    why: 'the canary hid the bug at 5 % of traffic; it broke checkout when it reached everyone',
  },
  {
    name: 'a rollout still at 1 % beats nothing: own canary 30 min before, unrelated deploy 10 min before',
    tags: ['rollout', 'own'],
    incident: { service: 'checkout' },
    events: [
      d('checkout-canary-30m', 'checkout', 30, { commits: 3, stages: [{ percentage: 1, minutesBefore: 30 }] }),
      d('search-10m', 'search', 10, { commits: 3 }),
    ],
    culprit: 'checkout-canary-30m',
    why: 'the errors come from the canary pods of checkout',
  },

  // Verdicts on changes outside the suspects.
  {
    name: 'a slow leak 30 h before, named by a verdict; only unrelated services changed in the window',
    tags: ['named', 'time'],
    incident: { service: 'checkout' },
    named: ['checkout-leak-30h'],
    events: [
      d('checkout-leak-30h', 'checkout', 30 * 60, { commits: 9 }),
      d('search-3h', 'search', 180, { commits: 4 }),
      d('mail-10h', 'mail', 600),
    ],
    culprit: 'checkout-leak-30h',
    why: 'the only checkout change of two days; the look-back could not see it, the verdict did',
  },
  {
    name: 'cart deploys named CAUSED three times though never ranked; cart 14 min and payments 11 min before',
    tags: ['named', 'prior', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [d('cart-14m', 'cart', 14), d('payments-11m', 'payments', 11)],
    verdicts: [{ service: 'cart', kind: 'deploy', caused: 3, dismissed: 0 }],
    culprit: 'cart-14m',
    why: 'the misses taught it: cart deploys have broken checkout before',
  },

  // Verdict history deciding between two changes of one service minutes apart.
  {
    name: 'a config change 10 min before, a deploy 13 min before; deploys caused three incidents, config changes were dismissed three times',
    tags: ['history', 'prior', 'flag'],
    incident: { service: 'checkout' },
    events: [flag('config-10m', 'checkout', 10, { change: 'config' }), d('checkout-13m', 'checkout', 13)],
    verdicts: [
      { service: 'checkout', kind: 'deploy', caused: 3, dismissed: 0 },
      { service: 'checkout', kind: 'config', caused: 0, dismissed: 3 },
    ],
    culprit: 'checkout-13m',
    why: "the team's record: checkout deploys break it, its config changes have not",
  },
  {
    name: 'a config change 3 min before, a deploy 12 min before, the same record',
    tags: ['history', 'prior', 'flag'],
    incident: { service: 'checkout' },
    events: [flag('config-3m', 'checkout', 3, { change: 'config' }), d('checkout-12m', 'checkout', 12)],
    verdicts: [
      { service: 'checkout', kind: 'deploy', caused: 3, dismissed: 0 },
      { service: 'checkout', kind: 'config', caused: 0, dismissed: 3 },
    ],
    culprit: 'checkout-12m',
    why: 'minutes apart, time alone does not tell them apart; three verdicts each way do',
  },

  // A one-commit deploy against a change event, and a record that must be able to decide.
  {
    name: "a deploy of one commit 9 min before, the same service's config push 11 min before, no verdicts",
    tags: ['flag', 'time'],
    incident: { service: 'orders' },
    events: [flag('orders-config-11m', 'orders', 11, { change: 'config' }), d('orders-1c-9m', 'orders', 9, { commits: 1 })],
    culprit: 'orders-1c-9m',
    why: 'two small changes minutes apart: the later one; a push of one setting is no bigger than one commit',
  },
  {
    name: 'one-commit deploy 15 min before, flag flip 5 min before; four deploys caused incidents, four flag flips were dismissed',
    tags: ['history', 'prior', 'flag'],
    incident: { service: 'orders' },
    events: [flag('orders-flag-5m', 'orders', 5), d('orders-first-15m', 'orders', 15, { commits: 1 })],
    verdicts: [
      { service: 'orders', kind: 'deploy', caused: 4, dismissed: 0 },
      { service: 'orders', kind: 'feature_flag', caused: 0, dismissed: 4 },
    ],
    culprit: 'orders-first-15m',
    why: "the team's record: orders deploys break it, its flag flips have not; one commit is no reason to doubt it",
  },

  // Dependencies far down, or undone before the incident, against the service's own old deploy.
  {
    name: 'a deploy 6 min before three dependencies down vs own deploy 12 h before',
    tags: ['dependency', 'time'],
    incident: { service: 'storefront' },
    dependencies: { storefront: ['catalog'], catalog: ['pricing'], pricing: ['tax-rates'] },
    events: [d('storefront-12h', 'storefront', 720, { commits: 7 }), d('tax-rates-6m', 'tax-rates', 6, { commits: 2 })],
    culprit: 'tax-rates-6m',
    why: 'storefront ran half a day fine; the tax-rates change reaches it through catalog and pricing minutes before it broke',
  },
  {
    name: 'a dependency deploy rolled back 20 min before the incident vs own deploy 9 h before',
    tags: ['dependency', 'rollback', 'time'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('checkout-9h', 'checkout', 540, { commits: 5 }),
      d('payments-good-5h', 'payments', 300, { sha: 'p-good', commits: 3 }),
      d('payments-bad-50m', 'payments', 50, { sha: 'p-bad', commits: 4 }),
      d('payments-rollback-20m', 'payments', 20, { sha: 'p-good' }),
    ],
    culprit: 'payments-bad-50m',
    why: 'payments was rolled back in a hurry minutes before checkout broke: what the bad deploy left behind outlived it',
  },

  // Trouble after a deploy, before the incident: alerts recency cannot see.
  {
    name: 'own deploy 2 h 40 min before, after which checkout alerted 0 → 5 in the hour, vs a dependency deploy 18 min before',
    tags: ['health', 'dependency', 'time'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('checkout-160m', 'checkout', 160, {
        commits: 4,
        health: { before: { alerts: 0, incidents: 0 }, after: { alerts: 5, incidents: 1 } },
      }),
      d('payments-18m', 'payments', 18, { commits: 3 }),
    ],
    culprit: 'checkout-160m',
    why: 'checkout did not run fine after its deploy: it raised a warning incident within the hour, and this is it growing; payments was calm',
  },
  {
    name: 'an old dependency deploy that raised two alerts after it does not outweigh own deploy 10 min before',
    tags: ['health', 'dependency', 'own'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('payments-3h', 'payments', 180, {
        commits: 3,
        health: { before: { alerts: 0, incidents: 0 }, after: { alerts: 2, incidents: 1 } },
      }),
      d('checkout-10m', 'checkout', 10, { commits: 2 }),
    ],
    culprit: 'checkout-10m',
    why: 'payments had a short blip three hours ago and settled; checkout changed minutes before it broke',
  },

  // Redeploys.
  {
    name: 'a restart (redeploy of the running commit) 2 min before; upstream deploy 20 min before',
    tags: ['redeploy', 'dependency'],
    incident: { service: 'checkout' },
    dependencies: CHECKOUT_STACK,
    events: [
      d('checkout-3h', 'checkout', 180, { sha: 'same', commits: 5 }),
      d('checkout-restart-2m', 'checkout', 2, { sha: 'same', commits: 0 }),
      d('payments-20m', 'payments', 20, { commits: 6 }),
    ],
    culprit: 'payments-20m',
    why: 'the restart brought no new code',
  },
  {
    name: 'a redeploy to another environment is not a redeploy',
    tags: ['redeploy', 'staging'],
    incident: { service: 'checkout', environment: 'production' },
    events: [
      d('checkout-staging-2h', 'checkout', 120, { environment: 'staging', sha: 'same' }),
      d('checkout-prod-10m', 'checkout', 10, { sha: 'same', commits: 6 }),
    ],
    culprit: 'checkout-prod-10m',
    why: 'the commit reached production only 10 min before',
  },
];

const DEFAULT_START = new Date('2026-03-02T15:00:00Z');
const MINUTE = 60_000;

/** How far back the scenario's incident looks (its own look-back, else the default 24 h). */
export function rankingOptionsOf(scenario: Scenario): { lookbackMs: number } {
  return { lookbackMs: (scenario.incident.lookbackHours ?? 24) * 60 * MINUTE };
}

export function serviceId(name: string): string {
  return `svc-${name}`;
}

/** The scenario as rankSuspects takes it (every deploy also serves as history for rollbacks). */
export function suspectInputOf(scenario: Scenario, startedAt = DEFAULT_START): SuspectInput {
  const at = (event: ScenarioEvent) => new Date(startedAt.getTime() - event.minutesBefore * MINUTE);
  const deploys: CandidateDeploy[] = scenario.events
    .filter((event) => !event.change)
    .map((event) => ({
      id: event.id,
      serviceId: serviceId(event.service),
      serviceName: event.service,
      environment: event.environment === undefined ? 'production' : event.environment,
      commitSha: event.sha ?? event.id,
      version: event.version ?? null,
      deployedAt: at(event),
      commitCount: event.commits ?? null,
      rolloutStages: event.stages?.map((stage) => ({
        percentage: stage.percentage,
        at: new Date(startedAt.getTime() - stage.minutesBefore * MINUTE),
      })),
    }));
  const changes: CandidateChange[] = scenario.events
    .filter((event) => event.change)
    .map((event) => ({
      id: event.id,
      serviceId: serviceId(event.service),
      serviceName: event.service,
      environment: event.environment === undefined ? 'production' : event.environment,
      kind: event.change!,
      summary: `${event.id} flipped`,
      changedAt: at(event),
      subject: event.subject ?? null,
      // As PostgreSQL's jsonb prints them (the same as JSON.stringify for scalars).
      previous: event.previous === undefined ? null : JSON.stringify(event.previous),
      value: event.value === undefined ? null : JSON.stringify(event.value),
    }));
  return {
    incident: {
      serviceId: serviceId(scenario.incident.service),
      alsoAffectedServiceIds: (scenario.incident.alsoAffected ?? []).map(serviceId),
      environment: scenario.incident.environment === undefined ? null : scenario.incident.environment,
      startedAt,
    },
    deploys,
    history: deploys,
    changes,
    dependencies: Object.entries(scenario.dependencies ?? {}).flatMap(([service, upstream]) =>
      upstream.map((dependsOn) => ({ serviceId: serviceId(service), dependsOnId: serviceId(dependsOn) })),
    ),
    verdicts: (scenario.verdicts ?? []).map((v) => ({ ...v, serviceId: serviceId(v.service) })),
    environmentAliases: new Map(Object.entries(scenario.aliases ?? {})),
    named: scenario.named ?? [],
    health: new Map(scenario.events.flatMap((event) => (event.health ? [[event.id, event.health] as const] : []))),
  };
}
