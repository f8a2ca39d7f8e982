// Hookline behind PgBouncer in transaction pooling mode: DATABASE_URL through the pooler (two
// server connections, so a client's consecutive transactions land on different ones) and
// DATABASE_DIRECT_URL to PostgreSQL itself for what needs one session (LISTEN, the queue,
// migrations). Deploys are recorded under concurrency, delivered, and watched live.
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { TestDatabase } from './support/database.ts';
import { LOCAL_RECEIVERS, type RunningApp } from './support/app.ts';
import { graphql } from './gql/index.ts';
import { connectGraphqlWs, subscribe, untilLive } from './support/graphql-ws.ts';
import { post, postDeploy } from './support/http.ts';
import { hasPgbouncer, pgbouncerRequired, PGBOUNCER_PATH, startPgbouncer, type Pgbouncer } from './support/pgbouncer.ts';
import type { Receiver } from './support/receiver.ts';
import { startHooklineProcess } from './support/worker-process.ts';
import { useHookline } from './support/fixture.ts';

const fixture = useHookline({ database: false });

if (!hasPgbouncer && !pgbouncerRequired) {
  console.warn(`PgBouncer tests skipped: no ${PGBOUNCER_PATH} (apt-get install -y pgbouncer; CI installs it in .ci/run)`);
}

const ON_DELIVERY_UPDATED = graphql(`
  subscription PgbouncerDeliveryUpdated($endpointId: ID) {
    deliveryUpdated(endpointId: $endpointId) { id status event { type } }
  }
`);

describe.skipIf(!hasPgbouncer && !pgbouncerRequired)('behind PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let pgbouncer: Pgbouncer;
  let running: RunningApp;
  let receiver: Receiver;

  beforeAll(async () => {
    database = await fixture.createDatabase();
    pgbouncer = await startPgbouncer(inject('adminUrl'));
    running = await fixture.startApp(
      { ...LOCAL_RECEIVERS, DATABASE_DIRECT_URL: database.url, INGEST_RATE_LIMIT_PER_MINUTE: 'off' },
      pgbouncer.pooled(database.url),
    );
    receiver = await fixture.startReceiver();
  });

  afterAll(async () => {
    await running?.close();
    await receiver?.close();
    await pgbouncer?.stop();
    await database?.drop();
  });

  it('records concurrent deploys, delivers each once, and publishes every change live', async () => {
    const tenant = await fixture.createTenant('checkout', running.app);
    const created = await post(`${running.baseUrl}/api/webhooks/endpoints`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
      body: JSON.stringify({ url: `${receiver.url}/pooled`, name: 'pooled' }),
    });
    expect(created.status).toBe(201);
    const endpoint = created.body as { id: string; signingSecret: string };

    const client = connectGraphqlWs(running.baseUrl, tenant.apiToken);
    try {
      const subscriber = subscribe(client, ON_DELIVERY_UPDATED, { endpointId: endpoint.id }, (data) => data.deliveryUpdated);
      await untilLive(subscriber, running.baseUrl, tenant, endpoint.id, (update, id) => update.id === id);
      const transactionsBefore = await pgbouncer.transactions(new URL(database.url).pathname.slice(1));

      // 40 deploys, 8 at a time: each connection of the pool runs the ingest statement many
      // times, on whichever server connection PgBouncer gives it.
      const answers: { status: number; body: unknown }[] = [];
      for (let batch = 0; batch < 5; batch++) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 8 }, (_, i) =>
              postDeploy(running.baseUrl, tenant.deployToken, { commit_sha: `b0cce${batch}${i}`, environment: 'production' }),
            ),
          )),
        );
      }
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      expect(answers.map((answer) => (answer.body as { status: string }).status)).toEqual(answers.map(() => 'accepted'));

      // Counted by event type: a test.ping that untilLive sent can still arrive now.
      const deployRequests = await receiver.waitForRequests(40, { path: '/pooled', event: 'deploy.ingested', timeoutMs: 30_000 });
      const webhook = new Webhook(endpoint.signingSecret.slice('whsec_'.length));
      const deliveryIds = new Set(
        deployRequests.map((request) => {
          webhook.verify(request.body, request.headers as Record<string, string>);
          return request.headers['webhook-id'] as string;
        }),
      );
      expect(deliveryIds.size).toBe(40);

      // Every delivery's change reached the subscriber, through the LISTEN connection.
      await subscriber.waitFor(
        () =>
          [...deliveryIds].every((id) => subscriber.updates.some((update) => update.id === id && update.status === 'SUCCEEDED'))
            ? true
            : undefined,
        'SUCCEEDED for every deploy delivery',
        30_000,
      );
      // Each once: no deploy delivery arrived twice.
      expect(receiver.requests.filter((request) => request.headers['x-service-event'] === 'deploy.ingested')).toHaveLength(40);
      // And the pooler carried the traffic.
      expect(await pgbouncer.transactions(new URL(database.url).pathname.slice(1))).toBeGreaterThan(transactionsBefore + 40);
    } finally {
      await client.dispose();
    }
  });

  it('starts on an empty database: migrations go through DATABASE_DIRECT_URL', async () => {
    const empty = await fixture.createDatabase({ migrated: false });
    const hookline = startHooklineProcess('all', pgbouncer.pooled(empty.url), { DATABASE_DIRECT_URL: empty.url });
    try {
      await hookline.ready;
      expect(hookline.output()).toMatch(/Applied migrations: \d{14}_init/);
      expect(hookline.output()).toMatch(/API token \(shown once, keep it safe\): hla_[0-9A-Za-z]{40}/);
    } finally {
      await hookline.stop();
      await empty.drop();
    }
    // Every migration on an empty database, then a start: slow on a loaded machine.
  });
});
