import { builder } from '../builder.ts';
import { historyStartsAt } from '../../domain/webhooks/retention.ts';

builder.prismaNode('Organization', {
  id: { field: 'id' },
  nullable: true,
  description: 'A tenant: everything in Hookline belongs to exactly one organization.',
  fields: (t) => ({
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    retentionDays: t.int({
      description:
        'Days of webhook history kept (RETENTION_DAYS): deliveries, their attempts and events older than this are deleted, ' +
        'PENDING deliveries excepted. Deploys, change events and incidents are kept.',
      resolve: (_organization, _args, context) => context.retentionDays,
    }),
    historyStartsAt: t.field({
      type: 'DateTime',
      description:
        'Where webhook history begins: deliveries and events created before this time are deleted by the hourly pruning ' +
        '(until its next run, some may still be listed). Now minus retentionDays.',
      resolve: (_organization, _args, context) => historyStartsAt(context.retentionDays),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Organization',
    description: 'The organization of the API token making the request.',
    resolve: (query, _root, _args, context) =>
      context.prisma.organization.findUniqueOrThrow({ ...query, where: { id: context.organization.id } }),
  }),
);
