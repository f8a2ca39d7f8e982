import { builder } from '../builder.ts';
import { AlertStatus as AlertStatusValues } from '../../generated/prisma/enums.ts';

export const AlertStatus = builder.enumType(AlertStatusValues, {
  name: 'AlertStatus',
  description: 'FIRING while the source reports the alert; RESOLVED once it reports it resolved.',
});

export const AlertRef = builder.prismaNode('Alert', {
  id: { field: 'id' },
  nullable: true,
  description:
    'An alert from an alert source, as the source last reported it: of an incident, or unrouted (it named no service; unroutedReason says what to change).',
  fields: (t) => ({
    fingerprint: t.exposeString('fingerprint', { description: "Alertmanager's fingerprint of its labels, or the PagerDuty dedup_key." }),
    status: t.expose('status', { type: AlertStatus }),
    labels: t.expose('labels', {
      type: 'JSON',
      description: 'Its labels, name to value (PagerDuty: severity, source, component, group, class).',
    }),
    annotations: t.expose('annotations', {
      type: 'JSON',
      description: 'Its annotations, name to value (PagerDuty: summary and custom_details).',
    }),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime', nullable: true, description: 'When it stopped firing; null while it fires.' }),
    generatorURL: t.exposeString('generatorUrl', { nullable: true, description: 'Where it comes from (the rule, PagerDuty: client_url).' }),
    unroutedReason: t.exposeString('unroutedReason', {
      nullable: true,
      description: 'Why it routed to no service, and what to change; null when routed.',
    }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime', description: 'When Hookline first received it.' }),
    incident: t.relation('incident', { nullable: true }),
    alertSource: t.relation('alertSource', { nullable: true, description: 'null once the source is deleted.' }),
  }),
});

export const AlertConnection = builder.connectionObject({ type: AlertRef, name: 'AlertConnection' }, { name: 'AlertEdge' });
