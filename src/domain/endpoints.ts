// Webhook endpoints: creation and changes, with the input rules of DESIGN.md. Each function
// takes the caller's organization and treats another organization's endpoint as absent.
import type { PgBoss } from 'pg-boss';
import type pg from 'pg';
import { z } from 'zod';
import type { PrismaClient, WebhookEndpoint } from '../generated/prisma/client.ts';
import { validateEndpointUrl, type DestinationPolicy } from '../delivery/destination.ts';
import { transaction } from '../delivery/queue.ts';
import { generateSigningSecret } from '../delivery/signing.ts';
import { EVENT_TYPES } from './events.ts';
import { isUuid } from './ids.ts';
import { storableText, validateInput, type FieldError } from './input.ts';
import { emitEvent } from './outbox.ts';

export const ENDPOINT_NAME_MAX_LENGTH = 200;
/** How long the previous secret still signs after a rotation (receivers switch over). */
export const SECRET_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export class EndpointInputError extends Error {
  constructor(readonly details: FieldError[]) {
    super(details.map((detail) => `${detail.field} ${detail.message}`).join('; '));
    this.name = 'EndpointInputError';
  }
}

export interface EndpointInput {
  url?: unknown;
  name?: unknown;
  eventTypes?: unknown;
}

const requiredText = () => storableText({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

function endpointUrl(policy: DestinationPolicy) {
  return requiredText().transform((value, context) => {
    const validation = validateEndpointUrl(value, policy);
    if (!validation.ok) {
      context.addIssue({ code: 'custom', message: validation.message.replace(/^url /, ''), input: value });
      return z.NEVER;
    }
    // Port 0 parses as a URL, but no connection can ever reach it.
    if (validation.url.port === '0') {
      context.addIssue({ code: 'custom', message: 'must not use port 0', input: value });
      return z.NEVER;
    }
    return validation.url.href;
  });
}

const endpointName = requiredText()
  .trim()
  .min(1, `must be 1 to ${ENDPOINT_NAME_MAX_LENGTH} characters`)
  .max(ENDPOINT_NAME_MAX_LENGTH, `must be 1 to ${ENDPOINT_NAME_MAX_LENGTH} characters`);

/** Absent, null or empty: every event type. Repeats are kept once. */
const eventTypeList = z
  .array(z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }), { error: 'must be an array of event types' })
  .nullish()
  .transform((types) => (types ? [...new Set(types)] : undefined));

/** All fields when `required` (creation); otherwise only those given (a change). */
function endpointInputSchema(policy: DestinationPolicy, required: boolean) {
  const url = endpointUrl(policy);
  return z.object({
    url: required ? url : url.optional(),
    name: required ? endpointName : endpointName.optional(),
    eventTypes: eventTypeList,
  });
}

/** Checks the given fields (all of them when `required`); throws with every problem. */
function checkInput(input: EndpointInput, policy: DestinationPolicy, required: boolean) {
  const validation = validateInput(endpointInputSchema(policy, required), input);
  if (!validation.ok) throw new EndpointInputError(validation.details);
  return validation.value;
}

export interface CreatedEndpoint {
  endpoint: WebhookEndpoint;
  /** Shown once, here. */
  signingSecret: string;
}

export async function createEndpoint(
  prisma: PrismaClient,
  organizationId: string,
  input: EndpointInput,
  policy: DestinationPolicy,
): Promise<CreatedEndpoint> {
  const checked = checkInput(input, policy, true);
  const signingSecret = generateSigningSecret();
  const endpoint = await prisma.webhookEndpoint.create({
    data: { organizationId, url: checked.url!, name: checked.name!, eventTypes: checked.eventTypes ?? [], signingSecret },
  });
  return { endpoint, signingSecret };
}

/** The organization's live (not deleted) endpoint, or null. */
export async function findEndpoint(prisma: PrismaClient, organizationId: string, id: string): Promise<WebhookEndpoint | null> {
  if (!isUuid(id)) return null;
  return prisma.webhookEndpoint.findFirst({ where: { id, organizationId, deletedAt: null } });
}

/** Changes a live endpoint in one guarded write (a concurrent delete wins), then reads it back. */
async function changeLiveEndpoint(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  data: Parameters<PrismaClient['webhookEndpoint']['updateMany']>[0]['data'],
): Promise<WebhookEndpoint | null> {
  if (!isUuid(id)) return null;
  const { count } = await prisma.webhookEndpoint.updateMany({ where: { id, organizationId, deletedAt: null }, data });
  return count === 0 ? null : findEndpoint(prisma, organizationId, id);
}

export async function updateEndpoint(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  input: EndpointInput,
  policy: DestinationPolicy,
): Promise<WebhookEndpoint | null> {
  return changeLiveEndpoint(prisma, organizationId, id, { ...checkInput(input, policy, false), updatedAt: new Date() });
}

/**
 * Active → INACTIVE pauses deliveries (queued attempts are cancelled when their turn comes);
 * true brings an INACTIVE or automatically DISABLED endpoint back with a clean failure count.
 */
export async function setEndpointActive(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  active: boolean,
): Promise<WebhookEndpoint | null> {
  return changeLiveEndpoint(
    prisma,
    organizationId,
    id,
    active
      ? { status: 'ACTIVE', consecutiveFailures: 0, disabledAt: null, disabledReason: null, updatedAt: new Date() }
      : { status: 'INACTIVE', updatedAt: new Date() },
  );
}

/** Permanent: the endpoint disappears from every API and its pending deliveries are cancelled. */
export async function deleteEndpoint(prisma: PrismaClient, organizationId: string, id: string): Promise<boolean> {
  if (!(await findEndpoint(prisma, organizationId, id))) return false;
  await prisma.$transaction([
    prisma.webhookEndpoint.update({ where: { id }, data: { deletedAt: new Date() } }),
    prisma.delivery.updateMany({ where: { endpointId: id, status: 'PENDING' }, data: { status: 'CANCELLED', nextAttemptAt: null, updatedAt: new Date() } }),
  ]);
  return true;
}

/** A new secret; the previous one keeps signing (second signature) for 24 hours. */
export async function rotateSigningSecret(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  now = new Date(),
): Promise<CreatedEndpoint | null> {
  if (!isUuid(id)) return null;
  const signingSecret = generateSigningSecret();
  // One statement: concurrent rotations chain (each keeps the one before as previous).
  const updated = await prisma.$executeRaw`
    UPDATE webhook_endpoints
    SET previous_signing_secret = signing_secret, signing_secret = ${signingSecret},
        previous_secret_expires_at = ${new Date(now.getTime() + SECRET_ROTATION_GRACE_MS)}, updated_at = now()
    WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid AND deleted_at IS NULL`;
  const endpoint = updated === 0 ? null : await findEndpoint(prisma, organizationId, id);
  return endpoint && { endpoint, signingSecret };
}

export class EndpointNotActiveError extends Error {
  override name = 'EndpointNotActiveError';
}

/** Queues a `test.ping` to one endpoint (whatever its event filter) and returns the delivery id. */
export async function sendTestEvent(
  prisma: PrismaClient,
  pool: pg.Pool,
  boss: PgBoss,
  organizationId: string,
  id: string,
): Promise<string | null> {
  const endpoint = await findEndpoint(prisma, organizationId, id);
  if (!endpoint) return null;
  if (endpoint.status !== 'ACTIVE') {
    throw new EndpointNotActiveError(`Endpoint is ${endpoint.status}; activate it to send a test event`);
  }
  const data = { endpoint: { id: endpoint.id, name: endpoint.name, url: endpoint.url }, message: 'Test event from Hookline' };
  const emitted = await transaction(pool, (client) =>
    emitEvent(client, boss, { organizationId, type: 'test.ping', data, onlyEndpointId: endpoint.id }),
  );
  if (emitted.deliveryIds.length === 0) {
    throw new EndpointNotActiveError('Endpoint stopped being active; activate it to send a test event');
  }
  return emitted.deliveryIds[0]!;
}
