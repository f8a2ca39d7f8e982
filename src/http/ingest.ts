// POST /api/ingest/deploy and /api/ingest/deploy/test. Answers follow the contract's order of
// checks: 413 body size → 429 rate limit → 401 token → 415/400 content → 400 validation.
// The token is looked up on its own only when the content is bad (to tell 401 from 400);
// for a good request the statement that stores the deploy checks the token itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { AttemptQueue } from '../domain/attempt-queue.ts';
import { InputError } from '../domain/errors.ts';
import { isValidIdempotencyKey, recordDeploy, validateDeployPayload, type DeployPayload } from '../domain/deploys.ts';
import { authenticateDeployToken } from '../domain/services.ts';
import { hashToken, looksLikeToken } from '../domain/tokens.ts';
import type { Metrics } from '../metrics.ts';
import { HttpError } from './errors.ts';
import { readJsonBody } from './json-body.ts';
import type { RateLimiter } from './rate-limit.ts';

export const INGEST_BODY_LIMIT_BYTES = 102_400;

export interface IngestDependencies {
  pool: pg.Pool;
  queue: AttemptQueue;
  metrics: Metrics;
  deployRateLimiter: RateLimiter | null;
  testRateLimiter: RateLimiter | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Content-Type as sent, checked by the route itself after auth (see below). */
    declaredContentType: string | undefined;
  }
}

const invalidToken = () => new HttpError(401, 'invalid_deploy_token', 'X-Deploy-Token is missing or is not a valid deploy token');

/** Steps 4 and 5: media type and charset, JSON syntax, then every field. */
function readPayload(request: FastifyRequest): { ok: true; payload: DeployPayload } | { ok: false; error: HttpError | InputError } {
  const body = readJsonBody(request.declaredContentType, request.body as Buffer | undefined);
  if (!body.ok) return body;
  const validation = validateDeployPayload(body.value);
  if (!validation.ok) return { ok: false, error: new InputError(validation.details) };
  return { ok: true, payload: validation.value };
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

  const routeOptions = { bodyLimit: INGEST_BODY_LIMIT_BYTES, config: { invalidInput: 'The deploy payload is invalid' } };

  app.post('/api/ingest/deploy', routeOptions, async (request, reply) => {
    await enforceRateLimit(request, reply, deps.deployRateLimiter);
    const token = request.headers['x-deploy-token'] as string | undefined;
    if (!looksLikeToken('deploy', token)) throw invalidToken();
    const read = readPayload(request);
    const idempotencyKey = request.headers['x-idempotency-key'];
    const keyIsValid = isValidIdempotencyKey(idempotencyKey);
    if (!read.ok || !keyIsValid) {
      if (!(await authenticateDeployToken(deps.pool, token))) throw invalidToken();
      if (!read.ok) throw read.error;
      throw new HttpError(400, 'invalid_idempotency_key', 'X-Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    const result = await recordDeploy(deps, {
      deployTokenHash: hashToken(token),
      payload: read.payload,
      idempotencyKey: (idempotencyKey as string | undefined) ?? null,
      receivedAt: new Date(),
    });
    if (result.status === 'invalid_token') throw invalidToken();
    request.outcome = result.status;
    return reply.status(200).send({ status: result.status, deploy_id: result.deployId });
  });

  app.post('/api/ingest/deploy/test', routeOptions, async (request, reply) => {
    await enforceRateLimit(request, reply, deps.testRateLimiter);
    const credential = await authenticateDeployToken(deps.pool, request.headers['x-deploy-token'] as string | undefined);
    if (!credential) throw invalidToken();
    const read = readPayload(request);
    if (!read.ok) throw read.error;
    request.outcome = 'ok';
    return reply.status(200).send({ status: 'ok', service: { id: credential.serviceId, name: credential.serviceName } });
  });
}
