// The dashboard (web/, served at `/` by src/http/dashboard.ts): how it is served next to the
// API, then end to end in a real browser (Debian's Chromium through playwright-core) against a
// real Hookline on a fresh database, with a real receiver for webhooks. Screenshots of the
// main pages land in test-results/screenshots (git-ignored) for a person to look at.
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoutes } from '../src/http/dashboard.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { LOCAL_RECEIVERS, type Tenant } from './support/app.ts';
import {
  chromiumRequired,
  ensureDashboardBuilt,
  hasChromium,
  launchBrowser,
  screenshot,
  CHROMIUM_PATH,
  type Browser,
  closeClean,
  openSignedIn,
  type RecordedPage,
} from './support/browser.ts';
import { eventually } from './support/receiver.ts';
import { ownerSessionCookie, PASSWORD, setUpOwner } from './support/people.ts';
import { useHookline } from './support/fixture.ts';

if (!hasChromium && !chromiumRequired) {
  console.warn(`dashboard browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium; CI installs it in .ci/run)`);
}

// Before the app starts: it serves the dashboard only if built.
beforeAll(() => ensureDashboardBuilt());
const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    // Three attempts (two retries) about half a second apart: a failing delivery ends quickly,
    // yet slowly enough to watch its attempts arrive one by one.
    DELIVERY_MAX_RETRIES: '2',
    DELIVERY_BACKOFF_BASE_MS: '300',
    DELIVERY_BACKOFF_FACTOR: '1',
    DELIVERY_TIMEOUT_MS: '3000',
    // A delivery left without its job stays so while a test shows it (no worker pass requeues it).
    DELIVERY_RECONCILE_INTERVAL_MS: '3600000',
  },
  receiver: true,
});

beforeAll(async () => {
  hookline.receiver.respond((request, response) => answer(request.path, response));
});

/** The receiver: /fail* answers 500 until `failing` is cleared, /binary* a body with a NUL byte, everything else 200. */
let failing = true;
function answer(path: string, response: ServerResponse) {
  if (path.startsWith('/binary')) {
    response.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.from('ok\0done'));
  } else if (path.startsWith('/fail') && failing) {
    response.writeHead(500, { 'content-type': 'text/plain' }).end('boom: the receiver is down');
  } else {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  }
}

async function ingest(deployToken: string, body: Record<string, unknown>, path = '/api/ingest/deploy') {
  const response = await fetch(`${hookline.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-deploy-token': deployToken },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { status?: string; deploy_id?: string } };
}

/** Sends a test.ping to the endpoint through the GraphQL API, as the dashboard's Send Test does. */
async function sendTestByApi(endpointId: string): Promise<void> {
  const response = await fetch(`${hookline.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    body: JSON.stringify({ query: 'mutation SendTest($id: ID!) { sendTestEvent(endpointId: $id) { id } }', variables: { id: endpointId } }),
  });
  expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
}

async function createEndpointByApi(url: string, name: string, eventTypes?: string[]): Promise<string> {
  const response = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    body: JSON.stringify({ url, name, eventTypes }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('serving the dashboard', () => {
  it('answers / and client routes with the app, while API paths keep their own answers', async () => {
    for (const path of ['/', '/services', '/webhooks/3f1f0c52-8a3e-4a43-9d8c-0a4cf1b7c1a2', '/incidents?status=OPEN']) {
      const response = await fetch(`${hookline.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await response.text()).toContain('<div id="root"></div>');
    }
    const health = await fetch(`${hookline.baseUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const unknownApi = await fetch(`${hookline.baseUrl}/api/nothing-here`);
    expect(unknownApi.status).toBe(404);
    expect(((await unknownApi.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const missingAsset = await fetch(`${hookline.baseUrl}/assets/missing-0000.js`);
    expect(missingAsset.status).toBe(404);
    await missingAsset.arrayBuffer();
    const graphql = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect(((await graphql.json()) as { data: { viewer: { id: string } } }).data.viewer.id).toBe(hookline.tenant.organizationId);
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const html = await (await fetch(`${hookline.baseUrl}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const response = await fetch(`${hookline.baseUrl}${script}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    // Read to the end: a response left half-read keeps its request open, and so the server.
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('says plainly how to build it when web/dist is missing', async () => {
    const app = Fastify();
    await app.register(dashboardRoutes, { root: '/nonexistent/hookline-web-dist' });
    const response = await app.inject({ method: 'GET', url: '/deploys' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build:web');
    expect((await app.inject({ method: 'GET', url: '/api/x' })).statusCode).toBe(404);
    await app.close();
  });
});

// Skipped on a developer's machine without Chromium; under CI a missing browser is a failure.
describe.skipIf(!hasChromium && !chromiumRequired)('dashboard in a browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (!hasChromium)
      throw new Error(`No Chromium at ${CHROMIUM_PATH}, and CI is set: the dashboard browser tests must run (apt-get install -y chromium)`);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  // A failed test leaves a screenshot of where its tab was, and its tab is closed.
  let current: RecordedPage | undefined;
  afterEach(async (context) => {
    const tab = current;
    current = undefined;
    if (!tab || tab.page.isClosed()) return;
    if (context.task.result?.state === 'fail') {
      const name = `failed-${context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`;
      await screenshot(tab.page, name).catch(() => undefined);
      console.warn(`${name}: console and page errors: ${JSON.stringify(tab.problems())}`);
    }
    await tab.close();
  });

  async function newTab(options?: { viewport?: { width: number; height: number } }): Promise<RecordedPage> {
    current = await browser.newPage(options);
    return current;
  }

  interface SignedInOptions {
    viewport?: { width: number; height: number };
    /** Whose owner signs in; default: the file's tenant. */
    tenant?: Tenant;
    /** Default: the app all tests share. */
    baseUrl?: string;
  }

  /** A tab already signed in (an owner's session cookie in the browser), at `path`. */
  async function signedIn(
    path: string,
    { viewport, tenant = hookline.tenant, baseUrl = hookline.baseUrl }: SignedInOptions = {},
  ): Promise<RecordedPage> {
    const session = await ownerSessionCookie(hookline.app, hookline.baseUrl, tenant.organizationId);
    return openSignedIn(await newTab({ viewport }), session, `${baseUrl}${path}`);
  }

  it('signs in with an email and password (a wrong one refused next to the fields), keeps nothing in storage, stays signed in in a new tab, and signs out', async () => {
    const email = `ana-${hookline.tenant.organizationId}@example.test`;
    await setUpOwner(hookline.app, hookline.baseUrl, hookline.tenant.organizationId, email);
    await browser.context.clearCookies();
    const tab = await newTab();
    const { page } = tab;
    // Signed out, the dashboard's first question (who is signed in?) is answered 401.
    tab.allow(/status of 401/);
    await page.goto(`${hookline.baseUrl}/webhooks`);
    await page.getByRole('heading', { name: 'Sign in to Hookline' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    await screenshot(page, '01-sign-in');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That email and password do not match an account.').waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back where the visitor was going.
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/webhooks');
    // The session is an HttpOnly cookie: no script sees it, and nothing is kept in storage.
    expect(await page.evaluate(() => [document.cookie, window.sessionStorage.length, window.localStorage.length])).toEqual(['', 0, 0]);
    const [cookie] = await browser.context.cookies(hookline.baseUrl);
    expect(cookie).toMatchObject({ name: 'hookline_session', httpOnly: true, sameSite: 'Lax' });

    // A deep link opened in a new tab is signed in too.
    const other = await browser.newPage();
    await other.page.goto(`${hookline.baseUrl}/incidents?status=OPEN`);
    await other.page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    expect(new URL(other.page.url()).search).toBe('?status=OPEN');
    await closeClean(other);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to Hookline' }).waitFor();
    // Ended on the server: the cookie no longer signs anything in.
    const afterSignOut = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${cookie!.name}=${cookie!.value}` },
      body: JSON.stringify({ query: '{ me { role } }' }),
    });
    expect(afterSignOut.status).toBe(401);
    await closeClean(tab);
  });

  it('creates a service and shows its deploy token once, with a copy button; rotating it stops the old token at once', async () => {
    const tab = await signedIn('/services');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Services', level: 1 }).waitFor();

    // The API's refusal (a name already taken) is shown next to the field.
    await page.getByLabel('Name').fill('checkout');
    await page.getByRole('button', { name: 'Create service' }).click();
    await page
      .locator('.field-error')
      .getByText(/already|taken|exists/i)
      .waitFor();

    await page.getByLabel('Name').fill('payments');
    await page.getByRole('button', { name: 'Create service' }).click();
    const secret = page.getByTestId('secret-once');
    await secret.getByText('it will not be shown again').waitFor();
    await secret.getByText('Hookline keeps only a hash of it.').waitFor();
    const token = await secret.getByTestId('secret-value').inputValue();
    expect(token).toMatch(/^hld_[0-9A-Za-z]{40}$/);
    await secret.getByRole('button', { name: 'Copy' }).click();
    await secret.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(page, '02-service-token-once');

    await secret.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('link', { name: 'payments' }).waitFor();
    expect(await page.getByTestId('secret-once').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    expect((await ingest(token, { commit_sha: 'aaa111', environment: 'production' })).status).toBe(200);

    // Service page: Rotate token, confirmed in a dialog that says what happens.
    await page.getByRole('link', { name: 'payments' }).click();
    await page.getByRole('heading', { name: 'payments', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Rotate token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The current token stops working at once.').waitFor();
    await dialog.getByRole('button', { name: 'Rotate token now' }).click();
    const rotated = await page.getByTestId('secret-once').getByTestId('secret-value').inputValue();
    expect(rotated).toMatch(/^hld_/);
    expect(rotated).not.toBe(token);
    expect((await ingest(token, { commit_sha: 'bbb222' })).status).toBe(401);
    expect((await ingest(rotated, { commit_sha: 'bbb222', environment: 'production' })).status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await page.locator('table').getByText('bbb222').waitFor();
    await screenshot(page, '03-service-detail');
    await closeClean(tab);
  });

  it("makes a service's GitHub webhook secret, shown once with the Payload URL, which GitHub's signed deliveries then pass", async () => {
    const tab = await signedIn(`/services/${hookline.tenant.serviceId}`);
    const { page } = tab;
    await page.getByText('none yet').waitFor();
    await page.getByRole('button', { name: 'Make GitHub secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make secret' }).click();
    const shown = page.getByTestId('secret-once');
    await shown.getByText("Hookline keeps it to check GitHub's signatures").waitFor();
    const secret = await shown.getByLabel('Secret', { exact: true }).inputValue();
    const payloadUrl = await shown.getByLabel('Payload URL').inputValue();
    expect(secret).toMatch(/^hlg_[0-9A-Za-z]{40}$/);
    expect(payloadUrl).toBe(`${hookline.baseUrl}/api/ingest/github?service=${hookline.tenant.serviceId}`);
    await screenshot(page, '03b-service-github-secret');

    const body = JSON.stringify({ zen: 'Design for failure.', hook_id: 1 });
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const ping = await fetch(payloadUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-hub-signature-256': signature },
      body,
    });
    expect(ping.status).toBe(200);

    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByText(/^made /).waitFor();
    await page.getByRole('button', { name: 'Replace GitHub secret' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await closeClean(tab);
  });

  it('adds an endpoint (validated, secret shown once), then Send Test: the delivery turns SUCCEEDED in the live log', async () => {
    const tab = await signedIn('/webhooks');
    const { page } = tab;
    await page.getByRole('button', { name: 'Add Endpoint' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add Endpoint' }) });

    // The API's rules, checked before sending.
    await form.getByLabel('Endpoint URL').fill('not a url');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await form.getByText('URL must be a valid absolute address').waitFor();
    await form.getByText('Name must be 1 to 200 characters.').waitFor();

    // Each event's checkbox sits on the line of its name (the middle of one within 2 px of the other's).
    const checkboxes = form.getByRole('checkbox');
    expect(await checkboxes.count()).toBe(6);
    for (const checkbox of await checkboxes.all()) {
      const box = (await checkbox.boundingBox())!;
      const name = (await checkbox.locator('xpath=ancestor::label[1]').locator('.mono').boundingBox())!;
      expect(
        Math.abs(box.y + box.height / 2 - (name.y + name.height / 2)),
        await checkbox.evaluate((e) => e.parentElement?.textContent),
      ).toBeLessThanOrEqual(2);
    }
    await screenshot(page, '16-add-endpoint-form');

    await form.getByLabel('Endpoint URL').fill(`${hookline.receiver.url}/ok`);
    await form.getByLabel('Name').fill('Receiver OK');
    await form.getByLabel(/deploy\.ingested/).check();
    await form.getByLabel(/test\.ping/).check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByTestId('secret-once');
    await secret.getByText('it will not be shown again').waitFor();
    expect(await secret.getByTestId('secret-value').inputValue()).toMatch(/^whsec_/);
    // A signing secret is kept in clear (HMAC needs it), unlike tokens: the box says so.
    const warning = await secret.locator('.warning').textContent();
    expect(warning).not.toContain('hash');
    expect(warning).toContain('Hookline keeps it to sign deliveries');
    await screenshot(page, '04-endpoint-secret-once');
    await secret.getByRole('button', { name: 'I have copied it' }).click();

    const card = page.locator('li.endpoint-card', { hasText: 'Receiver OK' });
    await card.locator('[data-status="ACTIVE"]').waitFor();
    await card.getByRole('link', { name: 'Receiver OK' }).click();
    await page.getByRole('heading', { name: 'Receiver OK', level: 1 }).waitFor();
    await page.getByText('No deliveries yet.').waitFor();
    await page.locator('[data-live="live"]').waitFor();

    // The log listens on the WebSocket; Send Test's delivery goes PENDING → SUCCEEDED in place.
    await page.getByRole('button', { name: 'Send Test' }).click();
    await page.getByText(/Test event queued/).waitFor();
    const delivery = page.locator('li.delivery', { hasText: 'test.ping' });
    await delivery.and(page.locator('[data-status="SUCCEEDED"]')).waitFor();
    const [request] = await hookline.receiver.waitForRequests(1, { path: '/ok' });
    expect(request!.headers['x-service-event']).toBe('test.ping');
    expect(await delivery.getAttribute('data-delivery-id')).toBe(request!.headers['x-service-delivery']);
    // ...and it got there through the subscription.
    const viaSubscription = () =>
      tab.webSocketFrames().some((frame) => frame.includes('"deliveryUpdated"') && frame.includes('"SUCCEEDED"'));
    await eventually(async () => (viaSubscription() ? true : undefined), 10_000, 'a deliveryUpdated frame with SUCCEEDED');

    // A delivery made elsewhere (a deploy ingested by CI) appears without a reload.
    const url = page.url();
    expect((await ingest(hookline.tenant.deployToken, { commit_sha: 'ccc333', environment: 'production' })).status).toBe(200);
    await page.locator('li.delivery[data-status="SUCCEEDED"]', { hasText: 'deploy.ingested' }).waitFor();
    expect(page.url()).toBe(url);
    await page.locator('li.delivery', { hasText: 'deploy.ingested' }).getByText('Attempts (1)').click();
    await page.locator('li.delivery', { hasText: 'deploy.ingested' }).locator('li.attempt').getByText('HTTP 200').waitFor();
    await screenshot(page, '05-endpoint-live-log');
    await closeClean(tab);
  });

  it("shows a failing endpoint's attempts one by one as they happen, and retries a failed delivery", async () => {
    failing = true;
    const id = await createEndpointByApi(`${hookline.receiver.url}/fail`, 'Flaky receiver', ['test.ping']);
    const tab = await signedIn(`/webhooks/${id}`);
    const { page } = tab;
    await page.getByRole('heading', { name: 'Flaky receiver', level: 1 }).waitFor();
    await page.getByText('No deliveries yet.').waitFor();
    // Every value the delivery's attempt count takes in the DOM, in order.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { attemptsSeen: string[] }).attemptsSeen = seen;
      const record = () => {
        const value = document.querySelector('li.delivery')?.getAttribute('data-attempts');
        if (value != null && seen.at(-1) !== value) seen.push(value);
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-attempts'],
      });
    });

    await page.getByRole('button', { name: 'Send Test' }).click();
    const delivery = page.locator('li.delivery').first();
    await delivery.and(page.locator('[data-status="FAILED"]')).waitFor({ timeout: 15_000 });
    const seen = await page.evaluate(() => (window as unknown as { attemptsSeen: string[] }).attemptsSeen);
    expect(seen.filter((value) => value !== '0')).toEqual(['1', '2', '3']);
    expect(await delivery.locator('li.attempt').count()).toBe(3);
    await delivery.locator('li.attempt[data-attempt="3"]').getByText('HTTP 500').waitFor();
    await delivery.locator('li.attempt[data-attempt="1"]').getByText('boom: the receiver is down').waitFor();
    // The endpoint's own record follows: one failed delivery in a row, none retrying any more.
    await page.locator('dl.facts dt:text-is("Failed deliveries in a row") + dd:text-is("1")').waitFor();
    await page.locator('dl.facts dt:text-is("Retrying now") + dd:text-is("none")').waitFor();
    await screenshot(page, '06-endpoint-failed-attempts');

    // Retry, now that the receiver is back: a fourth attempt, SUCCEEDED.
    failing = false;
    await delivery.getByRole('button', { name: 'Retry' }).click();
    await delivery.and(page.locator('[data-status="SUCCEEDED"]')).waitFor({ timeout: 15_000 });
    expect(await delivery.getAttribute('data-attempts')).toBe('4');
    failing = true;
    await closeClean(tab);
  });

  it('toggles an endpoint inactive and active, re-enables a disabled one, and deletes one after a confirmation', async () => {
    const id = await createEndpointByApi(`${hookline.receiver.url}/toggle`, 'Toggle me');
    const disabledId = await createEndpointByApi(`${hookline.receiver.url}/disabled`, 'Disabled one');
    // One delivery that succeeded, for the success rate below.
    const okId = await createEndpointByApi(`${hookline.receiver.url}/toggle-ok`, 'Toggle OK');
    await sendTestByApi(okId);
    await eventually(async () =>
      (await hookline.app.database.prisma.delivery.count({ where: { endpointId: okId, status: 'SUCCEEDED' } })) === 1 ? true : undefined,
    );
    await hookline.app.database.prisma.webhookEndpoint.update({
      where: { id: disabledId },
      data: { status: 'DISABLED', disabledAt: new Date(), disabledReason: '10 consecutive deliveries failed', consecutiveFailures: 10 },
    });
    const tab = await signedIn('/webhooks');
    const { page } = tab;
    const card = page.locator(`li.endpoint-card[data-endpoint-id="${id}"]`);
    const toggle = card.getByRole('switch', { name: 'Active' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await card.locator('[data-status="INACTIVE"]').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await card.getByRole('button', { name: 'Send Test' }).isDisabled()).toBe(true);
    await toggle.click();
    await card.locator('[data-status="ACTIVE"]').waitFor();

    // Each endpoint's success rate over the last 24 hours.
    const rate = page.locator(`li.endpoint-card[data-endpoint-id="${okId}"]`).getByTestId('success-rate');
    expect(await rate.textContent()).toBe('100 % (1 of 1 finished)');

    const disabled = page.locator(`li.endpoint-card[data-endpoint-id="${disabledId}"]`);
    await disabled.getByText('10 consecutive deliveries failed').waitFor();
    await screenshot(page, '07-webhooks');
    await disabled.getByRole('button', { name: 'Re-enable' }).click();
    await disabled.locator('[data-status="ACTIVE"]').waitFor();
    const reenabled = await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: disabledId } });
    expect(reenabled).toMatchObject({ status: 'ACTIVE', consecutiveFailures: 0 });

    // Rotate the signing secret: confirmed, then the new one shown once.
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByText('During the overlap deliveries also carry a signature made with the current one').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    const secret = card.getByTestId('secret-once');
    expect(await secret.getByTestId('secret-value').inputValue()).toMatch(/^whsec_/);
    expect(await secret.locator('.warning').textContent()).not.toContain('hash');
    await secret.getByRole('button', { name: 'I have copied it' }).click();
    await secret.waitFor({ state: 'detached' });

    // The confirmation is a modal dialog: focus starts on Cancel, Escape backs out.
    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This cannot be undone.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await card.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await card.waitFor({ state: 'detached' });
    const deleted = await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(deleted.deletedAt).not.toBeNull();
    await closeClean(tab);
  });

  it('lists deploys with filters, and shows a deploy with its commits, authors and previous deploy', async () => {
    const base = Date.now() - 3 * 3600_000;
    await ingest(hookline.tenant.deployToken, {
      commit_sha: 'd1d1d1d1',
      environment: 'staging',
      version: 'v1.0.0',
      deployed_at: new Date(base).toISOString(),
    });
    await ingest(hookline.tenant.deployToken, {
      commit_sha: 'e2e2e2e2',
      environment: 'staging',
      version: 'v1.1.0',
      deployed_by: 'ci-bot',
      deployed_at: new Date(base + 3600_000).toISOString(),
      commits: [
        { sha: 'c0ffee01', message: 'Speed up checkout', author: 'Ada', timestamp: new Date(base + 1800_000).toISOString() },
        { sha: 'c0ffee02', message: 'Fix rounding', author: 'Grace', timestamp: new Date(base + 2400_000).toISOString() },
      ],
    });
    const tab = await signedIn('/deploys');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Deploys', level: 1 }).waitFor();
    await page.getByLabel('Service').selectOption({ label: 'checkout' });
    await page.getByLabel('Environment').fill('staging');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.waitForURL(/environment=staging/);
    const cards = page.locator('li.deploy-card');
    await eventually(async () => ((await cards.count()) === 2 ? true : undefined), 5000, 'two staging deploys');
    await screenshot(page, '08-deploys');

    await cards.first().getByRole('link').first().click();
    await page.getByRole('heading', { name: /e2e2e2e2/ }).waitFor();
    await page.getByText('Ada, Grace').waitFor();
    await page.getByRole('link', { name: /d1d1d1d1/ }).waitFor();
    // The commits once, in one table, each with its lead time (deploy time − commit time).
    const commits = page.getByRole('region', { name: 'Commits in this deploy' });
    await commits.getByRole('row', { name: /c0ffee01 Speed up checkout Ada .* 30 min/ }).waitFor();
    await commits.getByRole('row', { name: /c0ffee02 Fix rounding Grace .* 20 min/ }).waitFor();
    expect(await page.getByText('c0ffee01').count()).toBe(1);
    expect(await page.getByText('Fix rounding').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Commits in this deploy', 'Suspect in incidents']);
    await screenshot(page, '09-deploy-detail');

    // A deploy sent without a commit list: its head commit stands for the change, marked as such.
    await page.getByRole('link', { name: /d1d1d1d1/ }).click();
    await page.getByRole('heading', { name: /d1d1d1d1/ }).waitFor();
    await commits.getByRole('row', { name: /d1d1d1d1 \(head commit\)/ }).waitFor();
    await page.getByText('The pipeline sent no commit list: the deployed head commit stands for the change.').waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Commits in this deploy', 'Suspect in incidents']);
    await closeClean(tab);
  });

  it('opens an incident, shows its ranked suspects with scores and reasons, takes a verdict, acknowledges and resolves it', async () => {
    await ingest(hookline.tenant.deployToken, {
      commit_sha: 'f00dbabe',
      environment: 'production',
      version: 'v2.0.0',
      commit_message: 'Switch payment provider',
    });
    const tab = await signedIn('/incidents');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open incident' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Open incident' }) });
    await form.getByRole('button', { name: 'Open incident' }).click();
    await form.getByText('Choose the service that is broken.').waitFor();
    await form.getByLabel('Service').selectOption({ label: 'checkout' });
    await form.getByLabel('Title').fill('Checkout errors above 5 %');
    await form.getByLabel('Severity').selectOption('SEV2');
    await form.getByLabel('Environment').fill('production');
    await form.getByRole('button', { name: 'Open incident' }).click();

    await page.getByRole('heading', { name: 'Checkout errors above 5 %', level: 1 }).waitFor();
    await page.locator('.page-header [data-status="OPEN"]').waitFor();
    const suspects = page.getByRole('table', { name: 'Suspects' }).locator('tr.suspect');
    await suspects.first().waitFor();
    const top = suspects.filter({ hasText: 'f00dbabe' });
    await top.waitFor();
    expect(await top.locator('[data-score]').textContent()).toMatch(/^\d{1,3} %$/);
    await top.getByRole('button', { name: /^Details/ }).click();
    expect(await page.locator('.suspect-reasons ul.reasons li').count()).toBeGreaterThan(0);

    await top.getByRole('button', { name: 'Caused it' }).click();
    await page.locator('tr.suspect[data-verdict="CAUSED"]').first().waitFor();
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('.page-header [data-status="ACKNOWLEDGED"]').waitFor();
    await screenshot(page, '10-incident');
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.locator('.page-header [data-status="RESOLVED"]').waitFor();
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Incidents', exact: true }).first().click();
    await page.locator('table').getByText('Checkout errors above 5 %').waitFor();
    await screenshot(page, '11-incidents');
    await closeClean(tab);
  });

  it('shows the four DORA keys of a service with a chart of deploys per day', async () => {
    const tab = await signedIn(`/dora?service=${hookline.tenant.serviceId}&days=7`);
    const { page } = tab;
    await page.getByRole('heading', { name: 'Deployment frequency' }).waitFor();
    for (const key of ['Lead time for changes', 'Change failure rate', 'Time to restore'])
      await page.getByRole('heading', { name: key }).waitFor();
    const chart = page.locator('figure.bar-chart svg[role="img"]');
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toMatch(/\d+ deploys in 7 days/);
    // One bar per UTC day the 7 × 24 hours touch: 8, the first and last cut to the period (7 when it starts at midnight UTC).
    const from = Date.parse((await page.getByRole('list', { name: 'The four keys' }).getAttribute('data-from'))!);
    expect(await chart.locator('rect.bar').count()).toBe(from % 86_400_000 === 0 ? 7 : 8);
    await screenshot(page, '12-dora');
    await closeClean(tab);
  });

  it('shows the whole navigation at 420 px wide', async () => {
    const tab = await signedIn('/services', { viewport: { width: 420, height: 800 } });
    const { page } = tab;
    await page.getByRole('heading', { name: 'Services', level: 1 }).waitFor();
    const header = await page.locator('header.topbar').evaluate((topbar) => {
      const nav = topbar.querySelector('nav')!;
      return {
        hiddenInNav: nav.scrollWidth - nav.clientWidth,
        parts: [...topbar.querySelectorAll('a, button')].map((element) => ({
          text: element.textContent,
          ...(element.getBoundingClientRect().toJSON() as DOMRect),
        })),
      };
    });
    expect(header.hiddenInNav).toBeLessThanOrEqual(0);
    expect(header.parts.map((part) => part.text)).toEqual(
      expect.arrayContaining(['Services', 'Deploys', 'Incidents', 'DORA', 'Integrations › Webhooks', 'API tokens', 'Sign out']),
    );
    for (const part of header.parts) expect(part.left >= 0 && part.right <= 420, `${part.text} at ${part.left}..${part.right}`).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, '18-narrow-navigation');
    await closeClean(tab);
  });

  it('reads a 30-day period as weeks, with every axis label whole and apart', async () => {
    // A service of its own, with deploys 20 and 9 days ago (at noon) and two today.
    const { service, deployToken } = await createService(hookline.app.database.prisma, hookline.tenant.organizationId, 'weekly');
    const today = new Date();
    const noon = (daysAgo: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate() - daysAgo, 12);
    for (const [sha, at] of [
      ['w20', noon(20)],
      ['w9', noon(9)],
      ['w0a', today],
      ['w0b', today],
    ] as const) {
      expect((await ingest(deployToken, { commit_sha: sha, deployed_at: at.toISOString() })).status).toBe(200);
    }
    // Its deploys have no environment: every environment (`*`), not the default production.
    const tab = await signedIn(`/dora?service=${service.id}&days=30&environment=*`);
    const { page } = tab;
    const frequency = page.locator('li.key', { has: page.getByRole('heading', { name: 'Deployment frequency' }) });
    await frequency.getByText('4 deploys in 30 days').waitFor();
    await page.getByRole('heading', { name: 'Deploys per week' }).waitFor();
    const chart = page.locator('figure.bar-chart svg[role="img"]');
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toMatch(/^4 deploys in 30 days; the busiest week was .* with 2\.$/);
    // 30 days = 2 + 4 × 7: the oldest bar covers the 2 days left over, the others a week each, the last ending today.
    const bars = await chart
      .locator('rect.bar')
      .evaluateAll((rects) => rects.map((rect) => rect.querySelector('title')?.textContent ?? ''));
    expect(bars.map((title) => Number(/: (\d+) deploys?$/.exec(title)?.[1]))).toEqual([0, 0, 1, 1, 2]);
    // Every tick label lies inside the chart, and none touches the next.
    const { area, labels } = await chart.evaluate((svg) => ({
      area: svg.getBoundingClientRect().toJSON() as DOMRect,
      labels: [...svg.querySelectorAll('text.tick')].map((text) => ({
        text: text.textContent,
        ...(text.getBoundingClientRect().toJSON() as DOMRect),
      })),
    }));
    expect(labels.length).toBeGreaterThanOrEqual(4);
    for (const label of labels) {
      expect(
        label.left >= area.left && label.right <= area.right,
        `${label.text} at ${label.left}..${label.right} in ${area.left}..${area.right}`,
      ).toBe(true);
      expect(label.height).toBeGreaterThanOrEqual(10);
    }
    const byPosition = [...labels].sort((a, b) => a.left - b.left);
    for (let i = 1; i < byPosition.length; i++)
      expect(byPosition[i]!.left, `${byPosition[i - 1]!.text} / ${byPosition[i]!.text}`).toBeGreaterThan(byPosition[i - 1]!.right + 4);
    await screenshot(page, '17-dora-30-days');
    await closeClean(tab);
  });

  it('shows the deliveries retrying now beside the failed deliveries in a row', async () => {
    const id = await createEndpointByApi(`${hookline.receiver.url}/fail-retrying`, 'Retrying receiver', ['test.ping']);
    // Two deliveries waiting for their next attempt after 1 and 2 failed ones, and one not attempted yet.
    const prisma = hookline.app.database.prisma;
    const event = await prisma.event.create({ data: { organizationId: hookline.tenant.organizationId, type: 'test.ping', data: {} } });
    const nextAttemptAt = new Date(Date.now() + 600_000);
    for (const failedAttempts of [1, 2, 0]) {
      await prisma.delivery.create({
        data: {
          organizationId: hookline.tenant.organizationId,
          eventId: event.id,
          createdAt: event.createdAt,
          eventType: event.type,
          endpointId: id,
          status: 'PENDING',
          attemptCount: failedAttempts,
          nextAttemptAt,
          attempts: {
            create: Array.from({ length: failedAttempts }, (_, index) => ({
              endpointId: id,
              number: index + 1,
              succeeded: false,
              startedAt: new Date(),
              durationMs: 12,
              responseStatus: 500,
              responseBody: 'boom: the receiver is down',
            })),
          },
        },
      });
    }
    const tab = await signedIn('/webhooks');
    const { page } = tab;
    const card = page.locator(`li.endpoint-card[data-endpoint-id="${id}"]`);
    await card.locator('dt:text-is("Failed deliveries in a row") + dd:text-is("0")').waitFor();
    await card.locator('dt:text-is("Retrying now") + dd:text-is("2 deliveries")').waitFor();
    await screenshot(page, '19-endpoint-retrying');
    await card.getByRole('link', { name: 'Retrying receiver' }).click();
    await page.locator('dl.facts dt:text-is("Failed deliveries in a row") + dd:text-is("0")').waitFor();
    await page.locator('dl.facts dt:text-is("Retrying now") + dd:text-is("2 deliveries")').waitFor();
    await closeClean(tab);
  });

  it("states the server's destination rules in the URL hint, and only those", async () => {
    // The shared app allows plain http and private addresses (its receivers are on loopback).
    const lenient = await signedIn('/webhooks');
    await lenient.page.getByRole('button', { name: 'Add Endpoint' }).click();
    const hint = (tab: RecordedPage) => tab.page.locator('form .field', { has: tab.page.getByLabel('Endpoint URL') }).locator('.help');
    await hint(lenient)
      .getByText('At most 2048 characters. This server also accepts http and private or local network addresses.')
      .waitFor();
    expect(await hint(lenient).textContent()).not.toMatch(/An https address|not a private/);
    await closeClean(lenient);

    // A server with the production defaults: https only, public destinations only.
    const strict = await hookline.startApp({ ROLE: 'api' });
    try {
      const tab = await signedIn('/webhooks', { baseUrl: strict.baseUrl });
      const { page } = tab;
      await page.getByRole('button', { name: 'Add Endpoint' }).click();
      await hint(tab).getByText('An https address, at most 2048 characters, that is not a private or local network address.').waitFor();
      const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add Endpoint' }) });
      await form.getByLabel('Endpoint URL').fill('http://hooks.example.com/hookline');
      await form.getByLabel('Name').fill('Plain http');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await form.getByText('URL must use https.').waitFor();
      await screenshot(page, '20-endpoint-hint-strict');
      await closeClean(tab);
    } finally {
      await strict.close();
    }
  });

  it("edits an endpoint's URL, name and events", async () => {
    const id = await createEndpointByApi(`${hookline.receiver.url}/before`, 'Before edit', ['deploy.ingested']);
    const tab = await signedIn(`/webhooks/${id}`);
    const { page } = tab;
    await page.getByRole('heading', { name: 'Before edit', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Edit endpoint' }) });
    expect(await form.getByLabel('Endpoint URL').inputValue()).toBe(`${hookline.receiver.url}/before`);
    expect(await form.getByLabel('Name').inputValue()).toBe('Before edit');
    expect(await form.getByLabel(/deploy\.ingested/).isChecked()).toBe(true);
    expect(await form.getByLabel(/incident\.opened/).isChecked()).toBe(false);

    // The same rules as when adding, checked before sending.
    await form.getByLabel('Name').fill(' ');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('Name must be 1 to 200 characters.').waitFor();

    await form.getByLabel('Endpoint URL').fill(`${hookline.receiver.url}/after`);
    await form.getByLabel('Name').fill('After edit');
    await form.getByLabel(/deploy\.ingested/).uncheck();
    await form.getByLabel(/incident\.opened/).check();
    await screenshot(page, '21-edit-endpoint');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'After edit', level: 1 }).waitFor();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText('Endpoint saved.').waitFor();
    await page.locator(`dl.facts dd:text-is("${hookline.receiver.url}/after")`).waitFor();
    await page.locator('dl.facts dt:text-is("Events") + dd:text-is("incident.opened")').waitFor();
    const stored = await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ url: `${hookline.receiver.url}/after`, name: 'After edit', eventTypes: ['incident.opened'] });

    // No event chosen means every event; Cancel changes nothing.
    await page.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel(/incident\.opened/).uncheck();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('dl.facts dt:text-is("Events") + dd:text-is("all events")').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel('Name').fill('Not saved');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'After edit', level: 1 }).waitFor();
    expect((await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } })).eventTypes).toEqual([]);
    await closeClean(tab);
  });

  it("sets an endpoint's custom headers, timeout and rate limit, with the API's refusals next to the fields", async () => {
    const id = await createEndpointByApi(`${hookline.receiver.url}/settings`, 'Settings', ['test.ping']);
    const tab = await signedIn(`/webhooks/${id}`);
    const { page } = tab;
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Edit endpoint' }) });
    await form.getByText("100 to 3000 ms; empty: the server's 3000 ms.").waitFor();
    await form.getByLabel('Custom headers').fill('Host: example.com\nX-Team: payments');
    await form.getByLabel('Timeout (ms)').fill('5000');
    await form.getByLabel('Rate limit (deliveries per second)').fill('5');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('Line 1 (name): host is set by Hookline or by the connection and cannot be changed.').waitFor();
    await form.getByText('Must be 100 to 3000 milliseconds (the server maximum).').waitFor();
    await screenshot(page, 'delivery-02-endpoint-settings-refused');

    await form.getByLabel('Custom headers').fill('X-Team: payments\nAuthorization: Bearer receiver-token');
    await form.getByLabel('Timeout (ms)').fill('2000');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached' });
    await page
      .locator('dl.facts dt:text-is("Custom headers") + dd:text-is("X-Team: payments, Authorization: Bearer receiver-token")')
      .waitFor();
    await page.locator('dl.facts dt:text-is("Timeout") + dd:text-is("2000 ms")').waitFor();
    await page.locator('dl.facts dt:text-is("Rate limit") + dd:text-is("5 deliveries per second")').waitFor();
    expect(await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } })).toMatchObject({
      customHeaders: [
        { name: 'X-Team', value: 'payments' },
        { name: 'Authorization', value: 'Bearer receiver-token' },
      ],
      timeoutMs: 2000,
      rateLimitPerSecond: 5,
    });
    await page.getByRole('button', { name: 'Send Test' }).click();
    const [request] = await hookline.receiver.waitForRequests(1, { path: '/settings' });
    expect(request!.headers).toMatchObject({ 'x-team': 'payments', authorization: 'Bearer receiver-token' });
    await screenshot(page, 'delivery-03-endpoint-settings');
    await closeClean(tab);
  });

  it('recovers the failed deliveries of a window after an outage, and resends a succeeded one, live in the log', async () => {
    failing = true;
    const id = await createEndpointByApi(`${hookline.receiver.url}/fail-recover`, 'Recovering receiver', ['test.ping']);
    const tab = await signedIn(`/webhooks/${id}`);
    const { page } = tab;
    await page.getByRole('heading', { name: 'Recovering receiver', level: 1 }).waitFor();
    await sendTestByApi(id);
    await sendTestByApi(id);
    await page.locator('li.delivery[data-status="FAILED"]').nth(1).waitFor({ timeout: 15_000 });

    failing = false;
    const recover = page.locator('form', { has: page.getByRole('heading', { name: 'Recover failed deliveries' }) });
    await recover.getByRole('button', { name: 'Recover' }).click();
    await recover.getByText('2 deliveries queued again.').waitFor();
    await page.locator('li.delivery[data-status="SUCCEEDED"][data-attempts="4"]').nth(1).waitFor({ timeout: 15_000 });
    const failedIds = new Set(
      hookline.receiver.requests.filter((request) => request.path === '/fail-recover').map((request) => request.headers['webhook-id']),
    );
    expect(failedIds.size).toBe(2);

    const delivery = page.locator('li.delivery').first();
    const deliveryId = await delivery.getAttribute('data-delivery-id');
    await delivery.getByRole('button', { name: 'Resend' }).click();
    await page
      .locator(`li.delivery[data-delivery-id="${deliveryId}"][data-status="SUCCEEDED"][data-attempts="5"]`)
      .waitFor({ timeout: 15_000 });
    const sent = hookline.receiver.requests.filter((request) => request.headers['webhook-id'] === deliveryId);
    expect(sent.map((request) => request.path)).toEqual(Array(5).fill('/fail-recover'));
    await screenshot(page, 'delivery-01-recover-resend');
    failing = true;
    await closeClean(tab);
  });

  it('shows a delivery that lost its queued attempt as overdue, queues it again, and shows a body that is not text', async () => {
    const id = await createEndpointByApi(`${hookline.receiver.url}/binary-overdue`, 'Overdue receiver', ['test.ping']);
    const prisma = hookline.app.database.prisma;
    const event = await prisma.event.create({ data: { organizationId: hookline.tenant.organizationId, type: 'test.ping', data: {} } });
    // PENDING without a job (as after pg-boss dropped it), due ten minutes ago.
    const stranded = await prisma.delivery.create({
      data: {
        organizationId: hookline.tenant.organizationId,
        eventId: event.id,
        createdAt: event.createdAt,
        eventType: event.type,
        endpointId: id,
        status: 'PENDING',
        nextAttemptAt: new Date(Date.now() - 600_000),
      },
    });
    const tab = await signedIn(`/webhooks/${id}`);
    const { page } = tab;
    await page.locator('dl.facts dt:text-is("Overdue") + dd:text-is("1 delivery")').waitFor();
    const item = page.locator(`li.delivery[data-delivery-id="${stranded.id}"]`);
    await page.locator(`li.delivery[data-delivery-id="${stranded.id}"][data-status="PENDING"]`).waitFor();
    await screenshot(page, 'delivery-02-overdue');
    await item.getByRole('button', { name: 'Queue again' }).click();
    await page
      .locator(`li.delivery[data-delivery-id="${stranded.id}"][data-status="SUCCEEDED"][data-attempts="1"]`)
      .waitFor({ timeout: 15_000 });
    await page.locator('dl.facts dt:text-is("Overdue") + dd:text-is("none")').waitFor();
    await item.getByText('Attempts (1)').click();
    await item.getByText('Not UTF-8 text: other bytes are shown as \\xNN.').waitFor();
    await item.getByLabel('Response body of attempt 1').getByText('ok\\x00done', { exact: true }).waitFor();
    expect(hookline.receiver.requests.filter((request) => request.headers['webhook-id'] === stranded.id)).toHaveLength(1);
    await closeClean(tab);
  });

  it('lists, creates and revokes API tokens', async () => {
    // An organization of its own: this test counts its tokens.
    const own = await hookline.createTenant('tokens');
    const viewerStatus = async (token: string) =>
      (
        await fetch(`${hookline.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: '{ viewer { id } }' }),
        })
      ).status;
    const tab = await signedIn('/services', { tenant: own });
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    const table = page.getByRole('region', { name: 'API tokens' });
    const rows = table.locator('tbody tr');
    await rows.filter({ hasText: own.apiToken.slice(0, 12) }).waitFor();
    expect(await rows.count()).toBe(1);
    // Only this organization's tokens.
    expect(await page.content()).not.toContain(hookline.tenant.apiToken.slice(0, 12));

    await page.getByRole('button', { name: 'Create token' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Create an API token' }) });
    await form.getByLabel('Name').fill('CI pipeline');
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = page.getByTestId('secret-once');
    await secret.getByText('it will not be shown again').waitFor();
    await secret.getByText('Hookline keeps only a hash of it.').waitFor();
    const created = await secret.getByTestId('secret-value').inputValue();
    expect(created).toMatch(/^hla_[0-9A-Za-z]{40}$/);
    expect(await viewerStatus(created)).toBe(200);
    await secret.getByRole('button', { name: 'I have copied it' }).click();
    const ci = rows.filter({ hasText: 'CI pipeline' });
    await ci.getByText(created.slice(0, 12)).waitFor();
    expect(await page.content()).not.toContain(created);
    await screenshot(page, '22-api-tokens');

    // Revoking another token: confirmed, then refused at once.
    await ci.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Requests with this token are refused from now on.').waitFor();
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await ci.getByText(/^Revoked/).waitFor();
    expect(await ci.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect(await viewerStatus(created)).toBe(401);

    expect(await viewerStatus(own.apiToken)).toBe(200);
    await closeClean(tab);
  });

  it('adds an alert source with its token once and the configuration to paste, lists unrouted alerts, and shows the alerts on their incident', async () => {
    const own = await hookline.createTenant('storefront');
    const tab = await signedIn('/services', { tenant: own });
    const { page } = tab;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alert sources' }).click();
    await page.getByRole('heading', { name: 'Alert sources', level: 1 }).waitFor();
    await page.getByText('No alert sources yet.').waitFor();

    await page.getByRole('button', { name: 'Add alert source' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add an alert source' }) });
    await form.getByLabel('Name').fill('Production Alertmanager');
    await form.getByRole('button', { name: 'Add alert source' }).click();
    const secret = page.getByTestId('secret-once');
    await secret.getByText('Hookline keeps only a hash of it.').waitFor();
    const token = await secret.getByTestId('secret-value').inputValue();
    expect(token).toMatch(/^hlk_[0-9A-Za-z]{40}$/);
    const url = `${hookline.baseUrl}/api/ingest/alerts/alertmanager`;
    const alertmanagerConfig = await secret.getByTestId('alertmanager-config').textContent();
    expect(alertmanagerConfig).toContain(`      - url: ${url}\n        send_resolved: true\n`);
    expect(alertmanagerConfig).toContain(`            type: Bearer\n            credentials: ${token}\n`);
    const grafanaConfig = await secret.getByTestId('grafana-config').textContent();
    expect(grafanaConfig).toContain(`          url: ${url}\n`);
    expect(grafanaConfig).toContain(`          authorization_credentials: ${token}\n`);
    await screenshot(page, '40-alert-source-created');
    await secret.getByRole('button', { name: 'I have copied it' }).click();
    const row = page.getByRole('region', { name: 'Alert sources' }).locator('tbody tr').filter({ hasText: 'Production Alertmanager' });
    await row.getByText(token.slice(0, 12)).waitFor();
    await row.getByText('never').waitFor();
    expect(await page.content()).not.toContain(token);

    // Alertmanager sends: one alert names the service, one names none.
    const alert = (fingerprint: string, labels: Record<string, string>) => ({
      status: 'firing',
      labels,
      annotations: { summary: `Storefront ${fingerprint}`, description: 'p99 latency above 2 s for 10 minutes' },
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.example.com/graph?g0.expr=latency',
      fingerprint,
    });
    const sent = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        version: '4',
        groupKey: '{}:{alertname="Latency"}',
        alerts: [alert('slow', { alertname: 'Latency', service: 'storefront' }), alert('lost', { alertname: 'Latency', job: 'cart' })],
      }),
    });
    const answer = await sent.json();
    expect(answer.incidents).toHaveLength(1);
    await page.reload();
    await row.getByText('1', { exact: true }).waitFor();
    const unrouted = page.getByRole('region', { name: 'Unrouted alerts of Production Alertmanager' });
    await unrouted.getByText('{alertname="Latency", job="cart"}').waitFor();
    await unrouted.getByText('No service is named "cart" (label job).', { exact: false }).waitFor();
    await screenshot(page, '41-unrouted-alerts');

    await page.goto(`${hookline.baseUrl}/incidents/${answer.incidents[0].incident_id}`);
    const alerts = page.getByRole('list', { name: 'Alerts' });
    await alerts.getByText('Storefront slow').waitFor();
    await alerts.getByText('p99 latency above 2 s for 10 minutes').waitFor();
    await alerts.getByText('{alertname="Latency", service="storefront"}').waitFor();
    await page.getByRole('link', { name: 'Production Alertmanager' }).waitFor();
    await screenshot(page, '42-incident-alerts');
    await closeClean(tab);
  });

  it('works on a narrow screen and from the keyboard', async () => {
    const tab = await signedIn('/webhooks', { viewport: { width: 390, height: 844 } });
    const { page } = tab;
    await page.locator('li.endpoint-card').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '13-narrow-webhooks');

    // Tab reaches the skip link first, then the navigation; Enter follows a link.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate(() => document.activeElement?.textContent)) === 'Incidents';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    await page.locator('table, .empty').first().waitFor();
    const narrow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(narrow).toBeLessThanOrEqual(0);
    await screenshot(page, '14-narrow-incidents');

    // The delivery log, with its attempts, on the same screen.
    await page.getByRole('link', { name: /Webhooks/ }).click();
    await page.getByRole('link', { name: 'Flaky receiver' }).click();
    const failed = page.locator('li.delivery').first();
    await failed.waitFor();
    if ((await failed.locator('details[open]').count()) === 0) await failed.getByText(/^Attempts/).click();
    await failed.locator('li.attempt').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, '15-narrow-endpoint');
    await closeClean(tab);
  });

  it('edits the dependencies of a service, marks rollbacks in the deploy timeline and on the deploy, lists change events there and among the suspects of an incident', async () => {
    // An organization of its own, so the other tests' deploys do not mix in.
    const shop = await hookline.createTenant('shop');
    const payments = await createService(hookline.app.database.prisma, shop.organizationId, 'payments');
    await createService(hookline.app.database.prisma, shop.organizationId, 'search');
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await ingest(shop.deployToken, { commit_sha: 'aaaa1111', environment: 'production', version: 'v1', deployed_at: ago(180) });
    const { body: badDeploy } = await ingest(shop.deployToken, {
      commit_sha: 'bbbb2222',
      environment: 'production',
      version: 'v2',
      commit_message: 'New cart',
      deployed_at: ago(60),
    });
    const { body: rollbackDeploy } = await ingest(shop.deployToken, {
      commit_sha: 'aaaa1111',
      environment: 'production',
      version: 'v1',
      deployed_at: ago(30),
    });
    await ingest(payments.deployToken, { commit_sha: 'cccc3333', environment: 'production', deployed_at: ago(8) });
    const flip = await ingest(
      shop.deployToken,
      { kind: 'feature_flag', summary: 'one-click-buy on for everyone', environment: 'production', changed_at: ago(4) },
      '/api/ingest/change',
    );
    expect(flip.status).toBe(200);

    const tab = await signedIn(`/services/${shop.serviceId}`, { tenant: shop });
    const { page } = tab;
    await page.getByRole('heading', { name: 'shop', level: 1 }).waitFor();
    await page.getByText('No dependencies recorded.').waitFor();
    await page.getByRole('button', { name: 'Edit dependencies' }).click();
    const editor = page.getByRole('group', { name: 'Services shop depends on' });
    await editor.getByLabel('payments').check();
    await page.getByRole('button', { name: 'Save dependencies' }).click();
    const dependsOn = page.getByRole('list', { name: 'Services shop depends on' });
    await dependsOn.getByRole('link', { name: 'payments' }).waitFor();
    expect(await dependsOn.getByRole('listitem').allTextContents()).toEqual(['payments']);
    await screenshot(page, '16-service-dependencies');
    await dependsOn.getByRole('link', { name: 'payments' }).click();
    await page.getByRole('heading', { name: 'payments', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Services that depend on payments' }).getByRole('link', { name: 'shop' }).waitFor();

    // The timeline: the flag flip among the deploys, the rollback and what it undid marked.
    await page.goto(`${hookline.baseUrl}/deploys?service=${shop.serviceId}`);
    const entries = page.getByRole('list', { name: 'Deploys and changes' }).locator(':scope > li');
    await eventually(async () => ((await entries.count()) === 4 ? true : undefined), 5000, 'four entries of shop');
    const texts = await entries.allTextContents();
    expect(texts[0]).toMatch(/^feature_flagone-click-buy on for everyone/);
    expect(texts[1]).toMatch(/^aaaa1111 · v1rollback/);
    expect(texts[2]).toMatch(/^bbbb2222 · v2rolled back/);
    expect(texts[3]).toMatch(/^aaaa1111 · v1\w/);
    await screenshot(page, '17-deploy-timeline');
    await entries.nth(1).getByRole('link').first().click();
    await page.getByRole('heading', { name: /aaaa111/, level: 1 }).waitFor();
    await page.getByText(/Brings back aaaa1111 · v1 of .*; a rollback is not a suspect of incidents\./).waitFor();
    await page.goto(`${hookline.baseUrl}/deploys/${badDeploy.deploy_id}`);
    await page.getByText(/By aaaa1111 · v1 at .*; it counts as a failed change\./).waitFor();
    expect(rollbackDeploy.deploy_id).not.toBe(badDeploy.deploy_id);

    // An incident: the flag flip first, the upstream deploy with its reason, the rolled-back deploy kept, the rollback absent.
    await page.goto(`${hookline.baseUrl}/incidents`);
    await page.getByRole('button', { name: 'Open incident' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Open incident' }) });
    await form.getByLabel('Service').selectOption({ label: 'shop' });
    await form.getByLabel('Title').fill('Orders failing');
    await form.getByLabel('Environment').fill('production');
    await form.getByRole('button', { name: 'Open incident' }).click();
    await page.getByRole('heading', { name: 'Orders failing', level: 1 }).waitFor();
    const suspects = page.getByRole('table', { name: 'Suspects' }).locator('tr.suspect');
    await eventually(async () => ((await suspects.count()) === 4 ? true : undefined), 5000, 'four suspects');
    // A suspect's details (message or summary, every reason) unfold below its line.
    const details = (suspect: ReturnType<typeof suspects.nth>) =>
      suspect.locator('xpath=following-sibling::tr[1][contains(@class, "suspect-details")]');
    for (const suspect of await suspects.all()) await suspect.getByRole('button', { name: /^Details/ }).click();
    expect(await suspects.nth(0).locator('.tag.change').textContent()).toBe('feature_flag');
    await details(suspects.nth(0)).getByText('one-click-buy on for everyone', { exact: true }).waitFor();
    await details(suspects.nth(0)).locator('li[data-code="change_event"]').waitFor();
    const upstream = suspects.filter({ hasText: 'cccc3333' });
    // Each reason with the score points it moved (a gate below 1 takes some away).
    expect(await details(upstream).locator('li[data-code="upstream_dependency"]').textContent()).toMatch(
      /^the incident's service depends on payments directly \(−\d+\)$/,
    );
    const undone = suspects.filter({ hasText: 'bbbb2222' });
    await undone.locator('.tag.warning', { hasText: 'rolled back' }).waitFor();
    await details(undone).locator('li[data-code="rolled_back"]').waitFor();
    expect(await suspects.filter({ has: page.locator('.tag.rollback') }).count()).toBe(0);
    await suspects.nth(0).getByRole('button', { name: 'Caused it' }).click();
    await page
      .locator('tr.suspect[data-verdict="CAUSED"]')
      .filter({ has: page.locator('.tag.change') })
      .waitFor();
    await screenshot(page, '18-incident-change-suspect');
    // The rollback's health: the incident came within the hour after it, nothing in the hour before.
    await page.goto(`${hookline.baseUrl}/deploys/${rollbackDeploy.deploy_id}`);
    await page.getByText('Hour after: 0 alerts, 1 incident (hour before: 0 alerts, 0 incidents)').waitFor();
    await closeClean(tab);
  });

  it('lists the environments by the names sent, sets aliases (refusals next to the form), and the deploy filter follows them', async () => {
    const team = await hookline.createTenant('team');
    await ingest(team.deployToken, { commit_sha: 'prod1111', environment: 'prod' });
    await ingest(team.deployToken, { commit_sha: 'live2222', environment: 'Production' });
    await ingest(team.deployToken, { commit_sha: 'stag3333', environment: 'staging' });

    const tab = await signedIn('/deploys', { tenant: team });
    const { page } = tab;
    await page.getByRole('link', { name: 'Environments and aliases' }).click();
    await page.getByRole('heading', { name: 'Environments', level: 1 }).waitFor();
    const rows = page.getByRole('region', { name: 'Environments' }).locator('tbody tr');
    await eventually(async () => ((await rows.count()) === 3 ? true : undefined), 5000, 'three environments');
    const cells = async () => Promise.all((await rows.all()).map((row) => row.locator('th, td').allTextContents()));
    expect((await cells()).map((row) => row.slice(0, 2))).toEqual([
      ['prod', 'prod'],
      ['production', 'Production'],
      ['staging', 'staging'],
    ]);

    await page.getByRole('button', { name: 'Edit aliases of staging' }).click();
    await page.getByLabel('Aliases of staging, separated by commas').fill('staging');
    await page.getByRole('button', { name: 'Save aliases' }).click();
    await page
      .getByRole('alert')
      .getByText(/must not be the environment itself/)
      .waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit aliases of production' }).click();
    await page.getByLabel('Aliases of production, separated by commas').fill('prod, prd');
    await page.getByRole('button', { name: 'Save aliases' }).click();
    await eventually(async () => ((await rows.count()) === 2 ? true : undefined), 5000, 'prod folded into production');
    expect(await cells()).toEqual([
      ['production', 'Production, prod', 'prd, prod Edit'],
      ['staging', 'staging', 'none Edit'],
    ]);
    await screenshot(page, '19-environments');

    await page.goto(`${hookline.baseUrl}/deploys?environment=production`);
    const entries = page.getByRole('list', { name: 'Deploys and changes' }).locator(':scope > li');
    await eventually(async () => ((await entries.count()) === 2 ? true : undefined), 5000, 'the production and prod deploys');
    expect((await entries.allTextContents()).map((text) => text.slice(0, 8)).sort()).toEqual(['live2222', 'prod1111']);
    await closeClean(tab);
  });

  it('searches deliveries and events with filters, reveals an endpoint secret with an audit entry, and rotates it with a chosen overlap', async () => {
    const searcher = await hookline.createTenant('search');
    const asSearcher = async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
      const response = await fetch(`${hookline.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${searcher.apiToken}` },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data: T; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data;
    };
    type Created = { createWebhookEndpoint: { signingSecret: string; endpoint: { id: string } } };
    const create = (name: string, eventTypes: string[] | null) =>
      asSearcher<Created>(
        'mutation C($url: String!, $name: String!, $types: [String!]) { createWebhookEndpoint(url: $url, name: $name, eventTypes: $types) { signingSecret endpoint { id } } }',
        {
          url: `${hookline.receiver.url}/${name}`,
          name,
          types: eventTypes,
        },
      );
    const all = (await create('search-all', null)).createWebhookEndpoint;
    const pings = (await create('search-pings', ['test.ping'])).createWebhookEndpoint;
    for (const sha of ['5ea7c11a', '5ea7c11b'])
      expect((await ingest(searcher.deployToken, { commit_sha: sha, environment: 'production' })).status).toBe(200);
    await asSearcher('mutation T($id: ID!) { sendTestEvent(endpointId: $id) { id } }', { id: pings.endpoint.id });
    await eventually(async () =>
      (await hookline.app.database.prisma.delivery.count({ where: { organizationId: searcher.organizationId, status: 'SUCCEEDED' } })) === 3
        ? true
        : undefined,
    );

    // Deliveries: every endpoint's, then narrowed by endpoint, event type and answer.
    const tab = await signedIn('/deliveries', { tenant: searcher });
    const { page } = tab;
    await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor();
    const total = page.getByTestId('deliveries-total');
    await total.getByText('3 deliveries', { exact: true }).waitFor();
    // Where history begins (RETENTION_DAYS, 90 by default), so that old deliveries are not looked for.
    await page.getByText(/^Deliveries and their attempts are kept for 90 days: history starts .+\.$/).waitFor();
    await page.getByLabel('Endpoint').selectOption({ label: 'search-pings' });
    await total.getByText('1 delivery', { exact: true }).waitFor();
    expect(await page.locator('.deliveries-table tbody tr').count()).toBe(1);
    await page.getByLabel('Endpoint').selectOption({ label: 'All endpoints' });
    await page.getByLabel('Event type').selectOption('deploy.ingested');
    await total.getByText('2 deliveries', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('type')).toBe('deploy.ingested');
    await page.getByLabel('Response').selectOption({ label: '2xx' });
    // The count reads the same before and after: wait for the list of the new filter.
    await eventually(async () => (new URL(page.url()).searchParams.get('response') === 'SUCCESS' ? true : undefined));
    const rows = page.locator('.deliveries-table tbody tr');
    await eventually(async () => ((await rows.count()) === 2 ? true : undefined), 5000, 'two rows');
    await total.getByText('2 deliveries', { exact: true }).waitFor();
    for (const row of await rows.all()) {
      expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('SUCCEEDED');
      expect(await row.getByRole('link', { name: 'search-all' }).count()).toBe(1);
      expect(await row.locator('td.mono').textContent()).toBe('200');
    }
    await screenshot(page, 'search-01-deliveries-filtered');
    await page.getByLabel('Response').selectOption({ label: '5xx' });
    await page.getByText('No deliveries match these filters.').waitFor();

    // Events: each with its deliveries to every endpoint; one event's page.
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await page.getByTestId('events-total').getByText('3 events', { exact: true }).waitFor();
    await page.getByText(/^Events and their payloads are kept for 90 days: history starts .+\.$/).waitFor();
    const cards = page.getByRole('list', { name: 'Events' }).locator(':scope > li');
    expect(await cards.count()).toBe(3);
    await cards.nth(0).getByRole('link', { name: 'test.ping' }).waitFor();
    await cards.nth(0).getByRole('list', { name: 'Deliveries of test.ping' }).getByRole('link', { name: 'search-pings' }).waitFor();
    await cards.nth(1).getByRole('list', { name: 'Deliveries of deploy.ingested' }).getByRole('link', { name: 'search-all' }).waitFor();
    await page.getByLabel('Event type').selectOption('deploy.ingested');
    await page.getByTestId('events-total').getByText('2 events', { exact: true }).waitFor();
    await screenshot(page, 'search-02-events');
    await cards.nth(0).getByRole('link', { name: 'deploy.ingested' }).click();
    await page.getByRole('heading', { name: 'deploy.ingested', level: 1 }).waitFor();
    await page.locator('pre.event-data').getByText('"commitSha": "5ea7c11b"').waitFor();

    // The endpoint's secret: hidden until a click, which is recorded with the person signed in.
    await page.goto(`${hookline.baseUrl}/webhooks/${all.endpoint.id}`);
    await page.getByRole('heading', { name: 'search-all', level: 1 }).waitFor();
    const secretSection = page.getByRole('region', { name: 'Signing secret' });
    expect(await secretSection.getByTestId('secret-value').count()).toBe(0);
    await secretSection.getByRole('button', { name: 'Reveal secret' }).click();
    expect(await secretSection.getByTestId('secret-value').inputValue()).toBe(all.signingSecret);
    await secretSection
      .getByRole('table', { name: 'Latest reveals' })
      .getByText(`Owner owner-${searcher.organizationId}@example.test`)
      .waitFor();
    expect(await hookline.app.database.prisma.secretReveal.count({ where: { endpointId: all.endpoint.id } })).toBe(1);
    await screenshot(page, 'search-03-secret-revealed');
    await secretSection.getByRole('button', { name: 'Hide secret' }).click();

    // Rotation without overlap: the previous secret stops at once.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Keep the current secret signing for').selectOption({ label: 'No overlap: the current secret stops at once' });
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    const once = page.getByTestId('secret-once');
    await once.getByText('The previous secret no longer signs.').waitFor();
    const rotated = await once.getByTestId('secret-value').inputValue();
    expect(await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: all.endpoint.id } })).toMatchObject({
      signingSecret: rotated,
      previousSigningSecret: null,
      previousSecretExpiresAt: null,
    });
    await once.getByRole('button', { name: 'I have copied it' }).click();

    // With 7 days' overlap: the page says until when the previous one still signs.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await dialog.getByLabel('Keep the current secret signing for').selectOption({ label: '7 days' });
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await once.getByText('The previous secret keeps signing for 7 days.').waitFor();
    await secretSection.getByText(/also carry a signature made with the previous secret until/).waitFor();
    const after = await hookline.app.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: all.endpoint.id } });
    expect(after.previousSigningSecret).toBe(rotated);
    expect(after.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    await screenshot(page, 'search-04-secret-rotated');
    await closeClean(tab);
  });
});
