// The dashboard as someone paged uses it, in a real browser: the start page answers "what is
// broken, and which change did it?" (open incidents with their likely culprit, the latest
// deploys, the endpoints failing now), and the incident and delivery lists follow what happens
// elsewhere (the API, CI, the delivery worker) without a reload.
//
// graphql-ws has no "subscribed" acknowledgement: a list is proven live by a probe it must show
// (an incident, a test.ping) before what a test watches for is made.
import type { ServerResponse } from 'node:http';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { dataOf, LOCAL_RECEIVERS } from './support/app.ts';
import {
  CHROMIUM_PATH,
  chromiumRequired,
  closeClean,
  ensureDashboardBuilt,
  hasChromium,
  screenshot,
  useBrowserTabs,
  type RecordedPage,
} from './support/browser.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint, ingest } from './support/operations.ts';
import { ownerSessionCookie } from './support/people.ts';
import { eventually } from './support/receiver.ts';

const MINUTE = 60_000;

const OPEN_INCIDENT = graphql(`
  mutation OnCallOpenIncident($serviceId: ID!, $title: String!, $severity: Severity, $environment: String, $startedAt: DateTime) {
    openIncident(serviceId: $serviceId, title: $title, severity: $severity, environment: $environment, startedAt: $startedAt) {
      id
      suspects { deploy { id } }
    }
  }
`);

const SEND_TEST_EVENT = graphql(`
  mutation OnCallSendTestEvent($endpointId: ID!) { sendTestEvent(endpointId: $endpointId) { id } }
`);

const ENDPOINT_STATUS = graphql(`
  query OnCallEndpointStatus($id: ID!) { webhookEndpoint(id: $id) { status } }
`);

beforeAll(() => {
  if (hasChromium || chromiumRequired) ensureDashboardBuilt();
});
const hookline = useHookline({
  environment: { ...LOCAL_RECEIVERS, DELIVERY_MAX_RETRIES: '0', DELIVERY_TIMEOUT_MS: '5000', ENDPOINT_DISABLE_AFTER_FAILURES: '1' },
  receiver: true,
});

/** Requests to /slow wait here until a test lets them go. */
const held: ServerResponse[] = [];
function release() {
  for (const response of held.splice(0)) response.end('ok');
}

beforeAll(() => {
  hookline.receiver.respond((request, response) => {
    if (request.path.startsWith('/fail')) response.writeHead(500).end('down');
    else if (request.path.startsWith('/slow')) held.push(response);
    else response.end('ok');
  });
});

async function openIncident(title: string, options: { severity?: 'SEV1' | 'SEV2' | 'SEV3'; startedAt?: Date } = {}) {
  const variables = {
    serviceId: hookline.tenant.serviceId,
    title,
    severity: options.severity ?? null,
    environment: 'production',
    startedAt: options.startedAt?.toISOString() ?? null,
  };
  return dataOf(await hookline.graphql(hookline.tenant.apiToken, OPEN_INCIDENT, variables)).openIncident;
}

/**
 * Resolves once `list` shows what `make` made (its text), made again while it does not (one made
 * before the page had subscribed is not shown until a re-read).
 */
async function untilShown(list: (text: string) => Locator, make: (attempt: number) => Promise<string>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const text = await make(attempt);
    try {
      await list(text).waitFor({ timeout: 3000 });
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/** Marks the page, so that a test can tell it was not loaded again. */
async function markLoaded(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
  });
}
const stillLoadedOnce = (page: Page) => page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true);

if (!hasChromium && !chromiumRequired) {
  console.warn(`on-call dashboard tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
}

describe.skipIf(!hasChromium && !chromiumRequired)('the on-call dashboard in a browser', () => {
  const tabs = useBrowserTabs('oncall');

  async function signedIn(path: string): Promise<RecordedPage> {
    const session = await ownerSessionCookie(hookline.app, hookline.baseUrl, hookline.tenant.organizationId);
    return tabs.signedIn(session, `${hookline.baseUrl}${path}`);
  }

  it('opens on the on-call page: an open incident with its likely culprit, the latest deploys, and the endpoints failing now', async () => {
    const deployId = await ingest(hookline, hookline.tenant.deployToken, {
      commit_sha: 'c'.repeat(40),
      version: 'v3.1.0',
      environment: 'production',
      deployed_by: 'maria',
      deployed_at: new Date(Date.now() - 15 * MINUTE).toISOString(),
    });
    const incident = await openIncident('Checkout: payment page errors', {
      severity: 'SEV1',
      startedAt: new Date(Date.now() - 5 * MINUTE),
    });
    expect(incident.suspects[0]?.deploy?.id).toBe(deployId);
    const broken = await createEndpoint(hookline, hookline.tenant.apiToken, {
      url: `${hookline.receiver.url}/fail`,
      name: 'Broken receiver',
    });
    const healthy = await createEndpoint(hookline, hookline.tenant.apiToken, {
      url: `${hookline.receiver.url}/ok`,
      name: 'Healthy receiver',
    });
    for (const { id } of [broken, healthy]) dataOf(await hookline.graphql(hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: id }));
    await eventually(
      async () => {
        const { webhookEndpoint } = dataOf(await hookline.graphql(hookline.tenant.apiToken, ENDPOINT_STATUS, { id: broken.id }));
        return webhookEndpoint?.status === 'DISABLED' ? true : undefined;
      },
      30_000,
      'the broken endpoint disabled',
    );

    const tab = await signedIn('/');
    const { page } = tab;
    await page.getByRole('heading', { name: 'On call', level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'On call' }).getAttribute('aria-current')).toBe(
      'page',
    );

    const card = page.getByRole('list', { name: 'Open incidents' }).locator(`li[data-incident-id="${incident.id}"]`);
    await card.waitFor();
    expect(await card.getByRole('link', { name: 'Checkout: payment page errors' }).getAttribute('href')).toBe(`/incidents/${incident.id}`);
    await card.locator('[data-status="SEV1"]').waitFor();
    const culprit = card.locator('[data-culprit]');
    expect(await culprit.textContent()).toMatch(
      /^Likely culprit: checkout v3\.1\.0 to production, deployed by maria 15 minutes ago \(\d+ %\)$/,
    );
    expect(await culprit.getByRole('link', { name: 'v3.1.0' }).getAttribute('href')).toBe(`/deploys/${deployId}`);

    const failing = page.getByRole('table', { name: 'Endpoints failing now' });
    const brokenRow = failing.locator(`tr[data-endpoint-id="${broken.id}"]`);
    await brokenRow.locator('[data-status="DISABLED"]').waitFor();
    expect(await brokenRow.getByRole('link', { name: 'Broken receiver' }).getAttribute('href')).toBe(`/webhooks/${broken.id}`);
    expect(await failing.locator(`tr[data-endpoint-id="${healthy.id}"]`).count()).toBe(0);

    const deploys = page.getByRole('table', { name: 'Latest deploys' });
    const row = deploys.locator('tbody tr').first();
    expect(await row.locator('td').allTextContents()).toEqual(['checkout', 'v3.1.0', 'production', 'maria', '15 minutes ago']);
    await screenshot(page, 'on-call-home');

    // The services list has its own entry.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await page.getByRole('heading', { name: 'Services', level: 1 }).waitFor();
    await closeClean(tab);
  });

  it('shows an incident opened through the API in the open incident list and on the on-call page, without a reload', async () => {
    const list = await signedIn('/incidents?status=OPEN');
    const home = await signedIn('/');
    await list.page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    await home.page.getByRole('heading', { name: 'On call', level: 1 }).waitFor();
    for (const { page } of [list, home]) {
      await page.locator('[data-live="live"]').first().waitFor();
      await markLoaded(page);
    }
    const inList = (title: string) =>
      list.page.getByRole('table', { name: 'Incidents', exact: true }).getByRole('link', { name: title, exact: true });
    const onHome = (title: string) =>
      home.page.getByRole('list', { name: 'Open incidents' }).getByRole('link', { name: title, exact: true });
    const probe = (name: string) => async (attempt: number) => {
      await openIncident(`${name} ${attempt}`);
      return `${name} ${attempt}`;
    };
    await untilShown(inList, probe('list probe'));
    await untilShown(onHome, probe('home probe'));

    const title = 'Search: results empty for every query';
    const { id } = await openIncident(title, { severity: 'SEV2' });
    await inList(title).waitFor({ timeout: 10_000 });
    expect(await inList(title).getAttribute('href')).toBe(`/incidents/${id}`);
    await onHome(title).waitFor({ timeout: 10_000 });
    for (const { page } of [list, home]) expect(await stillLoadedOnce(page)).toBe(true);
    // It came by the subscription.
    expect(list.webSocketFrames().some((frame) => frame.includes('"incidentUpdated"'))).toBe(true);
    await screenshot(list.page, 'incidents-live');
    await closeClean(list);
    await closeClean(home);
  });

  it('shows a new delivery in the delivery list and its status as it changes, without a reload', async () => {
    const slow = await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/slow`, name: 'Slow receiver' });
    const probe = await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/ok`, name: 'Probe receiver' });
    const tab = await signedIn('/deliveries');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor();
    await page.locator('[data-live="live"]').waitFor();
    await markLoaded(page);
    const table = page.getByRole('table', { name: 'Deliveries', exact: true });
    const row = (deliveryId: string) => table.locator(`tr[data-delivery-id="${deliveryId}"]`);
    await untilShown(
      (deliveryId) => row(deliveryId).locator('[data-status="SUCCEEDED"]'),
      async () => dataOf(await hookline.graphql(hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: probe.id })).sendTestEvent.id,
    );

    const { sendTestEvent } = dataOf(await hookline.graphql(hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: slow.id }));
    // Listed while its attempt is still waiting for an answer...
    await row(sendTestEvent.id).locator('[data-status="PENDING"]').waitFor({ timeout: 10_000 });
    expect(await row(sendTestEvent.id).getByRole('link', { name: 'Slow receiver' }).count()).toBe(1);
    await hookline.receiver.waitForRequests(1, { path: '/slow' });
    // ...then SUCCEEDED in place once the receiver answers.
    release();
    await row(sendTestEvent.id).locator('[data-status="SUCCEEDED"]').waitFor({ timeout: 10_000 });
    expect(await row(sendTestEvent.id).locator('td.mono').textContent()).toBe('200');
    expect(await stillLoadedOnce(page)).toBe(true);
    await screenshot(page, 'deliveries-live');
    await closeClean(tab);
  });

  it('keeps every filter chosen in quick succession, while the list (and its live subscription) is still switching', async () => {
    const filtered = await createEndpoint(hookline, hookline.tenant.apiToken, {
      url: `${hookline.receiver.url}/ok`,
      name: 'Filtered receiver',
    });
    const tab = await signedIn('/deliveries');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor();
    await page.locator('[data-live="live"]').waitFor();
    // A slow machine: the render a filter starts is still running when the next is chosen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await page.getByLabel('Endpoint').selectOption({ label: 'Filtered receiver' });
    await page.getByLabel('Endpoint').selectOption({ label: 'All endpoints' });
    await page.getByLabel('Status').selectOption('SUCCEEDED');
    await page.getByLabel('Event type').selectOption('test.ping');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await eventually(
      async () => (new URL(page.url()).search === '?status=SUCCEEDED&type=test.ping' ? true : undefined),
      10_000,
      'the address',
    );
    const chosen = () => Promise.all(['Endpoint', 'Status', 'Event type'].map((label) => page.getByLabel(label).inputValue()));
    await eventually(async () => ((await chosen()).join() === ',SUCCEEDED,test.ping' ? true : undefined), 10_000, 'the fields');
    // Live again, on the subscription of the filters chosen: a test.ping shows once it SUCCEEDED.
    await page.locator('[data-live="live"]').waitFor({ timeout: 10_000 });
    const table = page.getByRole('table', { name: 'Deliveries', exact: true });
    await untilShown(
      (deliveryId) => table.locator(`tr[data-delivery-id="${deliveryId}"]`).locator('[data-status="SUCCEEDED"]'),
      async () => dataOf(await hookline.graphql(hookline.tenant.apiToken, SEND_TEST_EVENT, { endpointId: filtered.id })).sendTestEvent.id,
    );
    await closeClean(tab);
  });
});
