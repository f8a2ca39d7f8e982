import { z } from 'zod';
import { builder, DORA_COST } from '../builder.ts';
import {
  isoWeeksOf,
  performanceBands,
  utcDaysOf,
  type DoraBands,
  type DoraMetrics,
  type TimeRange,
} from '../../domain/correlation/dora.ts';
import { storableDate, storableText } from '../../domain/shared/input.ts';
import { doraMetrics, doraMetricsOfPieces, doraRestoreIncidents, type DoraScope } from '../../domain/correlation/insights.ts';
import { InputError } from '../../domain/shared/errors.ts';
import type { Context } from '../context.ts';

/** The four keys with the organization and scope they were computed for, so that their parts can be computed alike. */
export type DoraPeriod = DoraMetrics & { organizationId: string; scope: DoraScope };

/** A drill-down lists at most this many rows (the four keys count them all). */
export const MAX_DRILL_DOWN = 200;
export const drillDownSize = z.number().int().min(1).max(MAX_DRILL_DOWN);

/** A period is cut into at most this many days or weeks (a little over three months of days, two years of weeks). */
const MAX_PIECES = 105;

/**
 * What all the pieces of a period cost together (byDay, byWeek, byService): the statements of one
 * `dora` query (test/dora-pieces-cost.test.ts counts them at the most pieces), each piece a few
 * index ranges more in its figures' statement: two `dora` queries' worth. Its selection is counted
 * once per piece on top, so a piece's own byDay or byService is refused.
 */
export const PIECES_COST = 2 * DORA_COST;

/** The four keys of the organization's scope over `scope`'s period. */
export async function doraPeriod(prisma: Parameters<typeof doraMetrics>[0], organizationId: string, scope: DoraScope): Promise<DoraPeriod> {
  return { ...(await doraMetrics(prisma, organizationId, scope)), organizationId, scope };
}

const DoraPerformance = builder.enumType('DoraPerformance', {
  description: 'A performance cluster of the DORA report (State of DevOps 2023), best first.',
  values: ['ELITE', 'HIGH', 'MEDIUM', 'LOW'] as const,
});

const DoraBandsRef = builder.objectRef<DoraBands>('DoraBands').implement({
  description:
    "Where each key stands among the DORA report's clusters; null for a key without data. Deployment frequency: ELITE a deploy a day or more " +
    '(on demand), HIGH at least weekly, MEDIUM at least monthly. Lead time for changes: ELITE up to a day, HIGH a week, MEDIUM a month. ' +
    'Change failure rate: ELITE up to 5 %, HIGH 10 %, MEDIUM 20 %. Time to restore: ELITE up to an hour, HIGH a day, MEDIUM a week. LOW beyond.',
  fields: (t) => ({
    deploymentFrequency: t.expose('deploymentFrequency', { type: DoraPerformance, nullable: true }),
    leadTimeForChanges: t.expose('leadTimeForChanges', { type: DoraPerformance, nullable: true }),
    changeFailureRate: t.expose('changeFailureRate', { type: DoraPerformance, nullable: true }),
    timeToRestore: t.expose('timeToRestore', { type: DoraPerformance, nullable: true }),
  }),
});

export const DoraMetricsRef = builder.objectRef<DoraPeriod>('DoraMetrics');

/** The keys of each piece of a period, all in the few statements of one period (doraMetricsOfPieces). */
function keysOfPieces(cut: (period: TimeRange) => TimeRange[]) {
  return async (period: DoraPeriod, _args: unknown, context: Context): Promise<DoraPeriod[]> => {
    const pieces = cut(period.scope);
    if (pieces.length > MAX_PIECES)
      throw new InputError([{ field: 'to', message: `cuts into more than ${MAX_PIECES} pieces` }], 'the period is too long for this cut');
    const serviceId = period.scope.serviceId ?? null;
    const keys = await doraMetricsOfPieces(
      context.prisma,
      period.organizationId,
      period.scope,
      pieces.map((piece) => ({ ...piece, serviceId })),
    );
    return keys.map((metrics, i) => ({ ...metrics, organizationId: period.organizationId, scope: { ...period.scope, ...pieces[i]! } }));
  };
}

DoraMetricsRef.implement({
  description:
    'The Four Keys over the half-open period [from, to), for the organization or one service, optionally one environment. ' +
    'A deploy failed when someone judged it CAUSED for an incident, or when it was the top-ranked suspect of an incident ' +
    'with no CAUSED suspect and nobody DISMISSED it, or when a later deploy rolled it back.',
  fields: (t) => ({
    from: t.field({ type: 'DateTime', description: 'The start of the period (included).', resolve: (period) => period.scope.from }),
    to: t.field({ type: 'DateTime', description: 'The end of the period (excluded).', resolve: (period) => period.scope.to }),
    byDay: t.field({
      type: [DoraMetricsRef],
      complexity: { field: PIECES_COST, multiplier: MAX_PIECES },
      resolve: keysOfPieces(utcDaysOf),
      description:
        'The same keys for each day (midnight to midnight UTC) that overlaps the period, in time order, the first and last cut to the period ' +
        `(at most ${MAX_PIECES} days, else BAD_USER_INPUT).`,
    }),
    byWeek: t.field({
      type: [DoraMetricsRef],
      complexity: { field: PIECES_COST, multiplier: MAX_PIECES },
      resolve: keysOfPieces(isoWeeksOf),
      description:
        'The same keys for each ISO week (Monday 00:00 UTC to the next Monday) that overlaps the period, in time order, the first and last ' +
        "cut to the period: their deploy counts add up to the period's.",
    }),
    deploymentFrequencyPerDay: t.exposeFloat('deploymentFrequencyPerDay', { description: 'deployCount / days.' }),
    deployCount: t.exposeInt('deployCount', { description: 'Deploys with deployedAt in the period.' }),
    days: t.exposeFloat('days', { description: 'The length of the period in days (fractions allowed).' }),
    leadTimeForChangesSeconds: t.exposeFloat('leadTimeForChangesSeconds', {
      nullable: true,
      description:
        "Median seconds from a sent commit's timestamp to its deploy, over the commits of the period's deploys " +
        '(commits without a timestamp, or dated after the deploy, are left out); null when there are none. ' +
        'Exact for one service; for the whole organization (no serviceId) approximate, within 4.5 %: the lead times are ' +
        'kept per day in a histogram with log-scale buckets (eight a doubling), and the median is the middle of its bucket. ' +
        'Whole days of the period count the deploys ingested up to a few seconds ago (a worker adds them).',
    }),
    changeFailureRate: t.exposeFloat('changeFailureRate', {
      nullable: true,
      description: 'failedDeployCount / deployCount, in 0..1; null without deploys.',
    }),
    failedDeployCount: t.exposeInt('failedDeployCount', {
      description: 'Deploys of the period that failed: rolledBackCount + judgedCausedCount + topSuspectCount (each deploy counted once).',
    }),
    rolledBackCount: t.exposeInt('rolledBackCount', {
      description: 'Failed deploys that a later deploy rolled back, whether or not an incident named them.',
    }),
    judgedCausedCount: t.exposeInt('judgedCausedCount', {
      description: 'Failed deploys, not rolled back, that someone judged CAUSED for an incident.',
    }),
    topSuspectCount: t.exposeInt('topSuspectCount', {
      description:
        'Failed deploys, not rolled back nor judged CAUSED, that were the top-ranked suspect of an incident with no CAUSED suspect, and not DISMISSED.',
    }),
    bands: t.field({
      type: DoraBandsRef,
      description: "The DORA report's performance cluster of each key.",
      resolve: (metrics) => performanceBands(metrics),
    }),
    restoreIncidents: t.prismaField({
      type: ['Incident'],
      description:
        'The incidents whose restore times timeToRestoreSeconds takes the median of: resolved in the period (and not before they started), ' +
        `the latest resolved first, at most \`first\` (1..${MAX_DRILL_DOWN}).`,
      args: { first: t.arg.int({ required: true, defaultValue: 50, validate: drillDownSize }) },
      complexity: { field: 1, multiplier: MAX_DRILL_DOWN },
      resolve: (_query, period, { first }, context) => doraRestoreIncidents(context.prisma, period.organizationId, period.scope, first),
    }),
    timeToRestoreSeconds: t.exposeFloat('timeToRestoreSeconds', {
      nullable: true,
      description: 'Median seconds from startedAt to resolvedAt of the incidents resolved in the period; null when there are none.',
    }),
  }),
});

builder.queryField('dora', (t) =>
  t.withAuth({ organization: true }).field({
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
      doraPeriod(context.prisma, context.organization.id, { serviceId: serviceId == null ? null : serviceId, environment, from, to }),
  }),
);
