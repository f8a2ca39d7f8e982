// POST /api/ingest/deploy, /api/ingest/deploy/test, /api/ingest/change, GET
// /api/ingest/deploy/latest, and POST /api/ingest/github (GitHub's webhook). Answers follow the
// contract's order of checks: 413 body size → 429 rate limit → 401 token → 415/400 content → 400
// validation. Deploys and change events go through the same steps; only the payload differs.
// The token is looked up on its own only when the content is bad (to tell 401 from 400);
// for a good request the statement that stores the deploy checks the token itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { AttemptQueue } from '../domain/webhooks/attempt-queue.ts';
import { changePayloadSchema, recordChange, validateChangePayload, type ChangePayload } from '../domain/ingest/changes.ts';
import { refreshSuspectsAfter } from '../domain/correlation/correlation.ts';
import { InputError } from '../domain/shared/errors.ts';
import {
  deployOfDeploymentStatus,
  deploymentStatusEventSchema,
  gitHubWebhookSecretOf,
  isValidGitHubSignature,
  validateDeploymentStatusEvent,
} from '../domain/ingest/github-deployments.ts';
import { isUuid } from '../domain/shared/ids.ts';
import {
  deployPayloadSchema,
  findLatestDeploy,
  idempotencyKeySchema,
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
import {
  BODY_ERRORS,
  errorResponse,
  ingestResponses,
  INVALID_DEPLOY_TOKEN,
  jsonResponse,
  payloadTooLarge,
  RATE_LIMIT_HEADERS,
  RATE_LIMITED,
  TRANSPORT_RESPONSES,
} from './route-schemas.ts';
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

const INGEST_RULES =
  'Checks run in this order: body size (413), rate limit (429), token (401), media type and JSON (415, 400), fields (400). ' +
  'Unknown fields are ignored; null counts as absent. Strings must not contain NUL or unpaired surrogates; ' +
  'times are ISO 8601 with a time zone and at most 5 minutes in the future; url is an http(s) address.';

const DEPLOY_PAYLOAD = deployPayloadSchema.meta({ id: 'DeployPayload' });
// Unknown fields are refused (validateChangePayload).
const CHANGE_PAYLOAD = changePayloadSchema.meta({ id: 'ChangePayload', override: { additionalProperties: false } });

const IDEMPOTENCY_KEY_HEADER = z.object({
  'X-Idempotency-Key': idempotencyKeySchema.meta({
    description: 'Makes retries safe: one deploy (or change) per key and deploy token; a repeat answers 200 duplicate with the first id',
  }),
});

const ingestAnswer = (idName: string, statuses: readonly [string, ...string[]] = ['accepted', 'duplicate']) =>
  z.object({
    status: z.enum(statuses).meta({
      description:
        'duplicate: the X-Idempotency-Key was used before with this token' +
        (statuses.includes('updated') ? '; updated: a later stage (rollout_percentage) of the same staged rollout moved it on' : ''),
    }),
    [idName]: z.uuid().meta({ description: 'The stored one; for a duplicate, the first one' }),
  });

const STORED_OR_DUPLICATE = 'Stored (accepted) or already stored under this idempotency key (duplicate)';

const tokenService = () => z.object({ id: z.uuid(), name: z.string() }).meta({ description: 'The service the deploy token belongs to' });

const deployTestAnswerSchema = z.object({ status: z.literal('ok'), service: tokenService() }).meta({ id: 'DeployTestAnswer' });

const latestDeployAnswerSchema = z
  .object({
    service: tokenService(),
    deploy: z
      .object({
        deploy_id: z.uuid(),
        commit_sha: z.string(),
        environment: z.string().nullable(),
        deployed_at: z.iso.datetime(),
      })
      .nullable()
      .meta({ description: 'Its latest deploy (by deployed_at) to the environment; null before the first one' }),
  })
  .meta({ id: 'LatestDeployAnswer' });

const gitHubAnswerSchema = z
  .union([
    ingestAnswer('deploy_id').meta({
      description: 'A successful deployment_status: the deploy recorded (or already recorded for this status)',
    }),
    z.object({ status: z.literal('ok') }).meta({ description: 'ping' }),
    z.object({ status: z.literal('ignored'), reason: z.string() }).meta({ description: 'Another state or event: nothing recorded' }),
  ])
  .meta({ id: 'GitHubAnswer' });

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

  app.post(
    '/api/ingest/deploy',
    {
      ...routeOptions(DEPLOY as IngestKind<unknown>),
      schema: {
        operationId: 'ingestDeploy',
        summary: 'Record a deploy',
        description: INGEST_RULES,
        security: [{ deployToken: [] }],
        headers: IDEMPOTENCY_KEY_HEADER,
        body: DEPLOY_PAYLOAD,
        response: ingestResponses(
          jsonResponse(
            STORED_OR_DUPLICATE,
            ingestAnswer('deploy_id', ['accepted', 'duplicate', 'updated']).meta({ id: 'DeployAnswer' }),
            RATE_LIMIT_HEADERS,
          ),
          [...BODY_ERRORS, 'invalid_idempotency_key'],
        ),
      },
    },
    ingestHandler(deps, DEPLOY),
  );
  app.post(
    '/api/ingest/change',
    {
      ...routeOptions(CHANGE as IngestKind<unknown>),
      schema: {
        operationId: 'ingestChange',
        summary: 'Record a change that is not a deploy (a feature flag, a configuration)',
        description: `${INGEST_RULES} Shares the deploy route's rate limit.`,
        security: [{ deployToken: [] }],
        headers: IDEMPOTENCY_KEY_HEADER,
        body: CHANGE_PAYLOAD,
        response: ingestResponses(
          jsonResponse(STORED_OR_DUPLICATE, ingestAnswer('change_id').meta({ id: 'ChangeAnswer' }), RATE_LIMIT_HEADERS),
          [...BODY_ERRORS, 'invalid_idempotency_key'],
        ),
      },
    },
    ingestHandler(deps, CHANGE),
  );

  alertRoutes(app, { ...deps, rateLimiter: deps.alertRateLimiter });

  const testRouteOptions = {
    ...routeOptions(DEPLOY as IngestKind<unknown>),
    schema: {
      operationId: 'testDeploy',
      summary: 'Check a deploy token and payload without storing anything',
      description: `${INGEST_RULES} Has its own rate limit; stores and sends nothing.`,
      security: [{ deployToken: [] }],
      body: DEPLOY_PAYLOAD,
      response: ingestResponses(jsonResponse('Token and payload are good', deployTestAnswerSchema, RATE_LIMIT_HEADERS), BODY_ERRORS),
    },
  };
  app.post('/api/ingest/deploy/test', testRouteOptions, async (request, reply) => {
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
  const latestRouteSchema = {
    operationId: 'latestDeploy',
    summary: "The deploy token's service's latest deploy to an environment",
    description:
      'Where a pipeline starts its list of commits (what `hookline deploy` asks before it sends). ' +
      'Without environment: the latest deploy without one. Checks run in this order: rate limit (429, shared with ' +
      'the deploy route), token (401), query (400). A token reads only its own service.',
    security: [{ deployToken: [] }],
    querystring: latestDeployQuerySchema,
    response: {
      '200': jsonResponse('The service, and its latest deploy to the environment or null', latestDeployAnswerSchema, RATE_LIMIT_HEADERS),
      '400': errorResponse('A query parameter is invalid (environment given twice)', ['validation_failed'], RATE_LIMIT_HEADERS),
      '401': INVALID_DEPLOY_TOKEN,
      '429': RATE_LIMITED,
      ...TRANSPORT_RESPONSES,
    },
  };
  app.get('/api/ingest/deploy/latest', { schema: latestRouteSchema }, async (request, reply) => {
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
  const gitHubRouteSchema = {
    operationId: 'ingestGitHubWebhook',
    summary: "A service's GitHub webhook: deployment_status events record deploys",
    description:
      'On GitHub: Payload URL <this Hookline>/api/ingest/github?service=<service id>, Content type application/json, ' +
      'Secret from the rotateGitHubWebhookSecret mutation, event Deployment statuses. A deployment_status with state ' +
      'success records a deploy (deployment.sha, .environment, .creator, deployment_status.target_url, its created_at); ' +
      'other states, ping and other events answer 200 and record nothing. A redelivery is a duplicate. Checks run in this ' +
      'order: body size (413), rate limit (429, shared with the deploy route), service (400), X-Hub-Signature-256 (401), ' +
      'X-GitHub-Event (400), media type and JSON (415, 400), fields (400).',
    querystring: z.object({
      service: z.string().meta({ description: 'The id of the service the webhook records deploys of', override: { format: 'uuid' } }),
    }),
    headers: z.object({
      'X-Hub-Signature-256': z
        .string()
        .meta({ description: "sha256= and the hex HMAC-SHA256 of the body with the service's GitHub webhook secret" }),
      'X-GitHub-Event': z.string().meta({ description: 'deployment_status or ping; others are ignored' }),
    }),
    body: deploymentStatusEventSchema.meta({
      id: 'GitHubDeploymentStatusEvent',
      description: "The fields of GitHub's deployment_status event that Hookline reads; ping and other events are any JSON",
    }),
    response: {
      '200': jsonResponse('Recorded, duplicate, pong, or ignored', gitHubAnswerSchema, RATE_LIMIT_HEADERS),
      '400': errorResponse(
        'No service in the URL, no X-GitHub-Event, the body is not JSON, or a field is invalid',
        ['validation_failed', 'missing_event', 'invalid_json', 'invalid_content_length', 'bad_request'],
        RATE_LIMIT_HEADERS,
      ),
      '401': errorResponse(
        "The signature is missing or not made with the service's secret (or the service has none, or does not exist)",
        ['invalid_signature'],
        RATE_LIMIT_HEADERS,
      ),
      '413': payloadTooLarge(INGEST_BODY_LIMIT_BYTES),
      '415': errorResponse(
        "Content-Type is not application/json (GitHub's form encoding is not taken)",
        ['unsupported_media_type'],
        RATE_LIMIT_HEADERS,
      ),
      '429': RATE_LIMITED,
      ...TRANSPORT_RESPONSES,
    },
  };
  app.post(
    '/api/ingest/github',
    {
      bodyLimit: INGEST_BODY_LIMIT_BYTES,
      config: { invalidInput: 'The deployment_status event is invalid' },
      schema: gitHubRouteSchema,
    },
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
