import { backlogged } from '../backlog.ts';
import { authenticatedConnection, builder, LIST_BOUNDS, listOf } from '../builder.ts';
import type { AuthenticatedContext } from '../context.ts';
import { ownedWhere } from '../ownership.ts';
import { AlertConnection } from './Alert.ts';
import {
  IncidentStatus as IncidentStatusValues,
  Severity as SeverityValues,
  SuspectVerdict as SuspectVerdictValues,
} from '../../generated/prisma/enums.ts';
import { quoted } from '../../domain/shared/audit.ts';
import { countRows } from '../../domain/shared/counts.ts';
import { actorOfViewer } from '../../auth/caller.ts';
import { audited } from '../audit.ts';
import { ActorRef, loadActor } from './Actor.ts';
import { isUuid } from '../../domain/shared/ids.ts';
import { storableDate } from '../../domain/shared/input.ts';
import { HOUR_MS } from '../../domain/correlation/correlation.ts';
import {
  markSuspect,
  MAX_AFFECTED_SERVICES,
  openIncident,
  orderSuspects,
  setIncidentLookback,
  transitionIncident,
} from '../../domain/correlation/incidents.ts';
import { mainReason, weighReasons, type SuspectReason, type WeighedReason } from '../../domain/correlation/suspects.ts';

export const IncidentStatus = builder.enumType(IncidentStatusValues, {
  name: 'IncidentStatus',
  description: 'OPEN → ACKNOWLEDGED → RESOLVED; OPEN → RESOLVED is allowed; there is no way back.',
});

export const Severity = builder.enumType(SeverityValues, {
  name: 'Severity',
  description: 'SEV1 is the most severe; SEV3 when none is given.',
});

export const SuspectVerdict = builder.enumType(SuspectVerdictValues, {
  name: 'SuspectVerdict',
  description: "A person's judgement of a suspect deploy: it CAUSED the incident, or it was DISMISSED. It wins over the score.",
});

/** Incidents: most recently opened first; the id breaks ties so that pages are stable. */
export const INCIDENT_ORDER = [{ openedAt: 'desc' }, { id: 'desc' }] as const satisfies object[];

const IncidentOrder = builder.enumType('IncidentOrder', {
  description: 'How a list of incidents is sorted, newest first.',
  values: {
    OPENED_AT: { description: 'When it was opened in Hookline (the default).' },
    STARTED_AT: { description: 'When the problem began (an alert or a person can date it back): the order of a timeline.' },
  },
});

const INCIDENT_ORDERS = {
  OPENED_AT: INCIDENT_ORDER,
  STARTED_AT: [{ startedAt: 'desc' }, { id: 'desc' }],
} as const satisfies Record<string, object[]>;

export const IncidentRef = builder.prismaNode('Incident', {
  id: { field: 'id' },
  nullable: true,

  description: 'Something broken in a service, and the deploys that may have caused it.',
  fields: (t) => ({
    title: t.exposeString('title'),
    severity: t.expose('severity', { type: Severity }),
    environment: t.exposeString('environment', { nullable: true }),
    status: t.expose('status', { type: IncidentStatus }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      description: 'When the problem began; suspects are the deploys up to this moment.',
    }),
    lookbackHours: t.float({
      description: "How far before startedAt its suspects are looked for, in hours: its own, else the server's INCIDENT_LOOKBACK_HOURS.",
      select: { lookbackHours: true },
      resolve: (incident, _args, context) => incident.lookbackHours ?? context.lookbackMs / HOUR_MS,
    }),
    openedAt: t.expose('openedAt', { type: 'DateTime', description: 'When the incident was opened in Hookline.' }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    acknowledgedBy: t.field({
      type: ActorRef,
      nullable: true,
      description:
        'Who acknowledged it: an API token, its alert source, or Hookline (System) for incidents acknowledged before this was recorded. ' +
        'Null while it is not acknowledged, or when that actor is gone.',
      resolve: (incident, _args, context) =>
        loadActor(context, incident.organizationId, incident.acknowledgedByKind, incident.acknowledgedById),
    }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    resolvedBy: t.field({
      type: ActorRef,
      nullable: true,
      description:
        'Who resolved it: an API token, its alert source (every alert resolved), or Hookline (System) for incidents resolved before ' +
        'this was recorded. Null while it is not resolved, or when that actor is gone.',
      resolve: (incident, _args, context) => loadActor(context, incident.organizationId, incident.resolvedByKind, incident.resolvedById),
    }),
    service: t.relation('service', { description: 'The service it is filed under (the first of affectedServices).' }),
    affectedServices: t.prismaField({
      type: ['Service'],
      description: `Every service it affects: its service first, then the others (openIncident's affectedServiceIds), by name.`,
      complexity: listOf(MAX_AFFECTED_SERVICES + 1),
      select: { serviceId: true, alsoAffectedServiceIds: true },
      resolve: async (query, incident, _args, context) => {
        const services = await context.prisma.service.findMany({
          ...query,
          where: { id: { in: [incident.serviceId, ...incident.alsoAffectedServiceIds] } },
          orderBy: { name: 'asc' },
        });
        return [...services.filter((s) => s.id === incident.serviceId), ...services.filter((s) => s.id !== incident.serviceId)];
      },
    }),
    alertSource: t.relation('alertSource', {
      nullable: true,
      description: 'The alert source that opened it; null when a person opened it, or once the source is deleted.',
    }),
    alerts: t.prismaConnection(
      {
        type: 'Alert',
        cursor: 'id',
        description: 'The alerts that opened it and joined it, earliest first; empty for an incident a person opened.',
        totalCount: (incident, _args, context) => countRows(context.prisma.alert, { incidentId: incident.id }, 'startsAt'),
        resolve: (query, incident, _args, context) =>
          context.prisma.alert.findMany({ ...query, where: { incidentId: incident.id }, orderBy: [{ startsAt: 'asc' }, { id: 'asc' }] }),
      },
      AlertConnection,
    ),
    suspects: t.field({
      type: [SuspectRef],
      description:
        `The deploys and change events that may have caused the incident (the ${LIST_BOUNDS.suspects} best), ranked when it was opened ` +
        'and again, while it is open, when a change dated before its start is reported late. A verdict wins over the score: ' +
        'suspects judged CAUSED come first, then the unjudged ones, then the DISMISSED ones, each group by rank.',
      complexity: listOf(LIST_BOUNDS.suspects),
      // Loaded with the incident (no query per incident in a list), then ordered by verdict.
      select: (_args, _context, nestedSelection) => ({
        suspects: nestedSelection({ orderBy: { rank: 'asc' }, take: LIST_BOUNDS.suspects }),
      }),
      resolve: (incident) => orderSuspects(incident.suspects),
    }),
  }),
});

const SuspectReasonRef = builder.objectRef<WeighedReason>('SuspectReason').implement({
  description: "One piece of evidence behind a suspect's score.",
  fields: (t) => ({
    code: t.exposeString('code', {
      description:
        'same_service, upstream_dependency, other_service, environment_match, environment_unknown, environment_mismatch, recency, ' +
        'last_before_incident, rolled_back, change_size, redeploy, change_event, reverted, no_change, rollout, trouble_after or prior.',
    }),
    detail: t.exposeString('detail', { description: 'The same, for people.' }),
    effect: t.exposeFloat('effect', {
      nullable: true,
      description:
        'The score points it added (positive) or took away (negative): the score minus what it would be without this reason ' +
        '(a factor at 1, evidence left out). Null for suspects ranked before effects were kept.',
    }),
  }),
});

const reasonsOf = (suspect: { reasons: unknown; reasonEffects: unknown }) =>
  weighReasons(suspect.reasons as SuspectReason[], suspect.reasonEffects as number[]);

const SuspectRef = builder.prismaObject('IncidentSuspect', {
  name: 'Suspect',
  description:
    'A deploy or a change event that may have caused an incident, with its score and the reasons behind it. ' +
    'Exactly one of deploy and change is set.',
  fields: (t) => ({
    deploy: t.relation('deploy', { nullable: true, description: 'The suspect deploy; null when the suspect is a change event.' }),
    change: t.relation('changeEvent', { nullable: true, description: 'The suspect change event; null when the suspect is a deploy.' }),
    incident: t.relation('incident'),
    rank: t.exposeInt('rank', {
      description:
        'Its place in the latest ranking (1: the most likely). Suspects are ranked when the incident opens and again while it is ' +
        'open, when a deploy or change event dated before its start arrives late; a suspect someone judged keeps its place in the list.',
    }),
    score: t.exposeFloat('score', { description: 'How likely it caused the incident, in 0..1.' }),
    reasons: t.field({
      type: [SuspectReasonRef],
      complexity: listOf(LIST_BOUNDS.reasons),
      description:
        'In a fixed order (relation, environment, time, standing, size, …, prior); mainReason is the one that decided the score.',
      resolve: reasonsOf,
    }),
    mainReason: t.field({
      type: SuspectReasonRef,
      nullable: true,
      description:
        'The reason that moved the score most, up or down: an environment mismatch, a rollback, a dependency, a verdict… ' +
        'The first reason for suspects ranked before effects were kept; null without reasons (a change named by a verdict, not ranked yet).',
      resolve: (suspect) => mainReason(reasonsOf(suspect)),
    }),
    verdict: t.expose('verdict', { type: SuspectVerdict, nullable: true }),
    verdictAt: t.expose('verdictAt', { type: 'DateTime', nullable: true }),
  }),
});

/** The incidents `incidents(status, serviceId)` lists; null: none (another organization's or a malformed service id). */
function incidentsWhere(
  context: AuthenticatedContext,
  { status, serviceId }: { status?: IncidentStatusValues | null; serviceId?: string | null },
) {
  if (serviceId != null && !isUuid(serviceId)) return null;
  return {
    organizationId: context.organization.id,
    ...(status ? { status } : {}),
    // An incident is listed under each service it affects.
    ...(serviceId != null ? { OR: [{ serviceId }, { alsoAffectedServiceIds: { has: serviceId } }] } : {}),
  };
}

export const IncidentConnection = builder.connectionObject({ type: IncidentRef, name: 'IncidentConnection' }, { name: 'IncidentEdge' });

builder.queryFields((t) => ({
  incidents: t.withAuth({ organization: true }).prismaConnection(
    {
      type: 'Incident',
      cursor: 'id',
      description: "The organization's incidents, most recently opened (or started) first, optionally by status and service.",
      args: {
        status: t.arg({ type: IncidentStatus, required: false }),
        serviceId: t.arg.id({ required: false }),
        orderBy: t.arg({ type: IncidentOrder, required: false, defaultValue: 'OPENED_AT' }),
      },
      totalCount: (_root, args, context) => {
        const where = incidentsWhere(context, args);
        return where ? countRows(context.prisma.incident, where, 'openedAt') : 0;
      },
      resolve: (query, _root, args, context) => {
        const where = incidentsWhere(context, args);
        return where
          ? context.prisma.incident.findMany({ ...query, where, orderBy: [...INCIDENT_ORDERS[args.orderBy ?? 'OPENED_AT']] })
          : [];
      },
    },
    authenticatedConnection(IncidentConnection),
  ),
  incident: t.withAuth({ organization: true }).prismaField({
    type: 'Incident',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, context) => {
      const where = ownedWhere(context, id);
      return where && context.prisma.incident.findFirst({ ...query, where });
    },
  }),
}));

builder.mutationFields((t) => ({
  openIncident: t.withAuth({ organization: true }).prismaField({
    type: 'Incident',
    description:
      'Opens an incident of a service and ranks the deploys and change events of the look-back window before startedAt ' +
      '(lookbackHours, 1 to 720; default INCIDENT_LOOKBACK_HOURS) as its suspects; emits incident.opened with them. startedAt ' +
      'defaults to now (at most 5 minutes ahead); severity to SEV3.',
    args: {
      serviceId: t.arg.id({ required: true }),
      title: t.arg.string({ required: true }),
      severity: t.arg({ type: Severity, required: false }),
      environment: t.arg.string({ required: false }),
      startedAt: t.arg({ type: 'DateTime', required: false }),
      lookbackHours: t.arg.int({ required: false }),
      affectedServiceIds: t.arg.idList({
        required: false,
        description: `Other services of the organization it affects (at most ${MAX_AFFECTED_SERVICES}): a shared outage, ranked against the union of their dependency graphs.`,
      }),
    },
    resolve: async (query, _root, args, context) => {
      const incident = await audited(
        context,
        'incident.open',
        (scoped) =>
          openIncident(scoped, scoped.organization.id, actorOfViewer(scoped.organization), { ...args, serviceId: args.serviceId }),
        (opened) => ({ objectId: opened.id, summary: `Opened incident ${quoted(opened.title)} (${opened.severity})` }),
      );
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incident.id } });
    },
  }),
  acknowledgeIncident: t.withAuth({ organization: true }).prismaField({
    type: 'Incident',
    description: 'OPEN → ACKNOWLEDGED; emits incident.acknowledged. Any other status: BAD_USER_INPUT, nothing changes.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      const incident = await audited(
        context,
        'incident.acknowledge',
        (scoped) => transitionIncident(scoped, scoped.organization.id, id, 'acknowledge', { actor: actorOfViewer(scoped.organization) }),
        (acknowledged) => ({ objectId: acknowledged.id, summary: `Acknowledged incident ${quoted(acknowledged.title)}` }),
      );
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incident.id } });
    },
  }),
  resolveIncident: t.withAuth({ organization: true }).prismaField({
    type: 'Incident',
    description:
      'OPEN or ACKNOWLEDGED → RESOLVED; emits incident.resolved. A RESOLVED incident: BAD_USER_INPUT, nothing changes. resolvedAt ' +
      '(default now) dates an incident entered afterwards: not before it started, not in the future (BAD_USER_INPUT on resolvedAt).',
    args: { id: t.arg.id({ required: true }), resolvedAt: t.arg({ type: 'DateTime', required: false, validate: storableDate.nullish() }) },
    resolve: async (query, _root, { id, resolvedAt }, context) => {
      const incident = await audited(
        context,
        'incident.resolve',
        (scoped) =>
          transitionIncident(scoped, scoped.organization.id, id, 'resolve', {
            actor: actorOfViewer(scoped.organization),
            at: resolvedAt,
            field: 'resolvedAt',
          }),
        (resolved) => ({ objectId: resolved.id, summary: `Resolved incident ${quoted(resolved.title)}` }),
      );
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incident.id } });
    },
  }),
  setIncidentLookback: t.withAuth({ organization: true }).prismaField({
    type: 'Incident',
    description:
      "Sets how far before its start an incident's suspects are looked for (1 to 720 hours; null: INCIDENT_LOOKBACK_HOURS) and " +
      'ranks it again, as a late report does (suspects someone judged stay). For a slow leak found after the incident opened.',
    args: { id: t.arg.id({ required: true }), lookbackHours: t.arg.int({ required: false }) },
    resolve: async (query, _root, { id, lookbackHours }, context) => {
      await audited(
        context,
        'incident.setLookback',
        (scoped) => setIncidentLookback(scoped, scoped.organization.id, id, lookbackHours ?? null, actorOfViewer(scoped.organization)),
        () => ({
          objectId: id,
          summary: `Set the look-back of incident ${id} to ${lookbackHours == null ? 'the default' : `${lookbackHours} hours`}`,
        }),
      );
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  markSuspect: t.withAuth({ organization: true }).prismaField({
    type: 'Incident',
    description:
      "Records a person's verdict on a deploy (deployId) or a change event (changeId) of the organization, replacing an earlier " +
      'one. It need not be a ranked suspect: one older than the look-back window or below the best ranks joins the suspects ' +
      '(the incident is ranked again with it); one after the incident started is BAD_USER_INPUT. It wins over the score: ' +
      'Incident.suspects lists CAUSED first and DISMISSED last, DORA counts a CAUSED deploy as failed, and later rankings of ' +
      'other incidents learn from it (the prior reason).',
    args: {
      incidentId: t.arg.id({ required: true }),
      deployId: t.arg.id({ required: false }),
      changeId: t.arg.id({ required: false }),
      verdict: t.arg({ type: SuspectVerdict, required: true }),
    },
    resolve: async (query, _root, args, context) => {
      const incidentId = args.incidentId;
      const subject = { deployId: args.deployId == null ? null : args.deployId, changeId: args.changeId == null ? null : args.changeId };
      await audited(
        context,
        'incident.markSuspect',
        (scoped) => markSuspect(scoped, scoped.organization.id, incidentId, subject, args.verdict, actorOfViewer(scoped.organization)),
        () => ({
          objectId: incidentId,
          summary: `Judged ${subject.deployId ? `deploy ${subject.deployId}` : `change event ${subject.changeId}`} ${args.verdict} in incident ${incidentId}`,
        }),
      );
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incidentId } });
    },
  }),
}));

builder.subscriptionField('incidentUpdated', (t) =>
  t.withAuth({ organization: true }).prismaField({
    type: 'Incident',
    nullable: true,
    description:
      'Every new incident of your organization and every change of one (acknowledged, resolved, its suspects ranked again or judged), ' +
      'as the incident is when the change is read, in commit order; null when it was deleted since (with its ' +
      'service). Changes committed while you were not subscribed are not replayed: read the incidents first, then apply these.',
    subscribe: (_root, _args, context) => backlogged(context.incidentChanges.subscribe(context.organization.id)),
    resolve: (query, change, _args, context) => context.prisma.incident.findUnique({ ...query, where: { id: change.id } }),
  }),
);
