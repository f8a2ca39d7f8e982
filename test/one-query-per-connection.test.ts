// A transaction is one connection, and one connection runs one statement at a time: pg warns
// (DeprecationWarning, once per process) when a query is sent on a client already running one,
// and pg 9 makes it an error. Prisma 7.10's adapter-pg does that by itself when one read inside
// an interactive transaction loads several relations (it fetches them side by side), so the
// incident events, written in the transaction that changes the incident, read their relations
// one by one. Each test file runs in a process of its own, so a warning here comes from this file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertSource } from '../src/domain/ingest/alert-sources.ts';
import { graphql } from './gql/index.ts';
import { dataOf } from './support/app.ts';
import { post, postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const OPEN_INCIDENT = graphql(`
  mutation OneQueryOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: "Checkout down") { id } }
`);
const ACKNOWLEDGE_INCIDENT = graphql(`
  mutation OneQueryAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { status } }
`);
const RESOLVE_INCIDENT = graphql(`
  mutation OneQueryResolve($id: ID!) { resolveIncident(id: $id) { status } }
`);

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' } });
const warnings: string[] = [];
const recordWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(() => {
  process.on('warning', recordWarning);
});
afterAll(() => {
  process.off('warning', recordWarning);
});

describe('one query at a time on a connection', () => {
  it('opening, acknowledging and resolving incidents (by hand and from alerts) sends no query to a busy connection', async () => {
    const { tenant } = hookline;
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    expect((await postDeploy(hookline.baseUrl, tenant.deployToken, { commit_sha: 'a1b2c3d', deployed_at: minutesAgo(5) })).status).toBe(
      200,
    );
    const change = await postDeploy(
      hookline.baseUrl,
      tenant.deployToken,
      { kind: 'config', summary: 'pool size 40', changed_at: minutesAgo(3) },
      {},
      '/api/ingest/change',
    );
    expect(change.status).toBe(200);

    const opened = dataOf(await hookline.graphql(tenant.apiToken, OPEN_INCIDENT, { serviceId: tenant.serviceId })).openIncident;
    dataOf(await hookline.graphql(tenant.apiToken, ACKNOWLEDGE_INCIDENT, { id: opened.id }));
    dataOf(await hookline.graphql(tenant.apiToken, RESOLVE_INCIDENT, { id: opened.id }));

    const { token } = await createAlertSource(hookline.app.database.prisma, tenant.organizationId, {
      name: 'Prometheus',
      kind: 'ALERTMANAGER',
    });
    const alert = { status: 'firing', labels: { service: 'checkout', alertname: 'Errors' }, startsAt: minutesAgo(1), fingerprint: 'f1' };
    for (const alerts of [[alert], [{ ...alert, status: 'resolved', endsAt: minutesAgo(0) }]]) {
      const answer = await post(`${hookline.baseUrl}/api/ingest/alerts/alertmanager`, {
        body: JSON.stringify({ groupKey: 'g', alerts }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
    }

    expect(warnings).toEqual([]);
  });
});
