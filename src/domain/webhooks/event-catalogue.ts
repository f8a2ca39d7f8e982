// The event-type catalogue, the one list of webhook event types: for every type, what it means
// (a short label and a description), the JSON Schema (draft 2020-12) of its `data`, and an
// example `data`. EVENT_TYPES is its keys; receivers and the dashboard read it through the
// `eventTypes` query, and sendExample sends its examples.
import { AlertSourceKind } from '../../generated/prisma/enums.ts';

export interface EventTypeEntry {
  /** A few words, as the dashboard lists it. */
  label: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the event's `data`. */
  schema: Record<string, unknown>;
  /** An example `data`, valid against `schema`. */
  example: Record<string, unknown>;
}

/** The alerts an incident.* payload carries: the earliest ones (Incident.alerts pages through all). */
export const MAX_PAYLOAD_ALERTS = 100;

const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

const uuid = { type: 'string', format: 'uuid' } as const;
const text = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const instant = { type: 'string', format: 'date-time' } as const;
const nullableInstant = { type: ['string', 'null'], format: 'date-time' } as const;

/** An object whose every listed property is required and no other is allowed. */
function record(properties: Record<string, unknown>, description?: string) {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

const service = record({ id: uuid, name: text }, 'The service it belongs to.');

const deploy = record({
  id: uuid,
  service,
  commitSha: text,
  commitMessage: nullableText,
  branch: nullableText,
  deployedBy: nullableText,
  environment: nullableText,
  version: nullableText,
  description: nullableText,
  url: nullableText,
  deployedAt: instant,
  receivedAt: instant,
  commits: {
    type: 'array',
    maxItems: 100,
    description: 'The commits the pipeline sent, in its order.',
    items: record({ sha: text, message: nullableText, author: nullableText, timestamp: nullableInstant }),
  },
});

const suspect = record({
  rank: { type: 'integer', minimum: 1 },
  score: { type: 'number', minimum: 0, maximum: 1 },
  reasons: { type: 'array', items: record({ code: text, detail: text }) },
  verdict: { enum: ['CAUSED', 'DISMISSED', null], description: "A person's verdict on the suspect; null while none." },
  deploy: nullable(record({ id: uuid, commitSha: text, environment: nullableText, version: nullableText, deployedAt: instant, service })),
  change: nullable(
    record({ id: uuid, kind: text, summary: text, environment: nullableText, url: nullableText, changedAt: instant, service }),
  ),
});

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;

const alert = record(
  {
    fingerprint: text,
    status: { enum: ['FIRING', 'RESOLVED'] },
    labels: stringMap,
    annotations: stringMap,
    startsAt: instant,
    endsAt: { ...nullableInstant, description: 'When it stopped firing; null while it fires.' },
    generatorURL: nullableText,
  },
  'An alert of the incident, as its source last reported it (PagerDuty: labels are its severity, source, component, group and class; annotations its summary and custom_details).',
);

const actor = (what: string) => ({
  ...nullable(
    record({
      kind: { enum: ['API_TOKEN', 'ALERT_SOURCE', 'PERSON', 'SYSTEM'] },
      id: { ...nullable(uuid), description: 'The API token, alert source or person; null for SYSTEM (Hookline itself).' },
    }),
  ),
  description: `Who ${what} it; null until then.`,
});

const incident = record({
  id: uuid,
  title: text,
  severity: { enum: ['SEV1', 'SEV2', 'SEV3', 'SEV4'] },
  environment: nullableText,
  status: { enum: ['OPEN', 'ACKNOWLEDGED', 'RESOLVED'] },
  startedAt: instant,
  openedAt: instant,
  acknowledgedAt: nullableInstant,
  acknowledgedBy: actor('acknowledged'),
  resolvedAt: nullableInstant,
  resolvedBy: actor('resolved'),
  service,
  alertSource: {
    ...nullable(record({ id: uuid, name: text, kind: { enum: Object.values(AlertSourceKind) } })),
    description: 'The alert source that opened it; null when a person opened it, or once the source is deleted.',
  },
  alerts: {
    type: 'array',
    maxItems: MAX_PAYLOAD_ALERTS,
    description: `Its alerts, earliest first (the first ${MAX_PAYLOAD_ALERTS}); empty for an incident a person opened.`,
    items: alert,
  },
  suspects: {
    type: 'array',
    description: 'The ranked suspect deploys and changes, best first (each has either deploy or change).',
    items: suspect,
  },
});

const endpoint = record({ id: uuid, url: text, name: nullableText });

const dataSchema = (title: string, properties: Record<string, unknown>) => ({
  $schema: JSON_SCHEMA_DIALECT,
  title,
  ...record(properties),
});

// Example ids and times: fixed, so the catalogue reads the same every time.
const EXAMPLE_SERVICE = { id: '4f1f7d4e-2b8a-4c55-9d1e-6a7b8c9d0e1f', name: 'checkout' };
const EXAMPLE_DEPLOY = {
  id: '0d6c2f7a-5b1e-4e8f-a3c2-9b8d7e6f5a41',
  service: EXAMPLE_SERVICE,
  commitSha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  commitMessage: 'Retry card captures on gateway timeouts',
  branch: 'main',
  deployedBy: 'ci@example.com',
  environment: 'production',
  version: 'v2.14.0',
  description: null,
  url: 'https://ci.example.com/builds/4821',
  deployedAt: '2026-01-15T10:42:07.000Z',
  receivedAt: '2026-01-15T10:42:08.312Z',
  commits: [
    {
      sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      message: 'Retry card captures on gateway timeouts',
      author: 'Ada Lovelace',
      timestamp: '2026-01-15T09:58:11.000Z',
    },
  ],
};
const exampleIncident = (status: 'OPEN' | 'ACKNOWLEDGED' | 'RESOLVED') => ({
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  title: 'Checkout error rate above 5%',
  severity: 'SEV2',
  environment: 'production',
  status,
  startedAt: '2026-01-15T10:50:00.000Z',
  openedAt: '2026-01-15T10:53:12.004Z',
  acknowledgedAt: status === 'OPEN' ? null : '2026-01-15T10:55:40.118Z',
  acknowledgedBy: status === 'OPEN' ? null : { kind: 'API_TOKEN', id: '5b0d8e3a-9c71-4f26-b4a8-2e6f1c7d9a03' },
  resolvedAt: status === 'RESOLVED' ? '2026-01-15T11:31:02.771Z' : null,
  resolvedBy: status === 'RESOLVED' ? { kind: 'ALERT_SOURCE', id: 'e2a4c6b8-1d3f-4a5b-8c7d-9e0f1a2b3c4d' } : null,
  service: EXAMPLE_SERVICE,
  alertSource: { id: 'e2a4c6b8-1d3f-4a5b-8c7d-9e0f1a2b3c4d', name: 'Prometheus', kind: 'ALERTMANAGER' },
  alerts: [
    {
      fingerprint: 'c6eadffa33fcdf37',
      status: status === 'RESOLVED' ? 'RESOLVED' : 'FIRING',
      labels: { alertname: 'CheckoutErrorRate', service: 'checkout', severity: 'error', environment: 'production' },
      annotations: { summary: 'Checkout error rate above 5%', runbook_url: 'https://runbooks.example.com/checkout' },
      startsAt: '2026-01-15T10:50:00.000Z',
      endsAt: status === 'RESOLVED' ? '2026-01-15T11:31:02.771Z' : null,
      generatorURL: 'https://prometheus.example.com/graph?g0.expr=checkout_errors',
    },
  ],
  suspects: [
    {
      rank: 1,
      score: 0.82,
      reasons: [
        { code: 'same_service', detail: 'Deployed to checkout, the incident’s service' },
        { code: 'recency', detail: 'Deployed 8 minutes before the incident started' },
      ],
      verdict: null,
      deploy: {
        id: EXAMPLE_DEPLOY.id,
        commitSha: EXAMPLE_DEPLOY.commitSha,
        environment: 'production',
        version: 'v2.14.0',
        deployedAt: EXAMPLE_DEPLOY.deployedAt,
        service: EXAMPLE_SERVICE,
      },
      change: null,
    },
  ],
});
const EXAMPLE_ENDPOINT = {
  id: 'b3f1c2d4-8e9a-4b7c-a6d5-e4f3a2b1c0d9',
  url: 'https://hooks.example.com/hookline',
  name: 'Production alerts',
};

const incidentSchema = (title: string) => dataSchema(title, { incident });

export const EVENT_CATALOGUE = {
  'deploy.ingested': {
    label: 'A deploy was recorded',
    description: 'A deploy was recorded through POST /api/ingest/deploy (not sent for a duplicate idempotency key).',
    schema: dataSchema('deploy.ingested data', { deploy }),
    example: { deploy: EXAMPLE_DEPLOY },
  },
  'incident.opened': {
    label: 'An incident was opened',
    description:
      'An incident was opened, by a person or by an alert source; it carries its alerts and the ranked suspect deploys and changes at that moment.',
    schema: incidentSchema('incident.opened data'),
    example: { incident: exampleIncident('OPEN') },
  },
  'incident.acknowledged': {
    label: 'An incident was acknowledged',
    description: 'An open incident was acknowledged.',
    schema: incidentSchema('incident.acknowledged data'),
    example: { incident: exampleIncident('ACKNOWLEDGED') },
  },
  'incident.resolved': {
    label: 'An incident was resolved',
    description: 'An incident was resolved (from OPEN or ACKNOWLEDGED), by a person or because every alert of it was resolved.',
    schema: incidentSchema('incident.resolved data'),
    example: { incident: exampleIncident('RESOLVED') },
  },
  'test.ping': {
    label: 'Send Test (always delivered on Send Test)',
    description: 'Send Test: sent to one endpoint on request, whatever event types it takes.',
    schema: dataSchema('test.ping data', { endpoint: record({ id: uuid, name: text, url: text }), message: text }),
    example: {
      endpoint: { id: EXAMPLE_ENDPOINT.id, name: EXAMPLE_ENDPOINT.name, url: EXAMPLE_ENDPOINT.url },
      message: 'Test event from Hookline',
    },
  },
  'endpoint.disabled': {
    label: 'Another endpoint was disabled automatically (operational alert)',
    description:
      'An endpoint of the organization was disabled automatically (too many failed deliveries, or 410 Gone); subscribe another endpoint to be alerted.',
    schema: dataSchema('endpoint.disabled data', { endpoint, reason: text, disabledAt: instant }),
    example: { endpoint: EXAMPLE_ENDPOINT, reason: 'The endpoint answered 410 Gone', disabledAt: '2026-01-15T12:03:44.250Z' },
  },
} satisfies Record<string, EventTypeEntry>;

/** The catalogue in its order, as the `eventTypes` query lists it. */
export function eventTypeCatalogue(): ({ name: string } & EventTypeEntry)[] {
  return Object.entries(EVENT_CATALOGUE).map(([name, entry]) => ({ name, ...entry }));
}

/**
 * JSON Schema (draft 2020-12) of the whole webhook body of an event type: the envelope with the
 * type's `data`; `example: true` only on bodies sent by sendExample.
 */
export function webhookBodySchema(type: keyof typeof EVENT_CATALOGUE): Record<string, unknown> {
  const { $schema, title: _title, ...data } = EVENT_CATALOGUE[type].schema;
  return {
    $schema,
    title: `${type} webhook body`,
    type: 'object',
    properties: {
      id: uuid,
      type: { const: type },
      timestamp: instant,
      createdAt: instant,
      organizationId: uuid,
      data,
      example: { const: true },
    },
    required: ['id', 'type', 'timestamp', 'createdAt', 'organizationId', 'data'],
    additionalProperties: false,
  };
}
