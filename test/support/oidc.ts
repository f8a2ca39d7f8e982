// A real OpenID Connect provider on a loopback port (oidc-provider, with its development login and
// consent pages), and a cookie-keeping client that goes through them as a person's browser would.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { RunningApp } from './app.ts';
import type { Hookline } from './fixture.ts';

export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface OidcProvider {
  /** The issuer URL (OIDC_ISSUER_URL). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Starts serving as a provider for one client whose only redirect URI is `redirectUri`; the
   * issuer is known (and can be given to Hookline) before that.
   */
  serve(redirectUri: string, accounts: Record<string, ProviderAccount>): void;
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<OidcProvider> {
  let handle: RequestListener | undefined;
  const server: Server = createServer((request, response) => {
    if (handle) return handle(request, response);
    response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'hookline-test';
  const clientSecret = 'a-client-secret-of-the-test-provider';
  return {
    issuer,
    clientId,
    clientSecret,
    serve(redirectUri, accounts) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        findAccount: (_context, id) => {
          const account = accounts[id];
          return account && { accountId: id, claims: () => ({ sub: id, ...account }) };
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        cookies: { keys: ['a-cookie-key-of-the-test-provider'] },
        pkce: { required: () => true },
        // Set (rather than left to the defaults, which the provider warns of at each use).
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
        features: { devInteractions: { enabled: true } },
      });
      handle = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A provider, and a Hookline app of the fixture that signs people in through it; the provider
 * knows `accounts` (by account id) and stops with the fixture.
 */
export async function startSingleSignOn(
  hookline: Hookline,
  accounts: Record<string, ProviderAccount>,
): Promise<{ provider: OidcProvider; app: RunningApp }> {
  const provider = await startOidcProvider();
  hookline.onClose(() => provider.close());
  const app = await hookline.startApp({
    OIDC_ISSUER_URL: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
  });
  provider.serve(`${app.baseUrl}/api/auth/oidc/callback`, accounts);
  return { provider, app };
}

export interface BrowserResponse {
  status: number;
  headers: Headers;
  body: string;
  url: string;
}

/**
 * A client that keeps cookies by host, as a browser does (ports share cookies: the provider's and
 * Hookline's on 127.0.0.1 are in one jar, as in a browser), and follows nothing by itself.
 */
export class CookieClient {
  private readonly jar = new Map<string, Map<string, string>>();

  async get(url: string): Promise<BrowserResponse> {
    return this.request(url, { method: 'GET' });
  }

  async postForm(url: string, fields: Record<string, string>): Promise<BrowserResponse> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** The cookies this client would send to `url`. */
  cookies(url: string): Map<string, string> {
    return new Map(this.jar.get(new URL(url).hostname));
  }

  /** Sets or replaces a cookie for `url`'s host. */
  setCookie(url: string, name: string, value: string): void {
    const host = new URL(url).hostname;
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    cookies.set(name, value);
    this.jar.set(host, cookies);
  }

  /** Follows redirects from `url` until one leads where `stop` says, and returns that answer without following it. */
  async followUntil(url: string, stop: (location: URL) => boolean, maxRedirects = 10): Promise<BrowserResponse> {
    let response = await this.get(url);
    for (let redirects = 0; redirects < maxRedirects; redirects++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      const next = new URL(location, response.url);
      if (stop(next)) return response;
      response = await this.get(next.href);
    }
    throw new Error(`more than ${maxRedirects} redirects from ${url}`);
  }

  private async request(url: string, init: RequestInit): Promise<BrowserResponse> {
    const cookies = [...this.cookies(url)].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookies ? { cookie: cookies } : {}) },
    });
    for (const line of response.headers.getSetCookie()) this.store(url, line);
    return { status: response.status, headers: response.headers, body: await response.text(), url };
  }

  private store(url: string, setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const expired = attributes.some((attribute) => {
      const [key = '', attributeValue = ''] = attribute.split('=');
      if (key.toLowerCase() === 'max-age') return Number(attributeValue) <= 0;
      if (key.toLowerCase() === 'expires') return new Date(attributeValue).getTime() <= Date.now();
      return false;
    });
    const host = new URL(url).hostname;
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    if (expired) cookies.delete(name);
    else cookies.set(name, value);
    this.jar.set(host, cookies);
  }
}

/**
 * Signs in at the provider's development pages as `accountId` and consents, starting from the
 * provider's authorization URL; returns Hookline's callback URL the provider sends the browser to.
 */
export async function signInAtProvider(
  client: CookieClient,
  authorizationUrl: string,
  accountId: string,
  callbackPrefix: string,
): Promise<URL> {
  const arrivesAtCallback = (location: URL) => location.href.startsWith(callbackPrefix);
  let response = await client.followUntil(authorizationUrl, arrivesAtCallback);
  for (let pages = 0; pages < 4; pages++) {
    const location = response.headers.get('location');
    if (location && arrivesAtCallback(new URL(location, response.url))) return new URL(location, response.url);
    if (response.status !== 200)
      throw new Error(`the provider answered ${response.status} at ${response.url}: ${response.body.slice(0, 500)}`);
    const action = response.body.match(/<form[^>]*action="([^"]+)"/)?.[1];
    const prompt = response.body.match(/name="prompt" value="(\w+)"/)?.[1];
    if (!action || !prompt) throw new Error(`no sign-in or consent form at ${response.url}`);
    const submitted = await client.postForm(new URL(action, response.url).href, {
      prompt,
      ...(prompt === 'login' ? { login: accountId, password: 'any' } : {}),
    });
    const next = submitted.headers.get('location');
    if (!next) throw new Error(`the provider answered ${submitted.status} to the ${prompt} form`);
    response = await client.followUntil(new URL(next, submitted.url).href, arrivesAtCallback);
    if (arrivesAtCallback(new URL(next, submitted.url))) return new URL(next, submitted.url);
  }
  throw new Error('the provider did not send the browser back to Hookline');
}
