// A known path asked with a method it does not serve answers 405 with `Allow` (the methods its
// routes serve), in the REST error shape; unknown paths stay 404 and the dashboard's client
// routes still get the page. Real HTTP against a listening server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { startApp, type RunningApp } from './support/app.ts';
import { ensureDashboardBuilt } from './support/browser.ts';

let database: TestDatabase;
let running: RunningApp;

beforeAll(async () => {
  ensureDashboardBuilt();
  database = await createTestDatabase();
  running = await startApp(database.url);
});

afterAll(async () => {
  await running?.close();
  await database?.drop();
});

/** Every path with a route of its own, and what it serves (HEAD comes with every GET). */
const KNOWN_PATHS: Record<string, string> = {
  '/healthz': 'GET, HEAD',
  '/readyz': 'GET, HEAD',
  '/metrics': 'GET, HEAD',
  '/api/openapi.json': 'GET, HEAD',
  '/api/ingest/deploy': 'POST',
  '/api/ingest/deploy/test': 'POST',
  '/api/ingest/change': 'POST',
  '/api/webhooks/endpoints': 'POST',
  '/graphql': 'GET, HEAD, OPTIONS, POST',
  '/': 'GET, HEAD',
};

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const cases = Object.entries(KNOWN_PATHS).flatMap(([path, allow]) =>
  METHODS.filter((method) => !allow.split(', ').includes(method)).map((method) => ({ path, method, allow })),
);

describe('a known path with a method it does not serve', () => {
  it.each(cases)('$method $path → 405 with Allow: $allow', async ({ path, method, allow }) => {
    const response = await fetch(`${running.baseUrl}${path}`, {
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
    const response = await fetch(`${running.baseUrl}/api/ingest/deploy?dry_run=1`);
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
    const response = await fetch(`${running.baseUrl}${path}`, { method });
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: `No route for ${method} ${path}` } });
  });

  it.each(['/', '/services/0f6b0f3e-4a3a-4d59-9a4e-0d4f0c6b9a11', '/webhooks'])('GET %s still serves the dashboard', async (path) => {
    const response = await fetch(`${running.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<div id="root">');
  });
});
