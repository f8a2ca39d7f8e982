// What browsers are told: cross-origin access only for the origins in CORS_ORIGINS (none by
// default, never with credentials), the OWASP baseline headers on every answer, and HSTS only
// where the request came over TLS (as a trusted proxy says with X-Forwarded-Proto). Real HTTP
// against listening servers.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { RunningApp } from './support/app.ts';
import { useHookline } from './support/fixture.ts';

const APP_ORIGIN = 'https://status.example.test';
const OTHER_ORIGIN = 'https://evil.example.test';

const hookline = useHookline();
/** No CORS_ORIGINS, no TRUST_PROXY: the defaults. */
/** CORS_ORIGINS=APP_ORIGIN, behind a trusted proxy. */
let configured: RunningApp;

beforeAll(async () => {
  configured = await hookline.startApp({ CORS_ORIGINS: `${APP_ORIGIN}, https://admin.example.test:8443`, TRUST_PROXY: 'true' });
});

const viewerQuery = (baseUrl: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}`, ...headers },
    body: JSON.stringify({ query: '{ viewer { id } }' }),
  });

const preflight = (baseUrl: string, path: string, origin: string, method = 'POST') =>
  fetch(`${baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  });

const corsHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));

describe('CORS', () => {
  it('by default answers no other origin: nothing reflected, no credentials', async () => {
    const response = await viewerQuery(hookline.baseUrl, { origin: OTHER_ORIGIN });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({});

    const refused = await preflight(hookline.baseUrl, '/api/ingest/deploy', OTHER_ORIGIN);
    expect(refused.status).toBe(405);
    expect(corsHeaders(refused)).toEqual({});
  });

  it('answers an allowed origin on GraphQL and REST, with the methods the path serves, never credentials', async () => {
    const graphql = await preflight(configured.baseUrl, '/graphql', APP_ORIGIN);
    expect(graphql.status).toBe(204);
    expect(corsHeaders(graphql)).toEqual({
      'access-control-allow-origin': APP_ORIGIN,
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': '600',
      'access-control-expose-headers': 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
    });
    expect(graphql.headers.get('vary')).toMatch(/\bOrigin\b/);

    const ingest = await preflight(configured.baseUrl, '/api/ingest/deploy', 'https://admin.example.test:8443');
    expect(ingest.status).toBe(204);
    expect(ingest.headers.get('access-control-allow-origin')).toBe('https://admin.example.test:8443');
    expect(ingest.headers.get('access-control-allow-methods')).toBe('POST');

    const query = await viewerQuery(configured.baseUrl, { origin: APP_ORIGIN });
    expect(query.status).toBe(200);
    expect(query.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(query.headers.get('access-control-allow-credentials')).toBeNull();
    expect(query.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('answers other origins and unknown paths of a configured server as if CORS were off', async () => {
    const other = await viewerQuery(configured.baseUrl, { origin: OTHER_ORIGIN });
    expect(other.status).toBe(200);
    expect(corsHeaders(other)).toEqual({});

    const otherPreflight = await preflight(configured.baseUrl, '/api/ingest/deploy', OTHER_ORIGIN);
    expect(otherPreflight.status).toBe(405);
    expect(corsHeaders(otherPreflight)).toEqual({});

    const unknown = await preflight(configured.baseUrl, '/api/nothing-here', APP_ORIGIN);
    expect(unknown.status).toBe(404);
    expect(corsHeaders(unknown)).toEqual({});
  });

  it('refuses a CORS_ORIGINS entry that is not an origin, and * beside others', () => {
    for (const value of [
      'status.example.test',
      'https://status.example.test/',
      'https://status.example.test/app',
      'ftp://files.example.test',
      'https://*.example.test',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: value }), value).toThrow(
        'CORS_ORIGINS: must be * or a comma-separated list of origins such as https://app.example.com (scheme, host and port only)',
      );
    }
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toBe('*');
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
  });
});

describe('security headers', () => {
  const BASELINE = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
  const API_POLICY = "default-src 'none';frame-ancestors 'none'";

  it.each([
    ['GET', '/healthz', 200],
    ['GET', '/metrics', 200],
    ['GET', '/api/openapi.json', 200],
    ['POST', '/api/ingest/deploy', 401],
    ['GET', '/api/nothing-here', 404],
    ['DELETE', '/graphql', 405],
  ])('%s %s (%i) carries the baseline and a policy that loads and frames nothing', async (method, path, status) => {
    const response = await fetch(`${hookline.baseUrl}${path}`, { method });
    expect(response.status).toBe(status);
    expect(Object.fromEntries(Object.keys(BASELINE).map((name) => [name, response.headers.get(name)]))).toEqual(BASELINE);
    expect(response.headers.get('content-security-policy')).toBe(API_POLICY);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('answers of the APIs, which may carry a secret shown once, may be kept by no cache', async () => {
    const created = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ url: 'https://hooks.example.com/cache', name: 'cache' }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { signingSecret: string }).signingSecret).toMatch(/^whsec_/);
    expect(created.headers.get('cache-control')).toBe('no-store');

    const service = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ query: 'mutation { createService(name: "cached") { deployToken } }' }),
    });
    expect(((await service.json()) as { data: { createService: { deployToken: string } } }).data.createService.deployToken).toMatch(
      /^hld_/,
    );
    expect(service.headers.get('cache-control')).toBe('no-store');
    for (const path of ['/api/ingest/deploy', '/api/webhooks/endpoints']) {
      expect((await fetch(`${hookline.baseUrl}${path}`, { method: 'POST' })).headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('GraphQL answers carry them too', async () => {
    const response = await viewerQuery(hookline.baseUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(API_POLICY);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('the GraphiQL page cannot be framed, and loads from Hookline alone', async () => {
    const response = await fetch(`${hookline.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/https?:|\*/);
  });

  it('the dashboard keeps its own stricter page policy', async () => {
    const response = await fetch(`${hookline.baseUrl}/`);
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self'; connect-src 'self'; .*frame-ancestors 'none'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('HSTS only over TLS, as a trusted proxy reports it', async () => {
    const viaTls = await fetch(`${configured.baseUrl}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaTls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const viaHttp = await fetch(`${configured.baseUrl}/healthz`, { headers: { 'x-forwarded-proto': 'http' } });
    expect(viaHttp.headers.get('strict-transport-security')).toBeNull();
    // Without TRUST_PROXY anyone could claim it: not believed.
    const untrusted = await fetch(`${hookline.baseUrl}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(untrusted.headers.get('strict-transport-security')).toBeNull();
  });
});
