import { viewerOf } from '../context.ts';
import { builder, DORA_COST } from '../builder.ts';
import type { DoraMetrics } from '../../domain/dora.ts';
import { storableDate, storableText } from '../../domain/input.ts';
import { doraMetrics } from '../../domain/insights.ts';

const DoraMetricsRef = builder.objectRef<DoraMetrics>('DoraMetrics').implement({
  description:
    'The Four Keys over the half-open period [from, to), for the organization or one service, optionally one environment. ' +
    'A deploy failed when someone judged it CAUSED for an incident, or when it was the top-ranked suspect of an incident ' +
    'with no CAUSED suspect and nobody DISMISSED it, or when a later deploy rolled it back.',
  fields: (t) => ({
    deploymentFrequencyPerDay: t.exposeFloat('deploymentFrequencyPerDay', { description: 'deployCount / days.' }),
    deployCount: t.exposeInt('deployCount', { description: 'Deploys with deployedAt in the period.' }),
    days: t.exposeFloat('days', { description: 'The length of the period in days (fractions allowed).' }),
    leadTimeForChangesSeconds: t.exposeFloat('leadTimeForChangesSeconds', {
      nullable: true,
      description:
        "Median seconds from a sent commit's timestamp to its deploy, over the commits of the period's deploys " +
        '(commits without a timestamp, or dated after the deploy, are left out); null when there are none.',
    }),
    changeFailureRate: t.exposeFloat('changeFailureRate', {
      nullable: true,
      description: 'Failed deploys / deploys in the period, in 0..1; null without deploys.',
    }),
    timeToRestoreSeconds: t.exposeFloat('timeToRestoreSeconds', {
      nullable: true,
      description: 'Median seconds from startedAt to resolvedAt of the incidents resolved in the period; null when there are none.',
    }),
  }),
});

builder.queryField('dora', (t) =>
  t.field({
    authScopes: { organization: true },
    type: DoraMetricsRef,
    description: 'DORA metrics (the Four Keys). serviceId absent: the whole organization; environment absent: every environment.',
    complexity: DORA_COST,
    args: {
      serviceId: t.arg.id({ required: false }),
      environment: t.arg.string({ required: false, validate: storableText().nullish() }),
      from: t.arg({ type: 'DateTime', required: true, validate: storableDate }),
      to: t.arg({ type: 'DateTime', required: true, validate: storableDate }),
    },
    resolve: (_root, { serviceId, environment, from, to }, context) =>
      doraMetrics(context.prisma, viewerOf(context).id, { serviceId: serviceId == null ? null : String(serviceId), environment, from, to }),
  }),
);
