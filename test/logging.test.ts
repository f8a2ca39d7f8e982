// What `npm start` prints, as its user sees it: a short human format on a terminal, JSON lines
// otherwise or with LOG_FORMAT=json; requests only at LOG_LEVEL=debug; no token in either format.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { createTenant, startApp, type RunningApp, type Tenant } from './support/app.ts';
import { startHooklineProcess, type WorkerProcess } from './support/worker-process.ts';

let database: TestDatabase;
let setup: RunningApp;
let tenant: Tenant;
const started: WorkerProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Only to create the organization and service whose tokens the requests below carry.
  setup = await startApp(database.url, { ROLE: 'api' });
  tenant = await createTenant(setup.app);
  await setup.close();
});

afterAll(async () => {
  await Promise.all(started.map((hookline) => hookline.stop('SIGKILL')));
  await database?.drop();
});

function start(environment: Record<string, string>, options: { terminal?: boolean } = {}): WorkerProcess {
  const hookline = startHooklineProcess('api', database.url, environment, 'api', options);
  started.push(hookline);
  return hookline;
}

/** Requests carrying both kinds of secret: an API token (GraphQL) and a deploy token (ingest). */
async function sendRequestsWithTokens(address: string): Promise<void> {
  const graphql = await fetch(`${address}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
    body: JSON.stringify({ query: '{ viewer { name } }' }),
  });
  expect(graphql.status).toBe(200);
  const ingest = await fetch(`${address}/api/ingest/deploy/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-deploy-token': tenant.deployToken },
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
  expect(output).not.toContain(tenant.apiToken);
  expect(output).not.toContain(tenant.deployToken);
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
    expect(records).toContainEqual(expect.objectContaining({ level: 30, msg: 'Shutting down: requests in flight finish, new ones get 503' }));
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
    expect(requestRecords.map((record) => [record.level, record.msg, (record.req as { url?: string } | undefined)?.url ?? (record.res as { statusCode: number }).statusCode])).toEqual([
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

describe('LOG_FORMAT=pretty', () => {
  it('at debug: one short human line per record, requests included, no JSON and no secret', async () => {
    const hookline = start({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    const output = await stopCleanly(hookline);

    expect(output).not.toMatch(/^\{/m);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] DEBUG: incoming request \{"reqId":"req-2","req":\{"method":"POST","url":"\/api\/ingest\/deploy\/test",.*\}\}$/m);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] DEBUG: request completed \{"reqId":"req-2","res":\{"statusCode":200\},"responseTime":[\d.]+\}$/m);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Shutting down: requests in flight finish, new ones get 503$/m);
    expectNoSecrets(output);
  });

  it('at info (the default level): the start-up lines only', async () => {
    const hookline = start({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    const output = await stopCleanly(hookline);

    expect(printedLines(output)).toEqual([
      `Hookline listening on ${address}`,
      'SIGTERM received: finishing requests in flight, then stopping',
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: Shutting down: requests in flight finish, new ones get 503$/),
      'Stopped cleanly',
    ]);
  });
});

describe('LOG_FORMAT=auto (the default)', () => {
  it('is pretty on a terminal', async () => {
    const hookline = start({ LOG_LEVEL: 'debug' }, { terminal: true });
    const address = await hookline.ready;
    await sendRequestsWithTokens(address);
    // Requests are logged once they complete: wait for the last one's record.
    const deadline = Date.now() + 5000;
    while (!/incoming request[\s\S]*deploy\/test[\s\S]*request completed/.test(hookline.output()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const output = stripVTControlCharacters(hookline.output()).replaceAll('\r\n', '\n');
    await hookline.stop('SIGTERM');

    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] DEBUG: incoming request \{"reqId":"req-2","req":\{"method":"POST","url":"\/api\/ingest\/deploy\/test",.*\}\}$/m);
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
