// People, sessions and roles through HTTP, as a browser and an attacker would: set-up links,
// sign-in and its cookie, sign-out, revocation and expiry, fixation, the origin rule, roles and
// token scopes, the last owner, several organizations, and the WebSocket's cookie.
import pg from 'pg';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { applyMigrations, readMigrations } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { issueApiToken } from '../src/domain/shared/api-tokens.ts';
import { hashToken, issueToken } from '../src/domain/shared/tokens.ts';
import { graphql } from './gql/index.ts';
import { dataOf, errorOf, requestGraphqlWithHeaders, startApp } from './support/app.ts';
import { useHookline } from './support/fixture.ts';
import { connectGraphqlWs, subscribe } from './support/graphql-ws.ts';
import { invitePerson, organizationWithOwner, PASSWORD, postJson, setUpOwner, signIn, uniqueEmail } from './support/people.ts';

const hookline = useHookline({ tenant: 'checkout', environment: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' } });

const ME = graphql(`
  query PeopleMe { me { person { id email name } organization { id name } role } }
`);
const SESSIONS = graphql(`
  query PeopleSessions { sessions { id current ip userAgent createdAt lastSeenAt expiresAt absoluteExpiresAt } }
`);
const REVOKE_SESSION = graphql(`
  mutation PeopleRevokeSession($id: ID!) { revokeSession(id: $id) { id } }
`);
const REVOKE_ALL = graphql(`
  mutation PeopleRevokeAll { revokeAllSessions }
`);
const CREATE_SERVICE = graphql(`
  mutation PeopleCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }
`);
const SERVICES = graphql(`
  query PeopleServices { services { totalCount } }
`);
const CREATE_ENDPOINT = graphql(`
  mutation PeopleCreateEndpoint($url: String!) { createWebhookEndpoint(url: $url, name: "hook") { endpoint { id } signingSecret } }
`);
const REVEAL = graphql(`
  mutation PeopleReveal($id: ID!) { revealWebhookSecret(id: $id) { signingSecret } }
`);
const MEMBERS = graphql(`
  query PeopleMembers { members(first: 10) { totalCount edges { node { role person { id email } } } } }
`);
const CHANGE_ROLE = graphql(`
  mutation PeopleChangeRole($personId: ID!, $role: Role!) { changeMemberRole(personId: $personId, role: $role) { role person { id } } }
`);
const REMOVE_MEMBER = graphql(`
  mutation PeopleRemoveMember($personId: ID!) { removeMember(personId: $personId) }
`);
const SWITCH = graphql(`
  mutation PeopleSwitch($id: ID!) { switchOrganization(id: $id) { organization { id } role } }
`);
const CREATE_TOKEN = graphql(`
  mutation PeopleCreateToken($scope: ApiTokenScope) { createApiToken(name: "ci", scope: $scope) { token apiToken { id scope } } }
`);

const asCookie = (cookie: string, headers: Record<string, string> = {}) => ({ cookie, ...headers });

describe('an upgrade from before people and scopes', () => {
  it('keeps organizations and their tokens, which work on as ADMIN', async () => {
    const database = await hookline.createDatabase({ migrated: false });
    const migrations = await readMigrations();
    const before = migrations.findIndex((migration) => migration.name.endsWith('_people_sessions_roles'));
    await applyMigrations(database.url, migrations.slice(0, before));
    const token = issueToken('api');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query(`INSERT INTO organizations (name) VALUES ('old') RETURNING id`);
    await client.query(`INSERT INTO api_tokens (organization_id, prefix, token_hash) VALUES ($1, $2, $3)`, [
      rows[0].id,
      token.prefix,
      hashToken(token.plaintext),
    ]);
    await client.end();
    await applyMigrations(database.url);
    const running = await startApp(database.url);
    try {
      const headers = { authorization: `Bearer ${token.plaintext}` };
      expect(dataOf(await requestGraphqlWithHeaders(running.baseUrl, headers, ME, {})).me).toEqual({
        person: null,
        organization: { id: rows[0].id, name: 'old' },
        role: 'ADMIN',
      });
      // ADMIN's mutations run as they did.
      dataOf(await requestGraphqlWithHeaders(running.baseUrl, headers, CREATE_SERVICE, { name: 'billing' }));
      const tokens = await running.app.database.prisma.apiToken.findMany({ where: { organizationId: rows[0].id } });
      expect(tokens.map((row) => row.scope)).toEqual(['ADMIN']);
    } finally {
      await running.close();
      await database.drop();
    }
  });
});

describe('signing in', () => {
  it('completes the set-up link: the person is OWNER, signed in with an HttpOnly SameSite=Lax cookie, not Secure over http', async () => {
    const { organizationId, email, owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    expect(owner.body).toEqual({
      person: { id: expect.any(String), email, name: `Owner ${email}` },
      organizations: [{ id: organizationId, name: expect.any(String), role: 'OWNER' }],
    });
    expect(owner.setCookie).toMatch(/^hookline_session=[A-Za-z0-9_-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), ME, {})).me).toEqual({
      person: { id: owner.body.person!.id, email, name: `Owner ${email}` },
      organization: { id: organizationId, name: expect.any(String) },
      role: 'OWNER',
    });
  });

  it('marks the cookie Secure when the request came over https through a trusted proxy', async () => {
    const running = await hookline.startApp({ TRUST_PROXY: 'true' });
    const { email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const signedIn = await signIn(running.baseUrl, email, PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.setCookie).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('uses a set-up link once only, and compares emails case-insensitively', async () => {
    const { organizationId } = await createOrganization(hookline.app.database.prisma, 'once');
    const email = uniqueEmail('Mixed.Case');
    const link = await (await import('../src/domain/shared/invites.ts')).issueOwnerSetupLink(hookline.app.database.prisma, organizationId);
    const token = new URLSearchParams(link.path.split('?')[1]).get('token')!;
    const body = { token, email, name: 'Ada', password: PASSWORD };
    expect((await postJson(`${hookline.baseUrl}/api/auth/setup`, body)).status).toBe(200);
    const again = await postJson(`${hookline.baseUrl}/api/auth/setup`, body);
    expect(again.status).toBe(410);
    expect(again.body.error).toEqual({ code: 'invalid_link', message: 'This link is unknown, already used or expired: ask for a new one' });
    expect((await signIn(hookline.baseUrl, email.toUpperCase())).status).toBe(200);
  });

  it('answers a wrong password and an unknown email alike: 401 invalid_credentials, no cookie', async () => {
    const { email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const wrongPassword = await signIn(hookline.baseUrl, email, 'not the password at all');
    const unknownEmail = await signIn(hookline.baseUrl, uniqueEmail('nobody'), PASSWORD);
    for (const answer of [wrongPassword, unknownEmail]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: { code: 'invalid_credentials', message: 'The email or password is wrong' } });
      expect(answer.setCookie).toBeNull();
    }
  });

  it('refuses the 11th try after 10 failures for one email from one address with 429 and Retry-After, even with the right password', async () => {
    const { email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    for (let failure = 0; failure < 10; failure++) {
      expect((await signIn(hookline.baseUrl, email, `wrong password ${failure}`)).status).toBe(401);
    }
    const refused = await signIn(hookline.baseUrl, email);
    expect(refused.status).toBe(429);
    expect(refused.body.error!.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    // Another email from the same address is not held back.
    const other = await organizationWithOwner(hookline.app, hookline.baseUrl);
    expect((await signIn(hookline.baseUrl, other.email)).status).toBe(200);
  });

  it('gives a new session id at every sign-in and ends the one the browser came with (no fixation)', async () => {
    const { email, owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const again = await signIn(hookline.baseUrl, email, PASSWORD, { cookie: owner.cookie });
    expect(again.status).toBe(200);
    expect(again.cookie).not.toBe(owner.cookie);
    expect(errorOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), ME, {})).extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    // An id the attacker chose is never adopted: the answer sets a new one.
    const planted = 'hookline_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const fresh = await signIn(hookline.baseUrl, email, PASSWORD, { cookie: planted });
    expect(fresh.cookie).not.toBe(planted);
    expect(errorOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(planted), ME, {})).extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('sessions', () => {
  it('signs out: 204, the cookie cleared, and the old cookie gets 401 UNAUTHENTICATED at once', async () => {
    const { owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const out = await postJson(`${hookline.baseUrl}/api/auth/sign-out`, {}, { cookie: owner.cookie });
    expect(out.status).toBe(204);
    expect(out.setCookie).toMatch(/^hookline_session=; .*Expires=Thu, 01 Jan 1970/);
    const refused = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), ME, {});
    expect(refused.status).toBe(401);
    expect(errorOf(refused).extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('lists the caller’s sessions and revokes one from another, which is refused at once by another process too', async () => {
    const { email, owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const laptop = await signIn(hookline.baseUrl, email, PASSWORD, { 'user-agent': 'laptop' });
    const sessions = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), SESSIONS, {})).sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    const other = sessions.find((session) => session.userAgent === 'laptop')!;
    expect(other.current).toBe(false);
    const second = await hookline.startApp();
    expect(dataOf(await requestGraphqlWithHeaders(second.baseUrl, asCookie(laptop.cookie), ME, {})).me.role).toBe('OWNER');
    dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), REVOKE_SESSION, { id: other.id }));
    expect(errorOf(await requestGraphqlWithHeaders(second.baseUrl, asCookie(laptop.cookie), ME, {})).extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), ME, {})).me.role).toBe('OWNER');
  });

  it('signs out everywhere: every session of the person ends, this one included', async () => {
    const { email, owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const phone = await signIn(hookline.baseUrl, email);
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), REVOKE_ALL, {})).revokeAllSessions).toBe(2);
    for (const cookie of [owner.cookie, phone.cookie]) {
      expect(errorOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(cookie), ME, {})).extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses an expired session: idle past its expiry, or past its absolute expiry', async () => {
    const { email, owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const other = await signIn(hookline.baseUrl, email);
    const prisma = hookline.app.database.prisma;
    const [idle, absolute] = await prisma.session.findMany({ where: { person: { email } }, orderBy: { createdAt: 'asc' } });
    await prisma.session.update({ where: { id: idle!.id }, data: { idleExpiresAt: new Date(Date.now() - 1000) } });
    await prisma.session.update({ where: { id: absolute!.id }, data: { absoluteExpiresAt: new Date(Date.now() - 1000) } });
    for (const cookie of [owner.cookie, other.cookie]) {
      const refused = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(cookie), ME, {});
      expect(refused.status).toBe(401);
      expect(errorOf(refused).extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  it('moves the idle expiry on as the session is used, never past the absolute one', async () => {
    const running = await hookline.startApp({ SESSION_IDLE_TIMEOUT_MINUTES: '30', SESSION_MAX_AGE_HOURS: '1' });
    const { email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const signedIn = await signIn(running.baseUrl, email);
    const prisma = hookline.app.database.prisma;
    const session = (await prisma.session.findFirst({ where: { person: { email } }, orderBy: { createdAt: 'desc' } }))!;
    expect(session.absoluteExpiresAt.getTime() - session.createdAt.getTime()).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(session.idleExpiresAt.getTime() - session.createdAt.getTime()).toBeLessThanOrEqual(30 * 60_000 + 1000);
    // Last seen over a minute ago: the next request moves both on.
    await prisma.session.update({ where: { id: session.id }, data: { lastSeenAt: new Date(Date.now() - 120_000) } });
    dataOf(await requestGraphqlWithHeaders(running.baseUrl, asCookie(signedIn.cookie), ME, {}));
    const seen = (await prisma.session.findUnique({ where: { id: session.id } }))!;
    expect(seen.idleExpiresAt.getTime()).toBeGreaterThan(session.idleExpiresAt.getTime());
    expect(seen.idleExpiresAt.getTime()).toBeLessThanOrEqual(seen.absoluteExpiresAt.getTime());
  });
});

describe('cross-site requests', () => {
  it('refuses a cookie-authenticated POST from another origin with 403 cross_origin, and changes nothing', async () => {
    const { owner, organizationId } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const response = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie, origin: 'https://evil.example' },
      body: 'query=mutation{createService(name:"evil"){service{id}}}',
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('cross_origin');
    const rest = await postJson(
      `${hookline.baseUrl}/api/webhooks/endpoints`,
      { url: 'https://example.com/hook', name: 'x' },
      {
        cookie: owner.cookie,
        origin: 'https://evil.example',
      },
    );
    expect(rest.status).toBe(403);
    expect(rest.body.error!.code).toBe('cross_origin');
    expect(await hookline.app.database.prisma.service.count({ where: { organizationId } })).toBe(0);
    // From the server's own origin the same cookie works.
    const own = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie, { origin: hookline.baseUrl }), ME, {});
    expect(dataOf(own).me.role).toBe('OWNER');
  });

  it('accepts an origin listed in CORS_ORIGINS', async () => {
    const running = await hookline.startApp({ CORS_ORIGINS: 'https://dashboard.example' });
    const { owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const listed = await requestGraphqlWithHeaders(
      running.baseUrl,
      asCookie(owner.cookie, { origin: 'https://dashboard.example' }),
      ME,
      {},
    );
    expect(dataOf(listed).me.role).toBe('OWNER');
  });

  it('never runs a mutation over GET', async () => {
    const { owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const query = encodeURIComponent('mutation { revokeAllSessions }');
    const response = await fetch(`${hookline.baseUrl}/graphql?query=${query}`, {
      headers: { cookie: owner.cookie, accept: 'application/json' },
    });
    expect(response.status).toBe(405);
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), ME, {})).me.role).toBe('OWNER');
  });

  it('refuses a sign-in posted from another origin (no login CSRF)', async () => {
    const { email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const refused = await signIn(hookline.baseUrl, email, PASSWORD, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body.error!.code).toBe('cross_origin');
    expect(refused.setCookie).toBeNull();
  });
});

describe('roles', () => {
  it('refuses a VIEWER every mutation with FORBIDDEN and changes nothing; reads work', async () => {
    const { owner, organizationId } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const viewer = await invitePerson(hookline.baseUrl, owner.cookie, uniqueEmail('viewer'), 'VIEWER');
    const refused = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(viewer.cookie), CREATE_SERVICE, { name: 'nope' });
    expect(refused.body.data ?? null).toBeNull();
    expect(errorOf(refused).extensions?.code).toBe('FORBIDDEN');
    expect(errorOf(refused).message).toBe('createService needs the ADMIN role or higher; you are VIEWER');
    expect(await hookline.app.database.prisma.service.count({ where: { organizationId } })).toBe(0);
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(viewer.cookie), SERVICES, {})).services.totalCount).toBe(0);
    const rest = await postJson(
      `${hookline.baseUrl}/api/webhooks/endpoints`,
      { url: 'https://example.com/hook', name: 'x' },
      {
        cookie: viewer.cookie,
      },
    );
    expect(rest.status).toBe(403);
    expect(rest.body.error!.code).toBe('forbidden');
    const list = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints`, { headers: { cookie: viewer.cookie } });
    expect(list.status).toBe(200);
  });

  it('lets a READ token read but never reveal a secret; an ADMIN token may', async () => {
    const { organizationId } = hookline.tenant;
    const prisma = hookline.app.database.prisma;
    const read = (await issueApiToken(prisma, organizationId, 'dashboard', 'READ')).plaintext;
    const endpoint = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { authorization: `Bearer ${hookline.tenant.apiToken}` }, CREATE_ENDPOINT, {
        url: 'https://example.com/hook',
      }),
    ).createWebhookEndpoint;
    const refused = await requestGraphqlWithHeaders(hookline.baseUrl, { authorization: `Bearer ${read}` }, REVEAL, {
      id: endpoint.endpoint.id,
    });
    expect(errorOf(refused).extensions?.code).toBe('FORBIDDEN');
    expect(JSON.stringify(refused.body)).not.toContain(endpoint.signingSecret);
    expect(await prisma.secretReveal.count({ where: { endpointId: endpoint.endpoint.id } })).toBe(0);
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { authorization: `Bearer ${read}` }, ME, {})).me).toEqual({
      person: null,
      organization: { id: organizationId, name: expect.any(String) },
      role: 'VIEWER',
    });
    const rest = await postJson(
      `${hookline.baseUrl}/api/webhooks/endpoints`,
      { url: 'https://example.com/hook', name: 'x' },
      {
        authorization: `Bearer ${read}`,
      },
    );
    expect(rest.status).toBe(403);
    expect(rest.body.error!.code).toBe('forbidden');
  });

  it('makes tokens with a scope, and records a person’s secret reveal', async () => {
    const { owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const made = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), CREATE_TOKEN, { scope: 'WRITE' }),
    ).createApiToken;
    expect(made.apiToken.scope).toBe('WRITE');
    const headers = { authorization: `Bearer ${made.token}` };
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, headers, ME, {})).me.role).toBe('MEMBER');
    const endpoint = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), CREATE_ENDPOINT, { url: 'https://example.com/hook' }),
    ).createWebhookEndpoint;
    const revealed = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), REVEAL, { id: endpoint.endpoint.id }),
    );
    expect(revealed.revealWebhookSecret.signingSecret).toBe(endpoint.signingSecret);
    const reveals = await hookline.app.database.prisma.secretReveal.findMany({ where: { endpointId: endpoint.endpoint.id } });
    expect(reveals.map((reveal) => ({ personId: reveal.personId, apiTokenId: reveal.apiTokenId }))).toEqual([
      { personId: owner.body.person!.id, apiTokenId: null },
    ]);
  });

  it('keeps an owner: the last one can be neither demoted nor removed; with a second owner both work', async () => {
    const { owner, personId } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const demote = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), CHANGE_ROLE, { personId, role: 'ADMIN' });
    expect(errorOf(demote).extensions?.code).toBe('FORBIDDEN');
    const remove = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), REMOVE_MEMBER, { personId });
    expect(errorOf(remove).extensions?.code).toBe('FORBIDDEN');
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), ME, {})).me.role).toBe('OWNER');

    const admin = await invitePerson(hookline.baseUrl, owner.cookie, uniqueEmail('admin'), 'ADMIN');
    const adminId = admin.body.person!.id;
    // An ADMIN manages no members.
    const byAdmin = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(admin.cookie), CHANGE_ROLE, { personId, role: 'VIEWER' });
    expect(errorOf(byAdmin).extensions?.code).toBe('FORBIDDEN');
    dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), CHANGE_ROLE, { personId: adminId, role: 'OWNER' }));
    const demoted = await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), CHANGE_ROLE, { personId, role: 'MEMBER' });
    expect(dataOf(demoted).changeMemberRole).toEqual({ role: 'MEMBER', person: { id: personId } });
    // The new owner removes the former one, whose session ends with the membership.
    dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(admin.cookie), REMOVE_MEMBER, { personId }));
    expect(errorOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), ME, {})).extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    const members = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(admin.cookie), MEMBERS, {})).members;
    expect(members.edges.map((edge) => edge.node.role)).toEqual(['OWNER']);
  });
});

describe('node(id:)', () => {
  it('finds a fellow member, and only the caller’s own sessions', async () => {
    const { owner, email, apiToken } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const member = await invitePerson(hookline.baseUrl, owner.cookie, uniqueEmail('member'), 'MEMBER');
    const NODE = graphql(`
      query PeopleNode($id: ID!) { node(id: $id) { __typename id } }
    `);
    const memberId = member.body.person!.id;
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), NODE, { id: memberId })).node).toEqual({
      __typename: 'Person',
      id: memberId,
    });
    const prisma = hookline.app.database.prisma;
    const ownerSession = (await prisma.session.findFirst({ where: { person: { email }, revokedAt: null } }))!;
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(owner.cookie), NODE, { id: ownerSession.id })).node).toEqual({
      __typename: 'Session',
      id: ownerSession.id,
    });
    // Another member of the same organization does not find it, nor does an API token of it.
    expect(
      dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(member.cookie), NODE, { id: ownerSession.id })).node,
    ).toBeNull();
    const asToken = { authorization: `Bearer ${apiToken}` };
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asToken, NODE, { id: ownerSession.id })).node).toBeNull();
  });
});

describe('several organizations', () => {
  it('acts for the session’s organization, another by X-Hookline-Organization, and switches with switchOrganization', async () => {
    const first = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const second = await createOrganization(hookline.app.database.prisma, 'second');
    // The same person becomes a VIEWER of the second through its owner's invite.
    const secondOwner = await setUpOwner(hookline.app, hookline.baseUrl, second.organizationId, uniqueEmail('second-owner'));
    const { inviteMember } = dataOf(
      await requestGraphqlWithHeaders(
        hookline.baseUrl,
        asCookie(secondOwner.cookie),
        graphql(`
          mutation PeopleInviteExisting($email: String!) { inviteMember(email: $email, role: VIEWER) { inviteUrl } }
        `),
        { email: first.email },
      ),
    );
    const token = new URL(inviteMember.inviteUrl).searchParams.get('token')!;
    const wrongPassword = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, {
      token,
      name: 'x',
      password: 'not my password!!',
    });
    expect(wrongPassword.status).toBe(401);
    const joined = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, { token, name: 'x', password: PASSWORD });
    expect(joined.status).toBe(200);
    expect(joined.body.organizations!.map((organization) => organization.role).sort()).toEqual(['OWNER', 'VIEWER']);

    const cookie = first.owner.cookie;
    const me = (headers: Record<string, string> = {}) => requestGraphqlWithHeaders(hookline.baseUrl, asCookie(cookie, headers), ME, {});
    expect(dataOf(await me()).me.organization.id).toBe(first.organizationId);
    const viaHeader = dataOf(await me({ 'x-hookline-organization': second.organizationId })).me;
    expect(viaHeader).toMatchObject({ organization: { id: second.organizationId }, role: 'VIEWER' });
    const foreign = await me({ 'x-hookline-organization': hookline.tenant.organizationId });
    expect(errorOf(foreign).extensions?.code).toBe('FORBIDDEN');
    const switched = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(cookie), SWITCH, { id: second.organizationId }));
    expect(switched.switchOrganization).toEqual({ organization: { id: second.organizationId }, role: 'VIEWER' });
    expect(dataOf(await me()).me.organization.id).toBe(second.organizationId);
  });
});

describe('GraphQL over WebSocket with the cookie', () => {
  const wsClient = (cookie: string, origin: string) =>
    connectGraphqlWs(hookline.baseUrl, undefined, {
      connectionParams: undefined,
      webSocketImpl: class extends WebSocket {
        constructor(url: string, protocols: string[]) {
          super(url, protocols, { headers: { cookie, origin } });
        }
      },
    });

  const query = (client: ReturnType<typeof connectGraphqlWs>) =>
    new Promise<{ data?: unknown; error?: unknown }>((resolve) => {
      client.subscribe(
        { query: '{ me { role } }' },
        { next: (value) => resolve({ data: value.data }), error: (error) => resolve({ error }), complete: () => {} },
      );
    });

  it('authenticates by the upgrade’s cookie from the own origin; a foreign origin is closed with 4403, a revoked session with 4401', async () => {
    const { owner, email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const own = wsClient(owner.cookie, hookline.baseUrl);
    expect(await query(own)).toEqual({ data: { me: { role: 'OWNER' } } });
    await own.dispose();
    const foreign = wsClient(owner.cookie, 'https://evil.example');
    expect(((await query(foreign)).error as { code: number }).code).toBe(4403);
    await foreign.dispose();
    const other = await signIn(hookline.baseUrl, email);
    dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(other.cookie), REVOKE_ALL, {}));
    const revoked = wsClient(owner.cookie, hookline.baseUrl);
    expect(((await query(revoked)).error as { code: number }).code).toBe(4401);
    await revoked.dispose();
  });

  it('closes a socket signed in by a session once the session is revoked, ending its subscriptions', async () => {
    const { owner, email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const client = wsClient(owner.cookie, hookline.baseUrl);
    const live = subscribe(client, 'subscription { deliveryUpdated { id } }', {}, (data: unknown) => data);
    expect(await query(client)).toEqual({ data: { me: { role: 'OWNER' } } });
    const other = await signIn(hookline.baseUrl, email);
    dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, asCookie(other.cookie), REVOKE_ALL, {}));
    const closed = await live.waitFor(
      () => live.errors.find((error) => (error as { code?: number }).code !== undefined),
      'the socket closed',
      15_000,
    );
    expect((closed as { code: number }).code).toBe(4401);
    await client.dispose();
  });
});
