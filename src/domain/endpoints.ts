// Webhook endpoints: creation and changes. `url` is an https address (of at most 2048
// characters) that is not a private, loopback or link-local destination unless the deployment
// allows it; `name` is 1..200 characters; `eventTypes` absent or empty means every event. Each
// function takes the caller's organization and treats another organization's endpoint as absent.
import { z } from 'zod';
import type { PrismaClient, WebhookEndpoint } from '../generated/prisma/client.ts';
import { validateEndpointUrl, type DestinationPolicy } from './destinations.ts';
import { InputError, NotFoundError } from './errors.ts';
import { EVENT_TYPES } from './events.ts';
import { isUuid } from './ids.ts';
import { parseInput, storableText } from './input.ts';
import { emitEvent, type Outbox } from './outbox.ts';
import { generateSigningSecret } from './signing-secrets.ts';

export const ENDPOINT_NAME_MAX_LENGTH = 200;
/** How long the previous secret still signs after a rotation (receivers switch over). */
export const SECRET_ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

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

/** Checks the given fields (all of them when `required`); an InputError names every problem. */
function checkInput(input: EndpointInput, policy: DestinationPolicy, required: boolean) {
  return parseInput(endpointInputSchema(policy, required), input);
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

/** The organization's live endpoint, or NotFoundError. */
async function liveEndpoint(prisma: PrismaClient, organizationId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(prisma, organizationId, id);
  if (!endpoint) throw new NotFoundError('Webhook endpoint', id);
  return endpoint;
}

/** Changes a live endpoint in one guarded write (a concurrent delete wins), then reads it back. */
async function changeLiveEndpoint(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  data: Parameters<PrismaClient['webhookEndpoint']['updateMany']>[0]['data'],
): Promise<WebhookEndpoint> {
  const { count } = isUuid(id) ? await prisma.webhookEndpoint.updateMany({ where: { id, organizationId, deletedAt: null }, data }) : { count: 0 };
  if (count === 0) throw new NotFoundError('Webhook endpoint', id);
  return liveEndpoint(prisma, organizationId, id);
}

export async function updateEndpoint(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  input: EndpointInput,
  policy: DestinationPolicy,
): Promise<WebhookEndpoint> {
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
): Promise<WebhookEndpoint> {
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
export async function deleteEndpoint(prisma: PrismaClient, organizationId: string, id: string): Promise<void> {
  await liveEndpoint(prisma, organizationId, id);
  await prisma.$transaction([
    prisma.webhookEndpoint.update({ where: { id }, data: { deletedAt: new Date() } }),
    prisma.delivery.updateMany({ where: { endpointId: id, status: 'PENDING' }, data: { status: 'CANCELLED', nextAttemptAt: null, updatedAt: new Date() } }),
  ]);
}

/** A new secret; the previous one keeps signing (second signature) for 24 hours. */
export async function rotateSigningSecret(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  now = new Date(),
): Promise<CreatedEndpoint> {
  if (!isUuid(id)) throw new NotFoundError('Webhook endpoint', id);
  const signingSecret = generateSigningSecret();
  // One statement, in SQL because it moves one column into another: concurrent rotations chain
  // (each keeps the one before as previous).
  const updated = await prisma.$executeRaw`
    UPDATE webhook_endpoints
    SET previous_signing_secret = signing_secret, signing_secret = ${signingSecret},
        previous_secret_expires_at = ${new Date(now.getTime() + SECRET_ROTATION_GRACE_MS)}, updated_at = now()
    WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid AND deleted_at IS NULL`;
  if (updated === 0) throw new NotFoundError('Webhook endpoint', id);
  return { endpoint: await liveEndpoint(prisma, organizationId, id), signingSecret };
}

/** A rule of the endpoint's state refused the request: an InputError on the endpoint argument. */
function notActive(message: string): InputError {
  return new InputError([{ field: 'endpointId', message }], message);
}

/** Queues a `test.ping` to one endpoint (whatever its event filter) and returns the delivery id. */
export async function sendTestEvent(outbox: Outbox, organizationId: string, id: string): Promise<string> {
  const endpoint = await liveEndpoint(outbox.prisma, organizationId, id);
  if (endpoint.status !== 'ACTIVE') throw notActive(`Endpoint is ${endpoint.status}; activate it to send a test event`);
  const data = { endpoint: { id: endpoint.id, name: endpoint.name, url: endpoint.url }, message: 'Test event from Hookline' };
  const emitted = await outbox.prisma.$transaction((tx) =>
    emitEvent(tx, outbox.queue, { organizationId, type: 'test.ping', data, onlyEndpointId: endpoint.id }),
  );
  if (emitted.deliveryIds.length === 0) throw notActive('Endpoint stopped being active; activate it to send a test event');
  return emitted.deliveryIds[0]!;
}
