// The dashboard signed in as people, in a real browser: what a VIEWER is offered (and what the
// API refuses them), a session revoked elsewhere signing an open tab out, and a page of another
// origin unable to use the session cookie.
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { LOCAL_RECEIVERS, requestGraphqlWithHeaders } from './support/app.ts';
import {
  chromiumRequired,
  closeClean,
  ensureDashboardBuilt,
  hasChromium,
  screenshot,
  useBrowserTabs,
  type RecordedPage,
} from './support/browser.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';
import { invitePerson, setUpOwner, signIn } from './support/people.ts';

const DELETE_ENDPOINT = graphql(`
  mutation BrowserPeopleDeleteEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }
`);

const SESSIONS = graphql(`
  query BrowserPeopleSessions { sessions { id current } }
`);

const ENDPOINT = graphql(`
  query BrowserPeopleEndpoint($id: ID!) { webhookEndpoint(id: $id) { id } }
`);

const REVOKE_SESSION = graphql(`
  mutation BrowserPeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }
`);

beforeAll(() => {
  if (hasChromium || chromiumRequired) ensureDashboardBuilt();
});
const hookline = useHookline({ environment: LOCAL_RECEIVERS, receiver: true });

describe.skipIf(!hasChromium && !chromiumRequired)('the dashboard signed in as people', () => {
  const tabs = useBrowserTabs('people');
  let owner: { cookie: string };

  beforeAll(async () => {
    owner = await setUpOwner(hookline.app, hookline.baseUrl, hookline.tenant.organizationId, 'owner@example.test');
  });

  async function signedIn(cookie: string, path: string): Promise<RecordedPage> {
    return tabs.signedIn(cookie, `${hookline.baseUrl}${path}`);
  }

  it('offers a VIEWER no Delete (nor other admin buttons), and the API refuses them the mutation with FORBIDDEN', async () => {
    const endpoint = await createEndpoint(hookline, hookline.tenant.apiToken, { url: `${hookline.receiver.url}/ok`, name: 'Orders' });
    const viewer = await invitePerson(hookline.baseUrl, owner.cookie, 'viewer@example.test', 'VIEWER');

    const tab = await signedIn(viewer.cookie, `/webhooks/${endpoint.id}`);
    const { page } = tab;
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    for (const name of ['Delete', 'Rotate secret', 'Edit', 'Send Test'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    expect(await page.getByRole('switch', { name: 'Active' }).count()).toBe(0);
    await page.locator('details.account-menu summary').click();
    expect(await page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    await screenshot(page, 'people-viewer-endpoint');

    const refused = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: viewer.cookie }, DELETE_ENDPOINT, { id: endpoint.id });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const { webhookEndpoint } = (await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, ENDPOINT, { id: endpoint.id }))
      .body.data!;
    expect(webhookEndpoint?.id).toBe(endpoint.id);
    await closeClean(tab);

    // The owner is offered them, and Members.
    const ownerTab = await signedIn(owner.cookie, `/webhooks/${endpoint.id}`);
    await ownerTab.page.getByRole('button', { name: 'Delete' }).waitFor();
    await ownerTab.page.locator('details.account-menu summary').click();
    await ownerTab.page.getByRole('link', { name: 'Members' }).click();
    await ownerTab.page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await ownerTab.page.getByRole('table', { name: 'Members' }).getByRole('cell', { name: 'viewer@example.test', exact: true }).waitFor();
    await closeClean(ownerTab);
  });

  it('signs an open tab out when its session is revoked from another browser: at its next request', async () => {
    const member = await invitePerson(hookline.baseUrl, owner.cookie, 'member@example.test', 'MEMBER');
    const tab = await signedIn(member.cookie, '/');
    const { page } = tab;
    await page.getByRole('heading', { name: 'On call', level: 1 }).waitFor();

    // Elsewhere: the same person signs in, lists their sessions and revokes the tab's.
    const elsewhere = await signIn(hookline.baseUrl, 'member@example.test');
    expect(elsewhere.status).toBe(200);
    const { sessions } = (await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: elsewhere.cookie }, SESSIONS, {})).body.data!;
    expect(sessions).toHaveLength(2);
    const tabSession = sessions.find((session) => !session.current)!;
    const revoked = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: elsewhere.cookie }, REVOKE_SESSION, { id: tabSession.id });
    expect(revoked.body.errors).toBeUndefined();

    tab.allow(/status of 401/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deploys' }).click();
    await page.getByRole('heading', { name: 'Sign in to Hookline' }).waitFor();
    await page.getByText('Your session ended').waitFor();
    await screenshot(page, 'people-session-revoked');
    await closeClean(tab);
  });

  it('refuses a form posted with the session cookie from a page of another origin', async () => {
    const tab = await signedIn(owner.cookie, '/');
    const { page } = tab;
    await page.getByRole('heading', { name: 'On call', level: 1 }).waitFor();
    // Another origin on the same host (another port: the same site, so the Lax cookie goes with the post).
    hookline.receiver.respond((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        `<form method="post" action="${hookline.baseUrl}/api/webhooks/endpoints" enctype="text/plain">` +
          `<input name='{"url":"https://evil.example/x","name":"planted","ignore":"' value='"}'><button>Go</button></form>`,
      );
    });
    const attacker = await tabs.newTab();
    attacker.allow(/status of 403/);
    await attacker.page.goto(`${hookline.receiver.url}/attack`);
    const [answer] = await Promise.all([
      attacker.page.waitForResponse((response) => response.url() === `${hookline.baseUrl}/api/webhooks/endpoints`),
      attacker.page.getByRole('button', { name: 'Go' }).click(),
    ]);
    expect(answer.request().headers().cookie ?? (await answer.request().allHeaders()).cookie).toContain('hookline_session=');
    expect(answer.status()).toBe(403);
    expect(await answer.json()).toMatchObject({ error: { code: 'cross_origin' } });
    const listed = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ query: '{ webhookEndpoints(first: 100) { edges { node { name } } } }' }),
    });
    const names = ((await listed.json()) as { data: { webhookEndpoints: { edges: { node: { name: string } }[] } } }).data.webhookEndpoints
      .edges;
    expect(names.map(({ node }) => node.name)).not.toContain('planted');
    await closeClean(tab);
  });
});
