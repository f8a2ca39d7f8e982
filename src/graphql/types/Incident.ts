import { builder, LIST_BOUNDS, listOf } from '../builder.ts';
import { viewerOf } from '../context.ts';
import { ownedWhere } from '../ownership.ts';
import {
  IncidentStatus as IncidentStatusValues,
  Severity as SeverityValues,
  SuspectVerdict as SuspectVerdictValues,
} from '../../generated/prisma/enums.ts';
import { isUuid } from '../../domain/ids.ts';
import { markSuspect, openIncident, orderSuspects, transitionIncident } from '../../domain/incidents.ts';
import type { SuspectReason } from '../../domain/suspects.ts';

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

export const IncidentRef = builder.prismaObject('Incident', {
  description: 'Something broken in a service, and the deploys that may have caused it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    severity: t.expose('severity', { type: Severity }),
    environment: t.exposeString('environment', { nullable: true }),
    status: t.expose('status', { type: IncidentStatus }),
    startedAt: t.expose('startedAt', {
      type: 'DateTime',
      description: 'When the problem began; suspects are the deploys up to this moment.',
    }),
    openedAt: t.expose('openedAt', { type: 'DateTime', description: 'When the incident was opened in Hookline.' }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    service: t.relation('service'),
    suspects: t.field({
      type: [SuspectRef],
      description:
        `The deploys and change events that may have caused the incident (the ${LIST_BOUNDS.suspects} best), ranked when it was opened ` +
        'and again, while it is open, when a change dated before its start is reported late. A verdict wins over the score: ' +
        'suspects judged CAUSED come first, then the unjudged ones, then the DISMISSED ones, each group by rank.',
      complexity: listOf(LIST_BOUNDS.suspects),
      // Loaded with the incident (no query per incident in a list), then ordered by verdict.
      select: (_args, _context, nestedSelection) => ({ suspects: nestedSelection({ orderBy: { rank: 'asc' }, take: LIST_BOUNDS.suspects }) }),
      resolve: (incident) => orderSuspects(incident.suspects),
    }),
  }),
});

const SuspectReasonRef = builder.objectRef<SuspectReason>('SuspectReason').implement({
  description: 'One piece of evidence behind a suspect\'s score.',
  fields: (t) => ({
    code: t.exposeString('code', {
      description:
        'same_service, upstream_dependency, other_service, environment_match, environment_unknown, environment_mismatch, recency, ' +
        'last_before_incident, rolled_back, change_size, redeploy, change_event or prior.',
    }),
    detail: t.exposeString('detail', { description: 'The same, for people.' }),
  }),
});

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
      resolve: (suspect) => suspect.reasons as unknown as SuspectReason[],
    }),
    verdict: t.expose('verdict', { type: SuspectVerdict, nullable: true }),
    verdictAt: t.expose('verdictAt', { type: 'DateTime', nullable: true }),
  }),
});

export const IncidentConnection = builder.connectionObject({ type: IncidentRef, name: 'IncidentConnection' }, { name: 'IncidentEdge' });

builder.queryFields((t) => ({
  incidents: t.prismaConnection(
    {
      authScopes: { organization: true },
      type: 'Incident',
      cursor: 'id',
      description: "The organization's incidents, most recently opened first, optionally by status and service.",
      args: {
        status: t.arg({ type: IncidentStatus, required: false }),
        serviceId: t.arg.id({ required: false }),
      },
      resolve: (query, _root, { status, serviceId }, context) => {
        // Another organization's (or a malformed) service id is a service without incidents.
        if (serviceId != null && !isUuid(String(serviceId))) return [];
        return context.prisma.incident.findMany({
          ...query,
          where: {
            organizationId: viewerOf(context).id,
            ...(status ? { status } : {}),
            ...(serviceId != null ? { serviceId: String(serviceId) } : {}),
          },
          orderBy: [...INCIDENT_ORDER],
        });
      },
    },
    IncidentConnection,
  ),
  incident: t.prismaField({
    authScopes: { organization: true },
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
  openIncident: t.prismaField({
    authScopes: { organization: true },
    type: 'Incident',
    description:
      'Opens an incident of a service and ranks the deploys of the lookback window (INCIDENT_LOOKBACK_HOURS) before startedAt ' +
      'as its suspects; emits incident.opened with them. startedAt defaults to now (at most 5 minutes ahead); severity to SEV3.',
    args: {
      serviceId: t.arg.id({ required: true }),
      title: t.arg.string({ required: true }),
      severity: t.arg({ type: Severity, required: false }),
      environment: t.arg.string({ required: false }),
      startedAt: t.arg({ type: 'DateTime', required: false }),
    },
    resolve: async (query, _root, args, context) => {
      const incident = await openIncident(context, viewerOf(context).id, { ...args, serviceId: String(args.serviceId) });
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incident.id } });
    },
  }),
  acknowledgeIncident: t.prismaField({
    authScopes: { organization: true },
    type: 'Incident',
    description: 'OPEN → ACKNOWLEDGED; emits incident.acknowledged. Any other status: BAD_USER_INPUT, nothing changes.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      const incident = await transitionIncident(context, viewerOf(context).id, String(id), 'acknowledge');
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incident.id } });
    },
  }),
  resolveIncident: t.prismaField({
    authScopes: { organization: true },
    type: 'Incident',
    description: 'OPEN or ACKNOWLEDGED → RESOLVED; emits incident.resolved. A RESOLVED incident: BAD_USER_INPUT, nothing changes.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, context) => {
      const incident = await transitionIncident(context, viewerOf(context).id, String(id), 'resolve');
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incident.id } });
    },
  }),
  markSuspect: t.prismaField({
    authScopes: { organization: true },
    type: 'Incident',
    description:
      "Records a person's verdict on one of the incident's suspects, a deploy (deployId) or a change event (changeId), " +
      'replacing an earlier one. It wins over the score: Incident.suspects lists CAUSED first and DISMISSED last, DORA counts ' +
      'a CAUSED deploy as failed, and later rankings of other incidents learn from it (the prior reason).',
    args: {
      incidentId: t.arg.id({ required: true }),
      deployId: t.arg.id({ required: false }),
      changeId: t.arg.id({ required: false }),
      verdict: t.arg({ type: SuspectVerdict, required: true }),
    },
    resolve: async (query, _root, args, context) => {
      const incidentId = String(args.incidentId);
      const subject = { deployId: args.deployId == null ? null : String(args.deployId), changeId: args.changeId == null ? null : String(args.changeId) };
      await markSuspect(context.prisma, viewerOf(context).id, incidentId, subject, args.verdict);
      return context.prisma.incident.findUniqueOrThrow({ ...query, where: { id: incidentId } });
    },
  }),
}));
