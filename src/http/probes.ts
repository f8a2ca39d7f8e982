// What every role serves for its operators: /healthz (the process is up), /readyz (the database
// is reachable and every migration applied) and /metrics (Prometheus).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import { pendingMigrations, type Migration } from '../db/migrate.ts';
import { unavailabilityCause } from '../db/availability.ts';
import type { ThrottledWarnings } from '../db/throttled-warnings.ts';
import type { Metrics } from '../metrics.ts';
import { errorSchema, jsonResponse, TRANSPORT_RESPONSES } from './route-schemas.ts';

export interface ProbeDependencies {
  database: Pick<Database, 'pool'>;
  migrations: Migration[];
  metrics: Metrics;
  warnings: ThrottledWarnings;
}

const notReadySchema = z.object({ status: z.literal('unavailable'), reason: z.string() }).meta({ id: 'NotReady' });

export function probeRoutes(app: FastifyInstance, { database, migrations, metrics, warnings }: ProbeDependencies): void {
  const healthSchema = {
    operationId: 'health',
    summary: 'The process is up',
    response: { '200': jsonResponse('Up', z.object({ status: z.literal('ok') }).meta({ id: 'Health' })), ...TRANSPORT_RESPONSES },
  };
  app.get('/healthz', { schema: healthSchema }, async () => ({ status: 'ok' }));

  const readinessSchema = {
    operationId: 'readiness',
    summary: 'The database is reachable and every migration is applied',
    response: {
      '200': jsonResponse('Ready', z.object({ status: z.literal('ready') }).meta({ id: 'Ready' })),
      '408': TRANSPORT_RESPONSES['408'],
      '431': TRANSPORT_RESPONSES['431'],
      '500': TRANSPORT_RESPONSES['500'],
      '503': jsonResponse(
        'Not ready (database unreachable, migrations pending), or shutting down',
        z.union([notReadySchema, errorSchema(['shutting_down'])]),
      ),
    },
  };
  app.get('/readyz', { schema: readinessSchema }, async (_request, reply) => {
    try {
      const pending = await pendingMigrations(database.pool, migrations);
      if (pending.length > 0) return reply.status(503).send({ status: 'unavailable', reason: `migrations pending: ${pending.join(', ')}` });
      return { status: 'ready' };
    } catch (error) {
      // The cause (often the database's address) is for the operator's log, not for anonymous
      // callers; once per cause and interval, as load balancers ask every few seconds.
      warnings.warn(`readiness check: database unavailable: ${unavailabilityCause(error) ?? 'unknown cause'}`, error);
      return reply.status(503).send({ status: 'unavailable', reason: 'database unavailable' });
    }
  });

  const metricsSchema = {
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    response: {
      '200': { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
      ...TRANSPORT_RESPONSES,
    },
  };
  app.get('/metrics', { schema: metricsSchema }, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
