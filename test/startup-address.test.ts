// What the first start says about where it listens and what it allows, as a user reads it:
// `hookline start` (what `npm start` runs) as a real process on a fresh database.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useHookline } from './support/fixture.ts';

const fixture = useHookline({ database: false });
const ROOT = path.resolve(import.meta.dirname, '..');
const running = new Set<ReturnType<typeof spawn>>();

afterAll(() => running.forEach((child) => child.kill('SIGKILL')));

/** `hookline start ARGS` with exactly `environment` (plus PATH); resolves with its start line. */
async function start(args: string[], environment: Record<string, string>) {
  const database = await fixture.createDatabase({ migrated: false });
  const child = spawn(process.execPath, ['bin/hookline.js', 'start', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: database.url, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /^Hookline listening on .*$/m.exec(output);
      if (match) resolve(match[0]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => reject(new Error(`exited before listening:\n${output}`)));
  });
  const apiToken = /API token \(shown once, keep it safe\): (hla_\w{40})/.exec(output)?.[1];
  return {
    line,
    apiToken,
    async stop() {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      running.delete(child);
      await database.drop();
    },
  };
}

describe('the start line', () => {
  it('names loopback when HOST is not set: a first start is reachable from this machine only', async () => {
    const started = await start([], {});
    expect(started.line).toMatch(/^Hookline listening on http:\/\/127\.0\.0\.1:\d+$/);
    await started.stop();
  });

  it('names the address actually bound with HOST=0.0.0.0, and that it is every interface', async () => {
    const started = await start([], { HOST: '0.0.0.0' });
    expect(started.line).toMatch(/^Hookline listening on http:\/\/0\.0\.0\.0:\d+ \(every network interface of this machine\)$/);
    await started.stop();
  });

  it('--dev allows a local http:// receiver, and says so', async () => {
    const started = await start(['--dev'], { HOST: '127.0.0.1' });
    expect(started.line).toMatch(
      /^Hookline listening on (http:\/\/127\.0\.0\.1:\d+) \(dev mode: http:\/\/ and private and loopback webhook receivers allowed\)$/,
    );
    const address = /(http:\/\/\S+)/.exec(started.line)![1]!;
    const response = await fetch(`${address}/api/webhooks/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${started.apiToken}` },
      body: JSON.stringify({ url: 'http://localhost:3000/webhooks', name: 'my laptop' }),
    });
    expect(response.status).toBe(201);
    await started.stop();
  });

  it('names WEBHOOK_ALLOW_HTTP set on its own too: no relaxation is ever on silently', async () => {
    const started = await start([], { HOST: '127.0.0.1', WEBHOOK_ALLOW_HTTP: 'true' });
    expect(started.line).toMatch(
      /^Hookline listening on http:\/\/127\.0\.0\.1:\d+ \(WEBHOOK_ALLOW_HTTP\/WEBHOOK_ALLOW_PRIVATE: http:\/\/ webhook receivers allowed\)$/,
    );
    await started.stop();
  });

  it('HOOKLINE_DEV=true is --dev, and an explicit WEBHOOK_ALLOW_PRIVATE=false still wins', async () => {
    const started = await start([], { HOST: '127.0.0.1', HOOKLINE_DEV: 'true', WEBHOOK_ALLOW_PRIVATE: 'false' });
    expect(started.line).toMatch(/\(dev mode: http:\/\/ webhook receivers allowed\)$/);
    const address = /(http:\/\/\S+)/.exec(started.line)![1]!;
    const response = await fetch(`${address}/api/webhooks/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${started.apiToken}` },
      body: JSON.stringify({ url: 'http://localhost:3000/webhooks', name: 'my laptop' }),
    });
    expect(response.status).toBe(400);
    await started.stop();
  });
});
