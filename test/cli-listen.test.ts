// `hookline listen` and `hookline trigger` as a developer runs them: child processes through
// bin/hookline.js against a Hookline server process (as against a remote one: only its URL and
// an API token), forwarding to a real receiver on loopback that verifies every request with the
// standardwebhooks library and the secret listen printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/client.ts';
import { EVENT_CATALOGUE } from '../src/domain/webhooks/event-catalogue.ts';
import { freePort } from '../src/db/embedded.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { useHookline } from './support/fixture.ts';
import type { WorkerProcess } from './support/worker-process.ts';

const BIN = fileURLToPath(new URL('../bin/hookline.js', import.meta.url));
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const running = new Set<ChildProcess>();

interface Cli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout or stderr, re-checked on every chunk. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

function hookline(args: string[], env: Record<string, string>): Cli {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const output = { stdout: '', stderr: '' };
  const changed = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.on('data', (chunk: Buffer) => {
      output[stream] += chunk.toString();
      changed.forEach((check) => check());
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => {
    running.delete(child);
    changed.forEach((check) => check());
  });
  return {
    child,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    exited,
    waitFor(stream, pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output[stream]);
          if (!match) return;
          changed.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          changed.delete(check);
          reject(new Error(`${pattern} not in ${stream} within ${timeoutMs} ms:\n${output.stdout}\n---\n${output.stderr}`));
        }, timeoutMs);
        changed.add(check);
        check();
      });
    },
  };
}

/** Runs a CLI command to its end. */
async function run(args: string[], env: Record<string, string>) {
  const cli = hookline(args, env);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

// No app in this process: the server is a process of its own, as a remote Hookline would be.
const fixture = useHookline({ app: false, receiver: true });
let server: WorkerProcess;
let baseUrl: string;
let apiToken: string;
let configHome: string;
/** What `listen` needs besides its flags: the API from the environment, the secret's directory. */
let listenEnv: Record<string, string>;

beforeAll(async () => {
  const database = connectDatabase(fixture.database.url, { maxConnections: 1 });
  try {
    apiToken = (await createOrganization(database.prisma, 'developer')).apiToken;
  } finally {
    await database.close();
  }
  server = fixture.startProcess('all');
  baseUrl = await server.ready;
  configHome = await mkdtemp(path.join(os.tmpdir(), 'hookline-listen-'));
  listenEnv = { HOOKLINE_URL: baseUrl, HOOKLINE_API_TOKEN: apiToken, XDG_CONFIG_HOME: configHome };
});

afterAll(async () => {
  running.forEach((child) => child.kill('SIGKILL'));
  if (configHome) await rm(configHome, { recursive: true, force: true });
});

describe('hookline listen and trigger', () => {
  let secret: string;
  let listenAll: Cli;

  it('forwards a triggered deploy.ingested, signed with the secret it printed once', async () => {
    listenAll = hookline(['listen', '--forward-to', `${fixture.receiver.url}/webhooks`], listenEnv);
    secret = (await listenAll.waitFor('stderr', /Your listen signing secret is (whsec_\S+)/))[1]!;
    await listenAll.waitFor(
      'stderr',
      new RegExp(`Ready: listener ${UUID} receives every event type, forwarded to ${fixture.receiver.url}/webhooks`),
    );
    const stored = JSON.parse(await readFile(path.join(configHome, 'hookline', 'listen.json'), 'utf8')) as { signingSecret: string };
    expect(stored).toEqual({ signingSecret: secret });
    expect((await stat(path.join(configHome, 'hookline', 'listen.json'))).mode & 0o777).toBe(0o600);

    // --url and --token work as the environment does.
    const triggered = await run(['trigger', 'deploy.ingested', '--url', baseUrl, '--token', apiToken], { XDG_CONFIG_HOME: configHome });
    expect(triggered.stderr).toBe('');
    expect(triggered.code).toBe(0);
    const eventId = new RegExp(
      `^Stored an example deploy.ingested event (${UUID}) for your live listeners, marked "example": true \\(no deploy, incident or service is made, and no endpoint gets it\\).\\n$`,
    ).exec(triggered.stdout)?.[1];
    expect(eventId, triggered.stdout).toBeDefined();

    const [request] = await fixture.receiver.waitForRequests(1, { path: '/webhooks' });
    const event = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>) as {
      id: string;
      type: string;
      organizationId: string;
      data: unknown;
      example?: boolean;
    };
    // The catalogue's example, marked as one, as sendExample sends it to an endpoint.
    expect(event).toMatchObject({ id: eventId, type: 'deploy.ingested', example: true });
    expect(event.data).toEqual(EVENT_CATALOGUE['deploy.ingested'].example);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-event': 'deploy.ingested',
      'webhook-id': event.id,
      'x-service-delivery': event.id,
    });
    expect(request!.headers['user-agent']).toMatch(/^Hookline-Webhooks\//);
    // The secret is no endpoint's: a wrong one fails verification.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32).toString('base64')}`).verify(request!.body, request!.headers as Record<string, string>),
    ).toThrow();
    await listenAll.waitFor('stdout', new RegExp(`^200 \\d+ms deploy.ingested ${event.id}$`, 'm'));
  });

  it('keeps the secret on later runs, filters with --events and prints JSON with --print-json', async () => {
    const listenResolved = hookline(
      ['listen', '--forward-to', `${fixture.receiver.url}/resolved`, '--events', 'incident.resolved', '--print-json'],
      listenEnv,
    );
    try {
      await listenResolved.waitFor('stderr', /Ready: listener \S+ receives incident.resolved/);
      expect(listenResolved.stderr()).not.toContain('whsec_');
      expect(listenResolved.stderr()).toContain(
        `Signing with your listen secret from ${path.join(configHome, 'hookline', 'listen.json')}.`,
      );

      const triggered = await run(['trigger', 'incident.resolved'], listenEnv);
      expect(triggered.code).toBe(0);
      expect(triggered.stdout).toMatch(new RegExp(`^Stored an example incident.resolved event ${UUID} for your live listeners`));
      const incidentId = (EVENT_CATALOGUE['incident.resolved'].example as { incident: { id: string } }).incident.id;

      const line = (await listenResolved.waitFor('stdout', /^\{.*\}$/m))[0];
      const printed = JSON.parse(line) as {
        event: { type: string; data: { incident: { id: string; status: string } } };
        status: number;
        durationMs: number;
      };
      expect(printed).toMatchObject({
        event: { type: 'incident.resolved', example: true, data: { incident: { id: incidentId, status: 'RESOLVED' } } },
        status: 200,
      });
      expect(printed.durationMs).toBeGreaterThanOrEqual(0);
      // The listener of every type got it too; the filtered one took nothing else (below).
      await listenAll.waitFor('stdout', /incident.resolved/);
      const [resolvedRequest] = await fixture.receiver.waitForRequests(1, { path: '/resolved' });
      expect(new Webhook(secret).verify(resolvedRequest!.body, resolvedRequest!.headers as Record<string, string>)).toMatchObject({
        type: 'incident.resolved',
      });
      expect(fixture.receiver.requests.filter((request) => request.path === '/resolved')).toHaveLength(1);
      expect(listenResolved.stdout().trim().split('\n')).toHaveLength(1);
    } finally {
      listenResolved.child.kill('SIGINT');
      expect(await listenResolved.exited).toBe(0);
    }
  });

  it('triggers a test.ping for listeners', async () => {
    const triggered = await run(['trigger', 'test.ping'], listenEnv);
    expect(triggered.code).toBe(0);
    const eventId = new RegExp(`^Stored test.ping event (${UUID}) for your live listeners \\(no endpoint gets it\\).\\n$`).exec(
      triggered.stdout,
    )?.[1];
    expect(eventId, triggered.stdout).toBeDefined();
    await listenAll.waitFor('stdout', new RegExp(`^200 \\d+ms test.ping ${eventId}$`, 'm'));
  });

  it('keeps what trigger makes apart from the real data: no service, deploy or incident is stored', async () => {
    for (const type of ['deploy.ingested', 'incident.opened', 'incident.acknowledged', 'endpoint.disabled']) {
      const triggered = await run(['trigger', type], listenEnv);
      expect(triggered.code, triggered.stderr).toBe(0);
      await listenAll.waitFor('stdout', new RegExp(`^200 \\d+ms ${type.replace('.', '\\.')} `, 'm'));
    }
    const database = connectDatabase(fixture.database.url, { maxConnections: 1 });
    try {
      const { prisma } = database;
      expect(await Promise.all([prisma.service.count(), prisma.deploy.count(), prisma.incident.count(), prisma.doraDay.count()])).toEqual([
        0, 0, 0, 0,
      ]);
      // Every event it stored says it is an example, and went to no endpoint.
      expect(await prisma.event.count({ where: { example: false, type: { not: 'test.ping' } } })).toBe(0);
      expect(await prisma.delivery.count()).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('says what is wrong: an unknown type is a usage error, a refused token a failure', async () => {
    const unknown = await run(['trigger', 'deploy.exploded'], listenEnv);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toBe(
      "error: command-argument value 'deploy.exploded' is invalid for argument 'type'. " +
        'Allowed choices are deploy.ingested, incident.opened, incident.acknowledged, incident.resolved, test.ping, endpoint.disabled.\n',
    );
    const badForward = await run(['listen', '--forward-to', 'localhost:3000'], listenEnv);
    expect(badForward).toEqual({ code: 2, stdout: '', stderr: 'error: --forward-to must be an http(s) URL\n' });
    const refused = await run(['trigger', 'test.ping', '--token', `hla_${'x'.repeat(40)}`], listenEnv);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'error: the API token was refused (check --token or HOOKLINE_API_TOKEN)\n' });
    const noToken = await run(['listen'], { HOOKLINE_URL: baseUrl, HOOKLINE_API_TOKEN: '', XDG_CONFIG_HOME: configHome });
    expect(noToken).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: required option '--token <token>' not specified (or set HOOKLINE_API_TOKEN)\n",
    });
  });

  it('validates --events before a secret is made or a file written: an unknown type is a usage error', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'hookline-home-'));
    try {
      // No XDG_CONFIG_HOME: the secret would go to $HOME/.config/hookline.
      const result = await run(['listen', '--events', 'deploy.ingested,foo.bar'], {
        HOOKLINE_URL: baseUrl,
        HOOKLINE_API_TOKEN: apiToken,
        HOME: home,
        XDG_CONFIG_HOME: '',
      });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^error: --events: unknown event type foo\.bar \(known: deploy\.ingested, .*incident\.opened.*\)\n$/);
      expect(existsSync(path.join(home, '.config'))).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('survives a restart of the server, however long it is away, with the same listener', async () => {
    const port = await freePort();
    const first = fixture.startProcess('all', { PORT: String(port) }, 'first');
    const url = await first.ready;
    const env = { ...listenEnv, HOOKLINE_URL: url };
    const listenAcross = hookline(['listen', '--forward-to', `${fixture.receiver.url}/across`], env);
    try {
      const listenerId = (await listenAcross.waitFor('stderr', /Ready: listener (\S+) receives/, 60_000))[1]!;
      await first.stop();
      // Away for longer than listen used to wait (three attempts, about 7 s): a fourth attempt is made.
      await listenAcross.waitFor('stderr', /Reconnecting in 8 s \(attempt 4; Ctrl-C to stop\)\.\.\./, 60_000);
      expect(listenAcross.child.exitCode).toBeNull();
      const second = fixture.startProcess('all', { PORT: String(port) }, 'second');
      await second.ready;
      await listenAcross.waitFor('stderr', new RegExp(`Reconnected to ${url}: listening again.`), 60_000);
      const triggered = await run(['trigger', 'test.ping'], env);
      expect(triggered.code, triggered.stderr).toBe(0);
      const eventId = /test.ping event (\S+)/.exec(triggered.stdout)?.[1];
      await listenAcross.waitFor('stdout', new RegExp(`^200 \\d+ms test.ping ${eventId}$`, 'm'));
      const [request] = await fixture.receiver.waitForRequests(1, { path: '/across' });
      expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toMatchObject({
        id: eventId,
        type: 'test.ping',
      });
      // The same listener, served again by the new process.
      const database = connectDatabase(fixture.database.url, { maxConnections: 1 });
      try {
        const live = await database.prisma.listener.findUniqueOrThrow({ where: { id: listenerId } });
        expect(live.liveUntil!.getTime()).toBeGreaterThan(Date.now());
      } finally {
        await database.close();
      }
    } finally {
      listenAcross.child.kill('SIGINT');
      await listenAcross.exited;
    }
  }, 180_000);

  it('keeps trying while the server is away, and Ctrl-C stops it with status 0', async () => {
    await server.stop();
    await listenAll.waitFor('stderr', /Reconnecting in 2 s \(attempt 2; Ctrl-C to stop\)\.\.\./, 60_000);
    expect(listenAll.child.exitCode).toBeNull();
    listenAll.child.kill('SIGINT');
    expect(await listenAll.exited).toBe(0);
    const stderr = listenAll.stderr();
    expect(stderr).toContain(`Connection to ${baseUrl} closed: code 1001`);
    expect(stderr).toContain('Reconnecting in 1 s (attempt 1; Ctrl-C to stop)...');
    expect(stderr).not.toMatch(/error: lost the connection/);
  }, 90_000);
});
