// The dashboard with the data of a real organization (three services, thirty deploys with a
// rollback, a change event, two incidents with verdicts, a healthy and a disabled endpoint),
// as an SRE or a webhook consumer uses it: every page at 1280×800 and 390×844 (screenshots in
// test-results/screenshots), no page wider than a phone, and the numbers it shows equal to
// the API's for the same filters.
import type { ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
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
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';
import { ownerSessionCookie } from './support/people.ts';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const HOUR = 3_600_000;

// Before the app starts: it serves the dashboard only if built.
beforeAll(() => {
  if (hasChromium || chromiumRequired) ensureDashboardBuilt();
});
const hookline = useHookline({
  environment: {
    ...LOCAL_RECEIVERS,
    DELIVERY_MAX_RETRIES: '0',
    // The receiver answers at once (or 503 at once); with no retries, an attempt cut by a short
    // timeout on a starved two-core machine (load 20) would leave a delivery FAILED for good.
    DELIVERY_TIMEOUT_MS: '30000',
    ENDPOINT_DISABLE_AFTER_FAILURES: '3',
  },
  receiver: true,
});

/** What the seed made, by name. */
const seeded = {
  services: {} as Record<string, { id: string; deployToken: string }>,
  deployIds: [] as string[],
  healthyEndpointId: '',
  disabledEndpointId: '',
  /** Started 5 days ago, opened last, with a CAUSED verdict on its second suspect. */
  olderIncidentId: '',
  /** Started a day ago, opened first, resolved. */
  newerIncidentId: '',
  eventId: '',
  deliveryId: '',
  failedDeliveryId: '',
};

async function api<T>(query: string, variables: Record<string, unknown> = {}, baseUrl = hookline.baseUrl): Promise<T> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data!;
}

async function post(path: string, token: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${hookline.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-deploy-token': token },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function seed() {
  seeded.services.checkout = { id: hookline.tenant.serviceId, deployToken: hookline.tenant.deployToken };
  for (const name of ['payments', 'search']) {
    const made = await api<{ createService: { service: { id: string }; deployToken: string } }>(
      'mutation($name: String!) { createService(name: $name) { service { id } deployToken } }',
      { name },
    );
    seeded.services[name] = { id: made.createService.service.id, deployToken: made.createService.deployToken };
  }
  seeded.healthyEndpointId = (
    await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/ok`, name: 'Orders receiver' })
  ).id;
  seeded.disabledEndpointId = (
    await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/fail`, name: 'Broken receiver' })
  ).id;

  const now = Date.now();
  const names = ['checkout', 'payments', 'search'];
  for (let index = 0; index < 30; index += 1) {
    const service = seeded.services[names[index % 3]!]!;
    const deployedAt = new Date(now - (30 - index) * 5 * HOUR);
    // The last checkout deploy puts back the first one's commit: a rollback.
    const sha = index === 27 ? `${'a'.repeat(39)}0` : `${'a'.repeat(39)}${index}`.slice(-40).padStart(40, 'b');
    const result = await post('/api/ingest/deploy', service.deployToken, {
      commit_sha: sha,
      commit_message: `Change number ${index}: a message long enough to wrap on a phone`,
      environment: index % 5 === 4 ? 'staging' : 'production',
      version: `v1.${index}.0`,
      deployed_by: 'ana',
      deployed_at: deployedAt.toISOString(),
      commits: [
        {
          sha,
          message: `commit ${index}`,
          author: 'Ana <ana@example.test>',
          timestamp: new Date(deployedAt.getTime() - HOUR).toISOString(),
        },
      ],
    });
    expect(result.status).toBe(200);
    seeded.deployIds.push(String(result.body.deploy_id));
  }
  // The third deploy again, an hour later: a redeploy, a reason that names the first one's time.
  const redeploy = await post('/api/ingest/deploy', seeded.services.checkout!.deployToken, {
    commit_sha: `${'a'.repeat(39)}3`.slice(-40).padStart(40, 'b'),
    environment: 'production',
    version: 'v1.3.0',
    deployed_at: new Date(now - 26 * 5 * HOUR).toISOString(),
  });
  expect(redeploy.status).toBe(200);
  const change = await post('/api/ingest/change', seeded.services.payments!.deployToken, {
    kind: 'feature_flag',
    summary: 'checkout-v2 flag turned on for 50 % of users',
    environment: 'production',
    changed_at: new Date(now - 26 * HOUR).toISOString(),
  });
  expect(change.status).toBe(200);

  const open = (serviceId: string, title: string, startedAt: Date) =>
    api<{ openIncident: { id: string; suspects: { deploy: { id: string } | null; change: { id: string } | null }[] } }>(
      'mutation($serviceId: ID!, $title: String!, $startedAt: DateTime) { openIncident(serviceId: $serviceId, title: $title, severity: SEV2, environment: "production", startedAt: $startedAt) { id suspects { deploy { id } change { id } } } }',
      { serviceId, title, startedAt: startedAt.toISOString() },
    );
  // Opened first, started last.
  const newer = await open(seeded.services.payments!.id, 'Payments: card authorisations time out', new Date(now - 24 * HOUR));
  seeded.newerIncidentId = newer.openIncident.id;
  await api('mutation($id: ID!) { resolveIncident(id: $id) { id } }', { id: seeded.newerIncidentId });
  const older = await open(seeded.services.checkout!.id, 'Checkout: 5xx above 2 % after the cart change', new Date(now - 5 * 24 * HOUR));
  seeded.olderIncidentId = older.openIncident.id;
  const second = older.openIncident.suspects[1]!;
  await api(
    'mutation($incidentId: ID!, $deployId: ID, $changeId: ID) { markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: CAUSED) { id } }',
    {
      incidentId: seeded.olderIncidentId,
      deployId: second.deploy?.id ?? null,
      changeId: second.change?.id ?? null,
    },
  );
  await api(
    'mutation($incidentId: ID!, $deployId: ID, $changeId: ID) { markSuspect(incidentId: $incidentId, deployId: $deployId, changeId: $changeId, verdict: DISMISSED) { id } }',
    {
      incidentId: seeded.olderIncidentId,
      deployId: older.openIncident.suspects[0]!.deploy?.id ?? null,
      changeId: older.openIncident.suspects[0]!.change?.id ?? null,
    },
  );

  // Every delivery settles: the broken receiver's endpoint ends DISABLED, the healthy one has all.
  await eventually(
    async () => {
      const state = await api<{ webhookEndpoint: { status: string; pendingRetries: number } }>(
        'query($id: ID!) { webhookEndpoint(id: $id) { status pendingRetries } }',
        { id: seeded.disabledEndpointId },
      );
      return state.webhookEndpoint.status === 'DISABLED' ? true : undefined;
    },
    60_000,
    'the failing endpoint disabled',
  );
  await eventually(
    async () => {
      const state = await api<{ deliveries: { totalCount: number } }>(
        'query($filter: DeliveryFilter) { deliveries(filter: $filter, first: 1) { totalCount } }',
        {
          filter: { status: 'PENDING' },
        },
      );
      return state.deliveries.totalCount === 0 ? true : undefined;
    },
    60_000,
    'no delivery pending',
  );
  const latest = await api<{ webhookEndpoint: { deliveries: { edges: { node: { id: string; event: { id: string } } }[] } } }>(
    'query($id: ID!) { webhookEndpoint(id: $id) { deliveries(first: 1) { edges { node { id event { id } } } } } }',
    { id: seeded.healthyEndpointId },
  );
  seeded.deliveryId = latest.webhookEndpoint.deliveries.edges[0]!.node.id;
  seeded.eventId = latest.webhookEndpoint.deliveries.edges[0]!.node.event.id;
  const failed = await api<{ webhookEndpoint: { deliveries: { edges: { node: { id: string } }[] } } }>(
    'query($id: ID!) { webhookEndpoint(id: $id) { deliveries(first: 1, status: FAILED) { edges { node { id } } } } }',
    { id: seeded.disabledEndpointId },
  );
  seeded.failedDeliveryId = failed.webhookEndpoint.deliveries.edges[0]!.node.id;
}

beforeAll(async () => {
  if (!hasChromium && !chromiumRequired) return;
  hookline.receiver.respond((request, response) => answer(request.path, response));
  await seed();
}, 180_000);

/** /fail* answers 503 until a test clears it (the receiver is fixed). */
let failing = true;
function answer(path: string, response: ServerResponse) {
  if (path.startsWith('/fail') && failing)
    response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('down for maintenance');
  else response.writeHead(200, { 'content-type': 'application/json', 'x-receiver': 'orders' }).end('{"received":true}');
}

if (!hasChromium && !chromiumRequired) {
  console.warn(`dashboard page tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium; CI installs it in .ci/run)`);
}

/** The page's width beyond the window's (0: nothing to scroll sideways). */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; widest: string[] }> {
  return page.evaluate(() => {
    const widest = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, widest };
  });
}

describe.skipIf(!hasChromium && !chromiumRequired)('dashboard pages with a real organization', () => {
  let browser: Browser;
  let current: RecordedPage | undefined;

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`No Chromium at ${CHROMIUM_PATH}, and CI is set: the dashboard browser tests must run`);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (context) => {
    const tab = current;
    current = undefined;
    if (!tab || tab.page.isClosed()) return;
    if (context.task.result?.state === 'fail') {
      await screenshot(tab.page, `failed-pages-${context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 50)}`).catch(() => undefined);
      console.warn(`console and page errors: ${JSON.stringify(tab.problems())}`);
    }
    await tab.close();
  });

  async function signedIn(path: string, viewport = DESKTOP, baseUrl = hookline.baseUrl): Promise<RecordedPage> {
    current = await browser.newPage({ viewport });
    const session = await ownerSessionCookie(hookline.app, hookline.baseUrl, hookline.tenant.organizationId);
    return openSignedIn(current, session, `${baseUrl}${path}`);
  }

  it('shows every page at 1280×800 and 390×844 with its key content, none wider than a phone', async () => {
    const pages: { name: string; path: string; key: string }[] = [
      { name: 'services', path: '/services', key: 'payments' },
      { name: 'service', path: `/services/${seeded.services.checkout!.id}`, key: 'Recent deploys' },
      { name: 'deploys', path: '/deploys', key: 'Change number 29' },
      { name: 'deploy', path: `/deploys/${seeded.deployIds[27]}`, key: 'v1.27.0' },
      { name: 'incidents', path: '/incidents', key: 'Payments: card authorisations time out' },
      { name: 'incident', path: `/incidents/${seeded.olderIncidentId}`, key: 'Suspects' },
      { name: 'dora', path: '/dora', key: 'Deployment frequency' },
      { name: 'webhooks', path: '/webhooks', key: 'Broken receiver' },
      { name: 'endpoint', path: `/webhooks/${seeded.healthyEndpointId}`, key: 'Delivery log' },
      { name: 'endpoint-disabled', path: `/webhooks/${seeded.disabledEndpointId}`, key: 'Delivery log' },
      { name: 'deliveries', path: '/deliveries', key: 'Orders receiver' },
      { name: 'delivery', path: `/deliveries/${seeded.deliveryId}`, key: 'Request body' },
      { name: 'delivery-failed', path: `/deliveries/${seeded.failedDeliveryId}`, key: 'HTTP 503' },
      { name: 'events', path: '/events', key: 'deploy.ingested' },
      { name: 'event', path: `/events/${seeded.eventId}`, key: 'Data' },
      { name: 'api-tokens', path: '/api-tokens', key: 'API tokens' },
      { name: 'alert-sources', path: '/alert-sources', key: 'Alert sources' },
      { name: 'audit-log', path: '/audit-log', key: 'Created webhook endpoint' },
    ];
    const tooWide: string[] = [];
    for (const viewport of [DESKTOP, PHONE]) {
      for (const { name, path, key } of pages) {
        const tab = await signedIn(path, viewport);
        await tab.page.locator('main').getByText(key).filter({ visible: true }).first().waitFor();
        await tab.page
          .locator('.loading')
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        await screenshot(tab.page, `pages-${name}-${viewport.width}`);
        if (viewport === PHONE) {
          const measured = await overflow(tab.page);
          if (measured.scrollWidth > measured.innerWidth)
            tooWide.push(`${name}: ${measured.scrollWidth} px (${measured.widest.join(', ')})`);
        }
        await closeClean(tab);
      }
    }
    expect(tooWide).toEqual([]);
  }, 240_000);

  it("shows a delivery's request and each attempt's answer as the API has them, and resends it live", async () => {
    const query = `query($id: ID!) { delivery(id: $id) { requestBody attempts { number durationMs responseStatus error requestHeaders { name value } responseHeaders { name value } } } }`;
    interface Seen {
      delivery: {
        requestBody: string;
        attempts: {
          number: number;
          durationMs: number;
          responseStatus: number | null;
          error: string | null;
          requestHeaders: { name: string; value: string }[];
          responseHeaders: { name: string; value: string }[];
        }[];
      };
    }
    const { delivery } = await api<Seen>(query, { id: seeded.deliveryId });
    const tab = await signedIn(`/webhooks/${seeded.healthyEndpointId}`);
    const { page } = tab;
    // From the endpoint's log to the delivery's page.
    await page.getByRole('link', { name: `Delivery ${seeded.deliveryId}` }).click();
    const attempts = page.getByRole('list', { name: 'Attempts' }).locator(':scope > li');
    await attempts.first().waitFor();
    expect(await attempts.count()).toBe(delivery.attempts.length);
    const first = attempts.first();
    expect(await first.locator('[data-duration]').textContent()).toBe(`${delivery.attempts[0]!.durationMs} ms`);
    await first.getByText('HTTP 200').waitFor();
    await first.getByText(/^Request headers/).click();
    await first.getByText(/^Response headers/).click();
    for (const header of delivery.attempts[0]!.requestHeaders) {
      expect(
        await first
          .getByRole('definition')
          .filter({ has: page.locator(`xpath=self::dd[preceding-sibling::dt[1][text()="${header.name}"]]`) })
          .first()
          .textContent(),
      ).toBe(header.value);
    }
    expect(delivery.attempts[0]!.requestHeaders.find((header) => header.name === 'webhook-id')?.value).toBe(seeded.deliveryId);
    await first.getByLabel('Response headers').getByText('x-receiver').waitFor();
    expect(JSON.parse((await page.getByLabel('Request body').textContent())!)).toEqual(JSON.parse(delivery.requestBody));
    await screenshot(page, 'pages-delivery-open-1280');

    await page.getByRole('button', { name: 'Resend' }).click();
    await eventually(
      async () => ((await attempts.count()) === delivery.attempts.length + 1 ? true : undefined),
      15_000,
      'the new attempt shown',
    );
    expect(await attempts.first().getAttribute('data-attempt')).toBe(String(delivery.attempts.length + 1));
    await closeClean(tab);

    const failed = await api<Seen>(query, { id: seeded.failedDeliveryId });
    const failedTab = await signedIn(`/deliveries/${seeded.failedDeliveryId}`, PHONE);
    await failedTab.page.getByText('HTTP 503').first().waitFor();
    await failedTab.page.getByLabel('Response body of attempt 1').getByText('down for maintenance').waitFor();
    expect(failed.delivery.attempts[0]!.responseStatus).toBe(503);
    // A disabled endpoint takes no retry: Recover, on its page, re-enables it first.
    expect(await failedTab.page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await closeClean(failedTab);
  });

  it('shows the suspects of an incident as a compact table numbered from 1, with times for people and details on demand', async () => {
    const { incident } = await api<{
      incident: {
        suspects: {
          rank: number;
          score: number;
          verdict: string | null;
          reasons: { detail: string }[];
          mainReason: { detail: string } | null;
          deploy: { commitSha: string; environment: string | null } | null;
          change: { summary: string; environment: string | null } | null;
        }[];
      };
    }>(
      'query($id: ID!) { incident(id: $id) { suspects { rank score verdict reasons { detail } mainReason { detail } deploy { commitSha environment } change { summary environment } } } }',
      { id: seeded.olderIncidentId },
    );
    expect(incident.suspects.length).toBeGreaterThan(3);
    expect(incident.suspects[0]!.verdict).toBe('CAUSED');
    // The API's reasons carry machine times; the page says them for people.
    expect(incident.suspects.some((suspect) => suspect.reasons.some((reason) => /\d{4}-\d\d-\d\dT\d\d:\d\d/.test(reason.detail)))).toBe(
      true,
    );

    const tab = await signedIn(`/incidents/${seeded.olderIncidentId}`);
    const { page } = tab;
    const table = page.getByRole('table', { name: 'Suspects' });
    await table.waitFor();
    const rows = table.locator('tbody tr[data-suspect]');
    expect(await rows.count()).toBe(incident.suspects.length);
    expect(await rows.locator('[data-position]').allTextContents()).toEqual(incident.suspects.map((_, index) => String(index + 1)));
    expect(await rows.first().textContent()).toContain('CAUSED');
    expect(await rows.locator('[data-score]').allTextContents()).toEqual(
      incident.suspects.map((suspect) => `${Math.round(suspect.score * 100)} %`),
    );
    // Each suspect's environment, and the reason that decided its score (as the API says it, times aside).
    expect(await rows.locator('[data-environment]').allTextContents()).toEqual(
      incident.suspects.map((suspect) => (suspect.deploy ?? suspect.change)!.environment ?? 'none'),
    );
    const mainReasons = await rows.locator('.top-reason').allTextContents();
    for (const [index, suspect] of incident.suspects.entries()) {
      if (!/\d{4}-\d\d-\d\dT/.test(suspect.mainReason!.detail)) expect(mainReasons[index]).toBe(suspect.mainReason!.detail);
    }
    // Compact: the whole page fits about two screens, the reasons one click away.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(1600);
    expect(await page.locator('.suspect-reasons').count()).toBe(0);
    for (const button of await page.getByRole('button', { name: /^Details/ }).all()) await button.click();
    expect(await page.locator('.suspect-reasons').count()).toBe(incident.suspects.length);
    // biome-ignore lint/performance/useDomNodeTextContent: the text as the page shows it
    expect(await page.locator('main').innerText()).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    await screenshot(page, 'pages-incident-details-1280');
    await closeClean(tab);
  });

  it('adds a note on the incident page, shown with its author in the notes and the timeline, and in the audit log', async () => {
    const tab = await signedIn(`/incidents/${seeded.newerIncidentId}`);
    const { page } = tab;
    await page.getByRole('list', { name: 'Timeline' }).waitFor();
    await page.getByLabel('Add a note').fill('Rolled back the gateway client; errors gone.');
    await page.getByRole('button', { name: 'Add note' }).click();
    const notes = page.getByRole('list', { name: 'Notes' });
    await notes.getByText('Rolled back the gateway client; errors gone.').waitFor();
    // By the person signed in (the organization's owner here), named as the dashboard names people.
    expect(await notes.locator('li').first().textContent()).toContain(`Owner owner-${hookline.tenant.organizationId}@example.test`);
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.locator('li[data-kind="NOTE"]').getByText('Note added').waitFor();
    expect(await timeline.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')))).toEqual(
      expect.arrayContaining(['OPENED', 'NOTE', 'RESOLVED']),
    );
    await closeClean(tab);

    const log = await signedIn(`/audit-log?action=incident.addNote`);
    const table = log.page.getByRole('table', { name: 'Audit log' });
    await table.getByText(`Added a note to incident ${seeded.newerIncidentId}`).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    await closeClean(log);
  });

  it('resends every delivery of a filtered list after saying how many, the count equal to the API’s', async () => {
    const filter = { endpointId: seeded.healthyEndpointId, eventType: 'deploy.ingested' };
    const countOf = async (extra: Record<string, unknown> = {}) => {
      const { deliveries } = await api<{ deliveries: { totalCount: number } }>(
        'query($filter: DeliveryFilter) { deliveries(filter: $filter, first: 1) { totalCount } }',
        {
          filter: { ...filter, ...extra },
        },
      );
      return deliveries.totalCount;
    };
    const count = await countOf();
    expect(count).toBeGreaterThan(20);
    const tab = await signedIn(`/deliveries?endpoint=${seeded.healthyEndpointId}&type=deploy.ingested`, PHONE);
    const { page } = tab;
    await page.getByTestId('deliveries-total').getByText(`${count} deliveries`, { exact: true }).waitFor();
    await page.getByRole('button', { name: `Resend ${count} deliveries…` }).click();
    const dialog = page.getByRole('dialog', { name: `Resend ${count} deliveries?` });
    await dialog.waitFor();
    await screenshot(page, 'pages-bulk-resend-confirm-390');
    await dialog.getByRole('button', { name: 'Resend', exact: true }).click();
    await page.getByTestId('bulk-resend-result').getByText(`${count} deliveries queued again.`).waitFor();
    // One query for all of them: a request per delivery would be refused past the organization's
    // limit of GraphQL operations at once.
    await eventually(
      async () => {
        const { deliveries } = await api<{ deliveries: { edges: { node: { status: string; attemptCount: number } }[] } }>(
          'query($filter: DeliveryFilter) { deliveries(filter: $filter, first: 100) { edges { node { status attemptCount } } } }',
          { filter },
        );
        expect(deliveries.edges).toHaveLength(Math.min(count, 100));
        return deliveries.edges.every(({ node }) => node.status === 'SUCCEEDED' && node.attemptCount >= 2) ? true : undefined;
      },
      // Tens of deliveries through the worker beside a browser: at load 10 on two cores, 30 s was short.
      90_000,
      'every resent delivery succeeded again',
    );
    await closeClean(tab);
  });

  it("charts an endpoint's success rate, attempts and latency by hour and by day, with the API's numbers", async () => {
    const tab = await signedIn(`/webhooks/${seeded.healthyEndpointId}`);
    const { page } = tab;
    const section = page.getByRole('region', { name: 'Over time', exact: true });
    await section.getByText(/^The numbers/).click();
    for (const [button, interval, buckets] of [
      ['Last 24 hours, by hour', 'HOUR', 24],
      ['Last 14 days, by day', 'DAY', 14],
    ] as const) {
      await section.getByRole('button', { name: button }).click();
      await section.getByRole('table', { name: 'Deliveries over time' }).locator(`tbody tr:nth-child(${buckets})`).waitFor();
      const rows = section.getByRole('table', { name: 'Deliveries over time' }).locator('tbody tr');
      // The table of the period shown before may still be there a moment.
      await eventually(async () => ((await rows.count()) === buckets ? true : undefined), 10_000, `${buckets} rows`);
      const window = { from: await section.getAttribute('data-from'), to: await section.getAttribute('data-to') };
      const { webhookEndpoint } = await api<{
        webhookEndpoint: {
          chart: { start: string; deliveries: number; successRate: number | null; attempts: number; latencyP50Ms: number | null }[];
        };
      }>(
        'query($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) { chart(interval: $interval, from: $from, to: $to) { start deliveries successRate attempts latencyP50Ms } } }',
        { id: seeded.healthyEndpointId, interval, ...window },
      );
      expect(webhookEndpoint.chart.reduce((sum, bucket) => sum + bucket.attempts, 0)).toBeGreaterThan(0);
      const shown = await rows.evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-start'), ...[...tr.querySelectorAll('td')].map((td) => td.textContent)]),
      );
      expect(shown).toEqual(
        webhookEndpoint.chart.map((bucket) => [
          bucket.start,
          String(bucket.deliveries),
          bucket.successRate === null ? '—' : `${Math.round(bucket.successRate * 100)} %`,
          String(bucket.attempts),
          bucket.latencyP50Ms === null ? '—' : `${Math.round(bucket.latencyP50Ms)} ms`,
          expect.any(String),
        ]),
      );
      await section.getByRole('img', { name: /^Attempts: attempts/ }).waitFor();
    }
    await screenshot(page, 'pages-endpoint-charts-1280');
    await closeClean(tab);
  });

  it('marks incidents where they started on the deploy timeline, and the deploys judged to have caused them', async () => {
    const { incident } = await api<{
      incident: { startedAt: string; suspects: { verdict: string | null; deploy: { id: string; service: { id: string } } | null }[] };
    }>('query($id: ID!) { incident(id: $id) { startedAt suspects { verdict deploy { id service { id } } } } }', {
      id: seeded.olderIncidentId,
    });
    const caused = incident.suspects.find((suspect) => suspect.verdict === 'CAUSED')!.deploy!;
    const { deploys } = await api<{ deploys: { edges: { node: { id: string; deployedAt: string } }[] } }>(
      'query($serviceId: ID) { deploys(first: 100, serviceId: $serviceId) { edges { node { id deployedAt } } } }',
      { serviceId: seeded.services.checkout!.id },
    );
    const deployedAt = new Map(deploys.edges.map(({ node }) => [node.id, node.deployedAt]));
    const tab = await signedIn(`/deploys?service=${seeded.services.checkout!.id}`);
    const { page } = tab;
    const mark = page.locator(`[data-incident="${seeded.olderIncidentId}"]`);
    await mark.waitFor();
    expect(await mark.textContent()).toContain('Checkout: 5xx above 2 % after the cart change');
    expect(await page.locator('[data-incident]').count()).toBe(1);
    // Newest first: the deploys above the mark went out after the incident started, those below before.
    const order = await page
      .getByRole('list', { name: 'Deploys and changes' })
      .locator(':scope > li')
      .evaluateAll((items) =>
        items.map((item) =>
          item.hasAttribute('data-incident')
            ? 'incident'
            : (item.querySelector('a[href^="/deploys/"]')?.getAttribute('href')?.slice('/deploys/'.length) ?? ''),
        ),
      );
    const at = order.indexOf('incident');
    expect(order.slice(0, at).every((id) => deployedAt.get(id)! > incident.startedAt)).toBe(true);
    expect(order.slice(at + 1).every((id) => deployedAt.get(id)! <= incident.startedAt)).toBe(true);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(order.length - 1);
    await screenshot(page, 'pages-deploy-timeline-incidents-1280');
    await closeClean(tab);

    // The deploy judged to have caused it, on its service's timeline.
    const causedTab = await signedIn(`/deploys?service=${caused.service.id}`);
    await causedTab.page.locator(`li:has(a[href="/deploys/${caused.id}"]) [data-caused="${seeded.olderIncidentId}"]`).waitFor();
    expect(await causedTab.page.locator('[data-caused]').count()).toBe(1);
    await closeClean(causedTab);
  });

  it('lists incidents by when they started, with their duration and top suspect', async () => {
    const { incidents } = await api<{
      incidents: {
        edges: {
          node: {
            id: string;
            title: string;
            suspects: {
              deploy: { commitSha: string; version: string | null; service: { name: string } } | null;
              change: { kind: string; service: { name: string } } | null;
            }[];
          };
        }[];
      };
    }>(
      'query { incidents(first: 50, orderBy: STARTED_AT) { edges { node { id title suspects { deploy { commitSha version service { name } } change { kind service { name } } } } } } }',
    );
    expect(incidents.edges.map(({ node }) => node.id)).toEqual([seeded.newerIncidentId, seeded.olderIncidentId]);
    const tab = await signedIn('/incidents');
    const { page } = tab;
    const rows = page.getByRole('region', { name: 'Incidents' }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.locator('td:first-child a').allTextContents()).toEqual(incidents.edges.map(({ node }) => node.title));
    // Resolved after about a day; still open after about five.
    expect(await rows.nth(0).locator('[data-duration]').textContent()).toBe('1.0 d');
    expect(await rows.nth(1).locator('[data-duration]').textContent()).toBe('5.0 d, open');
    for (const [index, { node }] of incidents.edges.entries()) {
      const top = node.suspects[0]!;
      // Which service, and its version (the commit only when it has none).
      expect(await rows.nth(index).locator('[data-top-suspect]').textContent()).toContain(
        top.deploy
          ? `${top.deploy.service.name} ${top.deploy.version ?? top.deploy.commitSha.slice(0, 12)}`
          : `${top.change!.service.name} ${top.change!.kind}`,
      );
    }
    await closeClean(tab);
  });

  it("shows each endpoint's counts as the API counts them, breadcrumbs as links, and the stats on one row", async () => {
    const { webhookEndpoints } = await api<{
      webhookEndpoints: {
        edges: { node: { id: string; stats: { deliveriesLast24h: number; succeededLast24h: number; failedLast24h: number } } }[];
      };
    }>('query { webhookEndpoints(first: 50) { edges { node { id stats { deliveriesLast24h succeededLast24h failedLast24h } } } } }');
    const tab = await signedIn('/webhooks');
    const { page } = tab;
    for (const { node } of webhookEndpoints.edges) {
      const card = page.locator(`[data-endpoint-id="${node.id}"]`);
      expect(await card.getByTestId('deliveries-24h').textContent()).toBe(String(node.stats.deliveriesLast24h));
      expect(await card.getByTestId('success-rate').textContent()).toContain(
        `${node.stats.succeededLast24h} of ${node.stats.succeededLast24h + node.stats.failedLast24h} finished`,
      );
      const tops = await card
        .locator('.card-stats > div')
        .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().top)));
      expect(new Set(tops).size, 'one row of stats').toBe(1);
    }
    await closeClean(tab);

    for (const path of [
      `/webhooks/${seeded.healthyEndpointId}`,
      `/events/${seeded.eventId}`,
      `/deploys/${seeded.deployIds[0]}`,
      `/incidents/${seeded.olderIncidentId}`,
      '/deliveries',
      '/events',
    ]) {
      const crumbs = await signedIn(path);
      const items = crumbs.page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem');
      await items.first().waitFor();
      for (const item of await items.all()) expect(await item.getByRole('link').count(), `${path}: ${await item.textContent()}`).toBe(1);
      await closeClean(crumbs);
    }
  });

  it('picks the DORA environment among those that exist, production by default, with the API’s numbers for the same period and UTC weeks', async () => {
    const { environments } = await api<{ environments: { name: string }[] }>('query { environments { name } }');
    expect(environments.map((environment) => environment.name)).toEqual(['production', 'staging']);
    const doraQuery =
      'query($environment: String, $from: DateTime!, $to: DateTime!) { dora(environment: $environment, from: $from, to: $to) { deployCount days deploymentFrequencyPerDay changeFailureRate failedDeployCount rolledBackCount judgedCausedCount topSuspectCount bands { deploymentFrequency leadTimeForChanges changeFailureRate timeToRestore } } }';
    type Dora = {
      failedDeployCount: number;
      rolledBackCount: number;
      judgedCausedCount: number;
      topSuspectCount: number;
      deployCount: number;
      days: number;
      deploymentFrequencyPerDay: number;
      changeFailureRate: number | null;
      bands: Record<string, string | null>;
    };
    const tab = await signedIn('/dora');
    const { page } = tab;
    const keys = page.getByRole('list', { name: 'The four keys' });
    /** The page's period once it shows the numbers of `environment`, and the API's keys for exactly that period. */
    const shown = async (environment: string | null) => {
      await eventually(
        async () => {
          const from = await keys.getAttribute('data-from');
          if (!from) return undefined;
          const { dora } = await api<{ dora: Dora }>(doraQuery, { environment, from, to: await keys.getAttribute('data-to') });
          const text = await keys.locator('.key').first().locator('.subtle').textContent();
          return text === `${dora.deployCount} deploys in 30 days` || undefined;
        },
        30_000,
        `the page's ${environment ?? 'all'} numbers`,
      );
      const period = { from: (await keys.getAttribute('data-from'))!, to: (await keys.getAttribute('data-to'))! };
      return { period, dora: (await api<{ dora: Dora }>(doraQuery, { environment, ...period })).dora };
    };
    const select = page.getByLabel('Environment');
    expect(await select.evaluate((element) => element.tagName)).toBe('SELECT');
    expect(await select.locator('option').allTextContents()).toEqual(['All environments', 'production', 'staging']);
    expect(await select.inputValue()).toBe('production');
    const { period, dora } = await shown('production');
    // Exactly 30 × 24 hours, as the API counts it: the same rate per day on the card.
    expect(Date.parse(period.to) - Date.parse(period.from)).toBe(30 * 86_400_000);
    expect(dora.days).toBe(30);
    expect(await keys.locator('.key-value').first().textContent()).toBe(`${dora.deploymentFrequencyPerDay.toFixed(2)} per day`);
    expect(await page.getByTestId('dora-period').textContent()).toContain('UTC');
    // The failure rate's definition, with the counts behind it: the seed's rollback and CAUSED verdict among them.
    expect(await page.getByTestId('failure-definition').textContent()).toBe(
      `${dora.failedDeployCount} of ${dora.deployCount} deploys failed: ${dora.rolledBackCount} rolled back, ${dora.judgedCausedCount} judged CAUSED for an incident, ${dora.topSuspectCount} top suspect of an incident without a verdict`,
    );
    expect(dora.rolledBackCount).toBeGreaterThan(0);
    expect(dora.failedDeployCount).toBe(dora.rolledBackCount + dora.judgedCausedCount + dora.topSuspectCount);
    // The drill-downs: the deploys counted as failed (with why), the incidents restored, and each service's keys, as the API gives them.
    const failedRows = page.getByRole('table', { name: 'Failed deploys' }).locator('tbody tr');
    await failedRows.first().waitFor();
    const reasons = await failedRows
      .locator('td[data-reason]')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-reason')));
    expect(reasons.filter((reason) => reason === 'ROLLED_BACK')).toHaveLength(dora.rolledBackCount);
    expect(reasons.filter((reason) => reason === 'JUDGED_CAUSED')).toHaveLength(dora.judgedCausedCount);
    expect(reasons.filter((reason) => reason === 'TOP_SUSPECT')).toHaveLength(dora.topSuspectCount);
    const restoreQuery =
      'query($environment: String, $from: DateTime!, $to: DateTime!) { dora(environment: $environment, from: $from, to: $to) { restoreIncidents(first: 100) { id } } }';
    const { dora: restored } = await api<{ dora: { restoreIncidents: { id: string }[] } }>(restoreQuery, {
      environment: 'production',
      ...period,
    });
    expect(restored.restoreIncidents.length).toBeGreaterThan(0);
    expect(
      await page
        .getByRole('table', { name: 'Incidents counted toward time to restore' })
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-incident'))),
    ).toEqual(restored.restoreIncidents.map((incident) => incident.id));
    const serviceRows = page.getByRole('table', { name: 'The four keys by service' }).locator('tbody tr');
    expect(await serviceRows.count()).toBe(3);
    let deploysOfServices = 0;
    for (const row of await serviceRows.all()) {
      const serviceQuery =
        'query($serviceId: ID, $environment: String, $from: DateTime!, $to: DateTime!) { dora(serviceId: $serviceId, environment: $environment, from: $from, to: $to) { deployCount } }';
      const { dora: ofService } = await api<{ dora: { deployCount: number } }>(serviceQuery, {
        serviceId: await row.getAttribute('data-service'),
        environment: 'production',
        ...period,
      });
      expect((await row.locator('td').first().textContent())!).toBe(String(ofService.deployCount));
      deploysOfServices += ofService.deployCount;
    }
    expect(deploysOfServices).toBe(dora.deployCount);
    // The DORA report's band of each key, as the API gives it for the page's own period.
    expect(dora.bands.deploymentFrequency).toBe('HIGH');
    for (const [heading, band] of [
      ['Deployment frequency', 'deploymentFrequency'],
      ['Lead time for changes', 'leadTimeForChanges'],
      ['Change failure rate', 'changeFailureRate'],
      ['Time to restore', 'timeToRestore'],
    ] as const) {
      const card = keys.locator('li', { has: page.getByRole('heading', { name: heading }) });
      expect(await card.locator('.band').getAttribute('data-band'), heading).toBe(dora.bands[band]);
    }
    // Week by week: the ISO weeks (Monday 00:00 UTC) that overlap the period, the first and last cut
    // to it, and each row's numbers the API's for that week.
    const weeks = page.getByRole('table', { name: 'Weekly trends' }).locator('tbody tr');
    await weeks.first().waitFor();
    const windows: { from: string; to: string }[] = [];
    for (const week of await weeks.all())
      windows.push({ from: (await week.getAttribute('data-from'))!, to: (await week.getAttribute('data-to'))! });
    expect(windows[0]!.from).toBe(period.from);
    expect(windows.at(-1)!.to).toBe(period.to);
    for (const [index, window] of windows.entries()) {
      if (index > 0) {
        expect(window.from).toBe(windows[index - 1]!.to);
        expect(new Date(window.from).getUTCDay(), window.from).toBe(1);
        expect(window.from).toMatch(/T00:00:00\.000Z$/);
      }
      if (index < windows.length - 1) expect(Date.parse(window.to) - Date.parse(window.from)).toBeLessThanOrEqual(7 * 86_400_000);
    }
    expect(windows.length).toBeGreaterThanOrEqual(5);
    expect(windows.length).toBeLessThanOrEqual(6);
    let deploysInWeeks = 0;
    const weekCounts: number[] = [];
    for (const [index, week] of (await weeks.all()).entries()) {
      const { dora: weekly } = await api<{ dora: Dora }>(doraQuery, { environment: 'production', ...windows[index]! });
      const cells = await week.locator('td').allTextContents();
      expect(cells[0]).toBe(String(weekly.deployCount));
      expect(cells[2]).toBe(weekly.changeFailureRate === null ? '—' : `${Math.round(weekly.changeFailureRate * 100)} %`);
      deploysInWeeks += weekly.deployCount;
      weekCounts.push(weekly.deployCount);
    }
    expect(deploysInWeeks).toBe(dora.deployCount);
    // The chart cuts the same weeks: one bar per row, the same counts.
    const bars = page.locator('.bar-chart rect.bar title');
    expect((await bars.allTextContents()).map((title) => Number(/: (\d+) deploys?$/.exec(title)![1]))).toEqual(weekCounts);
    expect(await page.getByRole('heading', { name: 'Deploys per week (UTC)' }).count()).toBe(1);
    await select.selectOption('staging');
    await shown('staging');
    await select.selectOption({ label: 'All environments' });
    await shown(null);
    await closeClean(tab);
  });

  it("keeps Add Endpoint's errors in view, in the server's words", async () => {
    // A server that takes http but not private addresses.
    const other = await hookline.startApp({ ROLE: 'api', WEBHOOK_ALLOW_HTTP: 'true' });
    try {
      const refusal = await api<{ webhookDestinationPolicy: { allowHttp: boolean } }>(
        'query { webhookDestinationPolicy { allowHttp } }',
        {},
        other.baseUrl,
      );
      expect(refusal.webhookDestinationPolicy.allowHttp).toBe(true);
      const byApi = await fetch(`${other.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
        body: JSON.stringify({
          query: 'mutation { createWebhookEndpoint(url: "ftp://hooks.example.com/x", name: "x") { signingSecret } }',
        }),
      });
      const apiMessage = ((await byApi.json()) as { errors: { extensions: { fields: { field: string; message: string }[] } }[] }).errors[0]!
        .extensions.fields[0]!.message;
      expect(apiMessage).toBe('must use https or http');

      const tab = await signedIn('/webhooks', PHONE, other.baseUrl);
      const { page } = tab;
      await page.getByRole('button', { name: 'Add Endpoint' }).click();
      const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add Endpoint' }) });
      await form.getByLabel('Endpoint URL').fill('ftp://hooks.example.com/x');
      await form.getByLabel('Name').fill('Not http');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await form.getByText('URL must use https or http.').waitFor();

      await form.getByLabel('Endpoint URL').fill('https://127.0.0.1/hooks');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      const error = form.getByText(/^Must not point to a private/);
      await error.waitFor();
      await page.waitForFunction(() => {
        const element = document.querySelector('[aria-invalid="true"]');
        const box = element?.getBoundingClientRect();
        return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
      });
      const box = (await error.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      await screenshot(page, 'pages-add-endpoint-refused-390');
      await closeClean(tab);
    } finally {
      await other.close();
    }
  });

  it('says plainly when the server is down, and the filters stay where they were', async () => {
    const other = await hookline.startApp({ ROLE: 'api' });
    let closed = false;
    try {
      const tab = await signedIn('/deliveries', DESKTOP, other.baseUrl);
      const { page } = tab;
      await page.getByTestId('deliveries-total').waitFor();
      const filters = page.getByRole('search', { name: 'Filter deliveries' });
      const before = await filters.boundingBox();
      await other.close();
      closed = true;
      tab.allow(/Failed to load resource|ERR_CONNECTION_REFUSED/);
      await page.getByLabel('Status').selectOption('FAILED');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(/^Hookline is not answering/);
      // biome-ignore lint/performance/useDomNodeTextContent: the text as the page shows it
      expect(await page.locator('main').innerText()).not.toContain('Failed to fetch');
      expect(await filters.boundingBox()).toEqual(before);
      await screenshot(page, 'pages-server-down-1280');
      await closeClean(tab);
    } finally {
      if (!closed) await other.close();
    }
  });

  it("labels the Recover form's fields next to their inputs and shows the timeout in force", async () => {
    const { webhookDestinationPolicy } = await api<{ webhookDestinationPolicy: { maxTimeoutMs: number } }>(
      'query { webhookDestinationPolicy { maxTimeoutMs } }',
    );
    const tab = await signedIn(`/webhooks/${seeded.healthyEndpointId}`, PHONE);
    const { page } = tab;
    const recover = page.getByRole('form', { name: 'Recover failed deliveries' });
    // The charts above it load on their own: measured once they are drawn, nothing moves in between.
    await page.getByRole('img', { name: /^Attempts: attempts/ }).waitFor();
    for (const name of ['From', 'To (empty: now)']) {
      const label = (await recover.getByText(name, { exact: true }).boundingBox())!;
      const input = (await recover.getByLabel(name, { exact: true }).boundingBox())!;
      const gap = input.y - (label.y + label.height);
      expect(gap, `${name} just above its input`).toBeGreaterThanOrEqual(0);
      expect(gap, `${name} just above its input`).toBeLessThan(10);
    }
    const timeout = page.locator('.facts dt', { hasText: /^Timeout$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await timeout.textContent()).toBe(`${webhookDestinationPolicy.maxTimeoutMs} ms (the server's default)`);
    await closeClean(tab);
  });

  it('shows a disabled endpoint compactly, without Retry buttons that cannot work, and recovers it in one step', async () => {
    const tab = await signedIn(`/webhooks/${seeded.disabledEndpointId}`);
    const { page } = tab;
    await page.locator('.delivery').first().waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await page.locator('details[open]').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2600);
    const recover = page.getByRole('form', { name: 'Recover failed deliveries' });
    await recover.getByText(/Disabled: Recover re-enables it first/).waitFor();
    const countOf = async (status: string) => {
      const { deliveries } = await api<{ deliveries: { totalCount: number } }>(
        'query($filter: DeliveryFilter) { deliveries(filter: $filter, first: 1) { totalCount } }',
        {
          filter: { endpointId: seeded.disabledEndpointId, status },
        },
      );
      return deliveries.totalCount;
    };
    const deliveries = { totalCount: (await countOf('FAILED')) + (await countOf('CANCELLED')) };
    expect(deliveries.totalCount).toBeGreaterThan(1);
    failing = false;
    await recover.getByRole('button', { name: 'Re-enable and recover' }).click();
    await recover.getByText(`${deliveries.totalCount} deliveries queued again.`).waitFor();
    await page.locator('h1 + .page-actions [data-status="ACTIVE"]').waitFor();
    await eventually(
      async () => ((await countOf('SUCCEEDED')) === deliveries.totalCount ? true : undefined),
      60_000,
      'the recovered deliveries succeeded',
    );
    await closeClean(tab);
  }, 90_000);
});
