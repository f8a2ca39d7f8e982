// POST /api/ingest/alerts/alertmanager (Alertmanager's webhook, version 4, and Grafana's webhook
// contact point; `Authorization: Bearer hlk_…`) and POST /api/ingest/alerts/pagerduty/v2/enqueue
// (PagerDuty's Events API v2; the `routing_key` is the hlk_ token), registered with the ingest
// routes (their raw-body reading and metrics): the same 100 KB body limit, per-address rate
// limit (a budget of its own) and error shape. Checks in the deploy route's order: 413 → 429 → 401 → 415/400 → 400 validation; the
// PagerDuty token is inside the body, so there a body that is not JSON is a 415/400 before the 401.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AlertSourceKind } from '../generated/prisma/client.ts';
import { bearerToken } from '../auth/bearer.ts';
import {
  alertmanagerBodySchema,
  alertmanagerGroup,
  pagerDutyEventSchema,
  pagerDutyRoutingKey,
  validateAlertmanagerBody,
  validatePagerDutyEvent,
} from '../domain/ingest/alert-payloads.ts';
import { authenticateAlertToken, receiveAlertGroup, receivePagerDutyEvent, type AlertOutcome } from '../domain/ingest/alerts.ts';
import { InputError } from '../domain/shared/errors.ts';
import type { FieldError } from '../domain/shared/errors.ts';
import type { Outbox } from '../domain/webhooks/outbox.ts';
import { hashToken, looksLikeToken } from '../domain/shared/tokens.ts';
import { HttpError } from './errors.ts';
import { INGEST_BODY_LIMIT_BYTES, readJsonBody } from './json-body.ts';
import { enforceRateLimit, type RateLimiter } from './rate-limit.ts';
import { BODY_ERRORS, errorResponse, errorSchema, ingestResponses, jsonResponse, RATE_LIMIT_HEADERS } from './route-schemas.ts';

export interface AlertRouteDependencies extends Outbox {
  rateLimiter: RateLimiter | null;
  /** How far before an incident's start deploys and changes are its suspects, in ms. */
  incidentLookbackMs: number;
}

const invalidToken = (kind: AlertSourceKind) =>
  kind === 'ALERTMANAGER'
    ? new HttpError(401, 'invalid_alert_token', 'Authorization must be "Bearer" and the token of a live Alertmanager alert source (hlk_…)')
    : new HttpError(401, 'invalid_alert_token', 'routing_key must be the token of a live PagerDuty Events alert source (hlk_…)');

/** Content is judged only for a live token: 401 otherwise, whatever is wrong with the content. */
async function requireLiveToken(deps: AlertRouteDependencies, token: string, kind: AlertSourceKind): Promise<void> {
  if (!(await authenticateAlertToken(deps.prisma, hashToken(token), kind))) throw invalidToken(kind);
}

/** A request whose content is refused: 401 if its token is not live either, else the content's error. */
async function refuse(deps: AlertRouteDependencies, token: string, kind: AlertSourceKind, error: HttpError | FieldError[]): Promise<never> {
  await requireLiveToken(deps, token, kind);
  throw Array.isArray(error) ? new InputError(error) : error;
}

function answer(outcome: AlertOutcome) {
  return {
    status: 'accepted',
    incidents: outcome.incidents.map(({ incidentId, action }) => ({ incident_id: incidentId, action })),
    unrouted: outcome.unrouted,
  };
}

/**
 * PagerDuty's own answer to an invalid event (its documented 400), so that a tool written for
 * PagerDuty shows the reasons: one "<field> <message>" per field at fault.
 */
export function pagerDutyInvalidEvent(fields: FieldError[]) {
  return { status: 'invalid event', message: 'Event object is invalid', errors: fields.map(({ field, message }) => `${field} ${message}`) };
}

const ALERT_RULES =
  "Body size (413) and a per-IP rate limit of its own (429, the deploy route's number) come first. Unknown fields are ignored; " +
  'times in the future are read as now.';

const alertsAnswerSchema = z
  .object({
    status: z.literal('accepted'),
    incidents: z.array(
      z.object({
        incident_id: z.uuid(),
        action: z.enum(['opened', 'updated', 'resolved', 'unchanged']).meta({ description: 'What this notification did to the incident' }),
      }),
    ),
    unrouted: z.array(
      z.object({ fingerprint: z.string(), reason: z.string().meta({ description: 'Why no service matched, and what to change' }) }),
    ),
  })
  .meta({ id: 'AlertsAnswer' });

const pagerDutyInvalidEventSchema = z
  .object({
    status: z.literal('invalid event'),
    message: z.literal('Event object is invalid'),
    errors: z
      .array(z.string())
      .min(1)
      .meta({ description: 'One "<field> <what is wrong>" per field at fault, e.g. "payload.severity must be one of …"' }),
  })
  .meta({ id: 'PagerDutyInvalidEvent' });

const pagerDutyAnswerSchema = z
  .object({
    status: z.literal('success'),
    message: z.literal('Event processed'),
    dedup_key: z.string().meta({ description: 'The dedup_key sent, or the one made for a trigger without one' }),
  })
  .meta({ id: 'PagerDutyAnswer' });

const alertmanagerRouteSchema = {
  operationId: 'ingestAlertmanagerAlerts',
  summary: "Receive an Alertmanager webhook notification (version 4) or a Grafana webhook contact point's",
  description:
    `${ALERT_RULES} Each alert routes to the service named by its label service, else app, else job (case-insensitively); ` +
    'one incident per (source, service, groupKey) until every alert of it is resolved. Alerts that name no service are ' +
    'answered in unrouted, with what to change, and kept for the dashboard. A repeat of a notification changes nothing.',
  security: [{ alertSourceToken: [] }],
  body: alertmanagerBodySchema.meta({ id: 'AlertmanagerNotification' }),
  response: ingestResponses(
    jsonResponse('Applied: what became of each incident, and the alerts that routed nowhere', alertsAnswerSchema, RATE_LIMIT_HEADERS),
    BODY_ERRORS,
    {
      unauthorized: errorResponse(
        'Authorization is not "Bearer <token>" with the token of a live ALERTMANAGER alert source',
        ['invalid_alert_token'],
        RATE_LIMIT_HEADERS,
      ),
    },
  ),
};

const pagerDutyRouteSchema = {
  operationId: 'ingestPagerDutyEvent',
  summary: 'Receive a PagerDuty Events API v2 event, answering as PagerDuty does',
  description:
    `${ALERT_RULES} The routing_key is the token of a PAGERDUTY_EVENTS alert source, so a body that is not JSON is a 415 or 400 ` +
    'before the 401. trigger opens (or joins) the incident of its dedup_key (one is made when absent) on the service named by ' +
    'payload.component, else payload.source; acknowledge and resolve move it on; for a dedup_key without an incident they do nothing.',
  body: pagerDutyEventSchema.meta({ id: 'PagerDutyEvent' }),
  response: ingestResponses(jsonResponse("Processed, in PagerDuty's own answer", pagerDutyAnswerSchema, RATE_LIMIT_HEADERS), BODY_ERRORS, {
    unauthorized: errorResponse(
      'routing_key is not the token of a live PAGERDUTY_EVENTS alert source',
      ['invalid_alert_token'],
      RATE_LIMIT_HEADERS,
    ),
    successStatus: '202',
    badRequest: jsonResponse(
      "The event is invalid (PagerDuty's own answer), or the body is not JSON (Hookline's error shape)",
      z.union([pagerDutyInvalidEventSchema, errorSchema(BODY_ERRORS.filter((code) => code !== 'validation_failed'))]),
      RATE_LIMIT_HEADERS,
    ),
  }),
};

export function alertRoutes(app: FastifyInstance, deps: AlertRouteDependencies) {
  const incidents = { prisma: deps.prisma, queue: deps.queue, lookbackMs: deps.incidentLookbackMs };

  app.post(
    '/api/ingest/alerts/alertmanager',
    {
      bodyLimit: INGEST_BODY_LIMIT_BYTES,
      config: { invalidInput: 'The Alertmanager notification is invalid' },
      schema: alertmanagerRouteSchema,
    },
    async (request, reply) => {
      await enforceRateLimit(request, reply, deps.rateLimiter);
      const token = bearerToken(request.headers.authorization);
      if (!looksLikeToken('alert', token)) throw invalidToken('ALERTMANAGER');
      const body = readJsonBody(request.declaredContentType, request.body as Buffer | undefined);
      if (!body.ok) return refuse(deps, token, 'ALERTMANAGER', body.error);
      const validation = validateAlertmanagerBody(body.value);
      if (!validation.ok) return refuse(deps, token, 'ALERTMANAGER', validation.details);
      const now = new Date();
      const outcome = await receiveAlertGroup(incidents, hashToken(token), alertmanagerGroup(validation.value, now), now);
      if (!outcome) throw invalidToken('ALERTMANAGER');
      request.outcome = 'accepted';
      return reply.status(200).send(answer(outcome));
    },
  );

  app.post(
    '/api/ingest/alerts/pagerduty/v2/enqueue',
    { bodyLimit: INGEST_BODY_LIMIT_BYTES, schema: pagerDutyRouteSchema },
    async (request, reply) => {
      await enforceRateLimit(request, reply, deps.rateLimiter);
      const body = readJsonBody(request.declaredContentType, request.body as Buffer | undefined);
      if (!body.ok) throw body.error;
      const token = pagerDutyRoutingKey(body.value);
      if (!looksLikeToken('alert', token)) throw invalidToken('PAGERDUTY_EVENTS');
      const now = new Date();
      const validation = validatePagerDutyEvent(body.value, now);
      if (!validation.ok) {
        await requireLiveToken(deps, token, 'PAGERDUTY_EVENTS');
        request.outcome = 'validation_failed';
        return reply.status(400).send(pagerDutyInvalidEvent(validation.details));
      }
      const outcome = await receivePagerDutyEvent(incidents, hashToken(token), validation.value, now);
      if (!outcome) throw invalidToken('PAGERDUTY_EVENTS');
      request.outcome = 'accepted';
      // PagerDuty's own answer, so that any tool that pages PagerDuty takes it as success.
      return reply.status(202).send({ status: 'success', message: 'Event processed', dedup_key: validation.value.dedupKey });
    },
  );
}
