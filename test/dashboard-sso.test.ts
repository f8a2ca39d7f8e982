// Single sign-on from the dashboard, in a real browser (Debian's Chromium through playwright-core)
// against a real OpenID Connect provider on a loopback port (oidc-provider, its development login
// and consent pages): the sign-in page offers it when it is configured, and a person whose
// verified email matches an account comes back signed in, on the page they were going to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumRequired,
  closeClean,
  ensureDashboardBuilt,
  hasChromium,
  launchBrowser,
  type Browser,
  CHROMIUM_PATH,
} from './support/browser.ts';
import type { RunningApp, Tenant } from './support/app.ts';
import { useHookline } from './support/fixture.ts';
import { startSingleSignOn, type OidcProvider } from './support/oidc.ts';
import { setUpOwner } from './support/people.ts';

if (!hasChromium && !chromiumRequired) {
  console.warn(`single sign-on browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
}

// Before the app starts: it serves the dashboard only if built.
beforeAll(() => ensureDashboardBuilt());
const hookline = useHookline();

describe.skipIf(!hasChromium && !chromiumRequired)('single sign-on in a browser', () => {
  let provider: OidcProvider;
  let sso: RunningApp;
  let tenant: Tenant;
  let browser: Browser;

  beforeAll(async () => {
    ({ provider, app: sso } = await startSingleSignOn(hookline, {
      'ada-verified': { email: 'ada@example.com', email_verified: true, name: 'Ada at the provider' },
    }));
    tenant = await hookline.createTenant('checkout', sso.app);
    await setUpOwner(sso.app, sso.baseUrl, tenant.organizationId, 'ada@example.com');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('offers single sign-on on the sign-in page, and brings a verified person back signed in where they were going', async () => {
    const tab = await browser.newPage();
    const { page } = tab;
    // The provider's development pages link a web font from the internet: tests reach loopback only.
    await page.route(
      (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
      (route) => route.abort(),
    );
    tab.allow(/status of 401/);
    tab.allow(/net::ERR_FAILED/);
    await page.goto(`${sso.baseUrl}/incidents?status=OPEN`);
    await page.getByRole('heading', { name: 'Sign in to Hookline' }).waitFor();

    await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    // The provider's own pages: its login form, then its consent.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('ada-verified');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    await page
      .locator('button[type="submit"]')
      .filter({ hasText: /continue/i })
      .click();

    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/incidents?status=OPEN');
    const cookies = await browser.context.cookies(sso.baseUrl);
    expect(cookies.find((cookie) => cookie.name === 'hookline_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await closeClean(tab);
  });
});
