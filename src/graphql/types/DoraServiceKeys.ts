import { builder } from '../builder.ts';
import type { Service } from '../../generated/prisma/client.ts';
import { doraMetricsOfPieces } from '../../domain/correlation/insights.ts';
import { DoraMetricsRef, PIECES_COST, type DoraPeriod } from './Dora.ts';

/** byService compares at most this many services (the first by name). */
const MAX_SERVICES = 100;

const DoraServiceKeysRef = builder.objectRef<{ service: Service; keys: DoraPeriod }>('DoraServiceKeys').implement({
  description: "One service's four keys over the same period and environment.",
  fields: (t) => ({
    service: t.prismaField({ type: 'Service', resolve: (_query, row) => row.service }),
    keys: t.field({ type: DoraMetricsRef, resolve: (row) => row.keys }),
  }),
});

builder.objectField(DoraMetricsRef, 'byService', (t) =>
  t.field({
    type: [DoraServiceKeysRef],
    complexity: { field: PIECES_COST, multiplier: MAX_SERVICES },
    description:
      `The same keys for each service of the scope (the organization's first ${MAX_SERVICES} by name, or the one service), ` +
      'each exactly as dora(serviceId:) computes them (all in the statements of one period).',
    resolve: async (period, _args, context) => {
      const services = await context.prisma.service.findMany({
        where: { organizationId: period.organizationId, ...(period.scope.serviceId ? { id: period.scope.serviceId } : {}) },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        take: MAX_SERVICES,
      });
      const { from, to } = period.scope;
      const keys = await doraMetricsOfPieces(
        context.prisma,
        period.organizationId,
        period.scope,
        services.map((service) => ({ serviceId: service.id, from, to })),
      );
      return services.map((service, i) => ({
        service,
        keys: { ...keys[i]!, organizationId: period.organizationId, scope: { ...period.scope, serviceId: service.id } },
      }));
    },
  }),
);
