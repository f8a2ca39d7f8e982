// POST /api/ingest/github: GitHub's deployment_status webhook, with GitHub's own example payloads
// (@octokit/webhooks-examples) signed as GitHub signs them (@octokit/webhooks-methods) with the
// secret rotateGitHubWebhookSecret showed once. Real HTTP, real database.
import { createRequire } from 'node:module';
import { sign } from '@octokit/webhooks-methods';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith } from './support/app.ts';
import { post } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const ROTATE_GITHUB_WEBHOOK_SECRET = graphql(`
  mutation RotateGitHubWebhookSecret($serviceId: ID!) {
    rotateGitHubWebhookSecret(serviceId: $serviceId) { secret payloadPath service { id gitHubWebhookSecretCreatedAt } }
  }
`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// The package's main is a JSON file, which an ES module import would need an attribute for.
const webhookExamples: WebhookDefinition[] = createRequire(import.meta.url)('@octokit/webhooks-examples');

function examplesOf(name: string): Record<string, any>[] {
  return webhookExamples.find((event) => event.name === name)!.examples as Record<string, any>[];
}
const deploymentStatuses = examplesOf('deployment_status');
const successExample = deploymentStatuses.find((example) => example.deployment_status.state === 'success')!;
const inProgressExample = deploymentStatuses.find((example) => example.deployment_status.state === 'in_progress')!;
const pingExample = examplesOf('ping')[0]!;
const pushExample = examplesOf('push')[0]!;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' } });
let secret: string;
let payloadPath: string;

beforeAll(async () => {
  const made = dataOf(
    await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE_GITHUB_WEBHOOK_SECRET, {
      serviceId: hookline.tenant.serviceId,
    }),
  );
  ({ secret, payloadPath } = made.rotateGitHubWebhookSecret);
});

let deploysBefore: number;
beforeEach(async () => {
  deploysBefore = await hookline.app.database.prisma.deploy.count();
});
const expectNothingStored = async () => expect(await hookline.app.database.prisma.deploy.count()).toBe(deploysBefore);

/** Delivers `body` as GitHub does: signed with `signWith`, the event in X-GitHub-Event. */
async function deliver(
  event: string | undefined,
  body: string,
  options: { signWith?: string | null; path?: string; contentType?: string } = {},
) {
  const signWith = options.signWith === undefined ? secret : options.signWith;
  return post(`${hookline.baseUrl}${options.path ?? payloadPath}`, {
    body,
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'user-agent': 'GitHub-Hookshot/abc123',
      'x-github-delivery': crypto.randomUUID(),
      ...(event ? { 'x-github-event': event } : {}),
      ...(signWith ? { 'x-hub-signature-256': await sign(signWith, body) } : {}),
    },
  });
}

describe('the secret', () => {
  it('is made by rotateGitHubWebhookSecret, shown once, with the Payload URL to give GitHub', async () => {
    expect(secret).toMatch(/^hlg_[0-9A-Za-z]{40}$/);
    expect(payloadPath).toBe(`/api/ingest/github?service=${hookline.tenant.serviceId}`);
  });

  it('another organization cannot make one for the service (NOT_FOUND)', async () => {
    const stranger = await hookline.createTenant('checkout');
    const response = await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, ROTATE_GITHUB_WEBHOOK_SECRET, {
      serviceId: hookline.tenant.serviceId,
    });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('POST /api/ingest/github', () => {
  it('ping answers 200', async () => {
    expect(await deliver('ping', JSON.stringify(pingExample))).toMatchObject({ status: 200, body: { status: 'ok' } });
    await expectNothingStored();
  });

  it('a successful deployment_status records a deploy: sha, environment, creator, target URL, at its time', async () => {
    const event = structuredClone(successExample);
    event.deployment_status.target_url = 'https://github.com/Codertocat/Hello-World/actions/runs/1';
    const response = await deliver('deployment_status', JSON.stringify(event));
    expect(response).toMatchObject({ status: 200, body: { status: 'accepted', deploy_id: expect.stringMatching(UUID) } });
    const stored = await hookline.app.database.prisma.deploy.findUniqueOrThrow({ where: { id: response.body.deploy_id } });
    expect(stored).toMatchObject({
      serviceId: hookline.tenant.serviceId,
      commitSha: successExample.deployment.sha,
      environment: successExample.deployment.environment,
      deployedBy: successExample.deployment.creator.login,
      branch: successExample.deployment.ref,
      url: 'https://github.com/Codertocat/Hello-World/actions/runs/1',
      idempotencyKey: `github-deployment-status:${successExample.deployment_status.id}`,
    });
    expect(stored.deployedAt.toISOString()).toBe(new Date(successExample.deployment_status.created_at).toISOString());
  });

  it('a redelivery of the same status records nothing new', async () => {
    const response = await deliver('deployment_status', JSON.stringify(successExample));
    expect(response).toMatchObject({ status: 200, body: { status: 'duplicate', deploy_id: expect.stringMatching(UUID) } });
    await expectNothingStored();
  });

  it('every other state answers 200 and records nothing', async () => {
    for (const state of ['in_progress', 'queued', 'pending', 'failure', 'error', 'inactive']) {
      const event = { ...inProgressExample, deployment_status: { ...inProgressExample.deployment_status, id: 1, state } };
      expect(await deliver('deployment_status', JSON.stringify(event))).toEqual({
        status: 200,
        headers: expect.anything(),
        body: { status: 'ignored', reason: `deployment_status ${state} records nothing: only success is a deploy` },
      });
    }
    await expectNothingStored();
  });

  it('another event answers 200 and records nothing', async () => {
    expect((await deliver('push', JSON.stringify(pushExample))).body).toEqual({
      status: 'ignored',
      reason: 'push events record nothing: subscribe the webhook to Deployment statuses only',
    });
    await expectNothingStored();
  });
});

describe('refused deliveries store nothing', () => {
  const body = () => JSON.stringify({ ...successExample, deployment_status: { ...successExample.deployment_status, id: 424242 } });
  const refusedSignature = {
    error: {
      code: 'invalid_signature',
      message: "X-Hub-Signature-256 is missing or is not signed with the service's GitHub webhook secret",
    },
  };

  it('401 invalid_signature: no signature, another secret, a body changed after signing, a service without a secret, an unknown service', async () => {
    expect(await deliver('deployment_status', body(), { signWith: null })).toMatchObject({ status: 401, body: refusedSignature });
    expect(await deliver('deployment_status', body(), { signWith: 'hlg_not-the-secret' })).toMatchObject({
      status: 401,
      body: refusedSignature,
    });
    const signature = await sign(secret, body());
    const tampered = await post(`${hookline.baseUrl}${payloadPath}`, {
      body: body().replace(successExample.deployment.sha, 'f'.repeat(40)),
      headers: { 'content-type': 'application/json', 'x-github-event': 'deployment_status', 'x-hub-signature-256': signature },
    });
    expect(tampered).toMatchObject({ status: 401, body: refusedSignature });
    const withoutSecret = await hookline.createTenant('payments');
    expect(await deliver('deployment_status', body(), { path: `/api/ingest/github?service=${withoutSecret.serviceId}` })).toMatchObject({
      status: 401,
      body: refusedSignature,
    });
    expect(await deliver('deployment_status', body(), { path: `/api/ingest/github?service=${crypto.randomUUID()}` })).toMatchObject({
      status: 401,
      body: refusedSignature,
    });
    await expectNothingStored();
  });

  it('a rotated secret refuses deliveries signed with the one before', async () => {
    const stale = secret;
    const rotated = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE_GITHUB_WEBHOOK_SECRET, {
        serviceId: hookline.tenant.serviceId,
      }),
    );
    secret = rotated.rotateGitHubWebhookSecret.secret;
    expect(secret).not.toBe(stale);
    expect(await deliver('deployment_status', body(), { signWith: stale })).toMatchObject({ status: 401, body: refusedSignature });
    expect(await deliver('ping', JSON.stringify(pingExample))).toMatchObject({ status: 200 });
    await expectNothingStored();
  });

  it('400 for a URL without the service, with its field', async () => {
    expect(await deliver('deployment_status', body(), { path: '/api/ingest/github' })).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'The webhook URL must name the service: /api/ingest/github?service=<service id>',
          details: [{ field: 'service', message: 'must be the id of a service (a UUID), once' }],
        },
      },
    });
    await expectNothingStored();
  });

  it('400 missing_event without X-GitHub-Event', async () => {
    expect(await deliver(undefined, body())).toMatchObject({
      status: 400,
      body: { error: { code: 'missing_event', message: 'X-GitHub-Event is required' } },
    });
    await expectNothingStored();
  });

  it("415 for GitHub's form encoding, saying which setting to change", async () => {
    const form = `payload=${encodeURIComponent(body())}`;
    expect(await deliver('deployment_status', form, { contentType: 'application/x-www-form-urlencoded' })).toMatchObject({
      status: 415,
      body: {
        error: {
          code: 'unsupported_media_type',
          message: "Content-Type must be application/json: set the webhook's Content type to application/json on GitHub",
        },
      },
    });
    await expectNothingStored();
  });

  it('400 invalid_json for a signed body that is not JSON', async () => {
    expect(await deliver('deployment_status', '{"deployment":')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_json', message: 'Body is not valid JSON' } },
    });
    await expectNothingStored();
  });

  it('400 validation_failed naming every field at fault', async () => {
    const event = structuredClone(successExample);
    delete event.deployment.sha;
    event.deployment.environment = 42;
    event.deployment_status.target_url = 'not a link';
    expect(await deliver('deployment_status', JSON.stringify(event))).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'The deployment_status event is invalid',
          details: [
            { field: 'deployment_status.target_url', message: 'must be an http or https address' },
            { field: 'deployment.sha', message: 'is required' },
            { field: 'deployment.environment', message: 'must be a string' },
          ],
        },
      },
    });
    await expectNothingStored();
  });

  it('413 for a body over 100 KB, before anything else', async () => {
    const response = await deliver('deployment_status', JSON.stringify({ ...successExample, padding: 'x'.repeat(102_400) }), {
      signWith: null,
    });
    expect(response).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    await expectNothingStored();
  });
});
