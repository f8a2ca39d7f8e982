// What a hostile or broken client gets from the HTTP layer itself: requests that never finish,
// requests Node's parser refuses, bodies over a route's limit, and readiness without a
// database. Every answer has the REST error shape; nothing is stored.
import { maxHeaderSize } from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/client.ts';
import { readMigrations } from '../src/db/migrate.ts';
import { createLogger } from '../src/http/logging.ts';
import { buildServer } from '../src/http/server.ts';
import { createMetrics } from '../src/metrics.ts';
import { openRawConnection, post } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const REQUEST_TIMEOUT_MS = 300;

const hookline = useHookline({
  environment: {
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_CONNECTION_TIMEOUT_MS: '10000',
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
  },
});

const deployCount = () => hookline.app.database.prisma.deploy.count();

function ingestHead(contentLength: number, token = hookline.tenant.deployToken): string {
  return (
    'POST /api/ingest/deploy HTTP/1.1\r\nHost: hookline.test\r\nContent-Type: application/json\r\n' +
    `X-Deploy-Token: ${token}\r\nContent-Length: ${contentLength}\r\n\r\n`
  );
}

const timedOut = {
  error: { code: 'request_timeout', message: `The request was not received completely within ${REQUEST_TIMEOUT_MS} ms` },
};

describe('request timeouts (HTTP_REQUEST_TIMEOUT_MS)', { timeout: 10_000 }, () => {
  it('answers 408 in the error shape to a body that stops arriving, closes the connection and stores nothing', async () => {
    const before = await deployCount();
    const body = JSON.stringify({ commit_sha: 'abc', description: 'x'.repeat(1000) });
    const connection = await openRawConnection(hookline.baseUrl);
    connection.write(ingestHead(Buffer.byteLength(body)) + body.slice(0, 100));
    const response = await connection.nextResponse();
    expect(response.status).toBe(408);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers.connection).toBe('close');
    expect(response.body).toEqual(timedOut);
    await connection.closed;
    expect(await deployCount()).toBe(before);
  });

  it('answers 408 when Content-Length promises more than is sent', async () => {
    const body = JSON.stringify({ commit_sha: 'abc' });
    const connection = await openRawConnection(hookline.baseUrl);
    connection.write(ingestHead(Buffer.byteLength(body) + 10) + body);
    expect((await connection.nextResponse()).body).toEqual(timedOut);
    await connection.closed;
  });

  it('answers 408 to headers that never end', async () => {
    const connection = await openRawConnection(hookline.baseUrl);
    connection.write('POST /api/ingest/deploy HTTP/1.1\r\nHost: hookline.test\r\n');
    expect((await connection.nextResponse()).body).toEqual(timedOut);
    await connection.closed;
  });

  it('leaves an idle keep-alive connection alone: only a request in progress has a deadline', async () => {
    const idle = await openRawConnection(hookline.baseUrl);
    idle.write('GET /healthz HTTP/1.1\r\nHost: hookline.test\r\n\r\n');
    expect((await idle.nextResponse()).status).toBe(200);
    // A request left unfinished at the same moment times out: once it has, the idle connection
    // has been idle past the deadline too.
    const slow = await openRawConnection(hookline.baseUrl);
    slow.write('GET /healthz HTTP/1.1\r\n');
    expect((await slow.nextResponse()).status).toBe(408);
    idle.write('GET /healthz HTTP/1.1\r\nHost: hookline.test\r\n\r\n');
    expect(await idle.nextResponse()).toEqual(expect.objectContaining({ status: 200, body: { status: 'ok' } }));
    idle.destroy();
  });
});

describe("errors of Node's HTTP parser", () => {
  it('answers a malformed request with 400 in the error shape', async () => {
    for (const request of [
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: hookline.test\r\nX-Bad: a\u0001b\r\n\r\n',
      'POST /api/ingest/deploy HTTP/1.1\r\nHost: hookline.test\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    ]) {
      const connection = await openRawConnection(hookline.baseUrl);
      connection.write(request);
      const response = await connection.nextResponse();
      expect(response.status, request).toBe(400);
      expect(response.body).toEqual({ error: { code: 'bad_request', message: 'Malformed HTTP request' } });
      await connection.closed;
    }
  });

  it('answers more header fields than are read (1,000) with 431 in the error shape, wherever Host is among them', async () => {
    const fields = Array.from({ length: 1000 }, (_, index) => `X-Field-${index}: ${index}\r\n`).join('');
    const upgrade =
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
    for (const request of [
      `GET /healthz HTTP/1.1\r\n${fields}Host: hookline.test\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\nHost: hookline.test\r\n${fields}\r\n`,
      `GET /graphql HTTP/1.1\r\nHost: hookline.test\r\n${upgrade}${fields}\r\n`,
    ]) {
      const connection = await openRawConnection(hookline.baseUrl);
      connection.write(request);
      const response = await connection.nextResponse();
      connection.destroy();
      expect(response.status).toBe(431);
      expect(response.body).toEqual({ error: { code: 'headers_too_large', message: 'Request has more than 1000 header fields' } });
    }
    // 1,000 fields, Host included, are read whole.
    const connection = await openRawConnection(hookline.baseUrl);
    connection.write(`GET /healthz HTTP/1.1\r\n${fields.split('\r\n').slice(1).join('\r\n')}Host: hookline.test\r\n\r\n`);
    expect((await connection.nextResponse()).status).toBe(200);
    connection.destroy();
  });

  it('answers a malformed WebSocket upgrade, or one asked with another method than GET, in the error shape', async () => {
    const upgrade = 'Host: hookline.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n';
    const withoutKey = await openRawConnection(hookline.baseUrl);
    withoutKey.write(`GET /graphql HTTP/1.1\r\n${upgrade}\r\n`);
    const refused = await withoutKey.nextResponse();
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: { code: 'bad_request', message: 'Missing or invalid Sec-WebSocket-Key header' } });
    await withoutKey.closed;

    const posted = await openRawConnection(hookline.baseUrl);
    posted.write(`POST /graphql HTTP/1.1\r\n${upgrade}Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
    const wrongMethod = await posted.nextResponse();
    expect(wrongMethod).toEqual({
      status: 405,
      headers: expect.objectContaining({ allow: 'GET' }),
      body: { error: { code: 'method_not_allowed', message: 'POST cannot open a WebSocket; allowed: GET' } },
    });
    await posted.closed;
  });

  it('answers an HTTP/1.1 request without Host with 400 in the error shape', async () => {
    const connection = await openRawConnection(hookline.baseUrl);
    connection.write('POST /api/ingest/deploy HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    const response = await connection.nextResponse();
    connection.destroy();
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'bad_request', message: 'An HTTP/1.1 request needs a Host header' } });
  });

  it('answers headers over the size limit with 431 in the error shape', async () => {
    const response = await post(`${hookline.baseUrl}/api/ingest/deploy`, {
      body: '{}',
      headers: { 'content-type': 'application/json', 'x-padding': 'x'.repeat(maxHeaderSize + 1) },
    });
    expect(response.status).toBe(431);
    expect(response.body).toEqual({ error: { code: 'headers_too_large', message: `Request headers exceed ${maxHeaderSize} bytes` } });
  });
});

describe('body limits', () => {
  it("names the route's own limit: /graphql takes 1 MiB, not ingest's 100 KB", async () => {
    const query = `{ viewer { id } } # ${'x'.repeat(1_048_576)}`;
    const response = await post(`${hookline.baseUrl}/graphql`, {
      body: JSON.stringify({ query }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: { code: 'payload_too_large', message: 'Request body exceeds 1048576 bytes' } });
  });
});

describe('/readyz', () => {
  it('says "database unavailable" without telling anonymous callers where the database is', async () => {
    // A port nobody listens on: connections to it are refused at once.
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const config = loadConfig({ LOG_LEVEL: 'silent', ROLE: 'worker' });
    const unreachable = connectDatabase(`postgresql://postgres@127.0.0.1:${closedPort}/hookline`);
    const server = await buildServer({
      config,
      logger: createLogger(config),
      database: unreachable,
      metrics: createMetrics(unreachable.pool),
      migrations: await readMigrations(),
    });
    try {
      const address = await server.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${address}/readyz`);
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ status: 'unavailable', reason: 'database unavailable' });
      expect(text).not.toContain(String(closedPort));
    } finally {
      await server.close();
      await unreachable.close();
    }
  });
});

describe('timeout settings', () => {
  it('refuse values that are not whole milliseconds, and a connection timeout not above the request timeout', () => {
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: 'soon' })).toThrow('HTTP_REQUEST_TIMEOUT_MS: must be a number');
    expect(() => loadConfig({ HTTP_CONNECTION_TIMEOUT_MS: '0' })).toThrow('HTTP_CONNECTION_TIMEOUT_MS: must be 1 or more');
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '60000', HTTP_CONNECTION_TIMEOUT_MS: '60000' })).toThrow(
      'HTTP_CONNECTION_TIMEOUT_MS: must be greater than HTTP_REQUEST_TIMEOUT_MS',
    );
    expect(loadConfig({})).toMatchObject({ HTTP_REQUEST_TIMEOUT_MS: 30_000, HTTP_CONNECTION_TIMEOUT_MS: 120_000 });
  });
});
