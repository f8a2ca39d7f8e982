// Alert sources of the caller's organization: list, create (the token returned once), rotate, delete;
// and the kinds of alert source there are.
import { authenticatedConnection, builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { AlertSourceKind as AlertSourceKindValues } from '../../generated/prisma/enums.ts';
import type { AlertSource } from '../../generated/prisma/client.ts';
import { ALERT_SOURCE_KIND_LIST, alertIngestPath, type AlertSourceKindEntry } from '../../domain/ingest/alert-source-kinds.ts';
import { createAlertSource, deleteAlertSource, rotateAlertSourceToken } from '../../domain/ingest/alert-sources.ts';
import { quoted } from '../../domain/shared/audit.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { isUuid } from '../../domain/shared/ids.ts';
import { audited } from '../audit.ts';
import { AlertConnection } from './Alert.ts';

const AlertSourceKind = builder.enumType(AlertSourceKindValues, {
  name: 'AlertSourceKind',
  description: 'What sends to an alert source, and so where and how (alertSourceKinds says the same, with labels).',
  values: Object.fromEntries(
    ALERT_SOURCE_KIND_LIST.map((entry) => [entry.kind, { description: `${entry.label}: ${ingestInstructions(entry)}.` }]),
  ),
});

/** Where a source of a kind sends, and with its token where. */
function ingestInstructions(entry: AlertSourceKindEntry<unknown>): string {
  const token = entry.token.in === 'authorization' ? 'Authorization: Bearer <token>' : `the token as ${entry.token.field}`;
  return `POST ${alertIngestPath(entry.kind)} with ${token}`;
}

const AlertSourceKindDescription = builder.objectRef<AlertSourceKindEntry<unknown>>('AlertSourceKindDescription').implement({
  description: 'A kind of alert source: what the dashboard calls it, and where its sender posts with the token.',
  fields: (t) => ({
    kind: t.field({ type: AlertSourceKind, resolve: (entry) => entry.kind }),
    label: t.exposeString('label', { description: 'Its name, e.g. "PagerDuty Events API v2".' }),
    detail: t.exposeString('detail', { description: 'What sends it, said beside the label where a kind is chosen.' }),
    ingestPath: t.string({ description: 'The path its sources send to, on this server.', resolve: (entry) => alertIngestPath(entry.kind) }),
    ingestInstructions: t.string({
      description: 'The request its sources make: the path, and where the token goes.',
      resolve: (entry) => ingestInstructions(entry),
    }),
  }),
});

builder.queryField('alertSourceKinds', (t) =>
  t.withAuth({ organization: true }).field({
    type: [AlertSourceKindDescription],
    description: 'Every kind of alert source, in the order to offer them (the first is the usual choice).',
    complexity: listOf(LIST_BOUNDS.alertSourceKinds),
    resolve: () => ALERT_SOURCE_KIND_LIST,
  }),
);

/** A source's alerts that named no service. */
const unroutedOf = (source: { id: string }) => ({ alertSourceId: source.id, incidentId: null });

export const AlertSourceRef = builder.prismaNode('AlertSource', {
  id: { field: 'id' },
  nullable: true,
  description: 'A monitoring system whose alerts open and resolve incidents. Its token (hlk_…) is shown once; only a hash is stored.',
  select: { id: true },
  fields: (t) => ({
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: AlertSourceKind }),
    ingestPath: t.string({
      description: 'The path it sends to, on this server.',
      select: { kind: true },
      resolve: (source) => alertIngestPath(source.kind),
    }),
    tokenPrefix: t.exposeString('tokenPrefix', {
      description: 'The first 12 characters of its live token (hlk_ and 8 more), to recognise it.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastReceivedAt: t.expose('lastReceivedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it last sent an accepted request; null if never.',
    }),
    unroutedAlertCount: t.relationCount('alerts', {
      description: 'How many of its alerts named no service (and are kept, see unroutedAlerts).',
      where: { incidentId: null },
    }),
    unroutedAlerts: t.prismaConnection(
      {
        type: 'Alert',
        description: 'Its alerts that named no service, newest first, each with what to change.',
        cursor: 'id',
        totalCount: (source, _args, context) => countRows(context.prisma.alert, unroutedOf(source), 'receivedAt'),
        resolve: (query, source, _args, context) =>
          context.prisma.alert.findMany({ ...query, where: unroutedOf(source), orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }] }),
      },
      AlertConnection,
    ),
  }),
});

builder.queryField('alertSources', (t) =>
  t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'AlertSource',
      cursor: 'id',
      description: "The organization's alert sources, newest first.",
      totalCount: (_root, _args, context) =>
        countRows(context.prisma.alertSource, { organizationId: context.organization.id }, 'createdAt'),
      resolve: (query, _root, _args, context) =>
        context.prisma.alertSource.findMany({
          ...query,
          where: { organizationId: context.organization.id },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    authenticatedConnection(builder.connectionObject({ type: AlertSourceRef, name: 'AlertSourceConnection' }, { name: 'AlertSourceEdge' })),
  ),
);

const AlertSourceWithToken = (name: string, description: string) =>
  builder.objectRef<{ alertSource: AlertSource; token: string }>(name).implement({
    description,
    fields: (t) => ({
      alertSource: t.prismaField({
        type: 'AlertSource',
        resolve: (query, payload, _args, context) =>
          context.prisma.alertSource.findUniqueOrThrow({ ...query, where: { id: payload.alertSource.id } }),
      }),
      token: t.exposeString('token', { description: 'The token itself (hlk_…). It is shown only here, never again.' }),
    }),
  });

const CreateAlertSourcePayload = AlertSourceWithToken('CreateAlertSourcePayload', 'A new alert source and its token.');
const RotateAlertSourceTokenPayload = AlertSourceWithToken(
  'RotateAlertSourceTokenPayload',
  'The alert source and its new token; the previous token is refused from now on.',
);

builder.mutationFields((t) => ({
  createAlertSource: t.withAuth({ organization: true }).field({
    type: CreateAlertSourcePayload,
    description: 'Makes an alert source (name: 1..200 characters) and its token, shown only in the answer.',
    args: { name: t.arg.string({ required: true }), kind: t.arg({ type: AlertSourceKind, required: true }) },
    resolve: (_root, args, context) =>
      audited(
        context,
        'alertSource.create',
        (scoped) => createAlertSource(scoped.prisma, scoped.organization.id, args),
        ({ alertSource }) => ({
          objectId: alertSource.id,
          summary: `Created alert source ${quoted(alertSource.name)} (${alertSource.kind})`,
        }),
      ),
  }),
  rotateAlertSourceToken: t.withAuth({ organization: true }).field({
    type: RotateAlertSourceTokenPayload,
    description: "Replaces the source's token: the previous one is refused from the moment this returns.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      audited(
        context,
        'alertSource.rotateToken',
        (scoped) => rotateAlertSourceToken(scoped.prisma, scoped.organization.id, id),
        ({ alertSource }) => ({ objectId: alertSource.id, summary: `Rotated the token of alert source ${quoted(alertSource.name)}` }),
      ),
  }),
  deleteAlertSource: t.withAuth({ organization: true }).id({
    description:
      'Deletes the source: its token is refused and its unrouted alerts go; its incidents stay, with their alerts. Returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, context) => {
      const deleted = await audited(
        context,
        'alertSource.delete',
        async (scoped) => {
          const where = { id, organizationId: scoped.organization.id };
          const source = isUuid(id) ? await scoped.prisma.alertSource.findFirst({ where, select: { name: true } }) : null;
          return { id: await deleteAlertSource(scoped.prisma, scoped.organization.id, id), name: source?.name };
        },
        (source) => ({ objectId: source.id, summary: `Deleted alert source ${quoted(source.name)}` }),
      );
      return deleted.id;
    },
  }),
}));
