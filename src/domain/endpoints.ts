// Webhook endpoints: creation and changes, with the input rules of DESIGN.md. Each function
// takes the caller's organization and treats another organization's endpoint as absent.
import type { PgBoss } from 'pg-boss';
import type pg from 'pg';
import type { PrismaClient, WebhookEndpoint } from '../generated/prisma/client.ts';
import { validateEndpointUrl, type DestinationPolicy } from '../delivery/destination.ts';
import { transaction } from '../delivery/queue.ts';
import { generateSigningSecret } from '../delivery/signing.ts';
import type { FieldError } from './deploys.ts';
import { EVENT_TYPES, isEventType } from './events.ts';
import { isUuid } from './ids.ts';
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

interface CheckedInput {
  url?: string;
  name?: string;
  eventTypes?: string[];
}

/** Checks the given fields (all of them when `required`); throws with every problem. */
function checkInput(input: EndpointInput, policy: DestinationPolicy, required: boolean): CheckedInput {
  const details: FieldError[] = [];
  const checked: CheckedInput = {};
  if (input.url !== undefined || required) {
    if (typeof input.url !== 'string') {
      details.push({ field: 'url', message: input.url === undefined ? 'is required' : 'must be a string' });
    } else {
      const validation = validateEndpointUrl(input.url, policy);
      if (validation.ok) checked.url = validation.url.href;
      else details.push({ field: 'url', message: validation.message.replace(/^url /, '') });
    }
  }
  if (input.name !== undefined || required) {
    const name = typeof input.name === 'string' ? input.name.trim() : undefined;
    if (input.name === undefined) details.push({ field: 'name', message: 'is required' });
    else if (name === undefined) details.push({ field: 'name', message: 'must be a string' });
    else if (name.length === 0 || name.length > ENDPOINT_NAME_MAX_LENGTH) {
      details.push({ field: 'name', message: `must be 1 to ${ENDPOINT_NAME_MAX_LENGTH} characters` });
    } else checked.name = name;
  }
  if (input.eventTypes !== undefined && input.eventTypes !== null) {
    if (!Array.isArray(input.eventTypes)) details.push({ field: 'eventTypes', message: 'must be an array of event types' });
    else {
      input.eventTypes.forEach((type, index) => {
        if (typeof type !== 'string' || !isEventType(type)) {
          details.push({ field: `eventTypes[${index}]`, message: `must be one of ${EVENT_TYPES.join(', ')}` });
        }
      });
      checked.eventTypes = [...new Set(input.eventTypes as string[])];
    }
  }
  if (details.length > 0) throw new EndpointInputError(details);
  return checked;
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
