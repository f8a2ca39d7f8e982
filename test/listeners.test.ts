// Listeners through the public API: createListener, then `subscription { eventCreated }` over a
// real graphql-ws socket, on two api processes sharing one database (the subscriber on one, the
// events made on the other), with real deploys and incidents and no endpoint at all.
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE } from '../src/domain/webhooks/event-catalogue.ts';
import { graphql } from './gql/index.ts';
import { dataOf, errorOf, requestGraphql, requestGraphqlWith, type RunningApp, type Tenant } from './support/app.ts';
import { connectGraphqlWs, subscribe, type Subscriber } from './support/graphql-ws.ts';
import { postDeploy } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const CREATE_LISTENER = graphql(`
  mutation ListenersCreate($eventTypes: [String!]) { createListener(eventTypes: $eventTypes) { id eventTypes live } }
`);
const LISTENER = graphql(`
  query ListenersListener($id: ID!) { listener(id: $id) { id live } }
`);
const EVENT_CREATED = graphql(`
  subscription ListenersEventCreated($listenerId: ID!) { eventCreated(listenerId: $listenerId) { id type createdAt data } }
`);
const OPEN_INCIDENT = graphql(`
  mutation ListenersOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: "Checkout errors") { id } }
`);
const PING_LISTENERS = graphql(`
  mutation ListenersPing { pingListeners { id type data } }
`);
const PING_LISTENERS_WITH = graphql(`
  mutation ListenersPingWith($eventType: String) { pingListeners(eventType: $eventType) { id type data example } }
`);
const CREATE_ENDPOINT = graphql(`
  mutation ListenersCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: "all events") { endpoint { id } } }
`);

type ReceivedEvent = { id: string; type: string; createdAt: string; data: unknown };

const hookline = useHookline();
let eventSide: RunningApp;
let other: Tenant;

beforeAll(async () => {
  eventSide = await hookline.startApp();
  other = await hookline.createTenant();
});

async function createListener(apiToken: string, eventTypes?: string[]) {
  return dataOf(await requestGraphqlWith(eventSide.baseUrl, apiToken, CREATE_LISTENER, { eventTypes })).createListener;
}

async function isLive(apiToken: string, id: string): Promise<boolean | undefined> {
  return dataOf(await requestGraphqlWith(eventSide.baseUrl, apiToken, LISTENER, { id })).listener?.live;
}

/** A listener of `eventTypes` subscribed on the subscriber side, once it is served. */
async function listening(eventTypes?: string[]) {
  const listener = await createListener(hookline.tenant.apiToken, eventTypes);
  const client = connectGraphqlWs(hookline.baseUrl, hookline.tenant.apiToken);
  const subscriber: Subscriber<ReceivedEvent> = subscribe(client, EVENT_CREATED, { listenerId: listener.id }, (data) => data.eventCreated);
  await eventually(async () => ((await isLive(hookline.tenant.apiToken, listener.id)) ? true : undefined), 10_000, 'listener live');
  return { listener, client, subscriber };
}

async function deploy(sha: string): Promise<string> {
  const response = await postDeploy(eventSide.baseUrl, hookline.tenant.deployToken, { commit_sha: sha, environment: 'staging' });
  expect(response.status).toBe(200);
  return (response.body as { deploy_id: string }).deploy_id;
}

async function eventCount(): Promise<number> {
  return hookline.app.database.prisma.event.count({ where: { organizationId: hookline.tenant.organizationId } });
}

describe('listeners', () => {
  it('receive the events of their organization made by another process, stored though no endpoint takes them', async () => {
    const { listener, client, subscriber } = await listening();
    expect(listener.eventTypes).toEqual([]);
    try {
      const deployId = await deploy('a1b2c3d');
      const [received] = await subscriber.waitFor(
        () => (subscriber.updates.length >= 1 ? subscriber.updates : undefined),
        'deploy.ingested',
      );
      expect(received).toMatchObject({
        type: 'deploy.ingested',
        data: { deploy: { id: deployId, commitSha: 'a1b2c3d', environment: 'staging' } },
      });
      const stored = await hookline.app.database.prisma.event.findFirstOrThrow({
        where: { id: received!.id },
        include: { deliveries: true },
      });
      expect(stored).toMatchObject({ organizationId: hookline.tenant.organizationId, type: 'deploy.ingested', deliveries: [] });
      expect(received!.createdAt).toBe(stored.createdAt.toISOString());
    } finally {
      await client.dispose();
    }
  });

  it('receive only the event types they were made for', async () => {
    const { client, subscriber } = await listening(['incident.opened']);
    try {
      await deploy('f00ba47');
      const incidentId = dataOf(
        await requestGraphqlWith(eventSide.baseUrl, hookline.tenant.apiToken, OPEN_INCIDENT, { serviceId: hookline.tenant.serviceId }),
      ).openIncident.id;
      // In commit order: had the deploy come through, it would be first.
      const [first] = await subscriber.waitFor(() => (subscriber.updates.length >= 1 ? subscriber.updates : undefined), 'incident.opened');
      expect(first).toMatchObject({ type: 'incident.opened', data: { incident: { id: incidentId } } });
    } finally {
      await client.dispose();
    }
  });

  it('refuse unknown event types', async () => {
    const response = await requestGraphqlWith(eventSide.baseUrl, hookline.tenant.apiToken, CREATE_LISTENER, {
      eventTypes: ['deploy.ingested', 'deploy.exploded'],
    });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it("refuse another organization's listener: NOT_FOUND at subscribe time, null when read", async () => {
    const listener = await createListener(hookline.tenant.apiToken);
    expect(dataOf(await requestGraphqlWith(eventSide.baseUrl, other.apiToken, LISTENER, { id: listener.id })).listener).toBeNull();
    const client = connectGraphqlWs(hookline.baseUrl, other.apiToken);
    try {
      const subscriber = subscribe(client, EVENT_CREATED, { listenerId: listener.id }, (data) => data.eventCreated);
      await subscriber.waitFor(() => (subscriber.errors.length > 0 ? true : undefined), 'refusal');
      expect(subscriber.errors[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
      expect(await isLive(hookline.tenant.apiToken, listener.id)).toBe(false);
    } finally {
      await client.dispose();
    }
  });

  it('stop counting when their subscription ends: deploys again store no event without an endpoint', async () => {
    const { listener, client } = await listening(['deploy.ingested']);
    await client.dispose();
    await eventually(
      async () => ((await isLive(hookline.tenant.apiToken, listener.id)) === false ? true : undefined),
      10_000,
      'listener released',
    );
    const before = await eventCount();
    await deploy('0ddba11');
    expect(await eventCount()).toBe(before);
  });

  it("are deleted a day after they were last live, when the organization makes another; another organization's stay", async () => {
    const prisma = hookline.app.database.prisma;
    const dayAndMinuteAgo = new Date(Date.now() - 24 * 3600_000 - 60_000);
    const lapsed = await createListener(hookline.tenant.apiToken);
    const neverLive = await createListener(hookline.tenant.apiToken);
    const recent = await createListener(hookline.tenant.apiToken);
    const othersLapsed = await createListener(other.apiToken);
    await prisma.listener.update({ where: { id: lapsed.id }, data: { liveUntil: dayAndMinuteAgo } });
    await prisma.listener.update({ where: { id: neverLive.id }, data: { createdAt: dayAndMinuteAgo } });
    await prisma.listener.update({ where: { id: recent.id }, data: { liveUntil: new Date(Date.now() - 3600_000) } });
    await prisma.listener.update({ where: { id: othersLapsed.id }, data: { liveUntil: dayAndMinuteAgo } });
    const next = await createListener(hookline.tenant.apiToken);
    const left = await prisma.listener.findMany({
      where: { id: { in: [lapsed.id, neverLive.id, recent.id, othersLapsed.id, next.id] } },
      select: { id: true },
    });
    expect(left.map(({ id }) => id).sort()).toEqual([recent.id, othersLapsed.id, next.id].sort());
  });

  it('get pingListeners, a test.ping that no endpoint receives', async () => {
    const endpoint = dataOf(
      await requestGraphqlWith(eventSide.baseUrl, hookline.tenant.apiToken, CREATE_ENDPOINT, { url: 'https://example.com/hooks' }),
    ).createWebhookEndpoint.endpoint;
    const { client, subscriber } = await listening();
    try {
      const ping = dataOf(await requestGraphql(eventSide.baseUrl, hookline.tenant.apiToken, PING_LISTENERS)).pingListeners;
      expect(ping).toMatchObject({ type: 'test.ping', data: { endpoint: null } });
      const [received] = await subscriber.waitFor(() => (subscriber.updates.length >= 1 ? subscriber.updates : undefined), 'test.ping');
      expect(received).toMatchObject({ id: ping.id, type: 'test.ping' });
      expect(await hookline.app.database.prisma.delivery.count({ where: { eventId: ping.id } })).toBe(0);
      expect(await hookline.app.database.prisma.delivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('get pingListeners(eventType), the example of that type marked as one, and nothing else is stored', async () => {
    const { prisma } = hookline.app.database;
    const before = await Promise.all([prisma.deploy.count(), prisma.incident.count(), prisma.service.count(), prisma.delivery.count()]);
    const { client, subscriber } = await listening();
    try {
      const example = dataOf(
        await requestGraphqlWith(eventSide.baseUrl, hookline.tenant.apiToken, PING_LISTENERS_WITH, { eventType: 'incident.opened' }),
      ).pingListeners;
      expect(example).toMatchObject({ type: 'incident.opened', example: true, data: EVENT_CATALOGUE['incident.opened'].example });
      await subscriber.waitFor(() => subscriber.updates.find((update) => update.id === example.id), 'the example');
      expect(await Promise.all([prisma.deploy.count(), prisma.incident.count(), prisma.service.count(), prisma.delivery.count()])).toEqual(
        before,
      );
      const unknown = await requestGraphqlWith(eventSide.baseUrl, hookline.tenant.apiToken, PING_LISTENERS_WITH, { eventType: 'foo.bar' });
      expect(errorOf(unknown).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    } finally {
      await client.dispose();
    }
  });
});
