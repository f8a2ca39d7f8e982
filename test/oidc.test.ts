// Single sign-on through a real OpenID Connect provider (oidc-provider on a loopback port, its
// development login and consent pages driven over HTTP with a cookie-keeping client), against a
// real Hookline over HTTP: the start's redirect, the callback's checks as an attacker would probe
// them, and the settings.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { RunningApp } from './support/app.ts';
import { useHookline } from './support/fixture.ts';
import { CookieClient, startOidcProvider, type OidcProvider } from './support/oidc.ts';

const hookline = useHookline({ app: false });
let provider: OidcProvider;
/** Hookline with single sign-on through `provider`. */
let sso: RunningApp;

beforeAll(async () => {
  provider = await startOidcProvider();
  hookline.onClose(() => provider.close());
  sso = await hookline.startApp({
    OIDC_ISSUER_URL: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
  });
  provider.serve(`${sso.baseUrl}/api/auth/oidc/callback`, {
    'ada-verified': { email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' },
  });
});

describe('the settings', () => {
  const issuer = { OIDC_ISSUER_URL: 'https://accounts.example.com', OIDC_CLIENT_ID: 'hookline', OIDC_CLIENT_SECRET: 's3cret' };

  it('are all three or none', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig(issuer).oidc).toEqual({
      issuer: new URL('https://accounts.example.com'),
      clientId: 'hookline',
      clientSecret: 's3cret',
    });
    expect(() => loadConfig({ OIDC_ISSUER_URL: issuer.OIDC_ISSUER_URL, OIDC_CLIENT_ID: 'hookline' })).toThrow(
      'Invalid configuration:\n  OIDC_ISSUER_URL: single sign-on needs all three of OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (or none of them)',
    );
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: 's3cret' })).toThrow('single sign-on needs all three');
  });

  it('take an https:// issuer, or http:// on this machine only', () => {
    expect(loadConfig({ ...issuer, OIDC_ISSUER_URL: 'http://localhost:8080/realms/acme' }).oidc?.issuer.href).toBe(
      'http://localhost:8080/realms/acme',
    );
    expect(loadConfig({ ...issuer, OIDC_ISSUER_URL: 'http://[::1]:8080' }).oidc?.issuer.host).toBe('[::1]:8080');
    expect(() => loadConfig({ ...issuer, OIDC_ISSUER_URL: 'http://sso.example.com' })).toThrow(
      'Invalid configuration:\n  OIDC_ISSUER_URL: must be an https:// URL (http:// only for localhost, 127.0.0.1 or [::1])',
    );
    expect(() => loadConfig({ ...issuer, OIDC_ISSUER_URL: 'accounts.example.com' })).toThrow(
      'OIDC_ISSUER_URL: must be a URL such as https://accounts.example.com',
    );
  });
});

describe('without the settings', () => {
  let plain: RunningApp;
  beforeAll(async () => {
    plain = await hookline.startApp();
  });

  it('the sign-in page learns that single sign-on is off, and its routes answer 404', async () => {
    const methods = await fetch(`${plain.baseUrl}/api/auth/methods`);
    expect(methods.status).toBe(200);
    expect(await methods.json()).toEqual({ password: true, oidc: null });
    for (const path of ['/api/auth/oidc/start']) {
      const response = await fetch(`${plain.baseUrl}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: {
          code: 'oidc_not_configured',
          message: 'Single sign-on is not configured on this server: set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
        },
      });
    }
  });
});

describe('starting a sign-in', () => {
  it('tells the sign-in page that single sign-on is on', async () => {
    const methods = await fetch(`${sso.baseUrl}/api/auth/methods`);
    expect(await methods.json()).toEqual({ password: true, oidc: { startUrl: '/api/auth/oidc/start' } });
  });

  it('sends the browser to the provider with PKCE, state and nonce, and keeps them behind a short-lived HttpOnly cookie', async () => {
    const browser = new CookieClient();
    const response = await browser.get(`${sso.baseUrl}/api/auth/oidc/start?returnTo=/incidents`);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    const parameters = Object.fromEntries(location.searchParams);
    expect(parameters).toEqual({
      client_id: provider.clientId,
      redirect_uri: `${sso.baseUrl}/api/auth/oidc/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(response.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^hookline_oidc=[\w-]{43}; Max-Age=600; Path=\/api\/auth\/oidc; HttpOnly; SameSite=Lax$/),
    ]);
    // Only a hash of the cookie's key is kept, never the code verifier in the browser.
    const key = browser.cookies(sso.baseUrl).get('hookline_oidc')!;
    const { rows } = await sso.app.database.pool.query('SELECT key_hash, state, return_to FROM oidc_sign_ins');
    expect(rows).toContainEqual({ key_hash: expect.not.stringContaining(key), state: parameters.state, return_to: '/incidents' });
  });

  it.each([
    ['another origin', 'https://evil.example.com/'],
    ['a scheme-relative URL', '//evil.example.com/incidents'],
    ['a backslash, which browsers read as a slash', '/\\evil.example.com'],
    ['a relative path', 'incidents'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a control character', '/incidents\n'],
  ])('refuses returnTo with %s', async (_what, returnTo) => {
    const response = await fetch(`${sso.baseUrl}/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toEqual({
      error: { code: 'invalid_return_to', message: 'returnTo must be a path of this server, such as /incidents' },
    });
  });
});
