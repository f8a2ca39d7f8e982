// Change events that are not deploys (feature-flag flips, configuration changes), and the deploy
// timeline that shows them among the deploys.
import { parsePrismaCursor, formatPrismaCursor } from '@pothos/plugin-prisma';
import { resolveCursorConnection } from '@pothos/plugin-relay';
import { builder } from '../builder.ts';
import { viewerOf } from '../context.ts';
import { ownedWhere } from '../ownership.ts';
import type { ChangeEvent, Deploy } from '../../generated/prisma/client.ts';
import { isUuid } from '../../domain/ids.ts';
import { storableText } from '../../domain/input.ts';
import { loadTimeline } from '../../domain/timeline.ts';
import { DeployRef } from './Deploy.ts';

/** Newest first; the id breaks ties so that pages are stable. */
const CHANGE_ORDER = [{ changedAt: 'desc' }, { id: 'desc' }] as const satisfies object[];

export const ChangeEventRef = builder.prismaObject('ChangeEvent', {
  description:
    'A change that is not a deploy (a feature flag flipped, a configuration changed), reported to POST /api/ingest/change ' +
    "with the service's deploy token. It is a suspect of the incidents that follow it, like a deploy.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The `change_id` the ingest endpoint returned.' }),
    kind: t.exposeString('kind', { description: 'What changed, as a lower-case word: feature_flag, config, ...' }),
    summary: t.exposeString('summary'),
    environment: t.exposeString('environment', { nullable: true }),
    url: t.exposeString('url', { nullable: true }),
    changedAt: t.expose('changedAt', {
      type: 'DateTime',
      description: "When the change took effect: the payload's `changed_at`, else when it was received.",
    }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime', description: 'When Hookline received it.' }),
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
  changeEvents: t.prismaConnection(
    {
      authScopes: { organization: true },
      type: 'ChangeEvent',
      cursor: 'id',
      description: "The organization's change events, newest first (by changedAt), optionally of one service and environment.",
      args: { serviceId: t.arg.id({ required: false }), environment: t.arg.string(environmentArg) },
      resolve: (query, _root, { serviceId, environment }, context) => {
        // Another organization's (or a malformed) service id is a service without changes.
        if (serviceId != null && !isUuid(String(serviceId))) return [];
        return context.prisma.changeEvent.findMany({
          ...query,
          where: {
            organizationId: viewerOf(context).id,
            ...(serviceId != null ? { serviceId: String(serviceId) } : {}),
            ...(environment != null ? { environment } : {}),
          },
          orderBy: [...CHANGE_ORDER],
        });
      },
    },
    { name: 'ChangeEventConnection' },
    { name: 'ChangeEventEdge' },
  ),
  changeEvent: t.prismaField({
    authScopes: { organization: true },
    type: 'ChangeEvent',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.changeEvent.findFirst({ ...query, where });
    },
  }),
  timeline: t.connection(
    {
      authScopes: { organization: true },
      type: TimelineEntryRef,
      description:
        'The deploy timeline: deploys and change events together, newest first (by deployedAt or changedAt), ' +
        'optionally of one service and environment.',
      args: { serviceId: t.arg.id({ required: false }), environment: t.arg.string(environmentArg) },
      resolve: async (_root, args, context) => {
        const organizationId = viewerOf(context).id;
        const serviceId = args.serviceId == null ? null : String(args.serviceId);
        return resolveCursorConnection<Promise<(Deploy | ChangeEvent)[]>>(
          { args, toCursor: (entry: Deploy | ChangeEvent) => formatPrismaCursor(entry, 'id') },
          async ({ before, after, limit, inverted }): Promise<(Deploy | ChangeEvent)[]> => {
            if (serviceId !== null && !isUuid(serviceId)) return [];
            const entries = await loadTimeline(
              context.prisma,
              organizationId,
              { serviceId, environment: args.environment ?? null },
              { afterId: cursorId(after), beforeId: cursorId(before), limit, inverted },
            );
            const deployIds = entries.filter((e) => e.type === 'deploy').map((e) => e.id);
            const changeIds = entries.filter((e) => e.type === 'change').map((e) => e.id);
            const rows = new Map<string, Deploy | ChangeEvent>([
              ...(await context.prisma.deploy.findMany({ where: { id: { in: deployIds } } })).map((d) => [d.id, d] as const),
              ...(await context.prisma.changeEvent.findMany({ where: { id: { in: changeIds } } })).map((c) => [c.id, c] as const),
            ]);
            return entries.map((entry) => rows.get(entry.id)!);
          },
        );
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
