// What `npm start` prints, as its user sees it: a short human format on a terminal, JSON lines
// otherwise or with LOG_FORMAT=json; requests only at LOG_LEVEL=debug; no token in either format.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../src/db/admin.ts';
import { eventually } from './support/receiver.ts';
import { startHooklineProcess, type WorkerProcess } from './support/worker-process.ts';
import { useHookline } from './support/fixture.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/**
 * A block of the README's quick start showing printed lines, each line as a pattern: an
 * example cut short with `…` (`1ad4654b-…`) stands for what differs from run to run, the
 * README's address for any loopback one, and its clock time for any.
 */
function readmeOutput(firstLine: string): RegExp[] {
  const start = README.indexOf(`\n\`\`\`\n${firstLine}`);
  expect(start, `a README block starting with ${firstLine}`).toBeGreaterThan(-1);
  const block = README.slice(start + 5, README.indexOf('\n```', start + 5));
  return block.split('\n').map((line) => {
    const pattern = line
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/[0-9A-Za-z-]*…/g, '.*')
      .replace('http://127\\.0\\.0\\.1:4000', 'http://127\\.0\\.0\\.1:\\d+')
      .replace('\\[14:02:15\\]', '\\[\\d\\d:\\d\\d:\\d\\d\\]');
    return new RegExp(`^${pattern}$`);
  });
}

// The app only creates the organization and service whose tokens the requests below carry.
const fixture = useHookline({ environment: { ROLE: 'api' } });
const started: WorkerProcess[] = [];

beforeAll(async () => {
  await fixture.running.close();
});

afterAll(async () => {
  await Promise.all(started.map((hookline) => hookline.stop('SIGKILL')));
});

function start(environment: Record<string, string>, options: { terminal?: boolean; databaseUrl?: string } = {}): WorkerProcess {
  const hookline = startHooklineProcess('api', options.databaseUrl ?? fixture.database.url, environment, 'api', options);
  started.push(hookline);
  return hookline;
}

/** Requests carrying both kinds of secret: an API token (GraphQL) and a deploy token (ingest). */
async function sendRequestsWithTokens(address: string): Promise<void> {
  const graphql = await fetch(`${address}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.tenant.apiToken}` },
    body: JSON.stringify({ query: '{ viewer { name } }' }),
  });
  expect(graphql.status).toBe(200);
  const ingest = await fetch(`${address}/api/ingest/deploy/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-deploy-token': fixture.tenant.deployToken },
    body: JSON.stringify({ commit_sha: 'a1b2c3d' }),
  });
  expect(ingest.status).toBe(200);
}

/** Stops the process with SIGTERM and waits for its last line. */
async function stopCleanly(hookline: WorkerProcess): Promise<string> {
  await hookline.stop('SIGTERM');
  expect(hookline.child.exitCode).toBe(0);
  expect(hookline.output()).toContain('Stopped cleanly');
  return hookline.output();
}

function expectNoSecrets(output: string): void {
  expect(output).not.toContain(fixture.tenant.apiToken);
  expect(output).not.toContain(fixture.tenant.deployToken);
  expect(output).not.toMatch(/hla_[0-9A-Za-z]{40}|hld_[0-9A-Za-z]{40}/);
}

/** The printed lines, without the warning a Node.js older than supported gets. */
function printedLines(output: string): string[] {
  return output.split('\n').filter((line) => line !== '' && !line.startsWith('Warning: Hookline supports Node.js'));
}

/** The lines of the output that are log records in JSON (the rest are plain start-up lines). */
function jsonRecords(output: string): { level: number; msg: string; [key: string]: unknown }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('LOG_FORMAT=json', () => {
  it('at info: start-up lines and JSON records, no request logged, no secret', async () => {
    const hookline = start({ LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    const output = await stopCleanly(hookline);

    const records = jsonRecords(output);
    // The shutdown announcement is an info record, so JSON records at info are written.
    expect(records).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'Shutting down: requests in flight finish, new ones get 503' }),
    );
    expect(records.filter((record) => record.level < 30)).toEqual([]);
    expect(output).not.toMatch(/incoming request|request completed|Server listening at/);
    expect(printedLines(output).filter((line) => !line.startsWith('{'))).toEqual([
      `Hookline listening on ${address}`,
      'SIGTERM received: finishing requests in flight, then stopping',
      'Stopped cleanly',
    ]);
    expectNoSecrets(output);
  });

  it('at debug: every request as a JSON record at level 20 (debug), without its tokens', async () => {
    const hookline = start({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    const output = await stopCleanly(hookline);

    const requestRecords = jsonRecords(output).filter((record) => ['incoming request', 'request completed'].includes(record.msg));
    expect(
      requestRecords.map((record) => [
        record.level,
        record.msg,
        (record.req as { url?: string } | undefined)?.url ?? (record.res as { statusCode: number }).statusCode,
      ]),
    ).toEqual([
      [20, 'incoming request', '/graphql'],
      [20, 'request completed', 200],
      [20, 'incoming request', '/api/ingest/deploy/test'],
      [20, 'request completed', 200],
    ]);
    // Fastify's own address announcement repeats "Hookline listening on": debug only.
    expect(jsonRecords(output)).toContainEqual(expect.objectContaining({ level: 20, msg: `Server listening at ${address}` }));
    expectNoSecrets(output);
  });
});

describe('errors in the log', () => {
  /** A GraphQL request as any client sends it: `token` null for none. */
  const graphql = (address: string, query: string, token: string | null = fixture.tenant.apiToken) =>
    fetch(`${address}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query }),
    }).then(async (response) => ({ status: response.status, body: await response.json() }));
  const rest = (address: string, path: string, headers: Record<string, string>, body: string) =>
    fetch(`${address}${path}`, { method: 'POST', headers, body }).then((response) => response.status);
  /** Records other than Fastify's per-request lines. */
  const errorRecords = (output: string) =>
    jsonRecords(output).filter((record) => !['incoming request', 'request completed'].includes(record.msg));

  it("client mistakes at debug, one short record each without a stack; the server's own failures at error with their stack", async () => {
    const hookline = start({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' });
    const address = await hookline.ready;

    const missing = randomUUID();
    const mistakes = [
      await graphql(address, `mutation { retryDelivery(id: "${missing}") { id } }`),
      await graphql(address, '{ deliveries(filter: {from: "0000-01-01T00:00:00Z"}) { totalCount } }'),
      await graphql(address, '{ viewer { id } }', null),
      await graphql(address, '{ viewer { id '),
    ];
    expect(mistakes.map(({ body }) => body.errors[0].extensions.code)).toEqual([
      'NOT_FOUND',
      'BAD_USER_INPUT',
      'UNAUTHENTICATED',
      'GRAPHQL_PARSE_FAILED',
    ]);
    expect([
      await rest(address, '/api/nothing-here', {}, ''),
      await rest(
        address,
        '/api/ingest/deploy/test',
        { 'content-type': 'application/json', 'x-deploy-token': fixture.tenant.deployToken },
        '{"commit_sha": 5}',
      ),
      await rest(
        address,
        '/api/ingest/deploy/test',
        { 'content-type': 'application/json', 'x-deploy-token': `hld_${'0'.repeat(40)}` },
        '{}',
      ),
      await rest(
        address,
        '/api/webhooks/endpoints',
        { 'content-type': 'text/plain', authorization: `Bearer ${fixture.tenant.apiToken}` },
        'x',
      ),
    ]).toEqual([404, 400, 401, 415]);
    await eventually(async () => (/"statusCode":415/.test(hookline.output()) ? true : undefined), 5000, 'the last mistake logged');

    const fromMistakes = errorRecords(hookline.output());
    expect(fromMistakes.filter((record) => record.level > 20 || 'err' in record || /\n\s+at /.test(JSON.stringify(record)))).toEqual([]);
    expect(fromMistakes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 20, code: 'NOT_FOUND', msg: `Delivery ${missing} not found` }),
        expect.objectContaining({
          level: 20,
          code: 'BAD_USER_INPUT',
          msg: 'filter.from must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z',
        }),
        expect.objectContaining({ level: 20, code: 'not_found', statusCode: 404, msg: 'No route for POST /api/nothing-here' }),
        expect.objectContaining({ level: 20, code: 'validation_failed', statusCode: 400 }),
        expect.objectContaining({ level: 20, code: 'invalid_deploy_token', statusCode: 401 }),
        expect.objectContaining({ level: 20, code: 'unsupported_media_type', statusCode: 415 }),
      ]),
    );

    // A fault of the server: a table it needs is gone.
    await adminQuery(fixture.database.url, 'ALTER TABLE webhook_endpoints RENAME TO webhook_endpoints_away');
    try {
      const failed = await graphql(address, '{ webhookEndpoints { edges { node { id } } } }');
      expect(failed.body.errors[0]).toEqual(
        expect.objectContaining({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
      );
      const created = await rest(
        address,
        '/api/webhooks/endpoints',
        { 'content-type': 'application/json', authorization: `Bearer ${fixture.tenant.apiToken}` },
        JSON.stringify({ url: 'https://hooks.example.com/logging', name: 'logging' }),
      );
      expect(created).toBe(500);
    } finally {
      await adminQuery(fixture.database.url, 'ALTER TABLE webhook_endpoints_away RENAME TO webhook_endpoints');
    }
    await eventually(
      async () => (errorRecords(hookline.output()).filter((record) => record.level === 50).length === 2 ? true : undefined),
      5000,
      'both faults logged',
    );
    const faults = errorRecords(hookline.output()).filter((record) => record.level === 50);
    for (const fault of faults) expect((fault.err as { stack: string }).stack).toMatch(/webhook_endpoints.*does not exist[\s\S]*\n\s+at /);
    await stopCleanly(hookline);
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('at debug: one short human line per record, requests included, no JSON and no secret', async () => {
    const hookline = start({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    const output = await stopCleanly(hookline);

    expect(output).not.toMatch(/^\{/m);
    expect(output).toMatch(
      /^\[\d\d:\d\d:\d\d\] DEBUG: incoming request \{"reqId":"req-2","req":\{"method":"POST","url":"\/api\/ingest\/deploy\/test",.*\}\}$/m,
    );
    expect(output).toMatch(
      /^\[\d\d:\d\d:\d\d\] DEBUG: request completed \{"reqId":"req-2","res":\{"statusCode":200\},"responseTime":[\d.]+\}$/m,
    );
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Shutting down: requests in flight finish, new ones get 503$/m);
    expectNoSecrets(output);
  });

  it("at info (the default level): the start-up lines, then Ctrl-C's as the README shows them", async () => {
    const hookline = start({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    await hookline.stop('SIGINT');
    expect(hookline.child.exitCode).toBe(0);

    const lines = printedLines(hookline.output());
    expect(lines[0]).toBe(`Hookline listening on ${address}`);
    const stopping = readmeOutput('SIGINT received');
    expect(lines.slice(1)).toEqual(stopping.map((pattern) => expect.stringMatching(pattern)));
  });
});

/** What a terminal shows, without colours and carriage returns. */
const onScreen = (hookline: WorkerProcess) => stripVTControlCharacters(hookline.output()).replaceAll('\r\n', '\n');

describe('LOG_FORMAT=auto (the default)', () => {
  it("prints on a terminal, first start on an empty database, the README's quick-start lines", async () => {
    const empty = await fixture.createDatabase({ migrated: false });
    try {
      const hookline = start({ LOG_LEVEL: 'info' }, { terminal: true, databaseUrl: empty.url });
      const address = await hookline.ready;
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
      await hookline.stop('SIGTERM');

      // The README starts with the embedded PostgreSQL's line; this process has DATABASE_URL.
      const [embedded, ...withDatabaseUrl] = readmeOutput('DATABASE_URL is not set');
      expect(embedded!.source).toMatch(/^\^DATABASE_URL is not set/);
      expect(printedLines(onScreen(hookline)).slice(0, withDatabaseUrl.length)).toEqual(
        withDatabaseUrl.map((pattern) => expect.stringMatching(pattern)),
      );
    } finally {
      await empty.drop();
    }
  });

  it('is pretty on a terminal', async () => {
    const hookline = start({ LOG_LEVEL: 'debug' }, { terminal: true });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    // Requests are logged once they complete: wait for the last one's record.
    await eventually(
      async () => (/DEBUG: request completed \{"reqId":"req-2"/.test(onScreen(hookline)) ? true : undefined),
      5000,
      'the last request logged',
    );
    const output = onScreen(hookline);
    await hookline.stop('SIGTERM');

    expect(output).toMatch(
      /^\[\d\d:\d\d:\d\d\] DEBUG: incoming request \{"reqId":"req-2","req":\{"method":"POST","url":"\/api\/ingest\/deploy\/test",.*\}\}$/m,
    );
    expect(output).not.toMatch(/"level"/);
    expectNoSecrets(output);
  });

  it('is JSON when the output is not a terminal', async () => {
    const hookline = start({ LOG_LEVEL: 'debug' });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    const output = await stopCleanly(hookline);

    expect(jsonRecords(output)).toContainEqual(expect.objectContaining({ level: 20, msg: 'incoming request' }));
    expect(output).not.toMatch(/DEBUG: incoming request/);
  });
});
