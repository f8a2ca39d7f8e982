// One organization's flood of GraphQL queries cannot take the database away from the others: its
// operations run at most GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION at a time, hold at most
// DATABASE_MAX_CONNECTIONS_PER_ORGANIZATION of the pool's connections, and the rest of its flood is
// refused after GRAPHQL_OPERATION_WAIT_MS with 429 TOO_MANY_OPERATIONS and Retry-After. Statements
// of API requests are cancelled after API_STATEMENT_TIMEOUT_MS (503 STATEMENT_TIMEOUT /
// statement_timeout); background work has no such limit.
//
// The flood is made to hold its connections as long as the test wants: a transaction outside the
// app locks the deliveries table, so every `deliveries` query waits on a connection until it ends.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { connectPool } from '../src/db/pool.ts';
import { inRequestScope } from '../src/db/request-scope.ts';
import { createApiToken } from '../src/domain/shared/api-tokens.ts';
import { post, postDeploy, type HttpResult } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const OPERATIONS = 4;
const CONNECTIONS = 3;

const hookline = useHookline({
  environment: {
    ROLE: 'api',
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION: String(OPERATIONS),
    DATABASE_MAX_CONNECTIONS_PER_ORGANIZATION: String(CONNECTIONS),
    GRAPHQL_OPERATION_WAIT_MS: '200',
  },
});

const FLOOD_QUERY = `{ ${Array.from({ length: 15 }, (_, index) => `d${index}: deliveries(first: 5) { edges { node { id } } }`).join(' ')} }`;

function graphql(baseUrl: string, apiToken: string, query: string): Promise<HttpResult> {
  return post(`${baseUrl}/graphql`, {
    body: JSON.stringify({ query }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
  });
}

/** A transaction outside the app holding the deliveries table: reads of it wait until `release`. */
async function lockTable(databaseUrl: string, table: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  let released: Promise<void> | undefined;
  const release = () =>
    (released ??= (async () => {
      await client.query('ROLLBACK');
      await client.end();
    })());
  hookline.onClose(release);
  return { release };
}

/** Statements of the app's database waiting for `table`'s lock. */
async function waitingFor(databaseUrl: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted AND relation = $1::regclass`, [
      table,
    ]);
    return rows[0].waiting;
  } finally {
    await client.end();
  }
}

const REFUSAL = {
  errors: [
    {
      message: `Too many GraphQL operations at once: an organization may run ${OPERATIONS} at a time; retry in 1 s`,
      extensions: { code: 'TOO_MANY_OPERATIONS', max: OPERATIONS, retryAfterSeconds: 1 },
    },
  ],
};

describe('an organization flooding GraphQL', () => {
  it('holds no more than its share: another organization queries and ingests meanwhile, the excess is refused with 429 and Retry-After', async () => {
    const flooder = await hookline.createTenant();
    const other = hookline.tenant;
    const lock = await lockTable(hookline.database.url, 'deliveries');

    const answers: HttpResult[] = [];
    const flood = Array.from({ length: 20 }, () =>
      graphql(hookline.baseUrl, flooder.apiToken, FLOOD_QUERY).then((answer) => {
        answers.push(answer);
        return answer;
      }),
    );
    // The flooder's admitted operations each hold a connection, waiting on the lock; no more than its share.
    await eventually(
      async () => ((await waitingFor(hookline.database.url, 'deliveries')) >= CONNECTIONS ? true : undefined),
      20_000,
      'the flood holding its connections',
    );

    const query = await graphql(hookline.baseUrl, other.apiToken, '{ services(first: 5) { edges { node { name } } } }');
    expect(query.status).toBe(200);
    expect(query.body).toEqual({ data: { services: { edges: [{ node: { name: 'checkout' } }] } } });
    const ingest = await postDeploy(hookline.baseUrl, other.deployToken, { commit_sha: 'a1b2c3d' });
    expect(ingest.status).toBe(200);
    expect(ingest.body).toMatchObject({ status: 'accepted' });

    // Every operation past the ones admitted is refused while those still wait on the lock.
    await eventually(async () => (answers.length >= 20 - OPERATIONS ? true : undefined), 20_000, 'the excess refused');
    expect(await waitingFor(hookline.database.url, 'deliveries')).toBeLessThanOrEqual(CONNECTIONS);
    expectRefused(answers);

    await lock.release();
    const admitted = (await Promise.all(flood)).filter((answer) => answer.status === 200);
    expect(admitted).toHaveLength(OPERATIONS);
    for (const answer of admitted) expect(answer.body.errors).toBeUndefined();
  });

  it("refuses a token's request past its share before reading its body, as cheaply as a REST 429", async () => {
    const flooder = await hookline.createTenant();
    const lock = await lockTable(hookline.database.url, 'deliveries');
    const admitted = Array.from({ length: OPERATIONS }, () => graphql(hookline.baseUrl, flooder.apiToken, FLOOD_QUERY));
    await eventually(
      async () => ((await waitingFor(hookline.database.url, 'deliveries')) >= CONNECTIONS ? true : undefined),
      20_000,
      'the admitted operations holding their connections',
    );
    // Neither JSON nor a GraphQL document: only a refusal made before the body is read answers 429.
    const refused = await post(`${hookline.baseUrl}/graphql`, {
      body: '{ not json',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${flooder.apiToken}` },
    });
    expectRefused([refused]);
    await lock.release();
    for (const answer of await Promise.all(admitted)) expect(answer.status).toBe(200);
  });

  it("counts an organization's operations whatever API tokens they come with", async () => {
    const flooder = await hookline.createTenant();
    const tokens = [
      flooder.apiToken,
      ...(await Promise.all([1, 2].map(() => createApiToken(hookline.app.database.prisma, flooder.organizationId)))),
    ];
    const lock = await lockTable(hookline.database.url, 'deliveries');
    const answers: HttpResult[] = [];
    const flood = tokens.flatMap((token) =>
      Array.from({ length: 3 }, () =>
        graphql(hookline.baseUrl, token, FLOOD_QUERY).then((answer) => {
          answers.push(answer);
          return answer;
        }),
      ),
    );
    await eventually(async () => (answers.length >= 3 * tokens.length - OPERATIONS ? true : undefined), 20_000, 'the excess refused');
    expect(await waitingFor(hookline.database.url, 'deliveries')).toBeLessThanOrEqual(CONNECTIONS);
    expectRefused(answers);
    await lock.release();
    expect((await Promise.all(flood)).filter((answer) => answer.status === 200)).toHaveLength(OPERATIONS);
  });
});

describe('an organization flooding GraphQL, held to one operation at a time', () => {
  /** Keeps `inFlight` of FLOOD_QUERY in flight with each of `apiTokens` (each answered one sent again) until stopped. */
  function keepFlooding(apiTokens: string[], inFlight: number) {
    let flooding = true;
    const answers: HttpResult[] = [];
    const senders = apiTokens.flatMap((apiToken) =>
      Array.from({ length: inFlight }, async () => {
        while (flooding) answers.push(await graphql(hookline.baseUrl, apiToken, FLOOD_QUERY));
      }),
    );
    return {
      answers,
      refused: () => answers.filter((answer) => answer.status === 429).length,
      async stop() {
        flooding = false;
        await Promise.all(senders);
      },
    };
  }

  // Refused asking for twice its share: one API token (held at the door, by its credential), or
  // three tokens each within its own share but together past the organization's.
  it.each([
    { flood: 'one API token', tokens: 1, inFlight: 3 * OPERATIONS },
    { flood: 'three API tokens', tokens: 3, inFlight: OPERATIONS },
  ])(
    'runs one operation at a time on one connection once refused asking for twice its share ($flood), while another organization runs on its whole share',
    async ({ tokens, inFlight }) => {
      const flooder = await hookline.createTenant();
      const flooderTokens = [
        flooder.apiToken,
        ...(await Promise.all(
          Array.from({ length: tokens - 1 }, () => createApiToken(hookline.app.database.prisma, flooder.organizationId)),
        )),
      ];
      const other = hookline.tenant;
      let lock = await lockTable(hookline.database.url, 'deliveries');
      const flood = keepFlooding(flooderTokens, inFlight);
      try {
        // Its first operations are admitted and wait on the lock, as many as its connections; the rest are refused.
        await eventually(
          async () => ((await waitingFor(hookline.database.url, 'deliveries')) >= CONNECTIONS && flood.refused() > 0 ? true : undefined),
          20_000,
          'the flood holding its connections and refused',
        );

        // The operations admitted before it was held end (no other starts until they all have);
        // while it goes on being refused, the next ones run one at a time, and the 15 fields of
        // each read one after another, on one connection.
        await lock.release();
        await eventually(
          async () => (flood.answers.filter((answer) => answer.status === 200).length >= OPERATIONS ? true : undefined),
          20_000,
          'the operations admitted before the hold answered',
        );
        lock = await lockTable(hookline.database.url, 'deliveries');
        await eventually(
          async () => ((await waitingFor(hookline.database.url, 'deliveries')) >= 1 ? true : undefined),
          20_000,
          'one waiting',
        );
        const refusedBefore = flood.refused();
        await eventually(
          async () => (flood.refused() >= refusedBefore + 2 * OPERATIONS ? true : undefined),
          20_000,
          'the flood refused again with the table locked',
        );
        expect(await waitingFor(hookline.database.url, 'deliveries')).toBe(1);

        // Another organization's operation of 15 fields reads on all its share of the connections beside it.
        const others = graphql(hookline.baseUrl, other.apiToken, FLOOD_QUERY);
        await eventually(
          async () => ((await waitingFor(hookline.database.url, 'deliveries')) === 1 + CONNECTIONS ? true : undefined),
          20_000,
          'both waiting',
        );

        await lock.release();
        expect((await others).status).toBe(200);
      } finally {
        await lock.release();
        await flood.stop();
      }
      expectRefused(flood.answers.filter((answer) => answer.status !== 200));
    },
  );
});

/** Each answer is the refusal of an operation past the organization's share: 429, Retry-After 1. */
function expectRefused(answers: HttpResult[]) {
  for (const refused of answers) {
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual(REFUSAL);
  }
}

describe('statement timeout', () => {
  let app: Awaited<ReturnType<typeof hookline.startApp>> | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('cancels a statement of a query or an ingest past API_STATEMENT_TIMEOUT_MS: 503 with Retry-After, not a 500', async () => {
    app = await hookline.startApp({ ROLE: 'api', INGEST_RATE_LIMIT_PER_MINUTE: 'off', API_STATEMENT_TIMEOUT_MS: '300' });
    const lock = await lockTable(hookline.database.url, 'deliveries');
    const query = await graphql(app.baseUrl, hookline.tenant.apiToken, '{ deliveries(first: 5) { edges { node { id } } } }');
    expect(query.status).toBe(503);
    expect(query.headers.get('retry-after')).toBe('1');
    expect(query.body.errors).toEqual([
      expect.objectContaining({
        message: 'A database statement ran past the statement timeout and was cancelled; ask for less, or retry in 1 s',
        extensions: { code: 'STATEMENT_TIMEOUT' },
      }),
    ]);
    await lock.release();

    const deploysLock = await lockTable(hookline.database.url, 'deploys');
    const ingest = await postDeploy(app.baseUrl, hookline.tenant.deployToken, { commit_sha: 'b2c3d4e' });
    await deploysLock.release();
    expect(ingest.status).toBe(503);
    expect(ingest.headers.get('retry-after')).toBe('1');
    expect(ingest.body).toEqual({
      error: {
        code: 'statement_timeout',
        message: 'A database statement ran past the statement timeout and was cancelled; ask for less, or retry in 1 s',
      },
    });
  });

  it('applies to requests only: the same connection serves background work without it', async () => {
    const pool = connectPool(hookline.database.url, { maxConnections: 1 });
    try {
      const timeoutNow = async () => (await pool.query('SHOW statement_timeout')).rows[0].statement_timeout;
      expect(await inRequestScope({ statementTimeoutMs: 250 }, timeoutNow)).toBe('250ms');
      expect(await timeoutNow()).toBe('0');
      expect(await inRequestScope({ statementTimeoutMs: 250 }, timeoutNow)).toBe('250ms');
    } finally {
      await pool.end();
    }
  });
});
