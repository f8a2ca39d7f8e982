// The event-type catalogue against real deliveries: every event type Hookline sends is delivered
// to a real receiver, verified with standardwebhooks, and its body validated against the
// catalogue's JSON Schema (ajv, draft 2020-12); the examples validate too, and sendExample sends
// them signed and marked as examples.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, type EventType } from '../src/domain/webhooks/events.ts';
import { EVENT_CATALOGUE, webhookBodySchema } from '../src/domain/webhooks/event-catalogue.ts';
import { graphql } from './gql/index.ts';
import { dataOf, LOCAL_RECEIVERS, requestGraphql, requestGraphqlWith, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import type { ReceivedRequest } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const EVENT_TYPES_QUERY = graphql(`
  query CatalogueEventTypes { eventTypes { name label description schema example } }
`);
const OPEN_INCIDENT = graphql(`
  mutation CatalogueOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: "Checkout errors", environment: "production") { id } }
`);
const ACKNOWLEDGE_INCIDENT = graphql(`
  mutation CatalogueAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }
`);
const RESOLVE_INCIDENT = graphql(`
  mutation CatalogueResolveIncident($id: ID!) { resolveIncident(id: $id) { id } }
`);
const SEND_TEST = graphql(`
  mutation CatalogueSendTest($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }
`);
const SEND_EXAMPLE = graphql(`
  mutation CatalogueSendExample($endpointId: ID!, $eventType: String!) {
    sendExample(endpointId: $endpointId, eventType: $eventType) { id status event { id type example data } endpoint { id } }
  }
`);

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);

function expectValid(schema: Record<string, unknown>, value: unknown) {
  const validate = ajv.compile(schema);
  const valid = validate(value);
  expect(validate.errors ?? [], JSON.stringify(value)).toEqual([]);
  expect(valid).toBe(true);
}

const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, DELIVERY_MAX_RETRIES: '0' }, receiver: true });
let stranger: Tenant;

beforeAll(async () => {
  stranger = await hookline.createTenant('theirs');
});

/** An endpoint at `path` on the receiver, named after it. */
async function endpointAt(path: string, apiToken = hookline.tenant.apiToken) {
  const created = await createEndpoint(hookline, apiToken, { url: hookline.receiver.url + path, name: path });
  return { id: created.id, secret: created.signingSecret };
}

/** The body of a request, after verifying its signature with the endpoint's secret. */
function verifiedBody(secret: string, request: ReceivedRequest): Record<string, unknown> {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as Record<string, unknown>;
}

describe('eventTypes', () => {
  it('lists every event type with its label, description, data schema and an example that validates', async () => {
    const { eventTypes } = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, EVENT_TYPES_QUERY));
    expect(eventTypes.map((type) => type.name)).toEqual([
      'deploy.ingested',
      'incident.opened',
      'incident.acknowledged',
      'incident.resolved',
      'test.ping',
      'endpoint.disabled',
    ]);
    for (const type of eventTypes) {
      expect(type.label.length).toBeGreaterThan(5);
      expect(type.description.length).toBeGreaterThan(10);
      expect(type.schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' });
      expectValid(type.schema as Record<string, unknown>, type.example);
    }
    expect(eventTypes.find((type) => type.name === 'endpoint.disabled')!.example).toEqual({
      endpoint: { id: expect.any(String), url: expect.stringMatching(/^https:\/\//), name: expect.any(String) },
      reason: expect.any(String),
      disabledAt: expect.any(String),
    });
  });

  it('is documented in docs/webhooks.md, a row per event type', () => {
    const page = readFileSync(new URL('../docs/webhooks.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('### Event types and payload schemas'), page.indexOf('### Sending an example'));
    const rows = [...section.matchAll(/^\| `([a-z.]+)` \|/gm)].map((match) => match[1]);
    expect(rows).toEqual([...EVENT_TYPES]);
  });

  it('refuses a request without an API token', async () => {
    const response = await requestGraphql(hookline.baseUrl, undefined, EVENT_TYPES_QUERY);
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('real deliveries match the catalogue', () => {
  it('deploy.ingested, incident.opened/acknowledged/resolved and test.ping bodies validate against their schemas', async () => {
    const endpoint = await endpointAt('/all');
    // An earlier deploy, so the incident has a ranked suspect with reasons.
    const deploy = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
      commit_sha: 'a1b2c3d4',
      commit_message: 'Retry captures',
      branch: 'main',
      environment: 'production',
      version: 'v1.2.0',
      url: 'https://ci.example.com/1',
      commits: [{ sha: 'a1b2c3d4', message: 'Retry captures', author: 'Ada', timestamp: '2026-01-01T10:00:00Z' }, { sha: 'e5f6' }],
    });
    expect(deploy.status).toBe(200);
    const incident = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, OPEN_INCIDENT, { serviceId: hookline.tenant.serviceId }),
    ).openIncident;
    dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ACKNOWLEDGE_INCIDENT, { id: incident.id }));
    dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, RESOLVE_INCIDENT, { id: incident.id }));
    dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST, { endpointId: endpoint.id }));

    const requests = await hookline.receiver.waitForRequests(5, { path: '/all' });
    const bodies = requests.map((request) => verifiedBody(endpoint.secret, request));
    expect(bodies.map((body) => body.type).sort()).toEqual(
      ['deploy.ingested', 'incident.acknowledged', 'incident.opened', 'incident.resolved', 'test.ping'].sort(),
    );
    for (const body of bodies) {
      expectValid(webhookBodySchema(body.type as EventType), body);
      expect(body).not.toHaveProperty('example');
    }
    const opened = bodies.find((body) => body.type === 'incident.opened')!.data as { incident: { suspects: unknown[] } };
    expect(opened.incident.suspects.length).toBeGreaterThan(0);
  });

  it('endpoint.disabled bodies validate against their schema', async () => {
    const alerts = await endpointAt('/alerts');
    const gone = await endpointAt('/gone');
    // A 410 Gone disables its endpoint at once, which sends endpoint.disabled to the others.
    hookline.receiver.respond((request, response) => response.writeHead(request.path === '/gone' ? 410 : 200).end());
    dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_TEST, { endpointId: gone.id }));

    const [request] = await hookline.receiver.waitForRequests(1, { path: '/alerts' });
    const body = verifiedBody(alerts.secret, request!);
    expect(body).toMatchObject({ type: 'endpoint.disabled', data: { endpoint: { id: gone.id } } });
    expectValid(webhookBodySchema('endpoint.disabled'), body);
  });

  it('the schemas refuse what is not such a body', () => {
    const validate = ajv.compile(webhookBodySchema('deploy.ingested'));
    const happenedAt = new Date().toISOString();
    const body = {
      id: crypto.randomUUID(),
      type: 'deploy.ingested',
      timestamp: happenedAt,
      createdAt: happenedAt,
      organizationId: crypto.randomUUID(),
    };
    expect(validate({ ...body, data: EVENT_CATALOGUE['deploy.ingested'].example })).toBe(true);
    const { timestamp: _timestamp, ...withoutTimestamp } = body;
    expect(validate({ ...withoutTimestamp, data: EVENT_CATALOGUE['deploy.ingested'].example })).toBe(false);
    expect(validate({ ...body, data: EVENT_CATALOGUE['incident.opened'].example })).toBe(false);
    expect(
      validate({
        ...body,
        data: { deploy: { ...(EVENT_CATALOGUE['deploy.ingested'].example.deploy as object), deployedAt: 'yesterday' } },
      }),
    ).toBe(false);
    expect(validate({ ...body, type: 'test.ping', data: EVENT_CATALOGUE['deploy.ingested'].example })).toBe(false);
  });
});

describe('sendExample', () => {
  it('sends the example of every type, signed, with "example": true, to an endpoint whatever its event types', async () => {
    const endpoint = await endpointAt('/examples');
    for (const [index, eventType] of EVENT_TYPES.entries()) {
      const sent = dataOf(
        await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_EXAMPLE, { endpointId: endpoint.id, eventType }),
      );
      expect(sent.sendExample).toMatchObject({
        status: 'PENDING',
        endpoint: { id: endpoint.id },
        event: { type: eventType, example: true },
      });
      expect(sent.sendExample.event.data).toEqual(EVENT_CATALOGUE[eventType].example);

      const request = (await hookline.receiver.waitForRequests(index + 1, { path: '/examples' }))[index]!;
      expect(request.headers['webhook-id']).toBe(sent.sendExample.id);
      expect(request.headers['x-service-event']).toBe(eventType);
      const body = verifiedBody(endpoint.secret, request);
      expect(body).toEqual({
        id: sent.sendExample.event.id,
        type: eventType,
        timestamp: body.createdAt,
        createdAt: expect.any(String),
        organizationId: hookline.tenant.organizationId,
        data: EVENT_CATALOGUE[eventType].example,
        example: true,
      });
      expectValid(webhookBodySchema(eventType), body);
    }
  });

  it('refuses an unknown event type', async () => {
    const endpoint = await endpointAt('/unknown');
    const response = await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SEND_EXAMPLE, {
      endpointId: endpoint.id,
      eventType: 'deploy.exploded',
    });
    expect(response.body.data).toBeNull();
    expect(response.body.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'eventType', message: `must be one of ${EVENT_TYPES.join(', ')}` }],
    });
  });

  it("refuses another organization's endpoint as not found and sends nothing", async () => {
    const endpoint = await endpointAt('/stranger');
    const response = await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, SEND_EXAMPLE, {
      endpointId: endpoint.id,
      eventType: 'test.ping',
    });
    expect(response.body.data).toBeNull();
    expect(response.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND' });
    expect(await hookline.app.database.prisma.delivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
  });
});
