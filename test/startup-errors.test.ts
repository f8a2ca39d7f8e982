// What a person starting Hookline sees when start-up cannot succeed: one line saying what is
// wrong and what to do, exit code 1, no stack trace, and nothing created on the way.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { checkNodeVersion, SUPPORTED_NODE } from '../src/node-version.ts';
import type { TestDatabase } from './support/database.ts';
import { runHooklineToExit, startHooklineProcess, type Finished, type WorkerProcess } from './support/worker-process.ts';
import { useHookline } from './support/fixture.ts';
import { runProgram } from './support/programs.ts';

const fixture = useHookline({ database: false });

/** stderr without the Node.js version warning (printed on a Node.js older than supported). */
/** The hookline CLI (bin/hookline.js) run to its end, with only PATH and `environment` (no DATABASE_URL: the embedded database). */
function runCliToExit(args: string[], environment: Record<string, string>) {
  const bin = new URL('../bin/hookline.js', import.meta.url).pathname;
  return runProgram(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...environment }, timeout: 60_000 });
}

function errorLines({ stderr }: Finished): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('Warning: Hookline supports Node.js'));
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('start-up failures', () => {
  it('a port in use: one line, exit 1, and no organization or token created', async () => {
    const database: TestDatabase = await fixture.createDatabase();
    cleanups.push(() => database.drop());
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => taken.close(resolve)));
    const { port } = taken.address() as { port: number };

    const finished = await runHooklineToExit({ DATABASE_URL: database.url, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' });

    expect(finished.code).toBe(1);
    expect(errorLines(finished)).toEqual([
      `Port ${port} on 127.0.0.1 is already in use: stop the program using it, or set PORT to a free port.`,
    ]);
    expect(finished.stdout).not.toMatch(/hla_|API token/);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM organizations');
    await client.end();
    expect(rows[0]!.count).toBe(0);
  });

  it('DATABASE_URL naming a database that does not exist', async () => {
    const url = new URL(inject('adminUrl'));
    url.pathname = '/hookline_no_such_database';
    const finished = await runHooklineToExit({ DATABASE_URL: url.toString(), HOST: '127.0.0.1', PORT: '0' });
    expect(finished.code).toBe(1);
    expect(errorLines(finished)).toEqual([
      `Database "hookline_no_such_database" does not exist on ${url.hostname}:${url.port || '5432'}/hookline_no_such_database (DATABASE_URL): ` +
        'create it (createdb hookline_no_such_database), or set DATABASE_URL to an existing database.',
    ]);
  });

  it('DATABASE_URL naming a server that is not there', async () => {
    const port = await freePort();
    const finished = await runHooklineToExit({
      DATABASE_URL: `postgresql://hookline:secret@127.0.0.1:${port}/hookline`,
      HOST: '127.0.0.1',
      PORT: '0',
    });
    expect(finished.code).toBe(1);
    expect(errorLines(finished)).toEqual([
      `Cannot connect to PostgreSQL at 127.0.0.1:${port}/hookline (DATABASE_URL): connection refused. ` +
        'Start PostgreSQL there, or set DATABASE_URL to a running server.',
    ]);
    // The password is never shown.
    expect(finished.stdout + finished.stderr).not.toContain('secret');
  });

  it('a second start on the same embedded data directory, while the first runs', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hookline-twice-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first: WorkerProcess = startHooklineProcess('all', undefined, { HOOKLINE_DATA_DIR: dataDir }, 'first npm start');
    cleanups.push(() => first.stop());
    const address = await first.ready;

    const finished = await runHooklineToExit({ HOOKLINE_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' }, 60_000);

    expect(finished.code).toBe(1);
    const lines = errorLines(finished);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^The embedded PostgreSQL data directory ${dataDir}/ is in use \\(PostgreSQL pid \\d+\\), probably by another Hookline: ` +
          'stop it, or set HOOKLINE_DATA_DIR to another directory \\(or DATABASE_URL to a PostgreSQL server\\)\\.$',
      ),
    );
    // The first one is unharmed.
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
  });

  it('hookline tokens create while npm start runs on the embedded database: uses that database, and the token works there', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hookline-cli-beside-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server: WorkerProcess = startHooklineProcess('all', undefined, { HOOKLINE_DATA_DIR: dataDir }, 'npm start');
    cleanups.push(() => server.stop());
    const address = await server.ready;
    const organizations = await runCliToExit(['orgs', 'list', '--json'], { HOOKLINE_DATA_DIR: dataDir });
    expect(organizations.code).toBe(0);
    const [organization] = JSON.parse(organizations.stdout) as { id: string }[];
    const created = await runCliToExit(['tokens', 'create', '--org', organization!.id, '--json'], { HOOKLINE_DATA_DIR: dataDir });
    expect(created.code).toBe(0);
    const { apiToken } = JSON.parse(created.stdout) as { apiToken: string };
    const viewer = await fetch(`${address}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ query: '{ viewer { name } }' }),
    });
    expect(await viewer.json()).toEqual({ data: { viewer: { name: 'default' } } });
    // The server's PostgreSQL was borrowed, not stopped.
    expect((await fetch(`${address}/readyz`)).status).toBe(200);
  });
});

describe('Node.js version', () => {
  it(`warns on a Node.js outside ${SUPPORTED_NODE}, and only then`, () => {
    const warnings: string[] = [];
    checkNodeVersion((message) => warnings.push(message), 'v20.20.2');
    checkNodeVersion((message) => warnings.push(message), 'v22.15.0');
    checkNodeVersion((message) => warnings.push(message), 'v24.1.0');
    expect(warnings).toEqual([
      `Warning: Hookline supports Node.js ${SUPPORTED_NODE} (what its dependencies declare); this is v20.20.2. It may work, but is not supported: upgrade Node.js.`,
    ]);
  });
});
