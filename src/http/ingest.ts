// POST /api/ingest/deploy, /api/ingest/deploy/test and /api/ingest/change. Answers follow the
// contract's order of checks: 413 body size → 429 rate limit → 401 token → 415/400 content → 400
// validation. Deploys and change events go through the same steps; only the payload differs.
// The token is looked up on its own only when the content is bad (to tell 401 from 400);
// for a good request the statement that stores the deploy checks the token itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { AttemptQueue } from '../domain/attempt-queue.ts';
import { recordChange, validateChangePayload, type ChangePayload } from '../domain/changes.ts';
import { refreshSuspectsAfter } from '../domain/correlation.ts';
import { InputError } from '../domain/errors.ts';
import { isValidIdempotencyKey, recordDeploy, validateDeployPayload, type DeployPayload } from '../domain/deploys.ts';
import type { Validated } from '../domain/input.ts';
import { authenticateDeployToken } from '../domain/services.ts';
import { hashToken, looksLikeToken } from '../domain/tokens.ts';
import type { Metrics } from '../metrics.ts';
import { HttpError } from './errors.ts';
import { readJsonBody } from './json-body.ts';
import type { RateLimiter } from './rate-limit.ts';

export const INGEST_BODY_LIMIT_BYTES = 102_400;

export interface IngestDependencies {
  pool: pg.Pool;
  prisma: PrismaClient;
  queue: AttemptQueue;
  metrics: Metrics;
  /** Deploys and change events share it: one budget per client address for the ingest API. */
  deployRateLimiter: RateLimiter | null;
  testRateLimiter: RateLimiter | null;
  /** How far before an incident's start deploys and changes are its suspects, in ms. */
  incidentLookbackMs: number;
}

interface RecordInput<Payload> {
  /** SHA-256 of the presented deploy token; the statement that stores checks it. */
  deployTokenHash: string;
  payload: Payload;
  idempotencyKey: string | null;
  receivedAt: Date;
}

type Recorded =
  /** openIncidentSince: an open incident started at or after it, so it may join that incident's suspects. */
  | { status: 'accepted'; id: string; openIncidentSince: boolean }
  | { status: 'duplicate'; id: string }
  | { status: 'invalid_token' };

/** What differs between the ingest routes: the payload, how it is stored, and the id's name in the answer. */
interface IngestKind<Payload> {
  name: 'deploy' | 'change';
  validate(body: unknown): Validated<Payload>;
  record(deps: IngestDependencies, input: RecordInput<Payload>): Promise<Recorded>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Content-Type as sent, checked by the route itself after auth (see below). */
    declaredContentType: string | undefined;
  }
}

const invalidToken = () => new HttpError(401, 'invalid_deploy_token', 'X-Deploy-Token is missing or is not a valid deploy token');

/** Steps 4 and 5: media type and charset, JSON syntax, then every field. */
function readPayload<Payload>(
  request: FastifyRequest,
  kind: Pick<IngestKind<Payload>, 'validate'>,
): { ok: true; payload: Payload } | { ok: false; error: HttpError | InputError } {
  const body = readJsonBody(request.declaredContentType, request.body as Buffer | undefined);
  if (!body.ok) return body;
  const validation = kind.validate(body.value);
  if (!validation.ok) return { ok: false, error: new InputError(validation.details) };
  return { ok: true, payload: validation.value };
}

const DEPLOY: IngestKind<DeployPayload> = {
  name: 'deploy',
  validate: validateDeployPayload,
  async record(deps, input) {
    const result = await recordDeploy(deps, input);
    if (result.status === 'accepted') return { status: 'accepted', id: result.deployId, openIncidentSince: result.openIncidentSince };
    if (result.status === 'duplicate') return { status: 'duplicate', id: result.deployId };
    return result;
  },
};

const CHANGE: IngestKind<ChangePayload> = {
  name: 'change',
  validate: validateChangePayload,
  async record(deps, input) {
    const result = await recordChange(deps.prisma, input);
    if (result.status === 'accepted') return { status: 'accepted', id: result.changeId, openIncidentSince: result.openIncidentSince };
    if (result.status === 'duplicate') return { status: 'duplicate', id: result.changeId };
    return result;
  },
};

/**
 * Steps 2 to 7 of an ingest route. The token is looked up on its own only when the content is
 * bad (to tell 401 from 400); for a good request the statement that stores checks it. A new
 * deploy or change dated inside the window of an open incident joins its suspects before the
 * answer.
 */
function ingestHandler<Payload>(deps: IngestDependencies, kind: IngestKind<Payload>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await enforceRateLimit(request, reply, deps.deployRateLimiter);
    const token = request.headers['x-deploy-token'] as string | undefined;
    if (!looksLikeToken('deploy', token)) throw invalidToken();
    const read = readPayload(request, kind);
    const idempotencyKey = request.headers['x-idempotency-key'];
    const keyIsValid = isValidIdempotencyKey(idempotencyKey);
    if (!read.ok || !keyIsValid) {
      if (!(await authenticateDeployToken(deps.pool, token))) throw invalidToken();
      if (!read.ok) throw read.error;
      throw new HttpError(400, 'invalid_idempotency_key', 'X-Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    const result = await kind.record(deps, {
      deployTokenHash: hashToken(token),
      payload: read.payload,
      idempotencyKey: (idempotencyKey as string | undefined) ?? null,
      receivedAt: new Date(),
    });
    if (result.status === 'invalid_token') throw invalidToken();
    // The statement that stored it said whether an open incident started since (rare): only
    // then is it worth looking for the incidents whose window holds it.
    if (result.status === 'accepted' && result.openIncidentSince) await refreshSuspectsAfter(deps, { type: kind.name, id: result.id });
    request.outcome = result.status;
    return reply.status(200).send({ status: result.status, [`${kind.name}_id`]: result.id });
  };
}

/** Step 2: the rate limit (unless off), with its headers on every answer that gets this far. */
async function enforceRateLimit(request: FastifyRequest, reply: FastifyReply, rateLimiter: RateLimiter | null): Promise<void> {
  if (!rateLimiter) return;
  const limit = await rateLimiter(request.ip);
  reply.headers({
    'ratelimit-limit': limit.limit,
    'ratelimit-remaining': limit.remaining,
    'ratelimit-reset': limit.resetSeconds,
  });
  if (!limit.allowed) {
    reply.header('retry-after', limit.resetSeconds);
    throw new HttpError(429, 'rate_limited', `Rate limit of ${limit.limit} requests per minute exceeded; retry in ${limit.resetSeconds} s`);
  }
}

export async function ingestRoutes(app: FastifyInstance, deps: IngestDependencies) {
  app.decorateRequest('declaredContentType', undefined);
  // Every body is read as raw bytes under the 100 KB limit first, whatever its declared type,
  // so that an oversized body is a 413 before anything else, and a bad Content-Type is
  // judged only after the rate limit and the token (the contract's order).
  app.addHook('onRequest', async (request) => {
    request.declaredContentType = request.headers['content-type'];
    request.headers['content-type'] = 'application/octet-stream';
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.ingestRequests.inc({ route: request.routeOptions.url ?? request.url, outcome: request.outcome ?? String(reply.statusCode) });
  });

  const routeOptions = (kind: IngestKind<unknown>) => ({
    bodyLimit: INGEST_BODY_LIMIT_BYTES,
    config: { invalidInput: `The ${kind.name} payload is invalid` },
  });

  app.post('/api/ingest/deploy', routeOptions(DEPLOY as IngestKind<unknown>), ingestHandler(deps, DEPLOY));
  app.post('/api/ingest/change', routeOptions(CHANGE as IngestKind<unknown>), ingestHandler(deps, CHANGE));

  app.post('/api/ingest/deploy/test', routeOptions(DEPLOY as IngestKind<unknown>), async (request, reply) => {
    await enforceRateLimit(request, reply, deps.testRateLimiter);
    const credential = await authenticateDeployToken(deps.pool, request.headers['x-deploy-token'] as string | undefined);
    if (!credential) throw invalidToken();
    const read = readPayload(request, DEPLOY);
    if (!read.ok) throw read.error;
    request.outcome = 'ok';
    return reply.status(200).send({ status: 'ok', service: { id: credential.serviceId, name: credential.serviceName } });
  });
}
