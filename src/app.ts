// One Hookline process: database, queue, HTTP server, delivery worker and background jobs, as its
// role asks, and their shutdown. main.ts runs it; tests run several side by side on one database.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { foldDoraFiguresJob } from './background/fold-dora-figures.ts';
import { judgeRollbacksJob } from './background/judge-rollbacks.ts';
import { pruneHistoryJob } from './background/prune-history.ts';
import { makeHistoryMonthsJob } from './background/make-history-months.ts';
import { requeueStrandedDeliveriesJob } from './background/requeue-stranded-deliveries.ts';
import { startBackgroundJobs, type BackgroundJobs } from './background/scheduler.ts';
import { directDatabaseUrl, type Config } from './config.ts';
import type { ConnectOptions, Database } from './db/client.ts';
import { connectPool } from './db/pool.ts';
import { readMigrations } from './db/migrate.ts';
import type { Resolver } from './delivery/destination.ts';
import { listenForDeliveryChanges } from './delivery/notifications.ts';
import { scheduledDelayMs } from './delivery/backoff.ts';
import { attemptQueue, startQueue } from './delivery/queue.ts';
import { startDeliveryWorker, type DeliveryPolicy, type DeliveryWorker } from './delivery/worker.ts';
import { listenForEvents } from './http/event-notices.ts';
import { listenForIncidentChanges } from './http/incident-notices.ts';
import { createLogger } from './http/logging.ts';
import { buildServer } from './http/server.ts';
import { createMetrics } from './metrics.ts';

export interface App {
  server: FastifyInstance;
  database: Database;
  boss: PgBoss;
  /** Listens and returns the address, e.g. http://127.0.0.1:4000. */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, finishes requests and attempts in flight, then closes the pools. */
  close(): Promise<void>;
}

export interface AppOptions {
  /** DNS for webhook destinations; tests bring a stand-in, production uses the system's. */
  resolve?: Resolver;
}

/**
 * The longest App.close() takes: requests in flight (HTTP_REQUEST_TIMEOUT_MS), attempts in
 * flight and the writing of their outcomes (twice DELIVERY_TIMEOUT_MS), the queue's own stop
 * (DELIVERY_TIMEOUT_MS + 5 s), and 5 s for the pools and the embedded PostgreSQL.
 */
export function closeDeadlineMs(config: Config): number {
  return config.HTTP_REQUEST_TIMEOUT_MS + 3 * config.DELIVERY_TIMEOUT_MS + 10_000;
}

export function deliveryPolicy(config: Config): DeliveryPolicy {
  return {
    timeoutMs: config.DELIVERY_TIMEOUT_MS,
    maxRetries: config.DELIVERY_MAX_RETRIES,
    retrySchedule: config.retrySchedule,
    disableAfterFailures: config.ENDPOINT_DISABLE_AFTER_FAILURES,
    destination: {
      allowHttp: config.WEBHOOK_ALLOW_HTTP,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      maxTimeoutMs: config.DELIVERY_TIMEOUT_MS,
    },
  };
}

/**
 * The process's database: a worker runs hand-written SQL only, so it neither loads Prisma's client
 * nor compiles its query engine (on the first query), about half of what a worker's start took.
 */
async function connectForRole(config: Config, databaseUrl: string): Promise<Database> {
  const options: ConnectOptions = { pooled: config.DATABASE_DIRECT_URL !== undefined };
  if (config.ROLE !== 'worker') {
    const connectionsPerOrganization = config.DATABASE_MAX_CONNECTIONS_PER_ORGANIZATION;
    return (await import('./db/client.ts')).connectDatabase(databaseUrl, { ...options, connectionsPerOrganization });
  }
  const pool = connectPool(databaseUrl, options);
  return {
    pool,
    get prisma(): never {
      throw new Error('A worker process (ROLE=worker) does not load Prisma');
    },
    close: () => pool.end(),
  };
}

export async function createApp(config: Config, databaseUrl: string, options: AppOptions = {}): Promise<App> {
  const log = createLogger(config);
  const database = await connectForRole(config, databaseUrl);
  // LISTEN and pg-boss need a session of their own: PostgreSQL itself, not a transaction pooler.
  const directUrl = directDatabaseUrl(config, databaseUrl);
  const metrics = createMetrics(database.pool);
  const policy = deliveryPolicy(config);
  const boss = await startQueue({
    databaseUrl: directUrl,
    // An attempt lasts at most the delivery timeout; a job active much longer lost its worker.
    jobExpirySeconds: Math.ceil(config.DELIVERY_TIMEOUT_MS / 1000) + 10,
    onError: (error) => log.error({ err: error }, 'queue error'),
  });
  // Api processes serve the changes to subscribers; workers wake on them when work is queued.
  const deliveryChanges = await listenForDeliveryChanges(directUrl, { warn: (o, m) => log.warn(o, m) });
  const serveApi = config.ROLE !== 'worker';
  // Api processes serve new events to listeners; workers have no use for them.
  const events = serveApi ? await listenForEvents(directUrl, { warn: (o, m) => log.warn(o, m) }) : undefined;
  // Api processes serve incident changes to dashboards.
  const incidentChanges = serveApi ? await listenForIncidentChanges(directUrl, { warn: (o, m) => log.warn(o, m) }) : undefined;
  const server: FastifyInstance = await buildServer({
    config,
    logger: log,
    database,
    metrics,
    migrations: await readMigrations(),
    api:
      events && incidentChanges
        ? { queue: attemptQueue(boss), deliveryChanges, events, incidentChanges, destination: policy.destination }
        : undefined,
  });
  let worker: DeliveryWorker | undefined;
  let background: BackgroundJobs | undefined;
  if (config.ROLE !== 'api') {
    // Retries fall due with nobody announcing them; idle workers look this often. A fraction
    // of the first retry's delay, between 0.5 s and 2 s.
    const pollIntervalMs = Math.min(2000, Math.max(500, scheduledDelayMs(config.retrySchedule, 1) / 4));
    worker = startDeliveryWorker({
      pool: database.pool,
      boss,
      metrics,
      policy,
      concurrency: config.DELIVERY_CONCURRENCY,
      inFlightPerEndpoint: { min: config.DELIVERY_MIN_IN_FLIGHT_PER_ENDPOINT, max: config.DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT },
      circuitBreaker: { timeouts: config.DELIVERY_CIRCUIT_BREAKER_TIMEOUTS, cooldownMs: config.DELIVERY_CIRCUIT_BREAKER_COOLDOWN_MS },
      pollIntervalMs,
      log: server.log,
      resolve: options.resolve,
    });
    // Every worker process runs every job; docs/architecture.md says how they share the work.
    const { pool } = database;
    background = startBackgroundJobs(
      [
        requeueStrandedDeliveriesJob({ pool, boss, metrics, log: server.log, intervalMs: config.DELIVERY_RECONCILE_INTERVAL_MS }),
        judgeRollbacksJob({ pool, log: server.log, intervalMs: config.ROLLBACK_JUDGEMENT_INTERVAL_MS }),
        foldDoraFiguresJob({ pool, log: server.log, intervalMs: config.ROLLBACK_JUDGEMENT_INTERVAL_MS }),
        makeHistoryMonthsJob({ pool, log: server.log }),
        pruneHistoryJob({
          pool,
          databaseUrl: directUrl,
          metrics,
          log: server.log,
          retentionDays: config.RETENTION_DAYS,
          auditRetentionDays: config.AUDIT_RETENTION_DAYS,
        }),
      ],
      server.log,
    );
    const wake = worker.wake;
    deliveryChanges.watch((change) => {
      if (change.status === 'PENDING') wake();
    });
  }
  return {
    server,
    database,
    boss,
    async listen(port, host) {
      await server.listen({ port, host });
      // The address bound, as the socket has it: Fastify's own answer names 127.0.0.1 for 0.0.0.0.
      const bound = server.server.address() as AddressInfo;
      return `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
    },
    async close() {
      await server.close();
      // Attempts in flight finish (or time out) and are recorded before the pools go.
      await Promise.all([worker?.stop(), background?.stop()]);
      await boss.stop({ graceful: true, timeout: config.DELIVERY_TIMEOUT_MS + 5000 });
      await deliveryChanges.close();
      await events?.close();
      await incidentChanges?.close();
      await database.close();
    },
  };
}
