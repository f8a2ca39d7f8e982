// The alert ingest routes, one per kind of alert source (domain/ingest/alert-source-kinds.ts):
// POST /api/ingest/alerts/alertmanager (Alertmanager's webhook, version 4, and Grafana's webhook
// contact point; `Authorization: Bearer hlk_…`) and POST /api/ingest/alerts/pagerduty/v2/enqueue
// (PagerDuty's Events API v2; the `routing_key` is the hlk_ token), registered with the ingest
// routes (their raw-body reading and metrics): the same 100 KB body limit, per-address rate
// limit (a budget of its own) and error shape. Checks in the deploy route's order: 413 → 429 → 401 → 415/400 → 400 validation; a
// kind whose token is inside the body answers a body that is not JSON with 415/400 before the 401.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/bearer.ts';
import { ALERT_SOURCE_KIND_LIST, alertIngestPath, tokenInBody, type AlertSourceKindEntry } from '../domain/ingest/alert-source-kinds.ts';
import { authenticateAlertToken } from '../domain/ingest/alerts.ts';
import { InputError } from '../domain/shared/errors.ts';
import type { Outbox } from '../domain/webhooks/outbox.ts';
import { hashToken, looksLikeToken } from '../domain/shared/tokens.ts';
import { HttpError } from './errors.ts';
import { INGEST_BODY_LIMIT_BYTES, readJsonBody } from './json-body.ts';
import { enforceRateLimit, type RateLimiter } from './rate-limit.ts';

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

  app.post(alertIngestPath(entry.kind), { bodyLimit: INGEST_BODY_LIMIT_BYTES, config: { invalidInput } }, async (request, reply) => {
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

export function alertRoutes(app: FastifyInstance, deps: AlertRouteDependencies) {
  for (const entry of ALERT_SOURCE_KIND_LIST) alertRoute(app, deps, entry);
}
