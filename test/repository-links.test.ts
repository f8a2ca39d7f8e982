// A service's repository: set by hand (ADMIN, audited) or taken from the first deploy that names
// one, and the commit, pull request and compare links built from it; commit subjects and bodies.
import { describe, expect, it } from 'vitest';
import {
  commitUrl,
  compareUrl,
  normalizeRepositoryUrl,
  pullRequestNumber,
  pullRequestUrl,
  subjectAndBody,
} from '../src/domain/shared/repository-links.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { ingest } from './support/operations.ts';

const SET_REPOSITORY = graphql(`
  mutation SetRepository($serviceId: ID!, $url: String) {
    setServiceRepositoryUrl(serviceId: $serviceId, url: $url) { id repositoryUrl }
  }
`);
const DEPLOY_LINKS = graphql(`
  query DeployLinks($id: ID!) {
    deploy(id: $id) {
      commitUrl compareUrl pullRequestUrl
      service { repositoryUrl }
      commitsSincePrevious { sha subject body url pullRequestUrl }
    }
  }
`);
const DEPLOY_HEADLINE = graphql(`
  query DeployHeadline($id: ID!) { deploy(id: $id) { commitMessage headline } }
`);
const REPOSITORY_AUDIT = graphql(`
  query RepositoryAudit {
    auditLog(first: 5, filter: { action: "service.setRepositoryUrl" }) { edges { node { action objectId summary } } }
  }
`);

describe('repository links', () => {
  const github = 'https://github.com/acme/checkout';
  it('are built for GitHub, GitLab and Bitbucket only, from http(s) addresses only', () => {
    expect(commitUrl(github, 'abc')).toBe('https://github.com/acme/checkout/commit/abc');
    expect(commitUrl('https://gitlab.com/acme/checkout', 'abc')).toBe('https://gitlab.com/acme/checkout/-/commit/abc');
    expect(commitUrl('https://bitbucket.org/acme/checkout', 'abc')).toBe('https://bitbucket.org/acme/checkout/commits/abc');
    expect(commitUrl('https://git.example.com/acme/checkout', 'abc')).toBeNull();
    expect(commitUrl(null, 'abc')).toBeNull();
    expect(compareUrl(github, 'a1', 'b2')).toBe('https://github.com/acme/checkout/compare/a1...b2');
    expect(compareUrl('https://gitlab.example.com/g/p', 'a1', 'b2')).toBe('https://gitlab.example.com/g/p/-/compare/a1...b2');
    expect(compareUrl('https://bitbucket.org/w/r', 'a1', 'b2')).toBe('https://bitbucket.org/w/r/branches/compare/b2%0Da1');
    expect(compareUrl(github, 'a1', 'a1')).toBeNull();
    expect(normalizeRepositoryUrl('https://github.com/acme/checkout.git/')).toBe(github);
    expect(normalizeRepositoryUrl('javascript:alert(1)//github.com')).toBeNull();
    expect(normalizeRepositoryUrl('git@github.com:acme/checkout.git')).toBeNull();
    expect(normalizeRepositoryUrl('https://user:secret@github.com/acme/checkout')).toBeNull();
  });

  it('find the pull request a commit message names', () => {
    expect(pullRequestNumber('Fix the cart total (#123)')).toBe(123);
    expect(pullRequestNumber('Merge pull request #45 from acme/fix\n\nFix it')).toBe(45);
    expect(pullRequestNumber('Merged in fix (pull request #7)')).toBe(7);
    expect(pullRequestNumber('Fix it\n\nSee merge request acme/checkout!88')).toBe(88);
    expect(pullRequestNumber('Fix #12 in the body only')).toBeNull();
    expect(pullRequestNumber('Subject\n\nmentions (#99) in the body')).toBeNull();
    expect(pullRequestUrl(github, 'Fix (#123)')).toBe('https://github.com/acme/checkout/pull/123');
    expect(pullRequestUrl('https://gitlab.com/g/p', 'x\n\nSee merge request g/p!5')).toBe('https://gitlab.com/g/p/-/merge_requests/5');
    expect(pullRequestUrl('https://bitbucket.org/w/r', 'Merged in x (pull request #3)')).toBe('https://bitbucket.org/w/r/pull-requests/3');
  });

  it('split a message into its subject and its body', () => {
    expect(subjectAndBody('Subject\r\n\r\nBody line 1\nBody line 2\n')).toEqual({ subject: 'Subject', body: 'Body line 1\nBody line 2' });
    expect(subjectAndBody('Only a subject')).toEqual({ subject: 'Only a subject', body: null });
    expect(subjectAndBody(null)).toEqual({ subject: null, body: null });
  });
});

describe('a service repository through the API', () => {
  const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: 'off' } });
  it('gives a deploy without commit_message the message of its deployed commit, else of its first sent commit with one', async () => {
    const headline = async (payload: Record<string, unknown>) =>
      dataOf(
        await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DEPLOY_HEADLINE, {
          id: await ingest(hookline, hookline.tenant.deployToken, payload),
        }),
      ).deploy;
    expect(
      await headline({
        commit_sha: 'h2',
        environment: 'qa',
        commits: [
          { sha: 'h1', message: 'Older' },
          { sha: 'h2', message: 'Deployed\n\nbody' },
        ],
      }),
    ).toEqual({ commitMessage: null, headline: 'Deployed\n\nbody' });
    expect(await headline({ commit_sha: 'h9', environment: 'qa', commits: [{ sha: 'h3' }, { sha: 'h4', message: 'Sent' }] })).toEqual({
      commitMessage: null,
      headline: 'Sent',
    });
    expect(await headline({ commit_sha: 'h5', environment: 'qa', commit_message: 'Own', commits: [{ sha: 'h5', message: 'x' }] })).toEqual({
      commitMessage: 'Own',
      headline: 'Own',
    });
  });

  const set = (url: string | null) =>
    requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, SET_REPOSITORY, { serviceId: hookline.tenant.serviceId, url });
  const links = async (id: string) =>
    dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, DEPLOY_LINKS, { id })).deploy!;

  it('is taken from the first deploy that names one, kept over later ones, and set or cleared by hand (audited)', async () => {
    const first = await ingest(hookline, hookline.tenant.deployToken, {
      commit_sha: 'a1',
      environment: 'production',
      repository_url: 'https://github.com/acme/checkout.git',
      commits: [{ sha: 'a1', message: 'Add the cart (#12)\n\nWhy: customers asked.' }],
    });
    expect(await links(first)).toEqual({
      commitUrl: 'https://github.com/acme/checkout/commit/a1',
      compareUrl: null,
      pullRequestUrl: null,
      service: { repositoryUrl: 'https://github.com/acme/checkout' },
      commitsSincePrevious: [
        {
          sha: 'a1',
          subject: 'Add the cart (#12)',
          body: 'Why: customers asked.',
          url: 'https://github.com/acme/checkout/commit/a1',
          pullRequestUrl: 'https://github.com/acme/checkout/pull/12',
        },
      ],
    });
    // A later deploy naming another repository does not replace it.
    const second = await ingest(hookline, hookline.tenant.deployToken, {
      commit_sha: 'b2',
      commit_message: 'Merge pull request #13 from acme/fix',
      environment: 'production',
      repository_url: 'https://gitlab.com/other/place',
    });
    expect(await links(second)).toMatchObject({
      commitUrl: 'https://github.com/acme/checkout/commit/b2',
      compareUrl: 'https://github.com/acme/checkout/compare/a1...b2',
      pullRequestUrl: 'https://github.com/acme/checkout/pull/13',
      commitsSincePrevious: [{ sha: 'b2', subject: 'Merge pull request #13 from acme/fix', body: null }],
    });
    // A javascript: address is refused, by hand and by ingest.
    const refused = await set('javascript:alert(1)');
    expect(refused.body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'url', message: 'must be an http or https address of at most 2048 characters' }],
    });
    const badIngest = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
      commit_sha: 'x',
      repository_url: 'javascript:alert(1)',
    });
    expect(badIngest.status).toBe(400);
    expect(badIngest.body).toEqual({
      error: expect.objectContaining({
        code: 'validation_failed',
        details: [{ field: 'repository_url', message: 'must be an http or https address' }],
      }),
    });
    // By hand: set, then cleared; the next deploy naming one sets it again.
    expect(dataOf(await set('https://bitbucket.org/acme/checkout/')).setServiceRepositoryUrl.repositoryUrl).toBe(
      'https://bitbucket.org/acme/checkout',
    );
    expect((await links(second)).compareUrl).toBe('https://bitbucket.org/acme/checkout/branches/compare/b2%0Da1');
    expect(dataOf(await set(null)).setServiceRepositoryUrl.repositoryUrl).toBeNull();
    expect(await links(second)).toMatchObject({ commitUrl: null, compareUrl: null, pullRequestUrl: null });
    await ingest(hookline, hookline.tenant.deployToken, { commit_sha: 'c3', repository_url: 'https://gitlab.com/acme/checkout' });
    expect((await links(second)).service.repositoryUrl).toBe('https://gitlab.com/acme/checkout');
    const audit = dataOf(await requestGraphql(hookline.baseUrl, hookline.tenant.apiToken, REPOSITORY_AUDIT)).auditLog.edges;
    expect(audit.map((edge) => edge.node)).toEqual([
      { action: 'service.setRepositoryUrl', objectId: hookline.tenant.serviceId, summary: 'Cleared the repository of service "checkout"' },
      {
        action: 'service.setRepositoryUrl',
        objectId: hookline.tenant.serviceId,
        summary: 'Set the repository of service "checkout" to https://bitbucket.org/acme/checkout',
      },
    ]);
  });
});
