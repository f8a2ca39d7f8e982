// Webhook endpoints: creation and changes. `url` is an https address (of at most 2048
// characters) that is not a private, loopback or link-local destination unless the deployment
// allows it; `name` is 1..200 characters; `eventTypes` absent or empty means every event;
// optional settings: custom headers, an attempt timeout and a rate limit. Each
// function takes the caller's organization and treats another organization's endpoint as absent.
import { z } from 'zod';
import type { PrismaClient, WebhookEndpoint } from '../../generated/prisma/client.ts';
import { MAX_ENDPOINT_URL_LENGTH, validateEndpointUrl, type DestinationPolicy } from './destinations.ts';
import { InputError, LimitReachedError, NotFoundError } from '../shared/errors.ts';
import { EVENT_CATALOGUE } from './event-catalogue.ts';
import { EVENT_TYPES, UNKNOWN_EVENT_TYPE_MESSAGE, type EventType } from './events.ts';
import { isUuid } from '../shared/ids.ts';
import { parseInput, requiredText, storableText, trimmedText } from '../shared/input.ts';
import { emitEvent, type Outbox } from './outbox.ts';
import { generateSigningSecret } from './signing-secrets.ts';

export const ENDPOINT_NAME_MAX_LENGTH = 200;
/** How long the previous secret still signs after a rotation (receivers switch over), by default... */
export const DEFAULT_SECRET_GRACE_SECONDS = 24 * 60 * 60;
/** ...and at most a week (a receiver deploying weekly still switches over in time). 0 stops the previous secret at once. */
export const MAX_SECRET_GRACE_SECONDS = 7 * 24 * 60 * 60;

export interface EndpointInput {
  url?: unknown;
  name?: unknown;
  eventTypes?: unknown;
  /** Replaces every custom header; null or empty: none. */
  headers?: unknown;
  /** null: the server's timeout. */
  timeoutMs?: unknown;
  /** null: no limit. */
  rateLimitPerSecond?: unknown;
}

/** A custom header sent with every attempt to the endpoint. */
export interface EndpointHeader {
  name: string;
  value: string;
}

export const ENDPOINT_HEADER_LIMITS = { count: 20, nameLength: 100, valueLength: 1000, totalBytes: 8192 } as const;
/** The shortest attempt timeout an endpoint may ask for; the longest is the server's DELIVERY_TIMEOUT_MS. */
export const ENDPOINT_MIN_TIMEOUT_MS = 100;
export const ENDPOINT_MAX_RATE_PER_SECOND = 1000;
/** DELIVERY_TIMEOUT_MS's default, for a policy that does not say. */
const DEFAULT_MAX_TIMEOUT_MS = 15_000;

/** The longest attempt timeout an endpoint may ask for under `policy`. */
export function maxEndpointTimeoutMs(policy: DestinationPolicy): number {
  return policy.maxTimeoutMs ?? DEFAULT_MAX_TIMEOUT_MS;
}

// RFC 9110 field names are tokens; values visible ASCII, spaces and tabs, without line breaks.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** HEADER_VALUE, not empty and without whitespace at either end: both checks at once, as the OpenAPI document states them. */
const TRIMMED_HEADER_VALUE = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$/;
/**
 * Names a custom header may not take: the ones Hookline signs or sets itself, the hop-by-hop
 * headers of one connection (RFC 9110 7.6.1), and those that describe the request's framing.
 */
const RESERVED_HEADER_PREFIXES = ['webhook-', 'x-service-'];
const RESERVED_HEADERS = new Set([
  'host',
  'content-type',
  'content-length',
  'user-agent',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/** `text` as a pattern that matches it in any case: JSON Schema patterns take no flags. */
const anyCase = (text: string) => text.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);

/**
 * HEADER_NAME without the reserved names and prefixes, in any case: the whole rule, as the
 * OpenAPI document states it, so a client generated from the document sends only names taken.
 */
const ALLOWED_HEADER_NAME = new RegExp(
  `^(?!(?:${RESERVED_HEADER_PREFIXES.map(anyCase).join('|')}))(?!(?:${[...RESERVED_HEADERS].map(anyCase).join('|')})$)${HEADER_NAME.source.slice(1)}`,
);

function headerNameProblem(name: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "must be a header name (letters, digits and !#$%&'*+-.^_`|~)";
  if (name.length > ENDPOINT_HEADER_LIMITS.nameLength) return `must be at most ${ENDPOINT_HEADER_LIMITS.nameLength} characters`;
  const lower = name.toLowerCase();
  if (RESERVED_HEADER_PREFIXES.some((prefix) => lower.startsWith(prefix)))
    return `must not start with ${RESERVED_HEADER_PREFIXES.join(' or ')}: Hookline sets those`;
  if (RESERVED_HEADERS.has(lower)) return `${lower} is set by Hookline or by the connection and cannot be changed`;
  return undefined;
}

const endpointHeader = z.object(
  {
    name: storableText()
      .superRefine((name, context) => {
        const problem = headerNameProblem(name);
        if (problem) context.addIssue({ code: 'custom', message: problem, input: name });
      })
      // For the documents made from this schema (OpenAPI): what a checker can see of the rule.
      .meta({
        pattern: ALLOWED_HEADER_NAME.source,
        maxLength: ENDPOINT_HEADER_LIMITS.nameLength,
        description: `Not starting with ${RESERVED_HEADER_PREFIXES.join(' or ')}, nor one of ${[...RESERVED_HEADERS].join(', ')} (in any case)`,
      }),
    value: storableText()
      .max(ENDPOINT_HEADER_LIMITS.valueLength, `must be at most ${ENDPOINT_HEADER_LIMITS.valueLength} characters`)
      .regex(HEADER_VALUE, 'must be visible ASCII characters, spaces or tabs (no line breaks)')
      .refine((value) => value.trim() === value && value !== '', 'must not be empty or start or end with whitespace')
      .meta({ pattern: TRIMMED_HEADER_VALUE.source }),
  },
  { error: 'must be an object {name, value}' },
);

/** Absent: unchanged; null or empty: no custom headers. */
const headerList = z
  .array(endpointHeader, { error: 'must be an array of {name, value}' })
  .max(ENDPOINT_HEADER_LIMITS.count, `must hold at most ${ENDPOINT_HEADER_LIMITS.count} headers`)
  .superRefine((headers, context) => {
    const seen = new Set<string>();
    headers.forEach((header, index) => {
      const lower = header.name.toLowerCase();
      if (seen.has(lower))
        context.addIssue({ code: 'custom', message: `repeats the header ${header.name}`, path: [index, 'name'], input: header.name });
      seen.add(lower);
    });
    const bytes = headers.reduce((sum, header) => sum + header.name.length + header.value.length + 4, 0);
    if (bytes > ENDPOINT_HEADER_LIMITS.totalBytes)
      context.addIssue({ code: 'custom', message: `must be at most ${ENDPOINT_HEADER_LIMITS.totalBytes} bytes in all`, input: headers });
  })
  .meta({
    description: `Each name at most once (case-insensitively); at most ${ENDPOINT_HEADER_LIMITS.totalBytes} bytes in all, counting 4 more per header`,
  })
  .nullish()
  .transform((headers) => (headers === null ? [] : headers?.map(({ name, value }) => ({ name, value }))));

const wholeNumberIn = (min: number, max: number, unit: string) =>
  z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be ${min} to ${max} ${unit}`)
    .max(max, `must be ${min} to ${max} ${unit}`)
    .nullish();

function endpointUrl(policy: DestinationPolicy) {
  const scheme = policy.allowHttp ? '[hH][tT][tT][pP][sS]?' : '[hH][tT][tT][pP][sS]';
  return requiredText()
    .meta({
      format: 'uri',
      pattern: `^${scheme}://`,
      maxLength: MAX_ENDPOINT_URL_LENGTH,
      description: policy.allowPrivate ? undefined : 'Not a private, loopback, link-local or other non-public address, nor localhost',
    })
    .transform((value, context) => {
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

const endpointName = trimmedText(ENDPOINT_NAME_MAX_LENGTH, requiredText());

const eventTypeSchema = z.enum(EVENT_TYPES, { error: UNKNOWN_EVENT_TYPE_MESSAGE });

/** Absent, null or empty: every event type. Repeats are kept once. */
export const eventTypeList = z
  .array(eventTypeSchema, { error: 'must be an array of event types' })
  .nullish()
  .transform((types) => (types ? [...new Set(types)] : undefined));

/** All fields when `required` (creation); otherwise only those given (a change). */
export function endpointInputSchema(policy: DestinationPolicy, required: boolean) {
  const url = endpointUrl(policy);
  return z.object({
    url: required ? url : url.optional(),
    name: required ? endpointName : endpointName.optional(),
    eventTypes: eventTypeList,
    headers: headerList,
    timeoutMs: wholeNumberIn(ENDPOINT_MIN_TIMEOUT_MS, maxEndpointTimeoutMs(policy), 'milliseconds (the server maximum)'),
    rateLimitPerSecond: wholeNumberIn(1, ENDPOINT_MAX_RATE_PER_SECOND, 'deliveries per second'),
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

/**
 * A new endpoint, unless the organization has `maxEndpoints` live ones already (deleted ones do
 * not count): each endpoint is work for the delivery workers on every event, so their number is
 * bounded. Creations of one organization are counted one at a time (its row is locked).
 */
export async function createEndpoint(
  prisma: PrismaClient,
  organizationId: string,
  input: EndpointInput,
  policy: DestinationPolicy,
  maxEndpoints: number,
): Promise<CreatedEndpoint> {
  const checked = checkInput(input, policy, true);
  const signingSecret = generateSigningSecret();
  const endpoint = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
    const live = await tx.webhookEndpoint.count({ where: { organizationId, deletedAt: null } });
    if (live >= maxEndpoints) {
      throw new LimitReachedError(
        maxEndpoints,
        `The organization has ${live} webhook endpoints, the most it may have (${maxEndpoints}); delete one first`,
      );
    }
    return tx.webhookEndpoint.create({
      data: {
        organizationId,
        url: checked.url!,
        name: checked.name!,
        eventTypes: checked.eventTypes ?? [],
        customHeaders: checked.headers ?? [],
        timeoutMs: checked.timeoutMs ?? null,
        rateLimitPerSecond: checked.rateLimitPerSecond ?? null,
        signingSecret,
      },
    });
  });
  return { endpoint, signingSecret };
}

/**
 * Refuses a request that would make `adding` endpoints (aliases of one GraphQL mutation) past the
 * organization's `maxEndpoints`, before any is made: made one by one, the first would be made and
 * the rest refused, and the answer (data null) would hide the secrets of those made.
 */
export async function checkRoomForEndpoints(prisma: PrismaClient, organizationId: string, adding: number, maxEndpoints: number) {
  const live = await prisma.webhookEndpoint.count({ where: { organizationId, deletedAt: null } });
  if (live + adding > maxEndpoints) {
    throw new LimitReachedError(
      maxEndpoints,
      `The organization has ${live} webhook endpoints and this request would make ${adding} more, past the most it may have (${maxEndpoints}); nothing was made`,
    );
  }
}

/** The organization's live (not deleted) endpoint, or null. */
export async function findEndpoint(prisma: PrismaClient, organizationId: string, id: string): Promise<WebhookEndpoint | null> {
  if (!isUuid(id)) return null;
  return prisma.webhookEndpoint.findFirst({ where: { id, organizationId, deletedAt: null } });
}

export interface EndpointPage {
  endpoints: WebhookEndpoint[];
  /** The last endpoint's id when more follow: the `after` of the next page. */
  nextCursor: string | null;
}

/**
 * A page of the organization's live endpoints, newest first, after the endpoint `after` (an
 * earlier page's cursor; it may have been deleted since). Null when `after` names no endpoint of
 * the organization.
 */
export async function listEndpoints(
  prisma: PrismaClient,
  organizationId: string,
  limit: number,
  after?: string,
): Promise<EndpointPage | null> {
  let before: { createdAt: Date; id: string } | undefined;
  if (after !== undefined) {
    const cursor = isUuid(after)
      ? await prisma.webhookEndpoint.findFirst({ where: { id: after, organizationId }, select: { createdAt: true, id: true } })
      : null;
    if (!cursor) return null;
    before = cursor;
  }
  const rows = await prisma.webhookEndpoint.findMany({
    where: {
      organizationId,
      deletedAt: null,
      ...(before && { OR: [{ createdAt: { lt: before.createdAt } }, { createdAt: before.createdAt, id: { lt: before.id } }] }),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  const endpoints = rows.slice(0, limit);
  return { endpoints, nextCursor: rows.length > limit ? endpoints.at(-1)!.id : null };
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
  const { count } = isUuid(id)
    ? await prisma.webhookEndpoint.updateMany({ where: { id, organizationId, deletedAt: null }, data })
    : { count: 0 };
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
  const { headers, ...checked } = checkInput(input, policy, false);
  return changeLiveEndpoint(prisma, organizationId, id, { ...checked, customHeaders: headers, updatedAt: new Date() });
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

/** Permanent: the endpoint disappears from every API and its pending deliveries are cancelled. Returns it as it was. */
export async function deleteEndpoint(prisma: PrismaClient, organizationId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await liveEndpoint(prisma, organizationId, id);
  await prisma.$transaction([
    prisma.webhookEndpoint.update({ where: { id }, data: { deletedAt: new Date() } }),
    prisma.delivery.updateMany({
      where: { endpointId: id, status: 'PENDING' },
      data: { status: 'CANCELLED', nextAttemptAt: null, updatedAt: new Date() },
    }),
  ]);
  return endpoint;
}

const gracePeriodMessage = `must be a whole number from 0 to ${MAX_SECRET_GRACE_SECONDS}`;
const gracePeriodInput = z.object({
  gracePeriodSeconds: z.number().int(gracePeriodMessage).min(0, gracePeriodMessage).max(MAX_SECRET_GRACE_SECONDS, gracePeriodMessage),
});

/**
 * A new secret; the previous one keeps signing (a second signature) for `gracePeriodSeconds`
 * (0..MAX_SECRET_GRACE_SECONDS), or stops at once with 0.
 */
export async function rotateSigningSecret(
  prisma: PrismaClient,
  organizationId: string,
  id: string,
  gracePeriodSeconds = DEFAULT_SECRET_GRACE_SECONDS,
  now = new Date(),
): Promise<CreatedEndpoint> {
  parseInput(gracePeriodInput, { gracePeriodSeconds });
  if (!isUuid(id)) throw new NotFoundError('Webhook endpoint', id);
  const signingSecret = generateSigningSecret();
  const previousExpiresAt = gracePeriodSeconds === 0 ? null : new Date(now.getTime() + gracePeriodSeconds * 1000);
  // One statement, in SQL because it moves one column into another: concurrent rotations chain
  // (each keeps the one before as previous). Without a grace period nothing is kept.
  const updated = await prisma.$executeRaw`
    UPDATE webhook_endpoints
    SET previous_signing_secret = CASE WHEN ${previousExpiresAt}::timestamptz IS NULL THEN NULL ELSE signing_secret END,
        signing_secret = ${signingSecret},
        previous_secret_expires_at = ${previousExpiresAt}::timestamptz, updated_at = now()
    WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid AND deleted_at IS NULL`;
  if (updated === 0) throw new NotFoundError('Webhook endpoint', id);
  return { endpoint: await liveEndpoint(prisma, organizationId, id), signingSecret };
}

/**
 * The current signing secret of a live endpoint, for a caller of its organization (an API token or
 * a signed-in person); every reveal is recorded (endpoint, who, time) in the same transaction.
 */
export async function revealSigningSecret(
  prisma: PrismaClient,
  viewer: { id: string; actor: { apiTokenId: string } | { personId: string } },
  id: string,
): Promise<CreatedEndpoint> {
  return prisma.$transaction(async (tx) => {
    const endpoint = isUuid(id) ? await tx.webhookEndpoint.findFirst({ where: { id, organizationId: viewer.id, deletedAt: null } }) : null;
    if (!endpoint) throw new NotFoundError('Webhook endpoint', id);
    const who = 'apiTokenId' in viewer.actor ? { apiTokenId: viewer.actor.apiTokenId } : { personId: viewer.actor.personId };
    await tx.secretReveal.create({ data: { endpointId: endpoint.id, ...who } });
    return { endpoint, signingSecret: endpoint.signingSecret };
  });
}

/** A rule of the endpoint's state refused the request: an InputError on the endpoint argument. */
function notActive(message: string): InputError {
  return new InputError([{ field: 'endpointId', message }], message);
}

/**
 * Queues one event to one ACTIVE endpoint, whatever its event filter, and returns the delivery
 * id; `what` names it in the refusal ("a test event").
 */
async function sendToEndpoint(
  outbox: Outbox,
  organizationId: string,
  id: string,
  what: string,
  event: (endpoint: WebhookEndpoint) => { type: EventType; data: unknown; example: boolean },
): Promise<string> {
  const endpoint = await liveEndpoint(outbox.prisma, organizationId, id);
  if (endpoint.status !== 'ACTIVE') throw notActive(`Endpoint is ${endpoint.status}; activate it to send ${what}`);
  const { type, data, example } = event(endpoint);
  const emitted = await outbox.prisma.$transaction((tx) =>
    emitEvent(tx, outbox.queue, { organizationId, type, data, onlyEndpointId: endpoint.id, example }),
  );
  if (emitted.deliveryIds.length === 0) throw notActive(`Endpoint stopped being active; activate it to send ${what}`);
  return emitted.deliveryIds[0]!;
}

/** Queues a `test.ping` to one endpoint (whatever its event filter) and returns the delivery id. */
export function sendTestEvent(outbox: Outbox, organizationId: string, id: string): Promise<string> {
  return sendToEndpoint(outbox, organizationId, id, 'a test event', (endpoint) => ({
    type: 'test.ping',
    data: { endpoint: { id: endpoint.id, name: endpoint.name, url: endpoint.url }, message: 'Test event from Hookline' },
    example: false,
  }));
}

/**
 * Queues the catalogue's example of `eventType` to one endpoint (whatever its event filter), its
 * body marked `"example": true`, and returns the delivery id.
 */
export function sendExampleEvent(outbox: Outbox, organizationId: string, id: string, eventType: string): Promise<string> {
  const { eventType: type } = parseInput(z.object({ eventType: eventTypeSchema }), { eventType });
  return sendToEndpoint(outbox, organizationId, id, 'an example', () => ({ type, data: EVENT_CATALOGUE[type].example, example: true }));
}
