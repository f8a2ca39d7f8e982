// `subscription { incidentUpdated }` as a dashboard uses it: a real graphql-ws client on one app,
// while incidents are opened, re-ranked and acknowledged through another app on the same
// database, so every change reaches the subscriber through PostgreSQL LISTEN/NOTIFY.
//
// graphql-ws has no "subscribed" acknowledgement: a subscriber is proven live by an incident it
// must see (untilLive), and "sees nothing of X" is asserted after a barrier: a change committed
// after X's has reached it, as changes arrive in commit order.
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import type { OnIncidentUpdatedSubscription } from './gql/graphql.ts';
import { dataOf, requestGraphqlWith, type RunningApp, type Tenant } from './support/app.ts';
import { connectGraphqlWs, subscribe, type Subscriber } from './support/graphql-ws.ts';
import { useHookline } from './support/fixture.ts';
import { ingest } from './support/operations.ts';

const ON_INCIDENT_UPDATED = graphql(`
  subscription OnIncidentUpdated {
    incidentUpdated {
      id title status
      suspects { rank deploy { id version } }
    }
  }
`);

const OPEN = graphql(`
  mutation SubscriptionOpenIncident($serviceId: ID!, $title: String!, $startedAt: DateTime) {
    openIncident(serviceId: $serviceId, title: $title, startedAt: $startedAt) { id }
  }
`);

const ACKNOWLEDGE = graphql(`
  mutation SubscriptionAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }
`);

type Update = NonNullable<OnIncidentUpdatedSubscription['incidentUpdated']>;

const hookline = useHookline({ environment: { ROLE: 'api' } });
/** Where the changes are made: another process's app on the same database. */
let writer: RunningApp;
const clients: Client[] = [];

beforeAll(async () => {
  writer = await hookline.startApp({ ROLE: 'api' });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
});

function subscriber(apiToken: string | undefined): Subscriber<Update | null> {
  const client = connectGraphqlWs(hookline.baseUrl, apiToken);
  clients.push(client);
  return subscribe(client, ON_INCIDENT_UPDATED, {}, (data) => data.incidentUpdated);
}

async function openIncident(tenant: Tenant, title: string, startedAt?: Date): Promise<string> {
  const variables = { serviceId: tenant.serviceId, title, startedAt: startedAt?.toISOString() ?? null };
  return dataOf(await requestGraphqlWith(writer.baseUrl, tenant.apiToken, OPEN, variables)).openIncident.id;
}

/** The subscriber's updates of incident `id`, in order. */
const updatesOf = (live: Subscriber<Update | null>, id: string) => live.updates.filter((update) => update?.id === id);

/** Resolves once `live` has seen an incident opened for the purpose (one opened before it was set up goes unseen, so another follows). */
async function untilLive(live: Subscriber<Update | null>, tenant: Tenant): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const id = await openIncident(tenant, `probe ${attempt}`);
    try {
      await live.waitFor(() => (updatesOf(live, id).length > 0 ? true : undefined), `probe incident ${id}`, 2000);
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

describe('incidentUpdated', () => {
  it("tells a subscriber of every incident opened, re-ranked and acknowledged in its organization, from another process, and nothing of another organization's", async () => {
    const own = await hookline.createTenant('checkout');
    const other = await hookline.createTenant('checkout');
    const live = subscriber(own.apiToken);
    const otherLive = subscriber(other.apiToken);
    await Promise.all([untilLive(live, own), untilLive(otherLive, other)]);

    const deployedAt = new Date(Date.now() - 20 * 60_000);
    const deployId = await ingest(writer, own.deployToken, {
      commit_sha: 'a'.repeat(40),
      version: 'v2.4.0',
      environment: 'production',
      deployed_at: deployedAt.toISOString(),
    });
    const id = await openIncident(own, 'Checkout errors above 5 %', new Date(Date.now() - 10 * 60_000));
    const opened = await live.waitFor(() => updatesOf(live, id)[0], 'the incident opened');
    expect(opened).toEqual({
      id,
      title: 'Checkout errors above 5 %',
      status: 'OPEN',
      suspects: [{ rank: 1, deploy: { id: deployId, version: 'v2.4.0' } }],
    });

    // A deploy dated before its start, reported late, ranks it again: the subscriber sees the new suspect.
    const lateId = await ingest(writer, own.deployToken, {
      commit_sha: 'b'.repeat(40),
      version: 'v2.4.1',
      environment: 'production',
      deployed_at: new Date(Date.now() - 12 * 60_000).toISOString(),
    });
    const reranked = await live.waitFor(
      () => updatesOf(live, id).find((update) => update!.suspects.some((suspect) => suspect.deploy?.id === lateId)),
      'the incident ranked again',
    );
    expect(reranked!.suspects.map((suspect) => suspect.deploy?.id).sort()).toEqual([deployId, lateId].sort());

    dataOf(await requestGraphqlWith(writer.baseUrl, own.apiToken, ACKNOWLEDGE, { id }));
    await live.waitFor(() => updatesOf(live, id).find((update) => update!.status === 'ACKNOWLEDGED'), 'the incident acknowledged');

    // Barrier: the other organization's own incident, committed after all of these, reaches its subscriber.
    const barrier = await openIncident(other, 'barrier');
    await otherLive.waitFor(() => (updatesOf(otherLive, barrier).length > 0 ? true : undefined), 'the barrier');
    expect(otherLive.updates.filter((update) => update?.id === id)).toEqual([]);
    expect(otherLive.updates.every((update) => update?.title === 'barrier' || update?.title.startsWith('probe'))).toBe(true);
    expect(live.errors).toEqual([]);
    expect(otherLive.errors).toEqual([]);
  });
});
