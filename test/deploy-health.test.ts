// Deploy health over real HTTP and a real database: the alerts and incidents of a deploy's service
// in the hour after it against the hour before, of its environment (aliases included) or of none,
// read through GraphQL; and the statement reads indexes, never whole tables.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAlertSource } from '../src/domain/ingest/alert-sources.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { deployHealthQuery } from '../src/domain/correlation/deploy-health.ts';
import { graphql } from './gql/index.ts';
import { dataOf } from './support/app.ts';
import { post, postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const HEALTH = graphql(`
  query DeployHealthOf($id: ID!) {
    deploy(id: $id) { health { windowSeconds alertsBefore alertsAfter incidentsBefore incidentsAfter } }
  }
`);

const RANKED = graphql(`
  query DeployHealthRanked {
    incidents(first: 20) { edges { node { startedAt suspects { deploy { id } reasons { code detail } } } } }
  }
`);

const MINUTE = 60_000;
const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
let alertToken: string;

beforeAll(async () => {
  const prisma = hookline.app.database.prisma;
  alertToken = (await createAlertSource(prisma, hookline.tenant.organizationId, { name: 'Prometheus', kind: 'ALERTMANAGER' })).token;
  await createService(prisma, hookline.tenant.organizationId, 'search');
});

let group = 0;
/** One Alertmanager notification (a group, so an incident) of `alerts` starting at the given times. */
async function alerts(service: string, environment: string, startsAt: Date[]) {
  group += 1;
  const labels = { alertname: 'HighErrorRate', service, environment, severity: 'critical' };
  const response = await post(`${hookline.baseUrl}/api/ingest/alerts/alertmanager`, {
    body: JSON.stringify({
      receiver: 'hookline',
      status: 'firing',
      alerts: startsAt.map((at, i) => ({
        status: 'firing',
        labels,
        annotations: { summary: 'errors' },
        startsAt: at.toISOString(),
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.example.com/graph',
        fingerprint: `${group.toString(16).padStart(8, '0')}${i.toString(16).padStart(8, '0')}`,
      })),
      groupLabels: { alertname: 'HighErrorRate' },
      commonLabels: {},
      commonAnnotations: {},
      externalURL: 'http://alertmanager.example.com:9093',
      version: '4',
      groupKey: `{}/{alertname="HighErrorRate"}:{n="${group}"}`,
      truncatedAlerts: 0,
    }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${alertToken}` },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

describe('Deploy.health', () => {
  it("counts its service's alerts and incidents of its environment in the hour after it, against the hour before", async () => {
    const deployedAt = new Date(Date.now() - 30 * MINUTE);
    const at = (minutesAfter: number) => new Date(deployedAt.getTime() + minutesAfter * MINUTE);
    const response = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
      commit_sha: 'abc1234',
      environment: 'production',
      deployed_at: deployedAt.toISOString(),
    });
    expect(response.status).toBe(200);
    const deployId = response.body.deploy_id as string;
    const health = async () => dataOf(await hookline.graphql(hookline.tenant.apiToken, HEALTH, { id: deployId })).deploy!.health;
    expect(await health()).toEqual({ windowSeconds: 3600, alertsBefore: 0, alertsAfter: 0, incidentsBefore: 0, incidentsAfter: 0 });

    await alerts('checkout', 'production', [at(-40)]); // the hour before: one incident, one alert
    await alerts('checkout', 'production', [at(10), at(12), at(20)]); // after: one incident, three alerts
    await alerts('checkout', 'staging', [at(5)]); // another environment
    await alerts('search', 'production', [at(5)]); // another service
    await alerts('checkout', 'production', [at(-90)]); // before the hour before
    expect(await health()).toEqual({ windowSeconds: 3600, alertsBefore: 1, alertsAfter: 3, incidentsBefore: 1, incidentsAfter: 1 });
  });

  it("lifts a deploy in the ranking by its service's trouble after it, counted up to the incident's start: never the incident's own alerts", async () => {
    const deployedAt = new Date(Date.now() - 5 * 60 * MINUTE);
    const at = (minutesAfter: number) => new Date(deployedAt.getTime() + minutesAfter * MINUTE);
    const response = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
      commit_sha: 'fedcba9',
      environment: 'production',
      deployed_at: deployedAt.toISOString(),
    });
    expect(response.status).toBe(200);
    await alerts('checkout', 'production', [at(10), at(15), at(20)]); // an incident in the 40 min after it
    await alerts('checkout', 'production', [at(40), at(41), at(45)]); // the incident ranked below: its own alerts
    const incidents = dataOf(await hookline.graphql(hookline.tenant.apiToken, RANKED, {})).incidents.edges.map((edge) => edge.node);
    const ranked = incidents.find((incident) => new Date(incident.startedAt).getTime() === at(40).getTime())!;
    const suspect = ranked.suspects.find((s) => s.deploy?.id === response.body.deploy_id)!;
    expect(suspect.reasons.filter((reason) => reason.code === 'trouble_after')).toEqual([
      {
        code: 'trouble_after',
        detail: 'alerts on checkout rose after it: 0 → 3 in the 40 min up to the incident, against the 40 min before it',
      },
    ]);
    // The first incident: nothing before it.
    const first = incidents.find((incident) => new Date(incident.startedAt).getTime() === at(10).getTime())!;
    const calm = first.suspects.find((s) => s.deploy?.id === response.body.deploy_id)!;
    expect(calm.reasons.map((reason) => reason.code)).not.toContain('trouble_after');
  });

  it('reads the deploys by id and the alerts and incidents of its two hours by index, never a whole table', async () => {
    const recorded = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'def5678', environment: 'production' });
    expect(recorded.status).toBe(200);
    const query = deployHealthQuery(hookline.tenant.organizationId, [crypto.randomUUID()]);
    const planned = new Error('planned: roll the history back');
    let text = '';
    await expect(
      hookline.app.database.prisma.$transaction(async (tx) => {
        // A history of deploys (rolled back afterwards), so that reading one by id through any
        // index but its key costs what it would on a real table: on a handful of rows, every
        // index costs the same and the planner may take any.
        await tx.$executeRawUnsafe(
          `INSERT INTO deploys (organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at)
           SELECT organization_id, service_id, deploy_token_id, commit_sha, environment, deployed_at - g * interval '1 minute'
           FROM deploys, generate_series(1, 5000) AS g WHERE id = $1::uuid`,
          recorded.body.deploy_id,
        );
        // A tiny table is read whole; forbid that to see the path a big one takes, with statistics.
        await tx.$executeRawUnsafe('ANALYZE deploys, alerts, incidents');
        await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
        const plan = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${query.text}`, ...query.values);
        text = plan.map((row) => row['QUERY PLAN']).join('\n');
        throw planned;
      }),
    ).rejects.toBe(planned);
    expect(text).not.toMatch(/Seq Scan on (deploys|alerts|incidents)\b/);
    expect(text).toMatch(/deploys_pkey/);
    expect(text).toMatch(/alerts_organization_id_starts_at_idx/);
    expect(text).toMatch(/incidents_organization_id_started_at_idx/);
  });
});
