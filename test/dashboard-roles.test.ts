// The dashboard offers each person only what their role allows, in a real browser: a VIEWER sees no
// write button anywhere, a MEMBER sees incident and delivery actions but no admin ones. And the
// people pages: API tokens with a scope, the organization switch, pending invites cancelled, and a
// password change signing the other browsers out.
import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { LOCAL_RECEIVERS } from './support/app.ts';
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
import { postDeploy } from './support/http.ts';
import { createEndpoint } from './support/operations.ts';
import { invitePerson, PASSWORD, postJson, setUpOwner, signIn, type SignedIn } from './support/people.ts';

beforeAll(() => {
  if (hasChromium || chromiumRequired) ensureDashboardBuilt();
});
const hookline = useHookline({ environment: LOCAL_RECEIVERS, receiver: true });

/** A GraphQL operation with a token or a cookie; its data, after asserting it succeeded. */
async function gql(credential: { token: string } | { cookie: string }, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${hookline.baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...('token' in credential ? { authorization: `Bearer ${credential.token}` } : { cookie: credential.cookie }),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data!;
}

describe.skipIf(!hasChromium && !chromiumRequired)('the dashboard by role', () => {
  const tabs = useBrowserTabs('roles');
  let owner: SignedIn;
  let viewer: SignedIn;
  let member: SignedIn;
  let incidentId: string;
  let endpointId: string;

  beforeAll(async () => {
    const { tenant } = hookline;
    owner = await setUpOwner(hookline.app, hookline.baseUrl, tenant.organizationId, 'owner@roles.test');
    viewer = await invitePerson(hookline.baseUrl, owner.cookie, 'viewer@roles.test', 'VIEWER');
    member = await invitePerson(hookline.baseUrl, owner.cookie, 'member@roles.test', 'MEMBER');
    // Something on every page: a deploy (and so an environment), an incident with it as a suspect,
    // an alert source, an endpoint with a delivery, an API token.
    const deploy = await postDeploy(hookline.baseUrl, tenant.deployToken, {
      commit_sha: 'a1b2c3d',
      environment: 'production',
      deployed_at: new Date(Date.now() - 600_000).toISOString(),
    });
    expect(deploy.status).toBe(200);
    const token = { token: tenant.apiToken };
    incidentId = (
      await gql(token, 'mutation($id: ID!) { openIncident(serviceId: $id, title: "Checkout errors", environment: "production") { id } }', {
        id: tenant.serviceId,
      })
    ).openIncident.id;
    await gql(token, 'mutation { createAlertSource(name: "Prometheus", kind: ALERTMANAGER) { token } }');
    endpointId = (await createEndpoint(hookline, tenant.apiToken, { url: `${hookline.receiver.url}/ok`, name: 'Orders' })).id;
    await gql(token, 'mutation($id: ID!) { sendTestEvent(endpointId: $id) { id } }', { id: endpointId });
  });

  async function signedIn(cookie: string, path: string): Promise<RecordedPage> {
    return tabs.signedIn(cookie, `${hookline.baseUrl}${path}`);
  }

  /** Opens `path` in the tab and waits until `ready` shows (the page's data is there). */
  async function visit(tab: RecordedPage, path: string, ready: (page: RecordedPage['page']) => Promise<void>) {
    await tab.page.goto(`${hookline.baseUrl}${path}`);
    await ready(tab.page);
  }

  const buttons = (page: RecordedPage['page'], name: string | RegExp) => page.getByRole('button', { name }).count();

  /** What an ADMIN is offered on each page, and a MEMBER on top of a VIEWER; waited for, then counted. */
  async function offers(tab: RecordedPage) {
    const { page } = tab;
    const seen: Record<string, number> = {};
    await visit(tab, '/services', (p) => p.getByRole('link', { name: 'checkout' }).first().waitFor());
    seen['Create service'] = await buttons(page, 'Create service');
    await visit(tab, `/services/${hookline.tenant.serviceId}`, (p) => p.getByRole('heading', { name: 'Dependencies' }).waitFor());
    seen['Rotate token'] = await buttons(page, 'Rotate token');
    seen['Make GitHub secret'] = await buttons(page, 'Make GitHub secret');
    seen['Edit dependencies'] = await buttons(page, 'Edit dependencies');
    await visit(tab, '/alert-sources', (p) => p.getByRole('cell', { name: 'Prometheus', exact: true }).waitFor());
    seen['Add alert source'] = await buttons(page, 'Add alert source');
    seen['Rotate alert token'] = await page
      .getByRole('region', { name: 'Alert sources' })
      .getByRole('button', { name: 'Rotate token' })
      .count();
    seen['Delete alert source'] = await buttons(page, 'Delete');
    await visit(tab, '/environments', (p) => p.getByRole('rowheader', { name: 'production' }).waitFor());
    seen['Edit aliases'] = await buttons(page, 'Edit aliases of production');
    seen['Set its aliases'] = await buttons(page, 'Set its aliases');
    await visit(tab, '/webhooks', (p) => p.getByRole('link', { name: 'Orders' }).first().waitFor());
    seen['Add Endpoint'] = await buttons(page, 'Add Endpoint');
    await visit(tab, `/webhooks/${endpointId}`, (p) => p.getByRole('heading', { name: 'Signing secret' }).waitFor());
    seen['Reveal secret'] = await buttons(page, 'Reveal secret');
    seen['Send Test'] = await buttons(page, 'Send Test');
    seen['Recover'] = await buttons(page, 'Recover');
    await visit(tab, '/api-tokens', (p) => p.getByRole('region', { name: 'API tokens' }).waitFor());
    seen['Create token'] = await buttons(page, 'Create token');
    seen['Revoke token'] = await buttons(page, 'Revoke');
    await visit(tab, '/incidents', (p) => p.getByRole('link', { name: 'Checkout errors' }).first().waitFor());
    seen['Open incident'] = await buttons(page, 'Open incident');
    await visit(tab, `/incidents/${incidentId}`, async (p) => {
      await p.getByRole('heading', { name: 'Notes' }).waitFor();
      await p.locator('tr.suspect').first().waitFor();
    });
    seen['Acknowledge'] = await buttons(page, 'Acknowledge');
    seen['Resolve'] = await buttons(page, 'Resolve');
    seen['Caused it'] = await buttons(page, 'Caused it');
    seen['Add note'] = await page.getByLabel('Add a note').count();
    await visit(tab, '/deliveries', (p) => p.getByTestId('deliveries-total').waitFor());
    seen['Bulk resend'] = await buttons(page, /^Resend .*deliver/);
    return seen;
  }

  const NONE = {
    'Create service': 0,
    'Rotate token': 0,
    'Make GitHub secret': 0,
    'Edit dependencies': 0,
    'Add alert source': 0,
    'Rotate alert token': 0,
    'Delete alert source': 0,
    'Edit aliases': 0,
    'Set its aliases': 0,
    'Add Endpoint': 0,
    'Reveal secret': 0,
    'Send Test': 0,
    Recover: 0,
    'Create token': 0,
    'Revoke token': 0,
    'Open incident': 0,
    Acknowledge: 0,
    Resolve: 0,
    'Caused it': 0,
    'Add note': 0,
    'Bulk resend': 0,
  };
  const MEMBER_OFFERS = {
    'Send Test': 1,
    Recover: 1,
    'Open incident': 1,
    Acknowledge: 1,
    Resolve: 1,
    'Caused it': 1,
    'Add note': 1,
    'Bulk resend': 1,
  };

  it('offers a VIEWER no write button on any page, a MEMBER the incident and delivery actions only, an OWNER all', async () => {
    const viewerTab = await signedIn(viewer.cookie, '/');
    expect(await offers(viewerTab)).toEqual(NONE);
    await screenshot(viewerTab.page, 'roles-viewer-incident');
    await closeClean(viewerTab);
    await tabs.clearCookies();

    const memberTab = await signedIn(member.cookie, '/');
    expect(await offers(memberTab)).toEqual({ ...NONE, ...MEMBER_OFFERS });
    await screenshot(memberTab.page, 'roles-member-deliveries');
    await closeClean(memberTab);
    await tabs.clearCookies();

    // The owner is offered everything: the same checks can see the buttons.
    const ownerTab = await signedIn(owner.cookie, '/');
    const all = await offers(ownerTab);
    for (const [name, count] of Object.entries(all)) expect(count, name).toBeGreaterThan(0);
    await closeClean(ownerTab);
  });

  it('makes an API token with the scope chosen, lists each token’s scope, and revokes one', async () => {
    const tab = await signedIn(owner.cookie, '/api-tokens');
    const { page } = tab;
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create token' }).click();
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Create an API token' }) });
    // The least is chosen unless one chooses more.
    expect(await form.getByRole('radio', { name: /^READ/ }).isChecked()).toBe(true);
    await form.getByLabel('Name').fill('Status screen writer');
    await form.getByRole('radio', { name: /^WRITE/ }).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = page.getByTestId('secret-once');
    await secret.getByText('created, scope WRITE').waitFor();
    const created = await secret.getByTestId('secret-value').inputValue();
    expect((await gql({ token: created }, '{ me { role } }')).me.role).toBe('MEMBER');
    await secret.getByRole('button', { name: 'I have copied it' }).click();

    const rows = page.getByRole('region', { name: 'API tokens' }).locator('tbody tr');
    const row = rows.filter({ hasText: 'Status screen writer' });
    await row.getByText('WRITE', { exact: true }).waitFor();
    // The tenant's own token, made before scopes were chosen here, is ADMIN.
    await rows
      .filter({ hasText: hookline.tenant.apiToken.slice(0, 12) })
      .getByText('ADMIN', { exact: true })
      .waitFor();
    await screenshot(page, 'roles-api-token-scopes');

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await row.getByText(/^Revoked/).waitFor();
    const refused = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created}` },
      body: JSON.stringify({ query: '{ me { role } }' }),
    });
    expect(refused.status).toBe(401);
    await closeClean(tab);
  });

  it('switches a person in two organizations from the header: the new organization’s data and role', async () => {
    const other = await createOrganization(hookline.app.database.prisma, 'Elsewhere Inc');
    await createService(hookline.app.database.prisma, other.organizationId, 'billing');
    const otherOwner = await setUpOwner(hookline.app, hookline.baseUrl, other.organizationId, 'owner@elsewhere.test');
    const invite = await gql(
      { cookie: otherOwner.cookie },
      'mutation { inviteMember(email: "member@roles.test", role: VIEWER) { inviteUrl } }',
    );
    const token = new URL(invite.inviteMember.inviteUrl).searchParams.get('token')!;
    const joined = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, { token, name: 'x', password: PASSWORD });
    expect(joined.status).toBe(200);
    const session = await signIn(hookline.baseUrl, 'member@roles.test');

    const tab = await signedIn(session.cookie, '/services');
    const { page } = tab;
    await page.getByRole('link', { name: 'checkout' }).first().waitFor();
    const menu = page.locator('details.org-menu');
    await menu
      .locator('summary')
      .getByText(/· MEMBER$/)
      .waitFor();
    await menu.locator('summary').click();
    const organizations = page.getByRole('list', { name: 'Your organizations' });
    expect(await organizations.getByRole('button').allInnerTexts()).toEqual([
      expect.stringMatching(/MEMBER$/),
      expect.stringMatching(/^Elsewhere Inc\s+VIEWER$/),
    ]);
    await screenshot(page, 'roles-organization-menu');
    await organizations.getByRole('button', { name: /Elsewhere Inc/ }).click();
    await page.getByRole('link', { name: 'billing' }).waitFor();
    expect(await page.getByRole('link', { name: 'checkout' }).count()).toBe(0);
    await menu.locator('summary').getByText('Elsewhere Inc · VIEWER').waitFor();
    // As a VIEWER there, the incidents page offers nothing to open.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incidents' }).click();
    await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
    await page.getByText('No incidents.').waitFor();
    expect(await buttons(page, 'Open incident')).toBe(0);
    // The session itself acts for the new organization: a new tab opens in it.
    expect((await gql({ cookie: session.cookie }, '{ me { organization { id } role } }')).me).toEqual({
      organization: { id: other.organizationId },
      role: 'VIEWER',
    });
    await closeClean(tab);
  });

  it('lists pending invites on the Members page and cancels one: its link is then refused', async () => {
    const tab = await signedIn(owner.cookie, '/members');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByLabel('Email').fill('pending@roles.test');
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('ADMIN');
    await page.getByRole('button', { name: 'Make an invite link' }).click();
    const link = await page.getByRole('status').getByRole('textbox').inputValue();
    const pending = page.getByRole('region', { name: 'Pending invites' });
    const row = pending.locator('tr', { hasText: 'pending@roles.test' });
    await row.getByRole('cell', { name: 'ADMIN' }).waitFor();
    await row.getByRole('cell', { name: 'Owner owner@roles.test' }).waitFor();
    await screenshot(page, 'roles-pending-invites');

    await row.getByRole('button', { name: 'Cancel invite' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel invite' }).click();
    await expect.poll(() => page.locator('tr', { hasText: 'pending@roles.test' }).count(), { timeout: 30_000 }).toBe(0);

    const token = new URL(link).searchParams.get('token')!;
    const accept = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, { token, name: 'Late', password: PASSWORD });
    expect(accept.status).toBe(410);
    expect(accept.body.error?.message).toContain('cancelled');
    await closeClean(tab);
  });

  it('changes the password from the Sessions page: the other browser is signed out, this one stays', async () => {
    const person = await invitePerson(hookline.baseUrl, owner.cookie, 'changer@roles.test', 'VIEWER');
    const elsewhere = await signIn(hookline.baseUrl, 'changer@roles.test');
    expect(elsewhere.status).toBe(200);
    const tab = await signedIn(person.cookie, '/sessions');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Change your password' });
    await form.getByLabel('Current password').fill('not my password at all');
    await form.getByLabel('New password').fill('a new long passphrase');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Is not your current password.').waitFor();

    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('status').getByText('Password changed. 1 other session was signed out.').waitFor();
    await screenshot(page, 'roles-password-changed');
    const refused = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: elsewhere.cookie },
      body: JSON.stringify({ query: '{ me { role } }' }),
    });
    expect(refused.status).toBe(401);
    // This tab stays signed in.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await page.getByRole('heading', { name: 'Services', level: 1 }).waitFor();
    expect((await signIn(hookline.baseUrl, 'changer@roles.test', 'a new long passphrase')).status).toBe(200);
    await closeClean(tab);
  });
});
