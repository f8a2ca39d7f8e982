// The delivery worker: keeps up to DELIVERY_CONCURRENCY attempts in flight, each a pg-boss job
// (fetched by the dispatcher), sends each signed attempt, and hands its outcome to the
// recorder, which stores it and completes the job in one transaction; a failed attempt's next
// attempt is a new job written there too. Any number of workers may run: pg-boss hands a job
// to one of them, and every write checks the attempt number. An endpoint's rate limit is kept
// by turns claimed in PostgreSQL while a batch is read (store.ts): an attempt whose turn is
// later goes back to the queue for then, without counting as an attempt.
//
// Isolation: jobs are fetched fairly (queue.ts): each endpoint has at most its limit of attempts
// in flight, learned from its answers between DELIVERY_MIN_ and DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT
// (endpoint-concurrency.ts); the organizations holding slots share all but a tenth of them (the
// headroom), so one more always finds free slots at once; and an endpoint whose attempts keep
// timing out is left alone for a while (circuit-breaker.ts). A tenant whose receivers hang thus
// costs the others nothing but slots they were not using.
// An attempt's slot is free once its HTTP exchange has ended: its outcome is written later, with
// others' (recorder.ts), and its job stays active until then, so the fetch counts such attempts
// out of their endpoints' active jobs.
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import sql, { empty, raw, type Sql } from 'sql-template-tag';
import packageJson from '../../package.json' with { type: 'json' };
import { webhookBody } from '../domain/webhooks/events.ts';
import type { Metrics } from '../metrics.ts';
import { attemptDelivery } from './attempt.ts';
import { nextAttemptDelayMs, type RetrySchedule } from './backoff.ts';
import { createCircuitBreaker } from './circuit-breaker.ts';
import type { DestinationPolicy } from '../domain/webhooks/destinations.ts';
import type { Resolver } from './destination.ts';
import { startDispatcher, type Fetched } from './dispatcher.ts';
import { createEndpointConcurrency, loadSignal } from './endpoint-concurrency.ts';
import { fetchAttempts, type AttemptJob, type DeliverJob } from './queue.ts';
import { createRecorder, type Outcome } from './recorder.ts';
import { inTheirMonths } from './store.ts';
import { webhookHeaders } from './signing.ts';
import { createWebhookTransport } from './transport.ts';

interface DeliveryToSend {
  id: string;
  createdAt: Date;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  attemptCount: number;
  organizationId: string;
  endpointId: string;
  url: string;
  endpointStatus: 'ACTIVE' | 'INACTIVE' | 'DISABLED';
  endpointDeleted: boolean;
  signingSecret: string;
  previousSigningSecret: string | null;
  previousSecretExpiresAt: Date | null;
  customHeaders: { name: string; value: string }[];
  /** The endpoint's own attempt timeout, if it has one. */
  timeoutMs: number | null;
  /** The start time this load claimed for it under its endpoint's rate limit (null: not limited, or not claimed here). */
  slotAt: Date | null;
  eventId: string;
  eventType: string;
  eventCreatedAt: Date;
  eventData: unknown;
  eventExample: boolean;
}

/**
 * The deliveries of `jobs` with what their attempts need. For those of `unclaimed` (the jobs
 * that hold no turn yet) whose endpoint has a rate limit, it also claims their turns: each
 * endpoint's next free start time moves on by one interval (1 s / limit) per delivery, under the
 * row's lock, so every worker process shares one schedule. Endpoints without a limit are not written to.
 * Deliveries are read by (id, created_at), which names their months' partitions; a job queued
 * before deliveries were partitioned has no created_at, and its batch is read by id alone.
 */
function loadDeliveries(jobs: DeliverJob[], unclaimed: string[]): Sql {
  const createdAts = jobs.flatMap((job) => (job.deliveryCreatedAt === undefined ? [] : [job.deliveryCreatedAt]));
  const ofTheirMonths = (column: string) =>
    createdAts.length === jobs.length ? sql`AND ${inTheirMonths(raw(column), createdAts)}` : empty;
  const deliveriesOfTheirMonths = ofTheirMonths('d.created_at');
  return sql`
WITH wanted AS (
  SELECT d.endpoint_id, array_agg(d.id ORDER BY d.created_at, d.id) AS ids
  FROM deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE d.id = ANY (${unclaimed}::uuid[]) ${deliveriesOfTheirMonths} AND d.status = 'PENDING' AND e.rate_limit_per_second IS NOT NULL
  GROUP BY d.endpoint_id
), claimed AS (
  UPDATE webhook_endpoints e
  SET rate_limit_next_slot_at = greatest(e.rate_limit_next_slot_at, clock_timestamp()) + cardinality(w.ids) * (interval '1 second' / e.rate_limit_per_second)
  FROM wanted w WHERE e.id = w.endpoint_id
  RETURNING w.ids, interval '1 second' / e.rate_limit_per_second AS spacing,
            e.rate_limit_next_slot_at - cardinality(w.ids) * (interval '1 second' / e.rate_limit_per_second) AS first_slot
), slot AS (
  SELECT s.id, c.first_slot + (s.n - 1) * c.spacing AS at
  FROM claimed c CROSS JOIN LATERAL unnest(c.ids) WITH ORDINALITY AS s(id, n)
)
SELECT d.id, d.created_at AS "createdAt", d.status, d.attempt_count AS "attemptCount", d.organization_id AS "organizationId", d.endpoint_id AS "endpointId",
       e.url, e.status AS "endpointStatus", e.deleted_at IS NOT NULL AS "endpointDeleted",
       e.signing_secret AS "signingSecret", e.previous_signing_secret AS "previousSigningSecret",
       e.previous_secret_expires_at AS "previousSecretExpiresAt",
       e.custom_headers AS "customHeaders", e.timeout_ms AS "timeoutMs", slot.at AS "slotAt",
       ev.id AS "eventId", ev.type AS "eventType", ev.created_at AS "eventCreatedAt", ev.data AS "eventData",
       ev.example AS "eventExample"
FROM deliveries d
JOIN webhook_endpoints e ON e.id = d.endpoint_id
JOIN events ev ON ev.id = d.event_id AND ev.created_at = d.created_at
LEFT JOIN slot ON slot.id = d.id
WHERE d.id = ANY (${jobs.map((job) => job.deliveryId)}::uuid[]) ${deliveriesOfTheirMonths} ${ofTheirMonths('ev.created_at')}`;
}

export interface DeliveryPolicy {
  timeoutMs: number;
  maxRetries: number;
  retrySchedule: RetrySchedule;
  disableAfterFailures: number;
  destination: DestinationPolicy;
}

export interface WorkerDependencies {
  pool: pg.Pool;
  boss: PgBoss;
  metrics: Metrics;
  policy: DeliveryPolicy;
  /** Attempts in flight at most (DELIVERY_CONCURRENCY). */
  concurrency: number;
  /** The bounds of an endpoint's learned limit of attempts in flight, across workers (DELIVERY_MIN_/MAX_IN_FLIGHT_PER_ENDPOINT). */
  inFlightPerEndpoint: { min: number; max: number };
  /** Consecutive timeouts that open an endpoint's circuit, and how long it stays open. */
  circuitBreaker: { timeouts: number; cooldownMs: number };
  /** How often an idle worker looks for attempts that fell due (retries); new work wakes it at once. */
  pollIntervalMs: number;
  log: {
    info(object: object, message: string): void;
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
  /** DNS for outbound connections; the system resolver unless a test brings its own. */
  resolve?: Resolver;
}

export interface DeliveryWorker {
  /** New work may be waiting (a delivery became PENDING): look now rather than at the next poll. */
  wake(): void;
  /** Stops taking jobs; resolves once the attempts in flight are made and recorded. */
  stop(): Promise<void>;
}

/** Jobs fetched in one round trip at most, whatever the free slots. */
export const MAX_FETCH = 100;
/** An endpoint's limit of attempts in flight before anything is learned of it. */
export const INITIAL_IN_FLIGHT_PER_ENDPOINT = 10;
/** A 2xx answered within this earns its endpoint one more attempt in flight. */
const FAST_ANSWER_MS = 1000;
/** A rate-limited attempt whose turn is at most this far off is made now (clock and timer granularity). */
const TURN_SLACK_MS = 5;

/**
 * The slots each of `holding` organizations may hold of a worker's `concurrency`: all but the
 * headroom (a tenth, at least one), shared, so one more organization always finds free slots.
 */
export function organizationShare(concurrency: number, holding: number): number {
  const headroom = Math.max(1, Math.ceil(concurrency / 10));
  return Math.max(1, Math.floor((concurrency - headroom) / Math.max(1, holding)));
}

function secretsFor(delivery: DeliveryToSend, now: Date): string[] {
  const previousValid = delivery.previousSigningSecret && delivery.previousSecretExpiresAt && delivery.previousSecretExpiresAt > now;
  return previousValid ? [delivery.signingSecret, delivery.previousSigningSecret!] : [delivery.signingSecret];
}

export function startDeliveryWorker(deps: WorkerDependencies): DeliveryWorker {
  const { pool, boss, metrics, policy, log } = deps;
  const send = createWebhookTransport(policy.destination, { timeoutMs: policy.timeoutMs, resolve: deps.resolve });
  const recorder = createRecorder({ pool, boss, metrics, log, disableAfterFailures: policy.disableAfterFailures });
  const breaker = createCircuitBreaker({ threshold: deps.circuitBreaker.timeouts, cooldownMs: deps.circuitBreaker.cooldownMs });
  const limits = createEndpointConcurrency({ initial: INITIAL_IN_FLIGHT_PER_ENDPOINT, ...deps.inFlightPerEndpoint });
  /** Attempts held now per organization (only those holding some). */
  const heldByOrganization = new Map<string, number>();
  /** Outcomes being written, by job id: their jobs are active until then, their slots free. Stopping waits for them. */
  const recording = new Map<string, Promise<void>>();

  /**
   * Timers that wake the dispatcher when a throttled attempt's turn comes, or an open circuit's
   * cooldown ends (pg-boss is polled, not pushed). None is set once stopping: it would only
   * hold the process open.
   */
  const turnTimers = new Set<NodeJS.Timeout>();
  let stopping = false;
  function wakeAt(time: Date): void {
    if (stopping) return;
    const timer = setTimeout(
      () => {
        turnTimers.delete(timer);
        dispatcher.wake();
      },
      time.getTime() - Date.now() + TURN_SLACK_MS,
    );
    turnTimers.add(timer);
  }

  /** Makes the attempt the job asks for, if it is still due, and says what became of it. */
  async function attempt(delivery: DeliveryToSend | undefined, job: DeliverJob): Promise<Outcome> {
    const number = job.attempt;
    // Gone with its organization, finished, or this attempt was made already (a job repeated after a worker died).
    if (delivery?.status !== 'PENDING' || delivery.attemptCount !== number - 1) return { kind: 'stale' };
    const key = { deliveryId: delivery.id, deliveryCreatedAt: delivery.createdAt };
    if (delivery.endpointDeleted || delivery.endpointStatus !== 'ACTIVE') return { kind: 'cancelled', ...key };
    // Fetched just before its endpoint's circuit opened.
    const openUntil = breaker.openUntil(delivery.endpointId, Date.now());
    if (openUntil !== undefined) return { kind: 'paused', ...key, attempt: number, until: new Date(openUntil) };
    const slotAt = job.slotAt ? new Date(job.slotAt) : delivery.slotAt;
    if (slotAt && slotAt.getTime() - Date.now() > TURN_SLACK_MS) {
      wakeAt(slotAt);
      return { kind: 'throttled', ...key, attempt: number, slotAt };
    }
    const timeoutMs = delivery.timeoutMs ?? policy.timeoutMs;
    const now = new Date();
    const body = webhookBody({
      id: delivery.eventId,
      type: delivery.eventType,
      organizationId: delivery.organizationId,
      createdAt: delivery.eventCreatedAt,
      data: delivery.eventData,
      example: delivery.eventExample,
    });
    const signed = webhookHeaders({
      deliveryId: delivery.id,
      eventType: delivery.eventType,
      timestamp: Math.floor(now.getTime() / 1000),
      body,
      secrets: secretsFor(delivery, now),
      version: packageJson.version,
    });
    // The endpoint's own headers never share a name with Hookline's (they are refused when set).
    const headers =
      delivery.customHeaders.length === 0
        ? signed
        : { ...Object.fromEntries(delivery.customHeaders.map((header) => [header.name, header.value])), ...signed };
    const result = await attemptDelivery(send, { url: delivery.url, body, headers, timeoutMs });
    metrics.attemptDuration.observe({ result: result.succeeded ? 'success' : 'failure' }, result.durationMs / 1000);
    watchTimeouts(delivery.endpointId, result.timedOut);
    const startedAt = result.startedAt.getTime();
    limits.observe(delivery.endpointId, loadSignal(result, FAST_ANSWER_MS), { startedAt, endedAt: startedAt + result.durationMs });
    if (result.succeeded) return { kind: 'succeeded', ...key, endpointId: delivery.endpointId, attempt: number, result };
    // 410 Gone: the receiver asks for no more deliveries (no retry; the endpoint is disabled).
    const gone = result.status === 410;
    if (gone || number > policy.maxRetries)
      return { kind: 'failed', ...key, endpointId: delivery.endpointId, attempt: number, result, gone };
    const delayMs = nextAttemptDelayMs({
      attempt: number,
      schedule: policy.retrySchedule,
      status: result.status,
      retryAfterHeader: result.retryAfter,
      now: new Date(),
    });
    return {
      kind: 'retrying',
      ...key,
      endpointId: delivery.endpointId,
      attempt: number,
      nextAttemptAt: new Date(Date.now() + delayMs),
      result,
    };
  }

  /** Feeds the circuit breaker with how an attempt to `endpointId` ended. */
  function watchTimeouts(endpointId: string, timedOut: boolean): void {
    if (!timedOut) {
      if (!breaker.answered(endpointId)) return;
      log.info({ endpointId }, 'endpoint answers again: its deliveries resume');
      dispatcher.wake();
      return;
    }
    const opened = breaker.timedOut(endpointId, Date.now());
    if (!opened) return;
    wakeAt(new Date(opened.openUntil));
    if (opened.opened) {
      log.warn(
        { endpointId, cooldownMs: deps.circuitBreaker.cooldownMs },
        'endpoint keeps timing out: its deliveries wait, without attempts, until one probe attempt after the cooldown',
      );
    }
  }

  function organizationOf(job: AttemptJob): string {
    return job.data.organizationId ?? '';
  }

  /** The endpoints whose caps are not the initial limit: those with a learned limit, an open circuit (0) or a probe (1). */
  function endpointCaps(now: number): Map<string, number> {
    const { skipped, probing } = breaker.restrictions(now);
    const caps = limits.learned();
    for (const endpointId of probing) caps.set(endpointId, 1);
    for (const endpointId of skipped) caps.set(endpointId, 0);
    return caps;
  }

  /** Takes due jobs, fairly (see the top of this file), and counts them as held by their organizations. */
  async function fetch(limit: number): Promise<Fetched<AttemptJob>> {
    const { jobs, heldBack } = await fetchAttempts(pool, {
      limit,
      defaultEndpointCap: limits.initial,
      endpointCaps: endpointCaps(Date.now()),
      finishedJobIds: [...recording.keys()],
      heldByOrganization,
      organizationShare: organizationShare(deps.concurrency, heldByOrganization.size),
    });
    for (const job of jobs) heldByOrganization.set(organizationOf(job), (heldByOrganization.get(organizationOf(job)) ?? 0) + 1);
    return { jobs, more: heldBack };
  }

  function release(job: AttemptJob): void {
    const organization = organizationOf(job);
    const held = heldByOrganization.get(organization)! - 1;
    if (held === 0) heldByOrganization.delete(organization);
    else heldByOrganization.set(organization, held);
  }

  /** Writes the outcome (with others'); the attempt's slot is free meanwhile, unless too many wait to be written. */
  async function record(job: AttemptJob, outcome: Outcome): Promise<void> {
    const stored = recorder.record(job, outcome).finally(() => recording.delete(job.id));
    recording.set(job.id, stored);
    // Outcomes pile up only while the database is slow to take them: then slots wait for them.
    if (recording.size > deps.concurrency) await stored;
  }

  /** The deliveries of a fetched batch are read in one query; each job then goes its own way. */
  function run(jobs: AttemptJob[]): Promise<void>[] {
    if (jobs.length === 0) return [];
    const unclaimed = jobs.filter((job) => !job.data.slotAt).map((job) => job.data.deliveryId);
    const deliveries = pool
      .query<DeliveryToSend>(
        loadDeliveries(
          jobs.map((job) => job.data),
          unclaimed,
        ),
      )
      .then(({ rows }) => new Map(rows.map((row) => [row.id, row])));
    return jobs.map(async (job) => {
      let outcome: Outcome;
      try {
        let byId: Map<string, DeliveryToSend>;
        try {
          byId = await deliveries;
        } catch (error) {
          // Left active: the job expires and pg-boss hands it out again.
          if (job === jobs[0])
            log.warn({ err: error, jobs: jobs.length }, 'could not read the deliveries of fetched jobs; they will be retried');
          return;
        }
        outcome = await attempt(byId.get(job.data.deliveryId), job.data);
      } finally {
        release(job);
      }
      await record(job, outcome);
    });
  }

  const dispatcher = startDispatcher({
    concurrency: deps.concurrency,
    maxBatch: MAX_FETCH,
    pollIntervalMs: deps.pollIntervalMs,
    fetch,
    run,
    onFetchError: (error) => log.warn({ err: error }, 'could not fetch delivery jobs; trying again'),
  });

  return {
    wake: () => dispatcher.wake(),
    async stop() {
      // Attempts in flight end within the timeout; their outcomes get as long again to be written.
      recorder.giveUpAfter(2 * policy.timeoutMs);
      stopping = true;
      turnTimers.forEach((timer) => clearTimeout(timer));
      await dispatcher.stop();
      await Promise.all(recording.values());
    },
  };
}
