// `npm start` as a user runs it: a real process, its printed output, its signals.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './support/database.ts';
import { openRawConnection } from './support/http.ts';
import { HOOKLINE_PROGRAM } from './support/worker-process.ts';
import { useHookline } from './support/fixture.ts';

const fixture = useHookline({ database: false });

const root = path.resolve(import.meta.dirname, '..');

interface Started {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startHookline(environment: Record<string, string>): Started {
  const child = spawn(process.execPath, [HOOKLINE_PROGRAM], {
    cwd: root,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...environment },
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (!match) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`Timed out waiting for ${pattern}; output so far:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}

describe('npm start', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await fixture.createDatabase({ migrated: false });
  });
  afterAll(() => database?.drop());

  it('migrates an empty database, prints one API token once, serves, and stops cleanly on SIGTERM', async () => {
    const first = startHookline({ DATABASE_URL: database.url });
    const [, address] = await first.waitFor(/Hookline listening on (http:\/\/\S+)/);
    expect(first.output()).toMatch(/Applied migrations: \d{14}_init/);
    const [, apiToken] = first.output().match(/API token \(shown once, keep it safe\): (hla_[0-9A-Za-z]{40})/)!;
    // The owner's set-up link, on the address the start line names: completing it signs the first owner in.
    const [, setupUrl] = first.output().match(/Owner set-up link \(one use, valid 24 h\): (\S+)/)!;
    expect(setupUrl).toMatch(new RegExp(`^${address}/setup\\?token=[A-Za-z0-9_-]{43}$`));
    const setup = await fetch(`${address}/api/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: new URL(setupUrl!).searchParams.get('token'),
        email: 'first@example.com',
        name: 'First',
        password: 'a long enough password',
      }),
    });
    expect(setup.status).toBe(200);
    expect((await setup.json()).organizations).toEqual([{ id: expect.any(String), name: 'default', role: 'OWNER' }]);

    expect(await (await fetch(`${address}/readyz`)).json()).toEqual({ status: 'ready' });
    const viewer = await fetch(`${address}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ query: '{ viewer { name } }' }),
    });
    expect(await viewer.json()).toEqual({ data: { viewer: { name: 'default' } } });

    // A second process on the same database finds the organization and prints no token.
    const second = startHookline({ DATABASE_URL: database.url });
    await second.waitFor(/Hookline listening on/);
    expect(second.output()).not.toMatch(/API token|set-up link/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });

    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.output()).toContain('SIGTERM received: finishing requests in flight, then stopping');
    expect(first.output()).toContain('Stopped cleanly');
  });

  it('finishes a request in flight when SIGINT arrives, then exits', async () => {
    const hookline = startHookline({ DATABASE_URL: database.url, LOG_LEVEL: 'debug' });
    const [, address] = await hookline.waitFor(/Hookline listening on (http:\/\/\S+)/);
    // A request whose body is still arriving when the signal comes.
    let finishBody!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"commit_sha":'));
        finishBody = () => {
          controller.enqueue(new TextEncoder().encode('"abc"}'));
          controller.close();
        };
      },
    });
    const inFlight = fetch(`${address}/api/ingest/deploy/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-deploy-token': `hld_${'x'.repeat(40)}` },
      body,
      duplex: 'half',
    } as RequestInit);
    // Signal once the server has logged the request's arrival (its body still incomplete; debug).
    await hookline.waitFor(/"msg":"incoming request"/, 5000);
    hookline.child.kill('SIGINT');
    await hookline.waitFor(/SIGINT received/, 5000);
    finishBody();
    const response = await inFlight;
    expect(response.status).toBe(401);
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
  });

  it('answers 503 to requests that arrive once SIGTERM has begun the shutdown, on old and new connections, until the listener closes', async () => {
    const hookline = startHookline({ DATABASE_URL: database.url, LOG_LEVEL: 'debug' });
    const [, address] = await hookline.waitFor(/Hookline listening on (http:\/\/\S+)/);
    // A keep-alive connection that has been used once and is idle when the signal comes.
    const keptAlive = await openRawConnection(address!);
    keptAlive.write('GET /healthz HTTP/1.1\r\nHost: hookline.test\r\n\r\n');
    expect((await keptAlive.nextResponse()).status).toBe(200);
    // A request still in flight (its body incomplete) keeps the shutdown going for a while.
    const inFlight = await openRawConnection(address!);
    const body = '{"commit_sha":"abc"}';
    inFlight.write(
      'POST /api/ingest/deploy/test HTTP/1.1\r\nHost: hookline.test\r\nContent-Type: application/json\r\n' +
        `X-Deploy-Token: hld_${'x'.repeat(40)}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await hookline.waitFor(/"url":"\/api\/ingest\/deploy\/test".*"msg":"incoming request"/, 5000);

    hookline.child.kill('SIGTERM');
    await hookline.waitFor(/"msg":"Shutting down: requests in flight finish, new ones get 503"/, 5000);
    const shuttingDown = { error: { code: 'shutting_down', message: 'Hookline is shutting down; retry the request' } };
    keptAlive.write('GET /api/ingest/deploy HTTP/1.1\r\nHost: hookline.test\r\n\r\n');
    const onOldConnection = await keptAlive.nextResponse();
    expect(onOldConnection).toEqual({
      status: 503,
      headers: expect.objectContaining({ connection: 'close', 'retry-after': '1' }),
      body: shuttingDown,
    });
    await keptAlive.closed;
    const fresh = await openRawConnection(address!);
    fresh.write('GET /readyz HTTP/1.1\r\nHost: hookline.test\r\n\r\n');
    expect(await fresh.nextResponse()).toEqual(expect.objectContaining({ status: 503, body: shuttingDown }));
    await fresh.closed;
    // A new GraphQL WebSocket is not taken on either.
    const upgrade = await openRawConnection(address!);
    upgrade.write(
      'GET /graphql HTTP/1.1\r\nHost: hookline.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n',
    );
    expect(await upgrade.nextResponse()).toEqual({
      status: 503,
      headers: expect.objectContaining({ connection: 'close', 'retry-after': '1' }),
      body: shuttingDown,
    });
    await upgrade.closed;

    inFlight.write(body.slice(5));
    expect(await inFlight.nextResponse()).toEqual(
      expect.objectContaining({ status: 401, headers: expect.objectContaining({ connection: 'close' }) }),
    );
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
  });

  it('refuses to start with invalid configuration, naming the variable', async () => {
    const hookline = startHookline({
      DATABASE_URL: database.url,
      PORT: 'eighty',
      INGEST_RATE_LIMIT_PER_MINUTE: '0',
      TRUST_PROXY: 'maybe',
      LOG_FORMAT: 'yaml',
    });
    expect(await hookline.exited).toEqual({ code: 1, signal: null });
    expect(hookline.output()).toContain('Invalid configuration:');
    expect(hookline.output()).toContain('PORT: must be a number');
    expect(hookline.output()).toContain('INGEST_RATE_LIMIT_PER_MINUTE: must be a whole number greater than 0, or off');
    expect(hookline.output()).toContain('TRUST_PROXY: must be true, false, or a comma-separated list of IP addresses or CIDR ranges');
    expect(hookline.output()).toContain('LOG_FORMAT: must be auto, pretty or json');
  });

  it('logs a queue error during start-up and goes on starting', async () => {
    // Between PostgreSQL and Hookline, a proxy that holds the first LISTEN (start-up waits on
    // it) and, once the queue has started too (its last step, pg-boss's queue update, answered),
    // whichever comes first, cuts every connection but the LISTENs: the queue's idle connections
    // end, which the queue reports as an error while start-up still waits.
    const target = new URL(database.url);
    const connections = new Set<Socket>();
    const listening = new Set<Socket>();
    let held: { release(): void } | undefined;
    let queueUpdate: Socket | undefined;
    let queueStarted = false;
    let cut = false;
    const cutQueueOnceBoth = () => {
      if (cut || !held || !queueStarted) return;
      cut = true;
      setImmediate(() => {
        for (const other of connections) if (!listening.has(other)) other.destroy();
      });
    };
    const proxy = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      let holding: Buffer[] | undefined;
      client.on('data', (chunk: Buffer) => {
        if (chunk.includes('LISTEN ')) listening.add(client);
        if (!held && chunk.includes('LISTEN ')) {
          holding = [];
          held = {
            release: () => {
              for (const waiting of holding!) upstream.write(waiting);
              holding = undefined;
            },
          };
          cutQueueOnceBoth();
        }
        if (chunk.includes('retry_delay_max = CASE')) queueUpdate = client;
        if (holding) holding.push(chunk);
        else upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        client.write(chunk);
        if (client === queueUpdate) {
          queueStarted = true;
          cutQueueOnceBoth();
        }
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
        connections.delete(client);
      };
      client.on('close', close).on('error', close);
      upstream.on('close', close).on('error', close);
      connections.add(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = proxy.address() as { port: number };
      const proxied = new URL(database.url);
      proxied.host = `127.0.0.1:${port}`;
      const hookline = startHookline({ DATABASE_URL: proxied.toString(), LOG_FORMAT: 'json' });
      const exitedEarly = hookline.exited.then(({ code, signal }) => {
        throw new Error(`exited (${code ?? signal}) during start-up:\n${hookline.output()}`);
      });
      await Promise.race([hookline.waitFor(/"msg":"queue error"/), exitedEarly]);
      held!.release();
      const [, address] = await Promise.race([hookline.waitFor(/Hookline listening on (http:\/\/\S+)/), exitedEarly]);
      expect(await (await fetch(`${address}/healthz`)).json()).toEqual({ status: 'ok' });
      hookline.child.kill('SIGTERM');
      expect(await hookline.exited).toEqual({ code: 0, signal: null });
    } finally {
      for (const connection of connections) connection.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
