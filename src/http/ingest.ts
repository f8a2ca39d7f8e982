// POST /api/ingest/deploy, /api/ingest/deploy/test, /api/ingest/change, GET
// /api/ingest/deploy/latest, and POST /api/ingest/github (GitHub's webhook). Answers follow the
// contract's order of checks: 413 body size → 429 rate limit → 401 token → 415/400 content → 400
// validation. Deploys and change events go through the same steps; only the payload differs.
// The token is looked up on its own only when the content is bad (to tell 401 from 400);
// for a good request the statement that stores the deploy checks the token itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { AttemptQueue } from '../domain/webhooks/attempt-queue.ts';
import { recordChange, validateChangePayload, type ChangePayload } from '../domain/ingest/changes.ts';
import { refreshSuspectsAfter } from '../domain/correlation/correlation.ts';
import { InputError } from '../domain/shared/errors.ts';
import {
  deployOfDeploymentStatus,
  gitHubWebhookSecretOf,
  isValidGitHubSignature,
  validateDeploymentStatusEvent,
} from '../domain/ingest/github-deployments.ts';
import { isUuid } from '../domain/shared/ids.ts';
import {
  findLatestDeploy,
  isValidIdempotencyKey,
  latestDeployQuerySchema,
  recordDeploy,
  validateDeployPayload,
  type DeployPayload,
} from '../domain/ingest/deploys.ts';
import { validateInput, type Validated } from '../domain/shared/input.ts';
import { authenticateDeployToken } from '../domain/ingest/services.ts';
import { hashToken, looksLikeToken } from '../domain/shared/tokens.ts';
import type { Metrics } from '../metrics.ts';
import { HttpError } from './errors.ts';
import { alertRoutes } from './alerts.ts';
import { INGEST_BODY_LIMIT_BYTES, readJsonBody } from './json-body.ts';
import { enforceRateLimit, type RateLimiter } from './rate-limit.ts';

export interface IngestDependencies {
  pool: pg.Pool;
  prisma: PrismaClient;
  queue: AttemptQueue;
  metrics: Metrics;
  /** Deploys and change events share it: one budget per client address for the ingest API. */
  deployRateLimiter: RateLimiter | null;
  testRateLimiter: RateLimiter | null;
  /** Alert ingest: a budget of its own, so that an alert storm does not hold back deploys. */
  alertRateLimiter: RateLimiter | null;
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
  /** A later stage of a staged rollout: the same deploy moved on, so its incidents are ranked again. */
  | { status: 'updated'; id: string }
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
const invalidSignature = () =>
  new HttpError(401, 'invalid_signature', "X-Hub-Signature-256 is missing or is not signed with the service's GitHub webhook secret");

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
  async record(deps, { deployTokenHash, ...input }) {
    const result = await recordDeploy(deps, { ...input, credential: { deployTokenHash } });
    if (result.status === 'accepted') return { status: 'accepted', id: result.deployId, openIncidentSince: result.openIncidentSince };
    if (result.status === 'duplicate' || result.status === 'updated') return { status: result.status, id: result.deployId };
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
    if ((result.status === 'accepted' && result.openIncidentSince) || result.status === 'updated') {
      await refreshSuspectsAfter(deps, { type: kind.name, id: result.id });
    }
    request.outcome = result.status;
    return reply.status(200).send({ status: result.status, [`${kind.name}_id`]: result.id });
  };
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
    deps.metrics.ingestRequests.inc({
      route: request.routeOptions.url ?? request.url,
      outcome: request.outcome ?? String(reply.statusCode),
    });
  });

  const routeOptions = (kind: IngestKind<unknown>) => ({
    bodyLimit: INGEST_BODY_LIMIT_BYTES,
    config: { invalidInput: `The ${kind.name} payload is invalid` },
  });

  app.post('/api/ingest/deploy', routeOptions(DEPLOY as IngestKind<unknown>), ingestHandler(deps, DEPLOY));
  app.post('/api/ingest/change', routeOptions(CHANGE as IngestKind<unknown>), ingestHandler(deps, CHANGE));

  alertRoutes(app, { ...deps, rateLimiter: deps.alertRateLimiter });

  app.post('/api/ingest/deploy/test', routeOptions(DEPLOY as IngestKind<unknown>), async (request, reply) => {
    await enforceRateLimit(request, reply, deps.testRateLimiter);
    const credential = await authenticateDeployToken(deps.pool, request.headers['x-deploy-token'] as string | undefined);
    if (!credential) throw invalidToken();
    const read = readPayload(request, DEPLOY);
    if (!read.ok) throw read.error;
    request.outcome = 'ok';
    return reply.status(200).send({ status: 'ok', service: { id: credential.serviceId, name: credential.serviceName } });
  });

  // Where a pipeline's commit list starts (`hookline deploy`): the token says which service, so
  // no token can read another service's deploys. Shares the ingest rate limit: it is called once
  // per deploy, before the deploy itself.
  app.get('/api/ingest/deploy/latest', async (request, reply) => {
    await enforceRateLimit(request, reply, deps.deployRateLimiter);
    const token = request.headers['x-deploy-token'] as string | undefined;
    if (!looksLikeToken('deploy', token)) throw invalidToken();
    const query = validateInput(latestDeployQuerySchema, request.query);
    if (!query.ok) {
      if (!(await authenticateDeployToken(deps.pool, token))) throw invalidToken();
      throw new HttpError(400, 'validation_failed', 'The query is invalid', query.details);
    }
    const latest = await findLatestDeploy(deps.pool, hashToken(token), query.value.environment ?? null);
    if (!latest) throw invalidToken();
    const { service, deploy } = latest;
    request.outcome = deploy ? 'found' : 'none';
    return reply.status(200).send({
      service,
      deploy: deploy && {
        deploy_id: deploy.id,
        commit_sha: deploy.commitSha,
        environment: deploy.environment,
        deployed_at: deploy.deployedAt.toISOString(),
      },
    });
  });

  // A service's GitHub webhook: Payload URL /api/ingest/github?service=<id>, Content type
  // application/json, the service's secret, event "Deployment statuses". Checks: body size (413),
  // rate limit (429), the service in the URL (400), the signature (401), X-GitHub-Event (400),
  // media type and JSON (415, 400), then the event's fields (400). GitHub shows each answer in
  // the webhook's Recent Deliveries: every one says what happened.
  app.post(
    '/api/ingest/github',
    { bodyLimit: INGEST_BODY_LIMIT_BYTES, config: { invalidInput: 'The deployment_status event is invalid' } },
    async (request, reply) => {
      await enforceRateLimit(request, reply, deps.deployRateLimiter);
      const { service: serviceId } = request.query as { service?: unknown };
      if (typeof serviceId !== 'string' || !isUuid(serviceId)) {
        throw new HttpError(400, 'validation_failed', 'The webhook URL must name the service: /api/ingest/github?service=<service id>', [
          { field: 'service', message: 'must be the id of a service (a UUID), once' },
        ]);
      }
      const secret = await gitHubWebhookSecretOf(deps.prisma, serviceId);
      const body = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
      // Unknown service, no secret, wrong secret: one answer, which tells no one which services exist.
      if (!secret || !isValidGitHubSignature(secret, body, request.headers['x-hub-signature-256'] as string | undefined)) {
        throw invalidSignature();
      }
      const event = request.headers['x-github-event'];
      if (typeof event !== 'string' || !event) throw new HttpError(400, 'missing_event', 'X-GitHub-Event is required');
      const json = readJsonBody(request.declaredContentType, body);
      if (!json.ok) {
        if (json.error.statusCode === 415) {
          throw new HttpError(
            415,
            'unsupported_media_type',
            "Content-Type must be application/json: set the webhook's Content type to application/json on GitHub",
          );
        }
        throw json.error;
      }
      if (event === 'ping') {
        request.outcome = 'ping';
        return reply.status(200).send({ status: 'ok' });
      }
      if (event !== 'deployment_status') {
        request.outcome = 'ignored';
        return reply
          .status(200)
          .send({ status: 'ignored', reason: `${event} events record nothing: subscribe the webhook to Deployment statuses only` });
      }
      const validation = validateDeploymentStatusEvent(json.value);
      if (!validation.ok) throw new InputError(validation.details);
      const { state } = validation.value.deployment_status;
      if (state !== 'success') {
        request.outcome = 'ignored';
        return reply
          .status(200)
          .send({ status: 'ignored', reason: `deployment_status ${state} records nothing: only success is a deploy` });
      }
      const { payload, idempotencyKey } = deployOfDeploymentStatus(validation.value);
      const result = await recordDeploy(deps, { credential: { serviceId }, payload, idempotencyKey, receivedAt: new Date() });
      // The service was deleted between the two statements: as if it never was.
      if (result.status === 'invalid_token') throw invalidSignature();
      if (result.status === 'accepted' && result.openIncidentSince)
        await refreshSuspectsAfter(deps, { type: 'deploy', id: result.deployId });
      request.outcome = result.status;
      return reply.status(200).send({ status: result.status, deploy_id: result.deployId });
    },
  );
}
