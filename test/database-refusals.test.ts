// A database that is there but refuses work is a 503 with Retry-After, like one that is gone:
// a pool with no free connection (Prisma cannot start a transaction in time) and a database
// that refuses new connections (ALTER DATABASE … ALLOW_CONNECTIONS false, SQLSTATE 55000). REST
// answers `database_unavailable`, GraphQL `DATABASE_UNAVAILABLE`, never an internal error.
import { randomUUID } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery } from '../src/db/admin.ts';
import { graphql } from './gql/index.ts';
import { post, postDeploy } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const VIEWER = graphql(`
  query RefusalViewer { viewer { id } }
`);
const RETRY = graphql(`
  mutation RefusalRetry($id: ID!) { retryDelivery(id: $id) { id } }
`);

const UNAVAILABLE = 'The database is unavailable; retry in 5 s';

/** An operation over HTTP, with the headers of the answer. */
function postGraphql<TResult, TVariables>(document: TypedDocumentNode<TResult, TVariables>, variables?: TVariables) {
  return post(`${hookline.baseUrl}/graphql`, {
    body: JSON.stringify({ query: print(document), variables }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
  });
}

function expectUnavailable(response: Awaited<ReturnType<typeof post>>, body: unknown): void {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  expect(response.body).toEqual(body);
}

// `data` is null when a field failed, absent when the request did (its token could not be checked).
const UNAVAILABLE_GRAPHQL = expect.objectContaining({
  errors: [expect.objectContaining({ message: UNAVAILABLE, extensions: { code: 'DATABASE_UNAVAILABLE' } })],
});
const UNAVAILABLE_REST = { error: { code: 'database_unavailable', message: UNAVAILABLE } };

const hookline = useHookline({ environment: { ROLE: 'api', INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });

describe('a pool with no free connection', () => {
  it('a transaction that cannot start in time → 503 DATABASE_UNAVAILABLE with Retry-After', async () => {
    const pool = hookline.app.database.pool;
    const held: pg.PoolClient[] = await Promise.all(Array.from({ length: pool.options.max! }, () => pool.connect()));
    let competitor: Promise<pg.PoolClient> | undefined;
    try {
      const retried = postGraphql(RETRY, { id: randomUUID() });
      // The token check waits for a connection: hand it one, and queue behind it for the same
      // connection, so that the mutation's transaction then waits with nothing to get.
      await eventually(async () => (pool.waitingCount === 1 ? true : undefined), 10_000, 'the token check waiting');
      held.pop()!.release();
      competitor = pool.connect();
      expectUnavailable(await retried, UNAVAILABLE_GRAPHQL);
    } finally {
      held.forEach((client) => client.release());
      (await competitor)?.release();
    }
  });
});

describe('a database refusing connections (SQLSTATE 55000)', () => {
  const name = () => new URL(hookline.database.url).pathname.slice(1);

  beforeAll(async () => {
    await adminQuery(inject('adminUrl'), `ALTER DATABASE "${name()}" ALLOW_CONNECTIONS false`);
    await adminQuery(inject('adminUrl'), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name()}'`);
  });

  afterAll(async () => {
    await adminQuery(inject('adminUrl'), `ALTER DATABASE "${name()}" ALLOW_CONNECTIONS true`);
  });

  it('REST: ingest and endpoint creation → 503 database_unavailable with Retry-After: 5', async () => {
    const ingest = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'a1b2c3d' });
    const endpoint = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      body: JSON.stringify({ url: 'https://hooks.example.com/refused', name: 'refused' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    });
    expectUnavailable(ingest, UNAVAILABLE_REST);
    expectUnavailable(endpoint, UNAVAILABLE_REST);
  });

  it('GraphQL: a query and a mutation → 503 DATABASE_UNAVAILABLE with Retry-After: 5', async () => {
    expectUnavailable(await postGraphql(VIEWER), UNAVAILABLE_GRAPHQL);
    expectUnavailable(await postGraphql(RETRY, { id: randomUUID() }), UNAVAILABLE_GRAPHQL);
  });

  it('serves again as soon as connections are allowed', async () => {
    await adminQuery(inject('adminUrl'), `ALTER DATABASE "${name()}" ALLOW_CONNECTIONS true`);
    await eventually(async () => ((await postGraphql(VIEWER)).status === 200 ? true : undefined), 10_000, 'GraphQL serving again');
    expect((await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'a1b2c3d' })).status).toBe(200);
  });
});
