// Prometheus metrics. Each app instance has its own registry, so several instances in one
// process (as in tests) do not collide.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpRequestDuration: Histogram<'method' | 'route'>;
  ingestRequests: Counter<'route' | 'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
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
      help: 'Deploy ingest requests by route and outcome (accepted, duplicate, ok, or the error code)',
      labelNames: ['route', 'outcome'],
      registers: [registry],
    }),
  };
}
