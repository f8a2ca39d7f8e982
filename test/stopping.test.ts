// Stopping `npm start` as people do: Ctrl-C in a terminal (SIGINT to the terminal's whole
// foreground process group, and npm passing it on once more), and a reader of its output that
// goes away (`npm start | head -1`). Hookline stops in its own order, the embedded PostgreSQL
// last and by Hookline's hand, says so, exits 0, and leaves no PostgreSQL behind.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { eventually } from './support/receiver.ts';
import { startHooklineProcess, type WorkerProcess } from './support/worker-process.ts';
import { useHookline } from './support/fixture.ts';

const fixture = useHookline({ database: false });

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function dataDirectory(): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hookline-stop-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

function start(dataDir: string, environment: Record<string, string>, options: Parameters<typeof startHooklineProcess>[4]): WorkerProcess {
  const hookline = startHooklineProcess('all', undefined, { HOOKLINE_DATA_DIR: dataDir, ...environment }, 'npm start', options);
  cleanups.push(() => hookline.stop('SIGKILL'));
  return hookline;
}

const postmasterFile = (dataDir: string) => path.join(dataDir, 'pgdata', 'postmaster.pid');

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(postmasterFile(dataDir), 'utf8')).split('\n')[0]);
}

/** The process group of `pid`, from /proc (the field after the command's closing parenthesis, state and parent). */
async function processGroupOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function expectPostgresStoppedCleanly(dataDir: string, pid: number): Promise<void> {
  expect(isRunning(pid)).toBe(false);
  // PostgreSQL removes its pid file at the end of a clean shutdown (a killed one leaves it).
  expect(existsSync(postmasterFile(dataDir))).toBe(false);
}

/** A TCP relay to `target` that can stop relaying anything, both ways, without closing: a database that no longer answers. */
async function startFreezableRelay(target: URL): Promise<{ url: string; freeze(): void; close(): void }> {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    if (frozen) return;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    freeze() {
      frozen = true;
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    close() {
      server.close();
      sockets.forEach((socket) => socket.destroy());
    },
  };
}

/** A deploy POST (without a token) whose body is held back until `finish`, which returns the final answer. */
async function startHeldRequest(address: string): Promise<{ finish(): Promise<string> }> {
  const { hostname, port } = new URL(address);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  const body = JSON.stringify({ commit_sha: 'a1b2c3d', environment: 'production' });
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  const ended = once(socket, 'end');
  // "100 Continue" says the server has taken the request in: from then on it is in flight.
  socket.write(
    `POST /api/ingest/deploy HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await eventually(async () => (answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n') ? true : undefined), 30_000, 'the request taken in');
  return {
    async finish() {
      // While stopping, the answer comes with Connection: close: the server ends the connection.
      socket.write(body);
      await ended;
      return answer.slice(answer.indexOf('\r\n\r\n') + 4);
    },
  };
}

describe('stopping npm start', () => {
  it('Ctrl-C in a terminal: the last lines shown, exit 0, PostgreSQL stopped by Hookline after the rest', async () => {
    const dataDir = await dataDirectory();
    const hookline = start(dataDir, { LOG_LEVEL: 'info' }, { terminal: true, npmStart: true });
    const address = await hookline.ready;
    const postgres = await postmasterPid(dataDir);
    // In a process group of its own: the terminal's Ctrl-C does not reach it.
    expect(await processGroupOf(postgres)).toBe(postgres);
    expect((await fetch(`${address}/healthz`)).status).toBe(200);

    // A request whose body is still on its way holds the stop open, so that the second Ctrl-C
    // surely lands while Hookline (and npm, which dies of a SIGINT once its script is gone) runs.
    const request = await startHeldRequest(address);
    hookline.type('\x03');
    await eventually(async () => (hookline.output().includes('Shutting down') ? true : undefined), 30_000, 'the stop under way');
    // Pressed again while it stops, as impatient people do: nothing changes.
    hookline.type('\x03');
    await eventually(async () => (hookline.output().split('^C').length === 3 ? true : undefined), 30_000, 'the second Ctrl-C echoed');
    expect(hookline.child.exitCode).toBeNull();
    expect(await request.finish()).toMatch(/^HTTP\/1\.1 401 /);
    await hookline.exited;

    expect(hookline.child.exitCode).toBe(0);
    const screen = stripVTControlCharacters(hookline.output()).replaceAll('\r\n', '\n');
    const afterListening = screen
      .slice(screen.indexOf(`Hookline listening on ${address}`))
      .split('\n')
      .slice(1);
    // The terminal echoes each ^C; npm's progress spinner may draw a frame as it exits.
    const shown = afterListening.map((line) => line.replaceAll('^C', '')).filter((line) => !/^[\u2800-\u28ff]?\s*$/.test(line));
    expect(shown).toEqual([
      'SIGINT received: finishing requests in flight, then stopping',
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: Shutting down: requests in flight finish, new ones get 503$/),
      'Stopped cleanly',
    ]);
    await expectPostgresStoppedCleanly(dataDir, postgres);
  }, 90_000);

  it('a reader of its output that goes away: logging ends, the process serves on and stops on SIGTERM with 0', async () => {
    const dataDir = await dataDirectory();
    const port = await freePort();
    const address = `http://127.0.0.1:${port}`;
    // At debug every request writes a line, each one into a pipe nobody reads any more.
    const hookline = start(dataDir, { LOG_LEVEL: 'debug', PORT: String(port) }, { closeOutput: true });
    await eventually(
      async () => ((await fetch(`${address}/healthz`).catch(() => undefined))?.status === 200 ? true : undefined),
      60_000,
      'Hookline serving',
    );
    const postgres = await postmasterPid(dataDir);
    for (let request = 0; request < 20; request++) expect((await fetch(`${address}/readyz`)).status).toBe(200);
    expect(hookline.child.exitCode).toBeNull();

    await hookline.stop('SIGTERM');

    expect({ code: hookline.child.exitCode, signal: hookline.child.signalCode }).toEqual({ code: 0, signal: null });
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
    await expectPostgresStoppedCleanly(dataDir, postgres);
  }, 90_000);

  it('SIGTERM ends it within the drain deadline even when the database stops answering meanwhile', async () => {
    const database = await fixture.createDatabase();
    cleanups.push(() => database.drop());
    const relay = await startFreezableRelay(new URL(database.url));
    cleanups.push(async () => relay.close());
    const timeouts = { HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_CONNECTION_TIMEOUT_MS: '2000', DELIVERY_TIMEOUT_MS: '100' };
    const hookline = startHooklineProcess('all', relay.url, timeouts);
    cleanups.push(() => hookline.stop('SIGKILL'));
    await hookline.ready;

    relay.freeze();
    hookline.child.kill('SIGTERM');
    await hookline.exited;

    // 1,000 + 3 × 100 ms + 10 s
    expect(hookline.child.exitCode).toBe(1);
    expect(hookline.output()).toContain('Stopping took longer than 11300 ms (requests, attempts and the queue had that long): exiting now');
  });
});
