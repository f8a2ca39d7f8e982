// PostgreSQL restarting under load: an api process and a worker process (real processes, as
// `npm start` runs them) on an embedded PostgreSQL of this test's own, on a fixed port. While
// deploys stream in for a subscribed endpoint (every ingest is an outbox transaction), the
// database is shut down fast (terminating every connection, in-flight transactions included)
// and started again. Both processes must live through it, answer 503 database_unavailable
// meanwhile, serve again within 5 s of the database accepting connections, and lose nothing:
// every accepted deploy is stored whole (deploy, event, delivery, job) and delivered.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/db/client.ts';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { connectGraphqlWs } from './support/graphql-ws.ts';
import { post, postDeploy, type HttpResult } from './support/http.ts';
import { eventually, type Receiver } from './support/receiver.ts';
import { startHooklineProcess, type WorkerProcess } from './support/worker-process.ts';
import { useHookline } from './support/fixture.ts';

const fixture = useHookline({ database: false });

/** Clients sending deploys one after another, each: a bounded load. */
const INGEST_CLIENTS = 4;
const RECOVERY_LIMIT_MS = 5000;

let dataDir: string;
let port: number;
let postgres: EmbeddedDatabase;
let database: Database;
let receiver: Receiver;
let api: WorkerProcess;
let worker: WorkerProcess;
let deployToken: string;
let apiToken: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'hookline-restart-'));
  port = await freePort();
  postgres = await startEmbeddedPostgres(dataDir, { port });
  await applyMigrations(postgres.url);
  database = connectDatabase(postgres.url);
  const organization = await createOrganization(database.prisma, 'restart');
  apiToken = organization.apiToken;
  deployToken = (await createService(database.prisma, organization.organizationId, 'checkout')).deployToken;
  receiver = await fixture.startReceiver();
  const environment = {
    ...LOCAL_RECEIVERS,
    // Counted, so the rate limiter's database round trip meets the outage too.
    INGEST_RATE_LIMIT_PER_MINUTE: '1000000',
    DELIVERY_TIMEOUT_MS: '2000',
    DELIVERY_BACKOFF_BASE_MS: '200',
  };
  api = startHooklineProcess('api', postgres.url, environment);
  worker = startHooklineProcess('worker', postgres.url, environment);
  await Promise.all([api.ready, worker.ready]);
}, 60_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await receiver?.close();
  await database?.close();
  await postgres?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Answer {
  at: number;
  index: number;
  result: HttpResult | { status: 'no answer'; error: string };
}

it('survives a PostgreSQL restart under ingest load: 503 meanwhile, back within 5 s, nothing lost', async () => {
  const apiUrl = await api.ready;
  const endpoint = await post(`${apiUrl}/api/webhooks/endpoints`, {
    body: JSON.stringify({ url: `${receiver.url}/hooks`, name: 'Restart' }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
  });
  expect(endpoint.status).toBe(201);

  const answers: Answer[] = [];
  let next = 0;
  let loading = true;
  const client = async () => {
    while (loading) {
      const index = next++;
      const result = await postDeploy(apiUrl, deployToken, { commit_sha: `sha-${index}` }, { 'x-idempotency-key': `run-${index}` }).catch(
        (error: Error) => ({ status: 'no answer' as const, error: `${error.message} ${String((error.cause as Error)?.message)}` }),
      );
      answers.push({ at: Date.now(), index, result });
    }
  };
  const clients = Array.from({ length: INGEST_CLIENTS }, client);
  const accepted = () => answers.filter((answer) => answer.result.status === 200);
  /** For failure messages: what the clients got, and what the processes said. */
  const story = () => {
    const statuses = new Map<string, number>();
    for (const { result } of answers) {
      const key =
        result.status === 'no answer' ? `no answer (${result.error})` : `${result.status} ${JSON.stringify(result.body).slice(0, 120)}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
    return `answers: ${JSON.stringify([...statuses])}\napi (exit ${api.child.exitCode}):\n${api.output()}\nworker (exit ${worker.child.exitCode}):\n${worker.output()}`;
  };
  const after = (time: number) => answers.filter((answer) => answer.at > time);

  try {
    await eventually(async () => (accepted().length >= 30 ? true : undefined), 20_000, '30 deploys accepted before the restart');

    // Fast shutdown: PostgreSQL terminates every session (57P01), in-flight transactions included.
    const stopping = Date.now();
    await postgres.stop();
    await eventually(
      async () => (after(stopping).filter((answer) => answer.result.status === 503).length >= 10 ? true : undefined),
      20_000,
      '503 answers while PostgreSQL is down',
    );

    // A dashboard connecting now is told to try again later (1013, which graphql-ws clients
    // retry), not given a fatal internal error.
    let closed!: (code: number) => void;
    const closeCode = new Promise<number>((resolve) => (closed = resolve));
    const dashboard = connectGraphqlWs(apiUrl, apiToken, { lazy: false, on: { closed: (event) => closed((event as CloseEvent).code) } });
    expect(await closeCode).toBe(1013);
    await dashboard.dispose();

    postgres = await startEmbeddedPostgres(dataDir, { port });
    const back = Date.now();
    const firstAccepted = await eventually(
      async () => after(back).find((answer) => answer.result.status === 200),
      RECOVERY_LIMIT_MS,
      'an accepted deploy after PostgreSQL came back',
    );
    console.log(`[restart] first deploy accepted ${firstAccepted.at - back} ms after PostgreSQL accepted connections`);
    const acceptedBefore = accepted().length;
    await eventually(async () => (accepted().length >= acceptedBefore + 30 ? true : undefined), 20_000, '30 more deploys accepted');
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${story()}`);
  } finally {
    loading = false;
    await Promise.all(clients);
  }

  // Both processes lived through it.
  expect(api.child.exitCode, api.output()).toBeNull();
  expect(worker.child.exitCode, worker.output()).toBeNull();

  // Every answer is in the contract: accepted, or 503 database_unavailable with Retry-After.
  const unexpected = answers.filter(({ result }) => result.status !== 200 && result.status !== 503);
  expect(unexpected.map(({ result }) => result)).toEqual([]);
  for (const { result } of answers.filter((answer) => answer.result.status === 503)) {
    const { headers, body } = result as HttpResult;
    expect(body).toEqual({ error: { code: 'database_unavailable', message: expect.any(String) } });
    expect(headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  }

  // Every accepted deploy is stored whole; nothing partial was left by the interrupted ones.
  const acceptedIds = accepted().map(({ result }) => (result as HttpResult).body.deploy_id as string);
  const { rows } = await database.pool.query<{ deploys: number; events: number; deliveries: number; jobs: number }>(`
    SELECT (SELECT count(*)::int FROM deploys) AS deploys,
           (SELECT count(*)::int FROM events WHERE type = 'deploy.ingested') AS events,
           (SELECT count(*)::int FROM deliveries) AS deliveries,
           (SELECT count(DISTINCT data->>'deliveryId')::int FROM pgboss.job WHERE name = 'deliver') AS jobs`);
  const counts = rows[0]!;
  expect(counts.events).toBe(counts.deploys);
  expect(counts.deliveries).toBe(counts.deploys);
  expect(counts.jobs).toBe(counts.deploys);
  const { rows: stored } = await database.pool.query<{ id: string }>(
    `SELECT d.id FROM deploys d
     JOIN events e ON e.type = 'deploy.ingested' AND (e.data->'deploy'->>'id')::uuid = d.id
     JOIN deliveries x ON x.event_id = e.id
     WHERE EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = 'deliver' AND j.data->>'deliveryId' = x.id::text)
       AND d.id = ANY ($1::uuid[])`,
    [acceptedIds],
  );
  expect(new Set(stored.map((row) => row.id))).toEqual(new Set(acceptedIds));

  // And every accepted deploy's webhook arrives.
  const deliveredDeployIds = () => new Set(receiver.requests.map((request) => JSON.parse(request.body).data.deploy.id as string));
  await eventually(
    async () => (acceptedIds.every((id) => deliveredDeployIds().has(id)) ? true : undefined),
    30_000,
    `the webhooks of all ${acceptedIds.length} accepted deploys`,
  );
  console.log(
    `[restart] ${answers.length} answers: ${acceptedIds.length} accepted, ${answers.filter((a) => a.result.status === 503).length} × 503`,
  );
}, 120_000);
