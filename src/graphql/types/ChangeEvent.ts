// Change events that are not deploys (feature-flag flips, configuration changes), and the deploy
// timeline that shows them among the deploys.
import { parsePrismaCursor, formatPrismaCursor } from '@pothos/plugin-prisma';
import { resolveCursorConnection } from '@pothos/plugin-relay';
import { authenticatedConnection, builder } from '../builder.ts';
import { ownedWhere } from '../ownership.ts';
import type { ChangeEvent, Deploy } from '../../generated/prisma/client.ts';
import { environmentSpellings } from '../../domain/correlation/environments.ts';
import { isUuid } from '../../domain/shared/ids.ts';
import { storableText } from '../../domain/shared/input.ts';
import { countTimeline, loadTimeline } from '../../domain/ingest/timeline.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { DeployRef, serviceEnvironmentWhere } from './Deploy.ts';

/** Newest first; the id breaks ties so that pages are stable. */
const CHANGE_ORDER = [{ changedAt: 'desc' }, { id: 'desc' }] as const satisfies object[];

export const ChangeEventRef = builder.prismaNode('ChangeEvent', {
  id: { field: 'id', description: 'The `change_id` the ingest endpoint returned.' },
  nullable: true,
  description:
    'A change that is not a deploy (a feature flag flipped, a configuration changed), reported to POST /api/ingest/change ' +
    "with the service's deploy token. It is a suspect of the incidents that follow it, like a deploy.",
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'What changed, as a lower-case word: feature_flag, config, ...' }),
    summary: t.exposeString('summary'),
    environment: t.exposeString('environment', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
    changedAt: t.expose('changedAt', {
      type: 'DateTime',
      description: "When the change took effect: the payload's `changed_at`, else when it was received.",
    }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime', description: 'When Hookline received it.' }),
    subject: t.exposeString('subject', {
      nullable: true,
      description:
        'The flag or key that changed. With value, it tells reverts apart: a change that sets a value its subject had before an earlier change reverts it.',
    }),
    previous: t.expose('previous', { type: 'JSON', nullable: true, description: 'The value before the change, as sent.' }),
    value: t.expose('value', { type: 'JSON', nullable: true, description: 'The value after the change, as sent.' }),
    actor: t.exposeString('actor', { nullable: true, description: 'Who made the change.' }),
    service: t.relation('service'),
  }),
});

const TimelineEntryRef = builder.unionType('TimelineEntry', {
  description: 'A deploy or a change event, as the deploy timeline lists them.',
  types: [DeployRef, ChangeEventRef],
  resolveType: (entry) => ('commitSha' in entry ? DeployRef : ChangeEventRef),
});

/** A filter argument compared with stored text, so it must be text PostgreSQL can take (else BAD_USER_INPUT). */
const environmentArg = { required: false, validate: storableText().nullish() } as const;

builder.queryFields((t) => ({
  changeEvents: t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'ChangeEvent',
      cursor: 'id',
      description:
        "The organization's change events, newest first (by changedAt), optionally of one service and environment (matched " +
        "case-insensitively and through the organization's environment aliases).",
      args: { serviceId: t.arg.id({ required: false }), environment: t.arg.string(environmentArg) },
      totalCount: async (_root, args, context) => {
        const where = await serviceEnvironmentWhere(context, args);
        return where ? countRows(context.prisma.changeEvent, where, 'changedAt') : 0;
      },
      resolve: async (query, _root, args, context) => {
        const where = await serviceEnvironmentWhere(context, args);
        return where ? context.prisma.changeEvent.findMany({ ...query, where, orderBy: [...CHANGE_ORDER] }) : [];
      },
    },
    authenticatedConnection(builder.connectionObject({ type: ChangeEventRef, name: 'ChangeEventConnection' }, { name: 'ChangeEventEdge' })),
  ),
  changeEvent: t.withAuth({ organization: true }).prismaField({
    type: 'ChangeEvent',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.changeEvent.findFirst({ ...query, where });
    },
  }),
  timeline: t.withAuth({ organization: true }).connection(
    {
      type: TimelineEntryRef,
      description:
        'The deploy timeline: deploys and change events together, newest first (by deployedAt or changedAt), ' +
        "optionally of one service and environment (matched case-insensitively and through the organization's environment aliases).",
      args: { serviceId: t.arg.id({ required: false }), environment: t.arg.string(environmentArg) },
      resolve: async (_root, args, context) => {
        const organizationId = context.organization.id;
        const serviceId = args.serviceId == null ? null : args.serviceId;
        const environments = args.environment == null ? null : await environmentSpellings(context.prisma, organizationId, args.environment);
        const filter = { serviceId, environments };
        const page = await resolveCursorConnection<Promise<(Deploy | ChangeEvent)[]>>(
          { args, toCursor: (entry: Deploy | ChangeEvent) => formatPrismaCursor(entry, 'id') },
          async ({ before, after, limit, inverted }): Promise<(Deploy | ChangeEvent)[]> => {
            if (serviceId !== null && !isUuid(serviceId)) return [];
            const entries = await loadTimeline(context.prisma, organizationId, filter, {
              afterId: cursorId(after),
              beforeId: cursorId(before),
              limit,
              inverted,
            });
            const deployIds = entries.filter((e) => e.type === 'deploy').map((e) => e.id);
            const changeIds = entries.filter((e) => e.type === 'change').map((e) => e.id);
            const rows = new Map<string, Deploy | ChangeEvent>([
              ...(await context.prisma.deploy.findMany({ where: { id: { in: deployIds } } })).map((d) => [d.id, d] as const),
              ...(await context.prisma.changeEvent.findMany({ where: { id: { in: changeIds } } })).map((c) => [c.id, c] as const),
            ]);
            return entries.map((entry) => rows.get(entry.id)!);
          },
        );
        return {
          ...page,
          totalCount: () => (serviceId !== null && !isUuid(serviceId) ? 0 : countTimeline(context.prisma, organizationId, filter)),
        };
      },
    },
    { name: 'TimelineConnection' },
    { name: 'TimelineEdge' },
  ),
}));

/** The row id of a cursor (its ownership was checked before the query ran). */
function cursorId(cursor: string | undefined): string | null {
  return cursor === undefined ? null : String(parsePrismaCursor(cursor));
}
