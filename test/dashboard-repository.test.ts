// A service's repository in a real browser: an ADMIN sets its URL on the service page (a MEMBER
// does not get the form), then the deploy page and the incident page's suspect link the commit,
// its pull request and the comparison with the previous deploy, and a commit's body stays behind
// its subject until opened.
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { chromiumRequired, closeClean, ensureDashboardBuilt, hasChromium, useBrowserTabs } from './support/browser.ts';
import { useHookline } from './support/fixture.ts';
import { postDeploy } from './support/http.ts';
import { invitePerson, setUpOwner, type SignedIn } from './support/people.ts';

beforeAll(() => {
  if (hasChromium || chromiumRequired) ensureDashboardBuilt();
});
const hookline = useHookline({ environment: LOCAL_RECEIVERS });

const REPOSITORY = 'https://github.com/acme/checkout';
const PREVIOUS_SHA = '1111111aaaaaaabbbbbbbcccccccddddddd11111';
const SHA = '2222222eeeeeeefffffff00000001111111222222';

describe.skipIf(!hasChromium && !chromiumRequired)('repository links and commit messages in the dashboard', () => {
  const tabs = useBrowserTabs('repository');
  let owner: SignedIn;
  let member: SignedIn;
  let deployId: string;
  let incidentId: string;

  beforeAll(async () => {
    const { tenant } = hookline;
    owner = await setUpOwner(hookline.app, hookline.baseUrl, tenant.organizationId, 'owner@repository.test');
    member = await invitePerson(hookline.baseUrl, owner.cookie, 'member@repository.test', 'MEMBER');
    const deploy = (sha: string, minutesAgo: number, commitMessage?: string) =>
      postDeploy(hookline.baseUrl, tenant.deployToken, {
        commit_sha: sha,
        environment: 'production',
        deployed_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        ...(commitMessage ? { commit_message: commitMessage } : {}),
      });
    expect((await deploy(PREVIOUS_SHA, 120)).status).toBe(200);
    const latest = await deploy(SHA, 10, 'Round the cart total once (#123)\n\nThe total was rounded per line, off by a cent.');
    expect(latest.status).toBe(200);
    deployId = latest.body.deploy_id as string;
    const opened = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
      body: JSON.stringify({
        query: 'mutation($id: ID!) { openIncident(serviceId: $id, title: "Cart totals wrong", environment: "production") { id } }',
        variables: { id: tenant.serviceId },
      }),
    });
    incidentId = ((await opened.json()) as { data: { openIncident: { id: string } } }).data.openIncident.id;
  });

  it('an ADMIN sets the repository; the deploy and incident pages link commit, pull request and comparison; the body opens on demand', async () => {
    const servicePath = `${hookline.baseUrl}/services/${hookline.tenant.serviceId}`;
    // A MEMBER sees the repository section, not its form.
    const asMember = await tabs.signedIn(member.cookie, servicePath);
    await asMember.page.getByRole('heading', { name: 'Repository' }).waitFor();
    expect(await asMember.page.getByRole('form', { name: 'Repository of checkout' }).count()).toBe(0);
    await closeClean(asMember);
    await tabs.clearCookies();

    const tab = await tabs.signedIn(owner.cookie, servicePath);
    const { page } = tab;
    const form = page.getByRole('form', { name: 'Repository of checkout' });
    await form.getByLabel('Repository URL').fill(`${REPOSITORY}.git`);
    await form.getByRole('button', { name: 'Save repository' }).click();
    await page.getByTestId('repository-link').waitFor();
    expect(await page.getByTestId('repository-link').getAttribute('href')).toBe(REPOSITORY);

    await page.goto(`${hookline.baseUrl}/deploys/${deployId}`);
    await page.getByRole('link', { name: SHA }).first().waitFor();
    // The deploy's own links, and its commit's in the list of commits: every one to the same place.
    const hrefs = (name: string) =>
      page.getByRole('link', { name, exact: true }).evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute('href')))]);
    expect(await hrefs(SHA)).toEqual([`${REPOSITORY}/commit/${SHA}`]);
    expect(await hrefs('Pull request')).toEqual([`${REPOSITORY}/pull/123`]);
    expect(await hrefs('Compare with the previous deploy')).toEqual([`${REPOSITORY}/compare/${PREVIOUS_SHA}...${SHA}`]);
    // The subject shows, the body only once opened.
    const body = page.getByText('The total was rounded per line, off by a cent.').first();
    expect(await body.isVisible()).toBe(false);
    await page.getByText('Round the cart total once (#123)').first().click();
    await body.waitFor({ state: 'visible' });

    await page.goto(`${hookline.baseUrl}/incidents/${incidentId}`);
    await page.getByRole('button', { name: /Details of suspect 1/ }).click();
    const links = page.locator('.repository-links').first();
    await links.waitFor();
    expect(await links.getByRole('link', { name: 'commit' }).getAttribute('href')).toBe(`${REPOSITORY}/commit/${SHA}`);
    expect(await links.getByRole('link', { name: 'pull request' }).getAttribute('href')).toBe(`${REPOSITORY}/pull/123`);
    expect(await links.getByRole('link', { name: 'compare with the previous deploy' }).getAttribute('href')).toBe(
      `${REPOSITORY}/compare/${PREVIOUS_SHA}...${SHA}`,
    );
    await closeClean(tab);
  });
});
