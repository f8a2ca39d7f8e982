import { builder } from '../builder.ts';
import { DORA_COST } from '../builder.ts';
import type { Service } from '../../generated/prisma/client.ts';
import { doraPeriod, DoraMetricsRef, type DoraPeriod } from './Dora.ts';

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
    complexity: { field: 10 * DORA_COST, multiplier: MAX_SERVICES },
    description:
      `The same keys for each service of the scope (the organization's first ${MAX_SERVICES} by name, or the one service), ` +
      'computed one service after the other exactly as dora(serviceId:) computes them.',
    resolve: async (period, _args, context) => {
      const services = await context.prisma.service.findMany({
        where: { organizationId: period.organizationId, ...(period.scope.serviceId ? { id: period.scope.serviceId } : {}) },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        take: MAX_SERVICES,
      });
      const rows: { service: Service; keys: DoraPeriod }[] = [];
      for (const service of services) {
        rows.push({ service, keys: await doraPeriod(context.prisma, period.organizationId, { ...period.scope, serviceId: service.id }) });
      }
      return rows;
    },
  }),
);
