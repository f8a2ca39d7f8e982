// What DORA's per-day, per-week and per-service keys cost at their largest (105 days, 105 weeks,
// 100 services), counted in SQL statements: the cost their complexity declares must be what they
// run, so every piece cannot be a `dora` query of its own.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../src/domain/ingest/services.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { statementsOf, watchPool } from './support/statements.ts';

const DORA_ALONE = graphql(`
  query DoraCostAlone($serviceId: ID, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: "production", from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }
  }
`);
const DORA_DAYS = graphql(`
  query DoraCostDays($serviceId: ID, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: "production", from: $from, to: $to) {
      byDay { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }
    }
  }
`);
const DORA_WEEKS = graphql(`
  query DoraCostWeeks($serviceId: ID, $from: DateTime!, $to: DateTime!) {
    dora(serviceId: $serviceId, environment: "production", from: $from, to: $to) {
      byWeek { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }
    }
  }
`);
const DORA_SERVICES = graphql(`
  query DoraCostServices($from: DateTime!, $to: DateTime!) {
    dora(environment: "production", from: $from, to: $to) {
      byService { service { name } keys { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds } }
    }
  }
`);

const DAY = 24 * 60 * 60 * 1000;
const hookline = useHookline({ environment: { ROLE: 'api', INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
const to = new Date(Math.floor(Date.now() / DAY) * DAY + DAY / 2);

beforeAll(async () => {
  watchPool(hookline.app.database.pool);
  for (let i = 1; i < 100; i++) await createService(hookline.app.database.prisma, hookline.tenant.organizationId, `service-${i}`);
  for (const daysAgo of [1, 30, 300]) {
    const response = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
      commit_sha: `c0ffee${daysAgo}`,
      environment: 'production',
      deployed_at: new Date(to.getTime() - daysAgo * DAY).toISOString(),
      commits: [{ sha: `c0ffee${daysAgo}`, timestamp: new Date(to.getTime() - daysAgo * DAY - 3600_000).toISOString() }],
    });
    expect(response.status).toBe(200);
  }
}, 120_000);

/** How many statements the request for `document` ran. */
async function statementsFor<TResult, TVariables>(document: TypedDocumentNode<TResult, TVariables>, variables: TVariables) {
  const statements = await statementsOf(async () => {
    dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, document, variables));
  });
  return statements.length;
}

describe('DORA per day, per week and per service at their largest', () => {
  it('cost a few statements more than one dora query, not one dora query per piece', async () => {
    for (const serviceId of [null, hookline.tenant.serviceId]) {
      const days = { serviceId, from: new Date(to.getTime() - 104.5 * DAY).toISOString(), to: to.toISOString() };
      const weeks = { serviceId, from: new Date(to.getTime() - 104 * 7 * DAY).toISOString(), to: to.toISOString() };
      const alone = await statementsFor(DORA_ALONE, days);
      const byDay = await statementsFor(DORA_DAYS, days);
      const byWeek = await statementsFor(DORA_WEEKS, weeks);
      console.log(
        `DORA statements (${serviceId ? 'one service' : 'organization'}): dora ${alone}, byDay (105 days) ${byDay}, byWeek (105 weeks) ${byWeek}`,
      );
      expect(byDay).toBeLessThanOrEqual(2 * alone);
      expect(byWeek).toBeLessThanOrEqual(2 * alone);
    }
    const period = { from: new Date(to.getTime() - 30 * DAY).toISOString(), to: to.toISOString() };
    const alone = await statementsFor(DORA_ALONE, { ...period, serviceId: null });
    const byService = await statementsFor(DORA_SERVICES, period);
    console.log(`DORA statements: dora ${alone}, byService (100 services) ${byService}`);
    expect(byService).toBeLessThanOrEqual(2 * alone + 1);
  });
});
