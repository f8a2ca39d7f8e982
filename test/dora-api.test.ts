// The `dora` query end to end: deploys ingested with `deployed_at` and commit timestamps,
// incidents opened with `startedAt` (their suspects decide which deploys failed) and resolved
// through the API. Every expected number is worked out by hand below.
import { beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../src/domain/ingest/services.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql, type GraphqlResponse, type Tenant } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { ingest } from './support/operations.ts';

const DORA_KEYS = graphql(`
  query DoraKeys($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {
      deploymentFrequencyPerDay deployCount days leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds
    }
  }
`);
const DORA_PIECES = graphql(`
  query DoraPieces($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) {
      from to deployCount
      byWeek { from to deployCount changeFailureRate }
    }
  }
`);
const DORA_FAILURES = graphql(`
  query DoraFailureCounts($serviceId: ID, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, from: $from, to: $to) { deployCount failedDeployCount rolledBackCount judgedCausedCount topSuspectCount changeFailureRate }
  }
`);
const DORA_DRILL_DOWNS = graphql(`
  query DoraDrillDowns($serviceId: ID, $from: DateTime!, $to: DateTime!, $first: Int!) {
    dora(serviceId: $serviceId, from: $from, to: $to) {
      failedDeploys(first: $first) { reason deploy { id } }
      restoreIncidents(first: $first) { id }
      byService { service { id name } keys { deployCount failedDeployCount timeToRestoreSeconds } }
    }
  }
`);
const DORA_DAYS = graphql(`
  query DoraDaysOfPeriod($from: DateTime!, $to: DateTime!) {
    dora(from: $from, to: $to) { byDay { from to deployCount } }
  }
`);
const DORA_OPEN_INCIDENT = graphql(`
  mutation DoraOpenIncident($serviceId: ID!, $title: String!, $environment: String, $startedAt: DateTime) {
    openIncident(serviceId: $serviceId, title: $title, environment: $environment, startedAt: $startedAt) {
      id startedAt suspects { rank deploy { id } }
    }
  }
`);
const DORA_RESOLVE_INCIDENT = graphql(`
  mutation DoraResolveIncident($id: ID!) { resolveIncident(id: $id) { id startedAt resolvedAt } }
`);
const DORA_MARK_SUSPECT = graphql(`
  mutation DoraMarkSuspect($incidentId: ID!, $deployId: ID!, $verdict: SuspectVerdict!) {
    markSuspect(incidentId: $incidentId, deployId: $deployId, verdict: $verdict) { id }
  }
`);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
let stranger: Tenant;
let paymentsId: string;

// Every time is an offset from now0 (now, in whole seconds). The main period is
// [now0 − 9 d, now0 + 1 d): 10 days, and it contains "now", when the incidents are resolved.
const now0 = Math.floor(Date.now() / 1000) * 1000;
const at = (offsetMs: number) => new Date(now0 + offsetMs).toISOString();
const period = { from: at(-9 * DAY), to: at(1 * DAY) };

const deploys: Record<string, string> = {};
/** Resolved incidents by name: how long each took to restore, in ms (resolvedAt − startedAt). */
const restoreMs: Record<string, number> = {};
/** Resolved incidents' ids by name. */
const incidents: Record<string, string> = {};

async function openIncident(serviceId: string, startedAt: string) {
  const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_OPEN_INCIDENT, {
    serviceId,
    title: 'Broken',
    environment: 'production',
    startedAt,
  });
  return dataOf(response).openIncident;
}

async function resolve(name: string, id: string) {
  const resolved = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_RESOLVE_INCIDENT, { id })).resolveIncident;
  restoreMs[name] = Date.parse(resolved.resolvedAt!) - Date.parse(resolved.startedAt);
  incidents[name] = id;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

beforeAll(async () => {
  stranger = await hookline.createTenant('checkout');
  const payments = await createService(hookline.app.database.prisma, hookline.tenant.organizationId, 'payments');
  paymentsId = payments.service.id;
  const checkout = hookline.tenant.deployToken;
  const commit = (deployedAt: number, beforeMs: number | null) => ({
    sha: `c${Math.random().toString(16).slice(2, 10)}`,
    ...(beforeMs === null ? {} : { timestamp: at(deployedAt - beforeMs) }),
  });

  // Deploys (lead times are deployedAt − commit timestamp):
  //   old      checkout production  −12 d      1 h              (before the period)
  //   d1       checkout production   −8 d      1 h, 3 h, and one dated 10 min after the deploy (ignored)
  //   d2       checkout production   −6 d      2 h, and one without a timestamp (skipped)
  //   staging  checkout staging      −5 d 1 h  4 h
  //   d3       checkout production   −4 d      no commits
  //   p1       payments production   −3 h      no commits
  //   d4       checkout production   −2 h      30 min
  deploys.old = await ingest(hookline, checkout, {
    commit_sha: 'old',
    environment: 'production',
    deployed_at: at(-12 * DAY),
    commits: [commit(-12 * DAY, HOUR)],
  });
  deploys.d1 = await ingest(hookline, checkout, {
    commit_sha: 'd1',
    environment: 'production',
    deployed_at: at(-8 * DAY),
    commits: [commit(-8 * DAY, HOUR), commit(-8 * DAY, 3 * HOUR), commit(-8 * DAY, -10 * MINUTE)],
  });
  deploys.d2 = await ingest(hookline, checkout, {
    commit_sha: 'd2',
    environment: 'production',
    deployed_at: at(-6 * DAY),
    commits: [commit(-6 * DAY, 2 * HOUR), commit(-6 * DAY, null)],
  });
  deploys.staging = await ingest(hookline, checkout, {
    commit_sha: 'st',
    environment: 'staging',
    deployed_at: at(-5 * DAY - HOUR),
    commits: [commit(-5 * DAY - HOUR, 4 * HOUR)],
  });
  deploys.d3 = await ingest(hookline, checkout, { commit_sha: 'd3', environment: 'production', deployed_at: at(-4 * DAY) });
  deploys.p1 = await ingest(hookline, payments.deployToken, { commit_sha: 'p1', environment: 'production', deployed_at: at(-3 * HOUR) });
  deploys.d4 = await ingest(hookline, checkout, {
    commit_sha: 'd4',
    environment: 'production',
    deployed_at: at(-2 * HOUR),
    commits: [commit(-2 * HOUR, 30 * MINUTE)],
  });
  // Another organization's deploy in the period counts for no one here.
  const theirs = await postDeploy(hookline.baseUrl, stranger.deployToken, {
    commit_sha: 'x',
    environment: 'production',
    deployed_at: at(-1 * DAY),
  });
  expect(theirs.status).toBe(200);

  // Incidents (24 h lookback), all in production:
  //   i1 checkout, started d3 + 10 min: suspects [d3] (staging is 25 h earlier)   → d3 failed; resolved now
  //   i2 checkout, started d4 + 20 min: suspects [d4, p1]; someone marks p1 CAUSED → p1 failed, d4 not; resolved now
  //   i3 checkout, started −7 d + 1 h: no deploy in the 24 h before; left OPEN     → no restore time
  //   i4 payments, started −30 min: suspects [p1, d4] (p1 is its own service's)    → p1 again; resolved now
  const i1 = await openIncident(hookline.tenant.serviceId, at(-4 * DAY + 10 * MINUTE));
  expect(i1.suspects.map((suspect) => suspect.deploy!.id)).toEqual([deploys.d3]);
  const i2 = await openIncident(hookline.tenant.serviceId, at(-2 * HOUR + 20 * MINUTE));
  expect(i2.suspects.map((suspect) => suspect.deploy!.id)).toEqual([deploys.d4, deploys.p1]);
  const marked = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_MARK_SUSPECT, {
    incidentId: i2.id,
    deployId: deploys.p1!,
    verdict: 'CAUSED',
  });
  dataOf(marked);
  const i3 = await openIncident(hookline.tenant.serviceId, at(-7 * DAY + HOUR));
  expect(i3.suspects).toEqual([]);
  const i4 = await openIncident(paymentsId, at(-30 * MINUTE));
  expect(i4.suspects.map((suspect) => suspect.deploy!.id)).toEqual([deploys.p1, deploys.d4]);
  await resolve('i1', i1.id);
  await resolve('i2', i2.id);
  await resolve('i4', i4.id);
});

async function dora(variables: { serviceId?: string; environment?: string; from: string; to: string }, token = hookline.tenant.apiToken) {
  return dataOf(await requestGraphql(hookline.baseUrl, token, DORA_KEYS, variables)).dora;
}

/** A number within 4.5 % of `exact`: an organization's lead time is the median of a histogram's buckets. */
const near = (exact: number) => expect.toSatisfy((value: number) => Math.abs(value / exact - 1) < 0.045, `within 4.5 % of ${exact}`);

describe('dora', () => {
  it('checkout in production', async () => {
    // Deploys d1, d2, d3, d4 (old is before the period): 4 in 10 days → 0.4 a day.
    // Lead times: 1 h, 3 h (d1), 2 h (d2), 30 min (d4) → sorted 1800, 3600, 7200, 10800 s → median 5400 s.
    // Failed: d3 (top suspect of i1). d4 is i2's top suspect, but i2's cause is p1 → 1 / 4 = 0.25.
    // Restore: i1 and i2 (i3 is open, i4 is payments') → the mean of their two durations.
    expect(await dora({ ...period, serviceId: hookline.tenant.serviceId, environment: 'production' })).toEqual({
      deploymentFrequencyPerDay: 0.4,
      deployCount: 4,
      days: 10,
      leadTimeForChangesSeconds: 5400,
      changeFailureRate: 0.25,
      timeToRestoreSeconds: median([restoreMs.i1!, restoreMs.i2!]) / 1000,
    });
    // i1 took about 4 days, i2 about 100 minutes.
    expect(restoreMs.i1! / 1000).toBeGreaterThan(4 * 86400 - 600);
    expect(restoreMs.i2! / 1000).toBeGreaterThanOrEqual(100 * 60);
  });

  it('the whole organization', async () => {
    // Deploys d1, d2, staging, d3, p1, d4: 6 → 0.6 a day.
    // Lead times 1800, 3600, 7200, 10800, 14400 s → median 7200 s, from the organization's
    // histogram: the middle of its bucket, within 4.5 %.
    // Failed: d3, p1 → 2 / 6. Restore: i1 (~4 d), i2 (~100 min), i4 (~30 min) → the middle one, i2's.
    expect(await dora(period)).toEqual({
      deploymentFrequencyPerDay: 0.6,
      deployCount: 6,
      days: 10,
      leadTimeForChangesSeconds: near(7200),
      changeFailureRate: 2 / 6,
      timeToRestoreSeconds: restoreMs.i2! / 1000,
    });
    expect(median([restoreMs.i1!, restoreMs.i2!, restoreMs.i4!])).toBe(restoreMs.i2);
  });

  it('tells how many failed deploys were rolled back, judged CAUSED, or the top suspect without a verdict', async () => {
    // d3 is i1's top suspect, nobody judged it; p1 was judged CAUSED for i2 (and is i4's top suspect).
    const failures = async (serviceId: string | null) =>
      dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_FAILURES, { ...period, serviceId })).dora;
    expect(await failures(null)).toEqual({
      deployCount: 6,
      failedDeployCount: 2,
      rolledBackCount: 0,
      judgedCausedCount: 1,
      topSuspectCount: 1,
      changeFailureRate: 2 / 6,
    });
    expect(await failures(paymentsId)).toEqual({
      deployCount: 1,
      failedDeployCount: 1,
      rolledBackCount: 0,
      judgedCausedCount: 1,
      topSuspectCount: 0,
      changeFailureRate: 1,
    });
  });

  it('lists the failed deploys with why, the incidents counted toward restore time, and each service’s keys', async () => {
    const drill = async (variables: { serviceId?: string | null; first: number }) =>
      dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_DRILL_DOWNS, { ...period, ...variables })).dora;
    const all = await drill({ first: 50 });
    // Newest first: p1 (−3 h, judged CAUSED for i2), d3 (−4 d, i1's top suspect).
    expect(all.failedDeploys).toEqual([
      { reason: 'JUDGED_CAUSED', deploy: { id: deploys.p1 } },
      { reason: 'TOP_SUSPECT', deploy: { id: deploys.d3 } },
    ]);
    expect(all.restoreIncidents.map((incident) => incident.id).sort()).toEqual([incidents.i1, incidents.i2, incidents.i4].sort());
    expect(all.byService).toEqual([
      {
        service: { id: hookline.tenant.serviceId, name: 'checkout' },
        keys: { deployCount: 5, failedDeployCount: 1, timeToRestoreSeconds: median([restoreMs.i1!, restoreMs.i2!]) / 1000 },
      },
      {
        service: { id: paymentsId, name: 'payments' },
        keys: { deployCount: 1, failedDeployCount: 1, timeToRestoreSeconds: restoreMs.i4! / 1000 },
      },
    ]);
    const one = await drill({ serviceId: paymentsId, first: 1 });
    expect(one.failedDeploys).toEqual([{ reason: 'JUDGED_CAUSED', deploy: { id: deploys.p1 } }]);
    expect(one.restoreIncidents).toEqual([{ id: incidents.i4 }]);
    expect(one.byService.map((row) => row.service.name)).toEqual(['payments']);
    const tooMany = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_DRILL_DOWNS, { ...period, first: 201 });
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('cuts the period into ISO weeks (Monday 00:00 UTC) and UTC days that add up to it, each the keys of its own window', async () => {
    const { dora: whole } = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_PIECES, period));
    expect(whole.from).toBe(period.from);
    expect(whole.to).toBe(period.to);
    const weeks = whole.byWeek;
    expect(weeks[0]!.from).toBe(period.from);
    expect(weeks.at(-1)!.to).toBe(period.to);
    for (const [index, week] of weeks.entries()) {
      if (index > 0) {
        expect(week.from).toBe(weeks[index - 1]!.to);
        expect(new Date(week.from).getUTCDay()).toBe(1);
        expect(week.from).toMatch(/T00:00:00\.000Z$/);
      }
      const alone = dataOf(
        await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_PIECES, { from: week.from, to: week.to }),
      ).dora;
      expect({ deployCount: week.deployCount, changeFailureRate: week.changeFailureRate }).toEqual({
        deployCount: alone.deployCount,
        changeFailureRate: alone.byWeek[0]!.changeFailureRate,
      });
    }
    // 10 days starting at a whole second of some weekday: 2 or 3 weeks.
    expect(weeks.length).toBeGreaterThanOrEqual(2);
    expect(weeks.length).toBeLessThanOrEqual(3);
    expect(weeks.reduce((sum, week) => sum + week.deployCount, 0)).toBe(6);
    const days = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_DAYS, period)).dora.byDay;
    expect(days).toHaveLength(11);
    expect(days.every((day, index) => index === 0 || day.from.endsWith('T00:00:00.000Z'))).toBe(true);
    expect(days.reduce((sum, day) => sum + day.deployCount, 0)).toBe(6);
    // A year of days is more than a day-by-day answer holds.
    const year = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_DAYS, { from: at(-365 * DAY), to: at(0) });
    expect(year.body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'to', message: 'cuts into more than 105 pieces' }],
    });
  });

  it('one service in every environment, and one environment across services', async () => {
    // checkout: d1, d2, staging, d3, d4 → 5, 0.5 a day; lead times as the organization's → 7200 s;
    // failed d3 → 1 / 5; restore: i1 and i2.
    expect(await dora({ ...period, serviceId: hookline.tenant.serviceId })).toEqual({
      deploymentFrequencyPerDay: 0.5,
      deployCount: 5,
      days: 10,
      leadTimeForChangesSeconds: 7200,
      changeFailureRate: 0.2,
      timeToRestoreSeconds: median([restoreMs.i1!, restoreMs.i2!]) / 1000,
    });
    // production: d1, d2, d3, p1, d4 → 5; lead 1800, 3600, 7200, 10800 → 5400 s (a histogram's:
    // within 4.5 %); failed d3, p1 → 2 / 5;
    // restore: i1, i2, i4 → i2's.
    expect(await dora({ ...period, environment: 'production' })).toEqual({
      deploymentFrequencyPerDay: 0.5,
      deployCount: 5,
      days: 10,
      leadTimeForChangesSeconds: near(5400),
      changeFailureRate: 0.4,
      timeToRestoreSeconds: restoreMs.i2! / 1000,
    });
    // payments: p1 only, no commits; it failed; restore: i4.
    expect(await dora({ ...period, serviceId: paymentsId })).toEqual({
      deploymentFrequencyPerDay: 0.1,
      deployCount: 1,
      days: 10,
      leadTimeForChangesSeconds: null,
      changeFailureRate: 1,
      timeToRestoreSeconds: restoreMs.i4! / 1000,
    });
  });

  it('other periods: one ending before the incidents were resolved, and an empty one', async () => {
    // [−9 d, −1 d): 8 days; checkout production deploys d1, d2, d3 → 3 / 8 = 0.375 a day;
    // lead 3600, 10800, 7200 → 7200 s; failed d3 → 1 / 3; nothing was resolved in it → null.
    expect(await dora({ serviceId: hookline.tenant.serviceId, environment: 'production', from: at(-9 * DAY), to: at(-1 * DAY) })).toEqual({
      deploymentFrequencyPerDay: 0.375,
      deployCount: 3,
      days: 8,
      leadTimeForChangesSeconds: 7200,
      changeFailureRate: 1 / 3,
      timeToRestoreSeconds: null,
    });
    // [−30 d, −20 d): nothing at all. Nulls, not zeros, where there is nothing to measure.
    expect(await dora({ from: at(-30 * DAY), to: at(-20 * DAY) })).toEqual({
      deploymentFrequencyPerDay: 0,
      deployCount: 0,
      days: 10,
      leadTimeForChangesSeconds: null,
      changeFailureRate: null,
      timeToRestoreSeconds: null,
    });
  });

  it('refuses an empty or reversed period with BAD_USER_INPUT', async () => {
    for (const [from, to] of [
      [period.from, period.from],
      [period.to, period.from],
    ]) {
      const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_KEYS, { from: from!, to: to! });
      expect(response.body.data ?? null).toBeNull();
      expect(response.body.errors?.[0]).toEqual(
        expect.objectContaining({
          message: 'from must be before to',
          extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'to', message: 'must be after from' }] },
        }),
      );
    }
  });

  it('refuses an environment or a period PostgreSQL cannot store (NUL, year 0) with BAD_USER_INPUT on the argument', async () => {
    const refused = async (variables: { from: string; to: string; environment?: string }, field: string) => {
      const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_KEYS, variables);
      expect(response.body.data ?? null).toBeNull();
      expect(response.body.errors).toEqual([
        expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', fields: [expect.objectContaining({ field })] } }),
      ]);
    };
    await refused({ from: period.from!, to: period.to!, environment: 'production\u0000' }, 'environment');
    await refused({ from: '0000-01-01T00:00:00Z', to: period.to! }, 'from');
  });

  it("treats an unknown, malformed or another organization's service as NOT_FOUND, and sees only the caller's data", async () => {
    const notFound = (response: GraphqlResponse<unknown>, id: string) => {
      expect(response.body.data ?? null).toBeNull();
      expect(response.body.errors?.[0]).toEqual(
        expect.objectContaining({ message: `Service ${id} not found`, extensions: { code: 'NOT_FOUND' } }),
      );
    };
    for (const serviceId of ['00000000-0000-4000-8000-000000000000', 'nope', '', stranger.serviceId]) {
      notFound(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DORA_KEYS, { ...period, serviceId }), serviceId);
    }
    notFound(
      await requestGraphql(hookline.baseUrl, stranger.apiToken, DORA_KEYS, { ...period, serviceId: hookline.tenant.serviceId }),
      hookline.tenant.serviceId,
    );
    // The stranger's organization: its one deploy, and none of the tenant's incidents.
    expect(await dora(period, stranger.apiToken)).toEqual({
      deploymentFrequencyPerDay: 0.1,
      deployCount: 1,
      days: 10,
      leadTimeForChangesSeconds: null,
      changeFailureRate: 0,
      timeToRestoreSeconds: null,
    });
  });
});
