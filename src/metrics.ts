// Prometheus metrics. Each app instance has its own registry, so several instances in one
// process (as in tests) do not collide.
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpRequestDuration: Histogram<'method' | 'route'>;
  ingestRequests: Counter<'route' | 'outcome'>;
  deliveries: Counter<'outcome'>;
  deliveriesRequeued: Counter;
  attemptDuration: Histogram<'result'>;
  historyPruned: Counter<'table'>;
  historyPruneRuns: Histogram<'result'>;
}

/** `pool` feeds the queue-depth gauge, read from the database when scraped (any process can). */
export function createMetrics(pool: pg.Pool): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client also reports these counts as gauges named like counters, which Prometheus's
  // tooling flags (promtool: non-counter metrics should not have "_total" suffix). The same
  // figures stay under their plain names (nodejs_active_handles, …).
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
  const metrics: Metrics = {
    registry,
    httpRequests: new Counter({
      name: 'hookline_http_requests_total',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: 'hookline_http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    ingestRequests: new Counter({
      name: 'hookline_ingest_requests_total',
      help: 'Ingest requests (deploys, changes, alerts) by route and outcome (accepted, duplicate, ok, or the error code)',
      labelNames: ['route', 'outcome'],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'hookline_delivery_attempt_outcomes_total',
      help: 'Delivery attempts made by this process, by what became of the delivery: succeeded, retrying, failed (attempts exhausted), cancelled (endpoint inactive, disabled or deleted)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    deliveriesRequeued: new Counter({
      name: 'hookline_deliveries_requeued_total',
      help: 'PENDING deliveries found by this process without a queued attempt (their job failed or was deleted) and queued again',
      registers: [registry],
    }),
    attemptDuration: new Histogram({
      name: 'hookline_delivery_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts (HTTP request and the first 4 KB of the answer)',
      labelNames: ['result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers: [registry],
    }),
    historyPruned: new Counter({
      name: 'hookline_history_pruned_rows_total',
      help: 'Rows of history deleted by this process, by table: deliveries, delivery_attempts, events (whole months older than RETENTION_DAYS), audit_entries (older than AUDIT_RETENTION_DAYS)',
      labelNames: ['table'],
      registers: [registry],
    }),
    historyPruneRuns: new Histogram({
      name: 'hookline_history_prune_run_duration_seconds',
      help: 'Duration of the runs of the hourly pruning by this process, by result: complete, partial (time budget used up), failed',
      labelNames: ['result'],
      buckets: [0.01, 0.1, 1, 10, 60, 300],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'hookline_delivery_queue_depth',
    help: 'Deliveries waiting for an attempt (PENDING), across all processes',
    registers: [registry],
    async collect() {
      const { rows } = await pool.query<{ count: string }>(`SELECT count(*) FROM deliveries WHERE status = 'PENDING'`);
      this.set(Number(rows[0]!.count));
    },
  });
  return metrics;
}
