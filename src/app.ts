// One Hookline process: database, queue, HTTP server and delivery worker, as its role asks,
// and their shutdown. main.ts runs it; tests run several side by side on one database.
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { Config } from './config.ts';
import { connectDatabase, type Database } from './db/client.ts';
import { readMigrations } from './db/migrate.ts';
import type { Resolver } from './delivery/destination.ts';
import { listenForDeliveryChanges, listenForEvents } from './delivery/notifications.ts';
import { attemptQueue, startQueue } from './delivery/queue.ts';
import { startDeliveryWorker, type DeliveryPolicy, type DeliveryWorker } from './delivery/worker.ts';
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

export function deliveryPolicy(config: Config): DeliveryPolicy {
  return {
    timeoutMs: config.DELIVERY_TIMEOUT_MS,
    maxRetries: config.DELIVERY_MAX_RETRIES,
    backoffBaseMs: config.DELIVERY_BACKOFF_BASE_MS,
    backoffFactor: config.DELIVERY_BACKOFF_FACTOR,
    disableAfterFailures: config.ENDPOINT_DISABLE_AFTER_FAILURES,
    destination: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, maxTimeoutMs: config.DELIVERY_TIMEOUT_MS },
  };
}

export async function createApp(config: Config, databaseUrl: string, options: AppOptions = {}): Promise<App> {
  const database = connectDatabase(databaseUrl);
  const metrics = createMetrics(database.pool);
  const policy = deliveryPolicy(config);
  const boss = await startQueue({
    databaseUrl,
    // An attempt lasts at most the delivery timeout; a job active much longer lost its worker.
    jobExpirySeconds: Math.ceil(config.DELIVERY_TIMEOUT_MS / 1000) + 10,
    onError: (error) => server.log.error({ err: error }, 'queue error'),
  });
  // Api processes serve the changes to subscribers; workers wake on them when work is queued.
  const deliveryChanges = await listenForDeliveryChanges(databaseUrl, { warn: (o, m) => server.log.warn(o, m) });
  const serveApi = config.ROLE !== 'worker';
  // Api processes serve new events to listeners; workers have no use for them.
  const events = serveApi ? await listenForEvents(databaseUrl, { warn: (o, m) => server.log.warn(o, m) }) : undefined;
  const server: FastifyInstance = buildServer({
    config,
    database,
    metrics,
    migrations: await readMigrations(),
    api: events ? { queue: attemptQueue(boss), deliveryChanges, events, destination: policy.destination } : undefined,
  });
  let worker: DeliveryWorker | undefined;
  if (config.ROLE !== 'api') {
    worker = startDeliveryWorker({
      pool: database.pool,
      boss,
      metrics,
      policy,
      concurrency: config.DELIVERY_CONCURRENCY,
      // Retries fall due with nobody announcing them; idle workers look this often. A fraction
      // of the base backoff, between 0.5 s and 2 s.
      pollIntervalMs: Math.min(2000, Math.max(500, config.DELIVERY_BACKOFF_BASE_MS / 4)),
      log: server.log,
      resolve: options.resolve,
    });
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
      return server.listen({ port, host });
    },
    async close() {
      await server.close();
      // Attempts in flight finish (or time out) and are recorded before the pools go.
      await worker?.stop();
      await boss.stop({ graceful: true, timeout: config.DELIVERY_TIMEOUT_MS + 5000 });
      await deliveryChanges.close();
      await events?.close();
      await database.close();
    },
  };
}
