// The alert ingest routes, one per kind of alert source (domain/ingest/alert-source-kinds.ts):
// POST /api/ingest/alerts/alertmanager (Alertmanager's webhook, version 4, and Grafana's webhook
// contact point; `Authorization: Bearer hlk_…`) and POST /api/ingest/alerts/pagerduty/v2/enqueue
// (PagerDuty's Events API v2; the `routing_key` is the hlk_ token), registered with the ingest
// routes (their raw-body reading and metrics): the same 100 KB body limit, per-address rate
// limit (a budget of its own) and error shape. Checks in the deploy route's order: 413 → 429 → 401 → 415/400 → 400 validation; a
// kind whose token is inside the body answers a body that is not JSON with 415/400 before the 401.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AlertSourceKind } from '../generated/prisma/client.ts';
import { bearerToken } from '../auth/caller.ts';
import { alertmanagerBodySchema, pagerDutyEventSchema } from '../domain/ingest/alert-payloads.ts';
import { ALERT_SOURCE_KIND_LIST, alertIngestPath, tokenInBody, type AlertSourceKindEntry } from '../domain/ingest/alert-source-kinds.ts';
import { authenticateAlertToken } from '../domain/ingest/alerts.ts';
import { InputError } from '../domain/shared/errors.ts';
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

type Entry = AlertSourceKindEntry<unknown>;

const invalidToken = (entry: Entry) => new HttpError(401, 'invalid_alert_token', entry.invalidTokenMessage);

/** Content is judged only for a live token: 401 otherwise, whatever is wrong with the content. */
async function requireLiveToken(deps: AlertRouteDependencies, token: string, entry: Entry): Promise<void> {
  if (!(await authenticateAlertToken(deps.prisma, { kind: entry.kind, tokenHash: hashToken(token) }))) throw invalidToken(entry);
}

/** The token of a request that sends it in a header, checked for its form before the body is read. */
function headerToken(request: FastifyRequest, entry: Entry): string | undefined {
  if (entry.token.in !== 'authorization') return undefined;
  const token = bearerToken(request.headers.authorization);
  if (!looksLikeToken('alert', token)) throw invalidToken(entry);
  return token;
}

function alertRoute(app: FastifyInstance, deps: AlertRouteDependencies, entry: Entry) {
  const incidents = { prisma: deps.prisma, queue: deps.queue, lookbackMs: deps.incidentLookbackMs };
  const invalidInput = 'message' in entry.refusedContent ? entry.refusedContent.message : undefined;

  const options = { bodyLimit: INGEST_BODY_LIMIT_BYTES, config: { invalidInput }, schema: ROUTE_SCHEMAS[entry.kind] };
  app.post(alertIngestPath(entry.kind), options, async (request, reply) => {
    await enforceRateLimit(request, reply, deps.rateLimiter);
    const inHeader = headerToken(request, entry);
    const body = readJsonBody(request.declaredContentType, request.body as Buffer | undefined);
    if (!body.ok) {
      if (inHeader !== undefined) await requireLiveToken(deps, inHeader, entry);
      throw body.error;
    }
    const token = entry.token.in === 'body' ? tokenInBody(body.value, entry.token.field) : inHeader;
    if (!looksLikeToken('alert', token)) throw invalidToken(entry);
    const now = new Date();
    const validation = entry.parse(body.value, now);
    if (!validation.ok) {
      await requireLiveToken(deps, token, entry);
      if ('message' in entry.refusedContent) throw new InputError(validation.details);
      const refusal = entry.refusedContent.answer(validation.details);
      request.outcome = 'validation_failed';
      return reply.status(refusal.status).send(refusal.body);
    }
    const outcome = await entry.receive(incidents, { kind: entry.kind, tokenHash: hashToken(token) }, validation.value, now);
    if (!outcome) throw invalidToken(entry);
    request.outcome = 'accepted';
    const answer = entry.accepted(outcome, validation.value);
    return reply.status(answer.status).send(answer.body);
  });
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

/** Each kind's route as the OpenAPI document describes it (a new kind needs its entry here too: the type says so). */
const ROUTE_SCHEMAS: Record<AlertSourceKind, typeof alertmanagerRouteSchema | typeof pagerDutyRouteSchema> = {
  ALERTMANAGER: alertmanagerRouteSchema,
  PAGERDUTY_EVENTS: pagerDutyRouteSchema,
};

export function alertRoutes(app: FastifyInstance, deps: AlertRouteDependencies) {
  for (const entry of ALERT_SOURCE_KIND_LIST) alertRoute(app, deps, entry);
}
