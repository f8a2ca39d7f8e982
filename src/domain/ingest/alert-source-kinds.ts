// The kinds of alert source, one entry each: where its sender posts, where its hlk_ token travels,
// how its body is checked and read into alerts, what it is answered (in the sender's own protocol),
// and what the dashboard calls it. The REST routes, the GraphQL AlertSourceKind and the dashboard
// are made from these entries; the Prisma enum AlertSourceKind stores the kind, and the compiler
// requires one entry per value of it.
import type { z } from 'zod';
import type { AlertSourceKind } from '../../generated/prisma/client.ts';
import type { FieldError } from '../shared/errors.ts';
import type { Validated } from '../shared/input.ts';
import type { IncidentDependencies } from '../correlation/incidents.ts';
import {
  alertmanagerBodySchema,
  alertmanagerGroup,
  pagerDutyEventSchema,
  validateAlertmanagerBody,
  validatePagerDutyEvent,
  type AlertGroup,
  type PagerDutyEvent,
} from './alert-payloads.ts';
import { receiveAlertGroup, receivePagerDutyEvent, type AlertOutcome, type AlertSourceClaim } from './alerts.ts';

/** Every alert route is under this path. */
export const ALERT_INGEST_PATH_PREFIX = '/api/ingest/alerts/';

/** Where a sender puts the token: `Authorization: Bearer hlk_…`, or a field of the JSON body. */
export type TokenPlacement = { in: 'authorization' } | { in: 'body'; field: string };

/** An answer in the sender's protocol: its HTTP status and JSON body. */
export interface AlertAnswer {
  status: number;
  body: unknown;
}

// The methods below are declared as methods, so that an entry for one payload type stands in the
// list of entries for any (TypeScript checks method parameters bivariantly).
export interface AlertSourceKindEntry<Payload, Kind extends AlertSourceKind = AlertSourceKind> {
  kind: Kind;
  /** Its route: POST ALERT_INGEST_PATH_PREFIX + path. */
  path: string;
  token: TokenPlacement;
  /** What a request without a live token of this kind is told (401 invalid_alert_token). */
  invalidTokenMessage: string;
  /** What the dashboard calls it. */
  label: string;
  /** Said beside the label where a kind is chosen: what sends it. */
  detail: string;
  /** The body as its sender documents it. */
  bodySchema: z.ZodType;
  /** The body checked, and read as of `now`; or every field at fault. */
  parse(body: unknown, now: Date): Validated<Payload>;
  /** Applies the payload for the live source of this kind with the token: null when there is none (nothing is stored). */
  receive(deps: IncidentDependencies, claim: AlertSourceClaim, payload: Payload, now: Date): Promise<AlertOutcome | null>;
  /** The answer to an accepted request. */
  accepted(outcome: AlertOutcome, payload: Payload): AlertAnswer;
  /** How a body at fault is answered: Hookline's 400 validation_failed with this message, or the sender's own answer. */
  refusedContent: { message: string } | { answer(fields: FieldError[]): AlertAnswer };
}

/** Hookline's answer to an accepted notification: each incident and what became of it, and the alerts that named no service. */
function acceptedNotification(outcome: AlertOutcome): AlertAnswer {
  return {
    status: 200,
    body: {
      status: 'accepted',
      incidents: outcome.incidents.map(({ incidentId, action }) => ({ incident_id: incidentId, action })),
      unrouted: outcome.unrouted,
    },
  };
}

const ALERTMANAGER: AlertSourceKindEntry<AlertGroup, 'ALERTMANAGER'> = {
  kind: 'ALERTMANAGER',
  path: 'alertmanager',
  token: { in: 'authorization' },
  invalidTokenMessage: 'Authorization must be "Bearer" and the token of a live Alertmanager alert source (hlk_…)',
  label: 'Prometheus Alertmanager or Grafana',
  detail: 'webhook',
  bodySchema: alertmanagerBodySchema,
  parse(body, now) {
    const validation = validateAlertmanagerBody(body);
    return validation.ok ? { ok: true, value: alertmanagerGroup(validation.value, now) } : validation;
  },
  receive: receiveAlertGroup,
  accepted: (outcome) => acceptedNotification(outcome),
  refusedContent: { message: 'The Alertmanager notification is invalid' },
};

const PAGERDUTY_EVENTS: AlertSourceKindEntry<PagerDutyEvent, 'PAGERDUTY_EVENTS'> = {
  kind: 'PAGERDUTY_EVENTS',
  path: 'pagerduty/v2/enqueue',
  token: { in: 'body', field: 'routing_key' },
  invalidTokenMessage: 'routing_key must be the token of a live PagerDuty Events alert source (hlk_…)',
  label: 'PagerDuty Events API v2',
  detail: 'any tool that pages PagerDuty',
  bodySchema: pagerDutyEventSchema,
  parse: (body, now) => validatePagerDutyEvent(body, now),
  receive: receivePagerDutyEvent,
  // PagerDuty's own answers, so that any tool that pages PagerDuty takes them as it would PagerDuty's.
  accepted: (_outcome, event) => ({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: event.dedupKey } }),
  refusedContent: {
    answer: (fields) => ({
      status: 400,
      body: {
        status: 'invalid event',
        message: 'Event object is invalid',
        errors: fields.map(({ field, message }) => `${field} ${message}`),
      },
    }),
  },
};

/** One entry per kind, in the order the dashboard offers them (the first is its default). */
export const ALERT_SOURCE_KINDS: { [Kind in AlertSourceKind]: AlertSourceKindEntry<unknown, Kind> } = {
  ALERTMANAGER,
  PAGERDUTY_EVENTS,
};

export const ALERT_SOURCE_KIND_LIST: AlertSourceKindEntry<unknown>[] = Object.values(ALERT_SOURCE_KINDS);

/** The path a source of this kind sends to, on this server. */
export function alertIngestPath(kind: AlertSourceKind): string {
  return ALERT_INGEST_PATH_PREFIX + ALERT_SOURCE_KINDS[kind].path;
}

/** The token a body carries in `field`, whatever else it holds (it authenticates before anything is checked). */
export function tokenInBody(body: unknown, field: string): string | undefined {
  const token = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof token === 'string' ? token : undefined;
}
