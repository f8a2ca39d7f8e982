// A known path asked with a method it does not serve answers 405 with `Allow` (the methods its
// routes serve), in the REST error shape; unknown paths stay 404 and the dashboard's client
// routes still get the page. Both are decided before the body is read: whatever the body (bad
// JSON, any media type, over the limit, never sent), the method or the path decides. Real HTTP
// against a listening server.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuilt } from './support/browser.ts';
import { openRawConnection } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const hookline = useHookline({ tenant: false });

beforeAll(async () => {
  ensureDashboardBuilt();
});

/** Every path with a route of its own, and what it serves (HEAD comes with every GET). */
const KNOWN_PATHS: Record<string, string> = {
  '/healthz': 'GET, HEAD',
  '/readyz': 'GET, HEAD',
  '/metrics': 'GET, HEAD',
  '/api/openapi.json': 'GET, HEAD',
  '/api/ingest/deploy': 'POST',
  '/api/ingest/deploy/test': 'POST',
  '/api/ingest/deploy/latest': 'GET, HEAD',
  '/ci/hookline-deploy.mjs': 'GET, HEAD',
  '/ci/hookline-deploy.gitlab-ci.yml': 'GET, HEAD',
  '/api/ingest/change': 'POST',
  '/api/ingest/github': 'POST',
  '/api/webhooks/endpoints': 'GET, HEAD, POST',
  // A parametric route: any id names the resource, so the methods it lacks are 405 too.
  '/api/webhooks/endpoints/00000000-0000-4000-8000-000000000000': 'DELETE, GET, HEAD, PATCH',
  // GraphQL over HTTP is GET and POST; HEAD and OPTIONS get the same 405 as anywhere else.
  '/graphql': 'GET, POST',
  '/': 'GET, HEAD',
};

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const cases = Object.entries(KNOWN_PATHS).flatMap(([path, allow]) =>
  METHODS.filter((method) => !allow.split(', ').includes(method)).map((method) => ({ path, method, allow })),
);

describe('a known path with a method it does not serve', () => {
  it.each(cases)('$method $path → 405 with Allow: $allow', async ({ path, method, allow }) => {
    const response = await fetch(`${hookline.baseUrl}${path}`, {
      method,
      // A body as a client would send it: it changes nothing.
      ...(method === 'GET' || method === 'HEAD' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    const text = await response.text();
    if (method === 'HEAD') {
      expect(text).toBe('');
      return;
    }
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(text)).toEqual({
      error: { code: 'method_not_allowed', message: `${method} is not allowed on ${path}; allowed: ${allow}` },
    });
  });

  it('ignores the query string', async () => {
    const response = await fetch(`${hookline.baseUrl}/api/ingest/deploy?dry_run=1`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({
      error: { code: 'method_not_allowed', message: 'GET is not allowed on /api/ingest/deploy; allowed: POST' },
    });
  });
});

describe('paths without a route of their own', () => {
  it.each([
    ['GET', '/api/ingest'],
    ['POST', '/api/ingest/deploy/'],
    ['GET', '/api/nothing-here'],
    ['DELETE', '/healthz/extra'],
    ['GET', '/graphql/extra'],
    // Client routes of the dashboard are pages, not resources: other methods find nothing.
    ['POST', '/services/0f6b0f3e-4a3a-4d59-9a4e-0d4f0c6b9a11'],
    ['PUT', '/webhooks'],
  ])('%s %s → 404 not_found without Allow', async (method, path) => {
    const response = await fetch(`${hookline.baseUrl}${path}`, { method });
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: `No route for ${method} ${path}` } });
  });

  it.each(['/', '/services/0f6b0f3e-4a3a-4d59-9a4e-0d4f0c6b9a11', '/webhooks'])('GET %s still serves the dashboard', async (path) => {
    const response = await fetch(`${hookline.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<div id="root">');
  });
});

describe('decided before the body is read', () => {
  const BODIES: Record<string, { contentType: string; body: string }> = {
    'bad JSON': { contentType: 'application/json', body: '{"commit_sha": ' },
    'text/plain': { contentType: 'text/plain', body: 'hello' },
    'an unknown media type': { contentType: 'application/x-protobuf', body: 'hello' },
    'over the body limit': { contentType: 'application/json', body: JSON.stringify({ padding: 'x'.repeat(2_000_000) }) },
  };
  const cases = Object.entries(BODIES).flatMap(([what, body]) => [
    { what, ...body, method: 'PUT', path: '/api/ingest/deploy', status: 405, allow: 'POST' },
    { what, ...body, method: 'DELETE', path: '/graphql', status: 405, allow: 'GET, POST' },
    { what, ...body, method: 'POST', path: '/api/nothing-here', status: 404, allow: null },
  ]);

  it.each(cases)('$method $path with $what → $status', async ({ method, path, contentType, body, status, allow }) => {
    const response = await fetch(`${hookline.baseUrl}${path}`, { method, headers: { 'content-type': contentType }, body });
    expect(response.status).toBe(status);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual(
      status === 405
        ? { error: { code: 'method_not_allowed', message: `${method} is not allowed on ${path}; allowed: ${allow}` } }
        : { error: { code: 'not_found', message: `No route for ${method} ${path}` } },
    );
  });

  it('answers at once, without waiting for a body that is announced and never sent', async () => {
    for (const [method, path, status] of [
      ['PUT', '/api/ingest/deploy', 405],
      ['POST', '/api/nothing-here', 404],
    ] as const) {
      const connection = await openRawConnection(hookline.baseUrl);
      // The request deadline is 30 s: an answer that waited for the body would come after it, as a 408.
      connection.write(
        `${method} ${path} HTTP/1.1\r\nHost: hookline.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
      );
      const response = await connection.nextResponse();
      connection.destroy();
      expect(response.status).toBe(status);
      expect(response.body).toEqual(
        expect.objectContaining({ error: expect.objectContaining({ code: status === 405 ? 'method_not_allowed' : 'not_found' }) }),
      );
    }
  });
});
