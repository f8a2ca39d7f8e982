// An organization's API tokens through GraphQL over HTTP, as the dashboard's API tokens page
// uses them: list, create (plaintext once), revoke; each organization sees and revokes only
// its own, and a revoked token is refused by every surface at once.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/domain/shared/tokens.ts';
import { NOT_STORABLE_MESSAGE } from '../src/domain/shared/input.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphql } from './support/app.ts';
import { useHookline } from './support/fixture.ts';

const API_TOKENS = graphql(`
  query ApiTokens($first: Int, $after: String) {
    apiTokens(first: $first, after: $after) {
      edges { node { id name prefix createdAt lastUsedAt revokedAt } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);
const CREATE_API_TOKEN = graphql(`
  mutation CreateApiToken($name: String) {
    createApiToken(name: $name) { plaintextToken apiToken { id name prefix createdAt lastUsedAt revokedAt } }
  }
`);
const REVOKE_API_TOKEN = graphql(`
  mutation RevokeApiToken($id: ID!) {
    revokeApiToken(id: $id) { id prefix revokedAt }
  }
`);
const VIEWER_ID = graphql(`
  query ViewerId { viewer { id } }
`);

const hookline = useHookline({ environment: { ROLE: 'api' }, tenant: false });
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: hookline.database.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
});

async function tokenRow(plaintext: string) {
  const { rows } = await admin.query(`SELECT * FROM api_tokens WHERE token_hash = $1`, [hashToken(plaintext)]);
  return rows[0] as {
    id: string;
    organization_id: string;
    name: string | null;
    prefix: string;
    last_used_at: Date | null;
    revoked_at: Date | null;
  };
}

describe('createApiToken', () => {
  it('returns the plaintext once, stores only its hash and prefix, and the new token works at once', async () => {
    const tenant = await hookline.createTenant();
    const response = await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name: '  CI pipeline ' });
    expect(response.status).toBe(200);
    const { plaintextToken, apiToken } = dataOf(response).createApiToken;
    expect(plaintextToken).toMatch(/^hla_[0-9A-Za-z]{40}$/);
    expect(apiToken).toEqual({
      id: expect.any(String),
      name: 'CI pipeline',
      prefix: plaintextToken.slice(0, 12),
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });

    const row = await tokenRow(plaintextToken);
    expect(row).toMatchObject({
      id: apiToken.id,
      organization_id: tenant.organizationId,
      name: 'CI pipeline',
      prefix: plaintextToken.slice(0, 12),
    });
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM api_tokens WHERE token_hash = $1 OR prefix = $1 OR name = $1`, [
      plaintextToken,
    ]);
    expect(rows[0].n).toBe(0);

    expect(dataOf(await requestGraphql(hookline.baseUrl, plaintextToken, VIEWER_ID)).viewer.id).toBe(tenant.organizationId);
    // The plaintext is never readable again.
    const listed = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, API_TOKENS, { first: 100 }));
    expect(JSON.stringify(listed)).not.toContain(plaintextToken);
  });

  it('takes no name, and refuses an empty or overlong one with BAD_USER_INPUT on the field', async () => {
    const tenant = await hookline.createTenant();
    const unnamed = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name: null })).createApiToken;
    expect(unnamed.apiToken.name).toBeNull();

    for (const name of ['   ', 'x'.repeat(101)]) {
      const response = await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name });
      expect(response.body.data).toBeNull();
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          message: 'name must be 1 to 100 characters',
          extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'name', message: 'must be 1 to 100 characters' }] },
        }),
      ]);
    }
    // Text PostgreSQL cannot store is refused on the field, not a 500.
    const nul = await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name: 'ci\u0000deploy' });
    expect(nul.body.errors).toEqual([
      expect.objectContaining({
        extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'name', message: NOT_STORABLE_MESSAGE }] },
      }),
    ]);
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM api_tokens WHERE organization_id = $1`, [tenant.organizationId]);
    expect(rows[0].n).toBe(2);
  });

  it('requires a valid API token', async () => {
    const response = await requestGraphql(hookline.baseUrl, undefined, CREATE_API_TOKEN, { name: 'nope' });
    expect(response.status).toBe(401);
    expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('apiTokens', () => {
  it("lists the organization's own tokens, newest first, revoked ones too, in pages", async () => {
    const tenant = await hookline.createTenant();
    const stranger = await hookline.createTenant();
    const second = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name: 'second' })).createApiToken;
    const third = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name: 'third' })).createApiToken;
    dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, REVOKE_API_TOKEN, { id: second.apiToken.id }));

    const first = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, API_TOKENS, { first: 2 })).apiTokens;
    expect(first.edges.map(({ node }) => [node.name, node.prefix, node.revokedAt === null])).toEqual([
      ['third', third.plaintextToken.slice(0, 12), true],
      ['second', second.plaintextToken.slice(0, 12), false],
    ]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = dataOf(
      await requestGraphql(hookline.baseUrl, tenant.apiToken, API_TOKENS, { first: 2, after: first.pageInfo.endCursor }),
    ).apiTokens;
    expect(rest.edges.map(({ node }) => [node.name, node.prefix])).toEqual([[null, tenant.apiToken.slice(0, 12)]]);
    expect(rest.pageInfo.hasNextPage).toBe(false);

    // Another organization sees only its own token.
    const theirs = dataOf(await requestGraphql(hookline.baseUrl, stranger.apiToken, API_TOKENS, { first: 100 })).apiTokens;
    expect(theirs.edges.map(({ node }) => node.prefix)).toEqual([stranger.apiToken.slice(0, 12)]);
  });

  it('shows when each token was last used, written at most once a minute', async () => {
    const tenant = await hookline.createTenant();
    const created = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name: 'used' })).createApiToken;
    expect((await tokenRow(created.plaintextToken)).last_used_at).toBeNull();

    const before = Date.now();
    dataOf(await requestGraphql(hookline.baseUrl, created.plaintextToken, VIEWER_ID));
    const firstUse = (await tokenRow(created.plaintextToken)).last_used_at!;
    expect(firstUse.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // A second request within the minute writes nothing.
    dataOf(await requestGraphql(hookline.baseUrl, created.plaintextToken, VIEWER_ID));
    expect((await tokenRow(created.plaintextToken)).last_used_at).toEqual(firstUse);
    // Older than a minute: the next request moves it on.
    await admin.query(`UPDATE api_tokens SET last_used_at = now() - interval '2 minutes' WHERE id = $1`, [created.apiToken.id]);
    dataOf(await requestGraphql(hookline.baseUrl, created.plaintextToken, VIEWER_ID));
    expect((await tokenRow(created.plaintextToken)).last_used_at!.getTime()).toBeGreaterThanOrEqual(firstUse.getTime());

    const listed = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, API_TOKENS, { first: 100 })).apiTokens.edges.map(
      ({ node }) => node,
    );
    const used = listed.find((node) => node.id === created.apiToken.id)!;
    expect(new Date(used.lastUsedAt!).getTime()).toBe((await tokenRow(created.plaintextToken)).last_used_at!.getTime());
    // The token making this very request counts as used.
    expect(listed.find((node) => node.prefix === tenant.apiToken.slice(0, 12))!.lastUsedAt).not.toBeNull();
  });
});

describe('revokeApiToken', () => {
  it('revokes a token of the organization: every later request with it is refused; revoking again keeps the first time', async () => {
    const tenant = await hookline.createTenant();
    const created = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, CREATE_API_TOKEN, { name: 'to revoke' })).createApiToken;
    const revoked = dataOf(
      await requestGraphql(hookline.baseUrl, tenant.apiToken, REVOKE_API_TOKEN, { id: created.apiToken.id }),
    ).revokeApiToken;
    expect(revoked).toEqual({ id: created.apiToken.id, prefix: created.apiToken.prefix, revokedAt: expect.any(String) });

    const refused = await requestGraphql(hookline.baseUrl, created.plaintextToken, VIEWER_ID);
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const rest = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.plaintextToken}` },
      body: JSON.stringify({ url: 'https://hooks.example.com/x', name: 'x' }),
    });
    expect(rest.status).toBe(401);
    expect(((await rest.json()) as { error: { code: string } }).error.code).toBe('invalid_api_token');

    const again = dataOf(
      await requestGraphql(hookline.baseUrl, tenant.apiToken, REVOKE_API_TOKEN, { id: created.apiToken.id }),
    ).revokeApiToken;
    expect(again.revokedAt).toBe(revoked.revokedAt);
    // The organization's other token still works.
    expect((await requestGraphql(hookline.baseUrl, tenant.apiToken, VIEWER_ID)).status).toBe(200);
  });

  it('may revoke the token making the request: that request succeeds, the next is refused', async () => {
    const tenant = await hookline.createTenant();
    const [own] = dataOf(await requestGraphql(hookline.baseUrl, tenant.apiToken, API_TOKENS, { first: 100 })).apiTokens.edges;
    const response = await requestGraphql(hookline.baseUrl, tenant.apiToken, REVOKE_API_TOKEN, { id: own!.node.id });
    expect(dataOf(response).revokeApiToken.revokedAt).not.toBeNull();
    expect((await requestGraphql(hookline.baseUrl, tenant.apiToken, VIEWER_ID)).status).toBe(401);
  });

  it("answers NOT_FOUND for another organization's token, an unknown or a malformed id, and changes nothing", async () => {
    const tenant = await hookline.createTenant();
    const stranger = await hookline.createTenant();
    const strangerTokenId = (await tokenRow(stranger.apiToken)).id;
    for (const id of [strangerTokenId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await requestGraphql(hookline.baseUrl, tenant.apiToken, REVOKE_API_TOKEN, { id });
      expect(response.body.data).toBeNull();
      expect(response.body.errors).toEqual([
        expect.objectContaining({ message: `API token ${id} not found`, extensions: { code: 'NOT_FOUND' } }),
      ]);
    }
    expect((await tokenRow(stranger.apiToken)).revoked_at).toBeNull();
    expect((await requestGraphql(hookline.baseUrl, stranger.apiToken, VIEWER_ID)).status).toBe(200);
  });
});
