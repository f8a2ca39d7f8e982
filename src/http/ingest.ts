// POST /api/ingest/deploy and /api/ingest/deploy/test. Checks run in the contract's order:
// 413 body size → 429 rate limit → 401 token → 415/400 content → 400 validation → record.
import { parse as parseContentType } from 'content-type';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PrismaClient } from '../generated/prisma/client.ts';
import {
  isValidIdempotencyKey,
  recordDeploy,
  validateDeployPayload,
  type DeployPayload,
} from '../domain/deploys.ts';
import { authenticateDeployToken, type DeployCredential } from '../domain/services.ts';
import type { Metrics } from '../metrics.ts';
import { HttpError } from './errors.ts';
import type { RateLimiter } from './rate-limit.ts';

export const INGEST_BODY_LIMIT_BYTES = 102_400;

export interface IngestDependencies {
  prisma: PrismaClient;
  metrics: Metrics;
  deployRateLimiter: RateLimiter;
  testRateLimiter: RateLimiter;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Content-Type as sent, checked by the route itself after auth (see below). */
    declaredContentType: string | undefined;
  }
}

function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  try {
    return parseContentType(header).type === 'application/json';
  } catch {
    return false;
  }
}

interface CheckedRequest {
  credential: DeployCredential;
  payload: DeployPayload;
  receivedAt: Date;
}

async function checkRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  prisma: PrismaClient,
  rateLimiter: RateLimiter,
): Promise<CheckedRequest> {
  const receivedAt = new Date();
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

  const credential = await authenticateDeployToken(prisma, request.headers['x-deploy-token'] as string | undefined);
  if (!credential) throw new HttpError(401, 'invalid_deploy_token', 'X-Deploy-Token is missing or is not a valid deploy token');

  if (!isJsonContentType(request.declaredContentType)) {
    throw new HttpError(415, 'unsupported_media_type', 'Content-Type must be application/json');
  }
  let body: unknown;
  try {
    body = JSON.parse((request.body as Buffer | undefined)?.toString('utf8') ?? '');
  } catch {
    throw new HttpError(400, 'invalid_json', 'Body is not valid JSON');
  }
  const validation = validateDeployPayload(body, receivedAt);
  if (!validation.ok) throw new HttpError(400, 'validation_failed', 'The deploy payload is invalid', validation.details);
  return { credential, payload: validation.value, receivedAt };
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
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INGEST_BODY_LIMIT_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.ingestRequests.inc({ route: request.routeOptions.url ?? request.url, outcome: request.outcome ?? String(reply.statusCode) });
  });

  app.post('/api/ingest/deploy', async (request, reply) => {
    const { credential, payload, receivedAt } = await checkRequest(request, reply, deps.prisma, deps.deployRateLimiter);
    const idempotencyKey = request.headers['x-idempotency-key'];
    if (Array.isArray(idempotencyKey) || (idempotencyKey !== undefined && !isValidIdempotencyKey(idempotencyKey))) {
      throw new HttpError(400, 'invalid_idempotency_key', 'X-Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    const result = await recordDeploy(deps.prisma, { credential, payload, idempotencyKey: idempotencyKey ?? null, receivedAt });
    request.outcome = result.status;
    return reply.status(200).send({ status: result.status, deploy_id: result.deployId });
  });

  app.post('/api/ingest/deploy/test', async (request, reply) => {
    const { credential } = await checkRequest(request, reply, deps.prisma, deps.testRateLimiter);
    request.outcome = 'ok';
    return reply.status(200).send({ status: 'ok', service: { id: credential.serviceId, name: credential.serviceName } });
  });
}
