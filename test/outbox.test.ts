// The transactional outbox of deploy ingest: the deploy, its commits, the deploy.ingested
// event, its deliveries and their pg-boss jobs are stored together or not at all. A failure
// inside the transaction is forced with a trigger on pg-boss's job table in this test's own
// database, so that the job insert (the last write of the transaction) fails.
import { beforeAll, describe, expect, it } from 'vitest';
import { setEndpointActive } from '../src/domain/webhooks/endpoints.ts';
import { type Tenant, LOCAL_RECEIVERS } from './support/app.ts';
import { postDeploy, type HttpResult } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    DELIVERY_BACKOFF_BASE_MS: '100',
    DELIVERY_BACKOFF_FACTOR: '2',
  },
  receiver: true,
});
/** An organization with one endpoint subscribed to every event. */
let endpointId: string;

const payload = {
  commit_sha: '9f8e7d6c5b4a',
  environment: 'production',
  commits: [
    { sha: '9f8e7d6c5b4a', message: 'Fix rounding', author: 'ada' },
    { sha: '1a2b3c4d5e6f', message: 'Add test', author: 'grace' },
  ],
};
const IDEMPOTENCY_KEY = 'pipeline-4711';

beforeAll(async () => {
  endpointId = (await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/hooks`, name: 'Everything' })).id;
});

function query<T = Record<string, unknown>>(sql: string, values: unknown[] = []) {
  return hookline.app.database.pool.query(sql, values).then((result) => result.rows as T[]);
}

/** Everything an ingest may write, in this test's database. */
async function counts() {
  const [row] = await query<{ deploys: number; commits: number; events: number; deliveries: number; jobs: number }>(`
    SELECT (SELECT count(*) FROM deploys)::int AS deploys,
           (SELECT count(*) FROM commits)::int AS commits,
           (SELECT count(*) FROM events)::int AS events,
           (SELECT count(*) FROM deliveries)::int AS deliveries,
           (SELECT count(*) FROM pgboss.job WHERE name = 'deliver')::int AS jobs`);
  return row!;
}

describe('atomic ingest', () => {
  it('a transaction that fails stores nothing: no deploy, commits, event, delivery or job; the retry is accepted once', async () => {
    // pgboss.job is partitioned (by queue name): a row trigger on the parent is cloned to
    // every partition (PostgreSQL 13+).
    const [{ kind } = { kind: '' }] = await query<{ kind: string }>(
      `SELECT relkind::text AS kind FROM pg_class WHERE oid = 'pgboss.job'::regclass`,
    );
    expect(['p', 'r']).toContain(kind);
    await query(`
      CREATE FUNCTION public.test_refuse_deliver_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'test: pg-boss job insert refused';
      END $$`);
    await query(
      `CREATE TRIGGER test_refuse_deliver_jobs BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION public.test_refuse_deliver_jobs()`,
    );

    const before = await counts();
    let failed: HttpResult | undefined;
    try {
      failed = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, payload, { 'x-idempotency-key': IDEMPOTENCY_KEY });
    } finally {
      await query(`DROP TRIGGER test_refuse_deliver_jobs ON pgboss.job`);
      await query(`DROP FUNCTION public.test_refuse_deliver_jobs()`);
    }
    expect(failed!.status).toBe(500);
    expect(failed!.body).toEqual({ error: { code: 'internal_error', message: expect.any(String) } });
    expect(await counts()).toEqual(before);
    expect(await query(`SELECT id FROM deploys WHERE idempotency_key = $1`, [IDEMPOTENCY_KEY])).toEqual([]);

    // The same request again (same key: the failed one left no trace of it) is accepted, with
    // exactly one deploy, its two commits, one event, one delivery and one job.
    const accepted = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, payload, { 'x-idempotency-key': IDEMPOTENCY_KEY });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ status: 'accepted', deploy_id: expect.any(String) });
    const deployId = accepted.body.deploy_id as string;
    expect(await counts()).toEqual({
      deploys: before.deploys + 1,
      commits: before.commits + 2,
      events: before.events + 1,
      deliveries: before.deliveries + 1,
      jobs: before.jobs + 1,
    });
    const [delivery] = await query<{ id: string; created_at: Date; endpoint_id: string; type: string; deploy_id: string }>(
      `SELECT d.id, d.created_at, d.endpoint_id, ev.type, ev.data->'deploy'->>'id' AS deploy_id
       FROM deliveries d JOIN events ev ON ev.id = d.event_id AND ev.created_at = d.created_at WHERE ev.data->'deploy'->>'id' = $1`,
      [deployId],
    );
    expect(delivery).toEqual({
      id: expect.any(String),
      created_at: expect.any(Date),
      endpoint_id: endpointId,
      type: 'deploy.ingested',
      deploy_id: deployId,
    });
    // The job carries the delivery's key (id and created_at, naming its month's partition) and what
    // fair fetching groups it by: its endpoint (pg-boss's group) and organization.
    expect(
      await query(`SELECT data, group_id FROM pgboss.job WHERE name = 'deliver' AND data->>'deliveryId' = $1`, [delivery!.id]),
    ).toEqual([
      {
        data: {
          deliveryId: delivery!.id,
          deliveryCreatedAt: delivery!.created_at.toISOString(),
          attempt: 1,
          organizationId: hookline.tenant.organizationId,
        },
        group_id: endpointId,
      },
    ]);

    // And it is delivered.
    const [request] = await hookline.receiver.waitForRequests(1, { path: '/hooks' });
    expect(request!.headers['x-service-delivery']).toBe(delivery!.id);
    expect(JSON.parse(request!.body).data.deploy.id).toBe(deployId);
  });

  it('a duplicate ingest (same X-Idempotency-Key) emits no second event or delivery', async () => {
    const [first] = await query<{ id: string }>(`SELECT id FROM deploys WHERE idempotency_key = $1`, [IDEMPOTENCY_KEY]);
    expect(first, 'the previous test ingested this key').toBeDefined();
    const before = await counts();

    const duplicate = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, payload, { 'x-idempotency-key': IDEMPOTENCY_KEY });
    expect(duplicate.status).toBe(200);
    expect(duplicate.body).toEqual({ status: 'duplicate', deploy_id: first!.id });
    expect(await counts()).toEqual(before);

    // Barrier: a new deploy reaches the endpoint; nothing was sent for the duplicate before it.
    const next = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'next' });
    expect(next.body.status).toBe('accepted');
    const requests = await hookline.receiver.waitForRequests(2, { path: '/hooks' });
    expect(requests.map((request) => JSON.parse(request.body).data.deploy.id)).toEqual([first!.id, next.body.deploy_id]);
    expect(hookline.receiver.requests).toHaveLength(2);
  });
});

describe('events are stored only when someone is subscribed', () => {
  // src/domain/ingest/deploys.ts: the fast path inserts the deploy only when no live endpoint of the
  // organization is subscribed to deploy.ingested, and then stores no event; otherwise the
  // outbox transaction stores the deploy, the event and its deliveries together.
  async function ingestFor(owner: Tenant) {
    const before = await counts();
    const response = await postDeploy(hookline.baseUrl, owner.deployToken, payload);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('accepted');
    const deploy = await hookline.app.database.prisma.deploy.findUnique({
      where: { id: response.body.deploy_id },
      include: { commits: true },
    });
    expect(deploy).toMatchObject({ organizationId: owner.organizationId, commitSha: payload.commit_sha });
    expect(deploy!.commits).toHaveLength(2);
    expect(await hookline.app.database.prisma.event.count({ where: { organizationId: owner.organizationId } })).toBe(0);
    expect(await hookline.app.database.prisma.delivery.count({ where: { organizationId: owner.organizationId } })).toBe(0);
    expect(await counts()).toEqual({ ...before, deploys: before.deploys + 1, commits: before.commits + 2 });
  }

  it('an organization without endpoints gets the deploy and no event', async () => {
    await ingestFor(await hookline.createTenant());
  });

  it('nor one whose endpoints are subscribed to other event types only, or INACTIVE', async () => {
    const filtered = await hookline.createTenant();
    await createEndpoint(hookline, filtered.apiToken, {
      url: `${hookline.receiver.url}/incidents`,
      name: 'Incidents',
      eventTypes: ['incident.opened'],
    });
    await ingestFor(filtered);

    const paused = await hookline.createTenant();
    const { id } = await createEndpoint(hookline, paused.apiToken, { url: `${hookline.receiver.url}/paused`, name: 'Paused' });
    // No REST route pauses an endpoint (a GraphQL mutation will): the domain function stands in.
    await setEndpointActive(hookline.app.database.prisma, paused.organizationId, id, false);
    await ingestFor(paused);
  });
});
