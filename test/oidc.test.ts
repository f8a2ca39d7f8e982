// Single sign-on through a real OpenID Connect provider (oidc-provider on a loopback port, its
// development login and consent pages driven over HTTP with a cookie-keeping client), against a
// real Hookline over HTTP: the start's redirect, the callback's checks as an attacker would probe
// them, and the settings.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { inviteMember, issueOwnerSetupLink } from '../src/domain/shared/invites.ts';
import { graphql } from './gql/index.ts';
import { requestGraphqlWithHeaders, type RunningApp, type Tenant } from './support/app.ts';
import { useHookline } from './support/fixture.ts';
import {
  CookieClient,
  signInAtProvider,
  startOidcProvider,
  startSingleSignOn,
  type BrowserResponse,
  type OidcProvider,
} from './support/oidc.ts';
import { documentChecker, type DocumentChecker } from './support/openapi.ts';
import { setUpOwner } from './support/people.ts';

const hookline = useHookline({ app: false });
let provider: OidcProvider;
/** Hookline with single sign-on through `provider`. */
let sso: RunningApp;
let tenant: Tenant;
/** The OpenAPI document the server serves. */
let checker: DocumentChecker;

const NOT_STARTED =
  'No single sign-on is under way in this browser (it expired after 10 minutes, was already completed, or was started elsewhere): sign in again';

beforeAll(async () => {
  ({ provider, app: sso } = await startSingleSignOn(hookline, {
    'ada-verified': { email: 'ada@example.com', email_verified: true, name: 'Ada at the provider' },
    'ada-upper-case': { email: 'ADA@Example.com', email_verified: true },
    'ada-unverified': { email: 'ada@example.com', email_verified: false, name: 'Not Ada' },
    'grace-invited': { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' },
    stranger: { email: 'stranger@example.com', email_verified: true },
  }));
  tenant = await hookline.createTenant('checkout', sso.app);
  // Ada has an account (with a password too); Grace has only an invite.
  await setUpOwner(sso.app, sso.baseUrl, tenant.organizationId, 'ada@example.com');
  await inviteMember(sso.app.database.prisma, tenant.organizationId, 'grace@example.com', 'VIEWER');
  checker = documentChecker(await (await fetch(`${sso.baseUrl}/api/openapi.json`)).json());
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
    for (const path of ['/api/auth/oidc/start', '/api/auth/oidc/callback?code=x&state=y']) {
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

describe('a provider that cannot be reached', () => {
  it('does not stop Hookline from starting; a sign-in answers 502 until it can be', async () => {
    const gone = await startOidcProvider();
    await gone.close();
    const stranded = await hookline.startApp({
      OIDC_ISSUER_URL: gone.issuer,
      OIDC_CLIENT_ID: gone.clientId,
      OIDC_CLIENT_SECRET: gone.clientSecret,
    });
    const response = await fetch(`${stranded.baseUrl}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(response.status).toBe(502);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.json()).toEqual({
      error: {
        code: 'oidc_provider_unavailable',
        message: expect.stringMatching(new RegExp(`^The sign-in provider ${gone.issuer}/ could not be reached: `)),
      },
    });
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
    checker.expectDocumented('/api/auth/oidc/start', 'get', new Response(null, { status: 302, headers: response.headers }), '');
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

/** Starts a sign-in in `browser` and signs in at the provider as `accountId`; returns the callback URL the provider sends the browser to. */
async function throughProvider(browser: CookieClient, accountId: string, returnTo = '/'): Promise<URL> {
  const start = await browser.get(`${sso.baseUrl}/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`);
  expect(start.status).toBe(302);
  return signInAtProvider(browser, start.headers.get('location')!, accountId, `${sso.baseUrl}/api/auth/oidc/callback`);
}

const ME = graphql(`
  query SingleSignOnMe { me { person { email name } organization { id } role } }
`);

/** `me` as the session of `browser`'s cookie. */
function me(browser: CookieClient) {
  return requestGraphqlWithHeaders(
    sso.baseUrl,
    { cookie: `hookline_session=${browser.cookies(sso.baseUrl).get('hookline_session')}` },
    ME,
    {},
  );
}

function expectRefused(response: BrowserResponse, status: number, code: string, message: string | RegExp) {
  checker.expectDocumented('/api/auth/oidc/callback', 'get', new Response(null, { status, headers: response.headers }), response.body);
  expect({ status: response.status, body: JSON.parse(response.body) }).toEqual({
    status,
    body: { error: { code, message: typeof message === 'string' ? message : expect.stringMatching(message) } },
  });
  // No session: only the sign-in's own cookie is cleared.
  expect(response.headers.getSetCookie()).toEqual([
    expect.stringMatching(/^hookline_oidc=; Max-Age=0; Path=\/api\/auth\/oidc; Expires=[^;]+; HttpOnly; SameSite=Lax$/),
  ]);
}

describe('completing a sign-in', () => {
  it('signs in the person whose verified email the provider vouches for, and opens returnTo', async () => {
    const browser = new CookieClient();
    const callback = await throughProvider(browser, 'ada-verified', '/incidents?status=OPEN');
    expect(Object.fromEntries(callback.searchParams)).toEqual({
      code: expect.any(String),
      state: expect.any(String),
      iss: provider.issuer,
    });
    const response = await browser.get(callback.href);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/incidents?status=OPEN');
    expect(response.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^hookline_oidc=; Max-Age=0; Path=\/api\/auth\/oidc; /),
      expect.stringMatching(/^hookline_session=[\w-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/),
    ]);
    checker.expectDocumented('/api/auth/oidc/callback', 'get', new Response(null, { status: 302, headers: response.headers }), '');
    expect(await me(browser)).toEqual({
      status: 200,
      // The person as Hookline knows them: the provider's name does not rename them.
      body: {
        data: {
          me: {
            person: { email: 'ada@example.com', name: 'Owner ada@example.com' },
            organization: { id: tenant.organizationId },
            role: 'OWNER',
          },
        },
      },
    });
  });

  it('matches the email whatever its case', async () => {
    const browser = new CookieClient();
    const response = await browser.get((await throughProvider(browser, 'ada-upper-case')).href);
    expect(response.status).toBe(302);
    expect((await me(browser)).body.data?.me.person?.email).toBe('ada@example.com');
  });

  it('accepts the pending invite of a verified email nobody has yet, making the person', async () => {
    const browser = new CookieClient();
    const response = await browser.get((await throughProvider(browser, 'grace-invited')).href);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expect(await me(browser)).toEqual({
      status: 200,
      body: {
        data: {
          me: { person: { email: 'grace@example.com', name: 'Grace Hopper' }, organization: { id: tenant.organizationId }, role: 'VIEWER' },
        },
      },
    });
    const invite = await sso.app.database.prisma.invite.findFirstOrThrow({ where: { email: 'grace@example.com' } });
    expect(invite.usedAt).not.toBeNull();
  });

  it('completes a set-up link made for the email, acting for its organization as its owner', async () => {
    const another = await hookline.createTenant('billing', sso.app);
    await issueOwnerSetupLink(sso.app.database.prisma, another.organizationId, 'ada@example.com');
    const browser = new CookieClient();
    expect((await browser.get((await throughProvider(browser, 'ada-verified')).href)).status).toBe(302);
    expect((await me(browser)).body.data?.me).toEqual({
      person: { email: 'ada@example.com', name: 'Owner ada@example.com' },
      organization: { id: another.organizationId },
      role: 'OWNER',
    });
  });

  it('says so when the person cancels at the provider', async () => {
    const browser = new CookieClient();
    const start = await browser.get(`${sso.baseUrl}/api/auth/oidc/start`);
    const loginPage = await browser.followUntil(start.headers.get('location')!, () => false);
    expect(loginPage.status).toBe(200);
    const abort = loginPage.body.match(/href="([^"]*\/abort)"/)?.[1];
    expect(abort).toBeDefined();
    const cancelled = await browser.followUntil(new URL(abort!, loginPage.url).href, (location) => location.origin === sso.baseUrl);
    const callback = new URL(cancelled.headers.get('location')!, cancelled.url);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expectRefused(
      await browser.get(callback.href),
      400,
      'invalid_callback',
      'The sign-in could not be completed: access_denied: End-User aborted interaction',
    );
  });

  it('refuses an email the provider has not verified, even one a person has', async () => {
    const browser = new CookieClient();
    const response = await browser.get((await throughProvider(browser, 'ada-unverified')).href);
    expectRefused(
      response,
      403,
      'email_not_verified',
      'The sign-in provider has not verified the email address of this account; Hookline signs people in by a verified email only',
    );
    expect(browser.cookies(sso.baseUrl).has('hookline_session')).toBe(false);
  });

  it('refuses a verified email that has no account and no pending invite', async () => {
    const browser = new CookieClient();
    const response = await browser.get((await throughProvider(browser, 'stranger')).href);
    expectRefused(
      response,
      403,
      'no_account',
      'No one with the email stranger@example.com has an account here: ask an owner of your organization to invite that address',
    );
    expect(await sso.app.database.prisma.person.count({ where: { email: 'stranger@example.com' } })).toBe(0);
  });
});

describe('an attacker', () => {
  it('cannot complete a sign-in with a changed or missing state', async () => {
    for (const changeState of [(url: URL) => url.searchParams.set('state', 'forged'), (url: URL) => url.searchParams.delete('state')]) {
      const browser = new CookieClient();
      const callback = await throughProvider(browser, 'ada-verified');
      changeState(callback);
      expectRefused(await browser.get(callback.href), 400, 'invalid_callback', /^The sign-in could not be completed: .*"state"/);
      expect(browser.cookies(sso.baseUrl).has('hookline_session')).toBe(false);
    }
  });

  it('cannot replay a callback, even with the cookie of the sign-in it completed', async () => {
    const browser = new CookieClient();
    const callback = await throughProvider(browser, 'ada-verified');
    const key = browser.cookies(sso.baseUrl).get('hookline_oidc')!;
    expect((await browser.get(callback.href)).status).toBe(302);
    const attacker = new CookieClient();
    attacker.setCookie(sso.baseUrl, 'hookline_oidc', key);
    expectRefused(await attacker.get(callback.href), 400, 'sign_in_not_started', NOT_STARTED);
    expect(attacker.cookies(sso.baseUrl).has('hookline_session')).toBe(false);
  });

  it('cannot sign a victim in as themself by sending them a callback (the sign-in is bound to the browser that started it)', async () => {
    const attacker = new CookieClient();
    const callback = await throughProvider(attacker, 'ada-verified');
    const victim = new CookieClient();
    expectRefused(await victim.get(callback.href), 400, 'sign_in_not_started', NOT_STARTED);
    expect(victim.cookies(sso.baseUrl).has('hookline_session')).toBe(false);
  });

  it('cannot use a sign-in past its 10 minutes', async () => {
    const browser = new CookieClient();
    const callback = await throughProvider(browser, 'ada-verified');
    await sso.app.database.pool.query(`UPDATE oidc_sign_ins SET expires_at = now() - interval '1 second'`);
    expectRefused(await browser.get(callback.href), 400, 'sign_in_not_started', NOT_STARTED);
  });
});
