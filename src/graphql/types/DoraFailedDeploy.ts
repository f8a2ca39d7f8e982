import { builder } from '../builder.ts';
import { doraFailedDeploys } from '../../domain/correlation/insights.ts';
import { DoraMetricsRef, drillDownSize, MAX_DRILL_DOWN } from './Dora.ts';

const DoraFailureReasonRef = builder.enumType('DoraFailureReason', {
  description: 'Why a deploy counts as failed, in the order the change failure rate counts them (each deploy once).',
  values: {
    ROLLED_BACK: { description: 'A later deploy rolled it back.' },
    JUDGED_CAUSED: { description: 'Someone judged it CAUSED for an incident.' },
    TOP_SUSPECT: { description: 'It was the top-ranked suspect of an incident whose cause nobody named, and nobody DISMISSED it.' },
  } as const,
});

const DoraFailedDeployRef = builder
  .objectRef<{ id: string; reason: 'ROLLED_BACK' | 'JUDGED_CAUSED' | 'TOP_SUSPECT' }>('DoraFailedDeploy')
  .implement({
    description: 'A deploy that the change failure rate counts as failed, and why.',
    fields: (t) => ({
      reason: t.expose('reason', { type: DoraFailureReasonRef }),
      deploy: t.prismaField({
        type: 'Deploy',
        resolve: (query, failed, _args, context) => context.prisma.deploy.findUniqueOrThrow({ ...query, where: { id: failed.id } }),
      }),
    }),
  });

builder.objectField(DoraMetricsRef, 'failedDeploys', (t) =>
  t.field({
    type: [DoraFailedDeployRef],
    description: `The deploys that failedDeployCount counts, newest first (by deployedAt), at most \`first\` (1..${MAX_DRILL_DOWN}).`,
    args: { first: t.arg.int({ required: true, defaultValue: 50, validate: drillDownSize }) },
    complexity: { field: 1, multiplier: MAX_DRILL_DOWN },
    resolve: (period, { first }, context) => doraFailedDeploys(context.prisma, period.organizationId, period.scope, first),
  }),
);
