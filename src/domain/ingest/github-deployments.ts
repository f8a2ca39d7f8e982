// GitHub deployments as deploys: a service's GitHub webhook (event `deployment_status`) records a
// deploy when a deployment succeeds. GitHub signs each delivery with the webhook's secret
// (X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>); each service has its own,
// made (and shown) once by rotateGitHubWebhookSecret, like a deploy token.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { COMMIT_SHA_MAX_LENGTH, ingestTime, ingestUrl, type DeployPayload } from './deploys.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { requiredText, storableText, validateInput, type Validated } from '../shared/input.ts';
import { issueToken } from '../shared/tokens.ts';

/** Makes the service's GitHub webhook secret, replacing any before it (which fails from now on). */
export async function rotateGitHubWebhookSecret(
  prisma: PrismaClient,
  organizationId: string,
  serviceId: string,
): Promise<{ serviceId: string; secret: string }> {
  if (!isUuid(serviceId)) throw new NotFoundError('Service', serviceId);
  const secret = issueToken('github').plaintext;
  const { count } = await prisma.service.updateMany({
    where: { id: serviceId, organizationId },
    data: { githubWebhookSecret: secret, githubWebhookSecretCreatedAt: new Date() },
  });
  if (count === 0) throw new NotFoundError('Service', serviceId);
  return { serviceId, secret };
}

/** The service's secret, or null (no such service, or it has no GitHub webhook). */
export async function gitHubWebhookSecretOf(prisma: PrismaClient, serviceId: string): Promise<string | null> {
  if (!isUuid(serviceId)) return null;
  const service = await prisma.service.findUnique({ where: { id: serviceId }, select: { githubWebhookSecret: true } });
  return service?.githubWebhookSecret ?? null;
}

/** Whether X-Hub-Signature-256 is the HMAC of `body` with `secret`, compared in constant time. */
export function isValidGitHubSignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const presented = Buffer.from(header);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

// GitHub leaves optional strings empty rather than out (target_url: ""): empty is absent here.
const emptyIsAbsent = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (value === '' ? undefined : value), schema);
const login = z.object({ login: storableText() }).nullish();

/** The fields of GitHub's deployment_status event that make a deploy; GitHub sends many more. */
export const deploymentStatusEventSchema = z.object(
  {
    deployment_status: z.object(
      {
        id: z.number({ error: 'must be a number' }).int(),
        state: requiredText(),
        target_url: emptyIsAbsent(ingestUrl),
        log_url: emptyIsAbsent(ingestUrl),
        description: storableText().nullish(),
        created_at: ingestTime,
        creator: login,
      },
      { error: 'must be an object' },
    ),
    deployment: z.object(
      {
        sha: requiredText().min(1, 'must not be empty').max(COMMIT_SHA_MAX_LENGTH, `must be at most ${COMMIT_SHA_MAX_LENGTH} characters`),
        ref: storableText().nullish(),
        environment: storableText().nullish(),
        description: storableText().nullish(),
        creator: login,
      },
      { error: 'must be an object' },
    ),
  },
  { error: 'must be a JSON object' },
);

export type DeploymentStatusEvent = z.output<typeof deploymentStatusEventSchema>;

export function validateDeploymentStatusEvent(body: unknown): Validated<DeploymentStatusEvent> {
  return validateInput(deploymentStatusEventSchema, body);
}

/**
 * The deploy a successful deployment_status stands for: GitHub's deployment (its commit,
 * environment, who made it, when it succeeded), and a link to its log. The idempotency key is
 * the status's own id, so a redelivered webhook records nothing new.
 */
export function deployOfDeploymentStatus(event: DeploymentStatusEvent): { payload: DeployPayload; idempotencyKey: string } {
  const { deployment, deployment_status: status } = event;
  return {
    payload: {
      commit_sha: deployment.sha,
      // A deployment of a commit by its SHA names no branch.
      branch: deployment.ref && deployment.ref !== deployment.sha ? deployment.ref : null,
      deployed_by: deployment.creator?.login ?? status.creator?.login ?? null,
      environment: deployment.environment ?? null,
      description: status.description || deployment.description || null,
      url: status.target_url ?? status.log_url ?? null,
      deployed_at: status.created_at ?? null,
    },
    idempotencyKey: `github-deployment-status:${status.id}`,
  };
}
