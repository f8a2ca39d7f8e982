// What a failed attempt records as its error (stored with the attempt, shown by the API and the
// dashboard): the cause, said so that the endpoint's owner knows what to fix (DNS, refused, TLS
// and why, connect or answer timeout, reset), with the system's code. Real servers on
// loopback, one per way of failing, through the worker's own transport.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMER_SLACK_MS } from './support/receiver.ts';
import { attemptDelivery } from '../src/delivery/attempt.ts';
import type { Resolver } from '../src/delivery/destination.ts';
import { createWebhookTransport } from '../src/delivery/transport.ts';

const TIMEOUT_MS = 1000;
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** `nowhere.test` does not exist; every other name is this machine. */
const resolve: Resolver = async (hostname) => {
  if (hostname === 'nowhere.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  return [{ address: '127.0.0.1', family: 4 }];
};
const transport = createWebhookTransport({ allowHttp: true, allowPrivate: true }, { resolve, timeoutMs: TIMEOUT_MS });

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
async function listen(server: net.Server): Promise<number> {
  servers.push(server);
  server.on('connection', (socket: net.Socket) => sockets.add(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as net.AddressInfo).port;
}

let refusedPort: number;
let resetPort: number;
let closedPort: number;
let silentPort: number;
let selfSignedPort: number;

beforeAll(async () => {
  // A port nobody listens on: taken, then released.
  refusedPort = await listen(net.createServer());
  await new Promise((done) => servers.pop()!.close(done));
  resetPort = await listen(net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy())));
  closedPort = await listen(net.createServer((socket) => socket.once('data', () => socket.end())));
  // Accepts the connection and says nothing: no TLS handshake, no HTTP answer.
  silentPort = await listen(net.createServer(() => {}));
  selfSignedPort = await listen(
    https.createServer(
      { key: readFileSync(fixture('self-signed.key')), cert: readFileSync(fixture('self-signed.crt')) },
      (_request, response) => response.end('ok'),
    ),
  );
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
});

const attempt = (url: string) =>
  attemptDelivery(transport, { url, body: '{}', headers: { 'content-type': 'application/json' }, timeoutMs: TIMEOUT_MS });

describe('a failed attempt says why', () => {
  it('DNS: the host does not exist', async () => {
    expect(await attempt('http://nowhere.test/hooks')).toMatchObject({
      status: null,
      error: 'DNS: no address for nowhere.test (ENOTFOUND)',
    });
  });

  it('the connection is refused', async () => {
    expect((await attempt(`http://127.0.0.1:${refusedPort}/hooks`)).error).toBe(
      `connection refused by 127.0.0.1:${refusedPort} (ECONNREFUSED)`,
    );
  });

  it('TLS: the certificate is refused, with the reason', async () => {
    expect((await attempt(`https://127.0.0.1:${selfSignedPort}/hooks`)).error).toBe(
      'TLS: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)',
    );
  });

  it('the connection (here the TLS handshake) is not made in time', async () => {
    // Connecting gets 80 % of the attempt's timeout, and the error names that limit. The attempt's
    // own deadline must come well after it: undici times a connect limit over a second on a
    // clock with half a second's accuracy, and on a busy machine a stalled event loop runs both
    // timers at once when it wakes (1,000 ms against 800 failed on a loaded two-core machine).
    const timeoutMs = 5000;
    const slowConnecting = createWebhookTransport({ allowHttp: true, allowPrivate: true }, { resolve, timeoutMs });
    const result = await attemptDelivery(slowConnecting, {
      url: `https://127.0.0.1:${silentPort}/hooks`,
      body: '{}',
      headers: { 'content-type': 'application/json' },
      timeoutMs,
    });
    expect(result.error).toBe(`could not connect within ${timeoutMs * 0.8} ms (UND_ERR_CONNECT_TIMEOUT)`);
    expect(result.durationMs).toBeLessThan(timeoutMs);
  });

  it('connected, but no answer in time', async () => {
    const result = await attempt(`http://127.0.0.1:${silentPort}/hooks`);
    expect(result.error).toBe(`connected, but no answer within ${TIMEOUT_MS} ms`);
    expect(result.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - TIMER_SLACK_MS);
  });

  it('the receiver resets the connection', async () => {
    expect((await attempt(`http://127.0.0.1:${resetPort}/hooks`)).error).toBe('connection reset by the receiver (ECONNRESET)');
  });

  it('the receiver closes the connection without answering', async () => {
    expect((await attempt(`http://127.0.0.1:${closedPort}/hooks`)).error).toBe(
      'the receiver closed the connection without answering (UND_ERR_SOCKET)',
    );
  });
});
