// The most expensive queries that the limits let through stay bounded: every list has a known
// maximum, the complexity estimate counts each list at that maximum, and the worst queries we can
// build answer with a bounded number of rows (their time is the benchmarks' to measure).
//
// Data: one service with 30 deploys in the hour before now and 25 incidents opened after them, so
// that every incident has more candidate suspects than are kept, and every deploy is a suspect of
// more incidents than `suspectIn` lists. What is asserted is the number of rows each query loads
// (exactly the bounds, reached).
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { getNamedType, isListType, isNonNullType, isObjectType, print, type GraphQLField, type GraphQLOutputType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIST_BOUNDS, QUERY_LIMITS } from '../src/graphql/builder.ts';
import { connectionNodeType } from '../src/graphql/cursors.ts';
import { schema } from '../src/graphql/schema.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql, rollbacksJudged } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

/** The 151-byte query of the report, which took 25 s and 2.85 GB with an incident of 1,200 suspects. */
const WORST_SUSPECTS = graphql(`
  query WorstSuspects($id: ID!) { incident(id: $id) { suspects { deploy { suspectIn { incident { suspects { deploy { id } } } } } } } }
`);
const WORST_DORA = graphql(`
  query WorstDora($from: DateTime!, $to: DateTime!) {
    d1: dora(from: $from, to: $to) { deployCount leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds }
    d2: dora(from: $from, to: $to) { deployCount } d3: dora(from: $from, to: $to) { deployCount }
    d4: dora(from: $from, to: $to) { deployCount } d5: dora(from: $from, to: $to) { deployCount }
    d6: dora(from: $from, to: $to) { deployCount } d7: dora(from: $from, to: $to) { deployCount }
    d8: dora(from: $from, to: $to) { deployCount } d9: dora(from: $from, to: $to) { deployCount }
    d10: dora(from: $from, to: $to) { deployCount } d11: dora(from: $from, to: $to) { deployCount }
    d12: dora(from: $from, to: $to) { deployCount } d13: dora(from: $from, to: $to) { deployCount }
    d14: dora(from: $from, to: $to) { deployCount } d15: dora(from: $from, to: $to) { deployCount }
    dora(from: $from, to: $to) { deployCount }
  }
`);
const WORST_OPEN_INCIDENT = graphql(`
  mutation WorstOpenIncident($serviceId: ID!) { openIncident(serviceId: $serviceId, title: "down") { id suspects { rank } } }
`);

const DEPLOYS = 30;
const INCIDENTS = 25;

const hookline = useHookline({ environment: { ROLE: 'api', INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
let incidentId: string;

beforeAll(async () => {
  const hourAgo = Date.now() - 3600_000;
  for (let n = 0; n < DEPLOYS; n++) {
    const deployedAt = new Date(hourAgo + n * 60_000).toISOString();
    const commits = Array.from({ length: 5 }, (_, c) => ({ sha: `c${n}-${c}`, timestamp: deployedAt }));
    expect(
      (await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: `sha-${n}`, deployed_at: deployedAt, commits }))
        .status,
    ).toBe(200);
  }
  // DORA reads whole UTC days from the daily figures a worker folds (this app only serves the
  // API): in a run just after midnight UTC, the hour of deploys reaches into such a day.
  await hookline.startApp({ ROLE: 'worker' });
  await rollbacksJudged(hookline.app);
  for (let n = 0; n < INCIDENTS; n++) {
    const opened = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WORST_OPEN_INCIDENT, { serviceId: hookline.tenant.serviceId }),
    );
    incidentId = opened.openIncident.id;
  }
});

describe('bounded lists', () => {
  it(`keeps the top ${LIST_BOUNDS.suspects} suspects of an incident, by rank`, async () => {
    const opened = dataOf(
      await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WORST_OPEN_INCIDENT, { serviceId: hookline.tenant.serviceId }),
    );
    expect(opened.openIncident.suspects.map((suspect) => suspect.rank)).toEqual(
      Array.from({ length: LIST_BOUNDS.suspects }, (_, n) => n + 1),
    );
  });

  it('declares a maximum for every list field, which the complexity estimate uses', () => {
    const unbounded: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        if (!isListType(isNonNullType(field.type) ? field.type.ofType : field.type)) continue;
        const isConnectionEdges = field.name === 'edges' && connectionNodeType(type as GraphQLOutputType) !== undefined;
        const complexity = field.extensions?.complexity as { multiplier?: unknown } | undefined;
        if (!isConnectionEdges && typeof complexity?.multiplier !== 'number')
          unbounded.push(`${type.name}.${field.name}: [${getNamedType(field.type).name}]`);
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe('the worst queries the limits let through', () => {
  it('answers the nested suspects query with at most the bounds of rows, within the complexity limit', async () => {
    const { complexity } = complexityFromQuery(print(WORST_SUSPECTS), { schema, variables: { id: incidentId } });
    expect(complexity).toBeLessThanOrEqual(QUERY_LIMITS.complexity);

    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WORST_SUSPECTS, { id: incidentId });
    const suspects = dataOf(response).incident!.suspects;
    const suspectIn = suspects.flatMap((suspect) => suspect.deploy!.suspectIn);
    const leaves = suspectIn.flatMap((entry) => entry.incident.suspects);
    // The bounds are reached, not merely respected: the data has more of each.
    expect(suspects).toHaveLength(LIST_BOUNDS.suspects);
    expect(Math.max(...suspects.map((suspect) => suspect.deploy!.suspectIn.length))).toBe(LIST_BOUNDS.suspectIn);
    expect(leaves.length).toBeLessThanOrEqual(LIST_BOUNDS.suspects * LIST_BOUNDS.suspectIn * LIST_BOUNDS.suspects);
    expect(leaves.length).toBeGreaterThan(LIST_BOUNDS.suspects * LIST_BOUNDS.suspectIn * LIST_BOUNDS.suspects * 0.5);
  });

  it('refuses one level more of the same chain as too complex', async () => {
    const deeper = `query { incident(id: "${incidentId}") { suspects { deploy { suspectIn { incident { suspects { deploy { suspectIn { incident { id } } } } } } } } } }`;
    const response = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ query: deeper }),
    });
    const body = (await response.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]!.extensions).toEqual(expect.objectContaining({ code: 'QUERY_TOO_COMPLEX', limit: 'complexity' }));
  });

  it(`answers ${QUERY_LIMITS.aliases + 1} dora fields (every alias allowed), each over the whole history`, async () => {
    const variables = { from: new Date(Date.now() - 365 * 86400_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
    const { complexity } = complexityFromQuery(print(WORST_DORA), { schema, variables });
    expect(complexity).toBeLessThanOrEqual(QUERY_LIMITS.complexity);
    const response = await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, WORST_DORA, variables);
    expect(dataOf(response).d15.deployCount).toBe(DEPLOYS);

    // One alias more is refused before anything runs.
    const aliased = Array.from({ length: QUERY_LIMITS.aliases + 1 }, (_, n) => `d${n}: dora(from: $from, to: $to) { deployCount }`);
    const answer = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ query: `query ($from: DateTime!, $to: DateTime!) { ${aliased.join(' ')} }`, variables }),
    });
    const refused = (await answer.json()) as { data?: unknown; errors?: unknown[] };
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: `Query is too complex: its number of aliases is 16, at most ${QUERY_LIMITS.aliases} is allowed. Select fewer nested fields or smaller pages (first), or split the query.`,
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'aliases', value: 16, max: QUERY_LIMITS.aliases },
      }),
    ]);
  });
});
