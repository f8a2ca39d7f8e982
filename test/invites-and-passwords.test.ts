// Pending invites (listed, cancelled by an owner, the cancelled link refused) and a signed-in
// person's password change (the current one checked and throttled with sign-in, the other
// sessions ended), through HTTP as the dashboard uses them.
import { describe, expect, it } from 'vitest';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { verifyPassword } from '../src/domain/shared/passwords.ts';
import { personOfVerifiedEmail } from '../src/domain/shared/single-sign-on.ts';
import { graphql } from './gql/index.ts';
import { dataOf, errorOf, requestGraphqlWithHeaders } from './support/app.ts';
import { useHookline } from './support/fixture.ts';
import { invitePerson, organizationWithOwner, PASSWORD, postJson, setUpOwner, signIn, uniqueEmail } from './support/people.ts';

const hookline = useHookline({ tenant: 'checkout' });

const INVITE = graphql(`
  mutation InvitesInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }
`);
const PENDING_INVITES = graphql(`
  query InvitesPending { pendingInvites { id email role createdAt expiresAt invitedBy { id email name } } }
`);
const CANCEL_INVITE = graphql(`
  mutation InvitesCancel($id: ID!) { cancelInvite(id: $id) { id email role } }
`);
const CHANGE_PASSWORD = graphql(`
  mutation InvitesChangePassword($current: String!, $new: String!) { changePassword(currentPassword: $current, newPassword: $new) }
`);
const ME = graphql(`
  query InvitesMe { me { person { email } organizations { organizationId name role } } }
`);
const NODE = graphql(`
  query InvitesNode($id: ID!) { node(id: $id) { __typename id ... on Invite { email } } }
`);
const AUDIT_LOG = graphql(`
  query InvitesAudit($action: String!) { auditLog(first: 10, filter: { action: $action }) { edges { node { action objectId summary } } } }
`);

const tokenOf = (inviteUrl: string) => new URL(inviteUrl).searchParams.get('token')!;

describe('pending invites', () => {
  it('lists the unused, uncancelled, unexpired invites with who made them, newest first; an accepted one leaves the list', async () => {
    const { owner, email, personId } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const invite = (invited: string, role: 'VIEWER' | 'ADMIN') =>
      requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, INVITE, { email: invited, role });
    const first = dataOf(await invite('First@Example.com', 'VIEWER')).inviteMember;
    dataOf(await invite('second@example.com', 'ADMIN'));
    // Expired: not pending.
    dataOf(await invite('expired@example.com', 'VIEWER'));
    await hookline.app.database.prisma.invite.updateMany({
      where: { email: 'expired@example.com' },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });

    const { pendingInvites } = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, PENDING_INVITES, {}));
    expect(pendingInvites.map(({ email: invited, role, invitedBy }) => ({ invited, role, invitedBy }))).toEqual([
      { invited: 'second@example.com', role: 'ADMIN', invitedBy: { id: personId, email, name: `Owner ${email}` } },
      { invited: 'first@example.com', role: 'VIEWER', invitedBy: { id: personId, email, name: `Owner ${email}` } },
    ]);
    expect(pendingInvites[1]!.expiresAt).toBe(first.expiresAt);

    const accepted = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, {
      token: tokenOf(first.inviteUrl),
      name: 'First',
      password: PASSWORD,
    });
    expect(accepted.status).toBe(200);
    // A VIEWER reads them too (never a link: it is not kept).
    const after = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: accepted.cookie }, PENDING_INVITES, {}));
    expect(after.pendingInvites.map((pending) => pending.email)).toEqual(['second@example.com']);
  });

  it('cancels one (OWNER only): the link is then refused with 410 and a message saying so; the entry names no link', async () => {
    const { owner } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const { inviteMember } = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, INVITE, {
        email: 'cancelled@example.com',
        role: 'MEMBER',
      }),
    );
    const admin = await invitePerson(hookline.baseUrl, owner.cookie, uniqueEmail('admin'), 'ADMIN');
    const { pendingInvites } = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, PENDING_INVITES, {}));
    const pending = pendingInvites.find((invite) => invite.email === 'cancelled@example.com')!;

    const refused = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: admin.cookie }, CANCEL_INVITE, { id: pending.id });
    expect(errorOf(refused).extensions?.code).toBe('FORBIDDEN');

    const cancelled = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, CANCEL_INVITE, { id: pending.id }),
    );
    expect(cancelled.cancelInvite).toEqual({ id: pending.id, email: 'cancelled@example.com', role: 'MEMBER' });
    const listed = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, PENDING_INVITES, {}));
    expect(listed.pendingInvites.map((invite) => invite.id)).not.toContain(pending.id);

    const again = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, CANCEL_INVITE, { id: pending.id });
    expect(errorOf(again).extensions?.code).toBe('NOT_FOUND');

    const accept = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, {
      token: tokenOf(inviteMember.inviteUrl),
      name: 'Too late',
      password: PASSWORD,
    });
    expect(accept.status).toBe(410);
    expect(accept.body).toEqual({
      error: { code: 'invalid_link', message: 'This invite was cancelled by an owner of the organization: ask them for a new one' },
    });
    expect(accept.setCookie).toBeNull();
    expect((await signIn(hookline.baseUrl, 'cancelled@example.com')).status).toBe(401);
    // Single sign-on with that verified email accepts no cancelled invite either: no account, no invite.
    await expect(
      personOfVerifiedEmail(
        hookline.app.database.prisma,
        { email: 'cancelled@example.com', emailVerified: true, name: 'Too late' },
        { ip: null, userAgent: null },
      ),
    ).rejects.toMatchObject({ reason: 'no_account' });

    const { auditLog } = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, AUDIT_LOG, { action: 'member.cancelInvite' }),
    );
    expect(auditLog.edges.map(({ node }) => node)).toEqual([
      { action: 'member.cancelInvite', objectId: pending.id, summary: 'Cancelled the invite of "cancelled@example.com" as MEMBER' },
    ]);
  });

  it('answers NOT_FOUND for another organization’s invite (node(id:) finds it only there), and leaves it working', async () => {
    const mine = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const theirs = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const { inviteMember } = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: theirs.owner.cookie }, INVITE, {
        email: 'theirs@example.com',
        role: 'VIEWER',
      }),
    );
    const { pendingInvites } = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: theirs.owner.cookie }, PENDING_INVITES, {}),
    );
    const refused = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: mine.owner.cookie }, CANCEL_INVITE, {
      id: pendingInvites[0]!.id,
    });
    expect(errorOf(refused).extensions?.code).toBe('NOT_FOUND');
    const inviteId = pendingInvites[0]!.id;
    expect(
      dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: mine.owner.cookie }, NODE, { id: inviteId })).node,
    ).toBeNull();
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: theirs.owner.cookie }, NODE, { id: inviteId })).node).toEqual(
      {
        __typename: 'Invite',
        id: inviteId,
        email: 'theirs@example.com',
      },
    );
    const accepted = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, {
      token: tokenOf(inviteMember.inviteUrl),
      name: 'Theirs',
      password: PASSWORD,
    });
    expect(accepted.status).toBe(200);
  });
});

describe('changing one’s password', () => {
  const NEW_PASSWORD = 'a brand new passphrase';

  it('checks the current one, ends the other sessions (this one stays), and the new one signs in; the entry holds no password', async () => {
    const { owner, email, personId } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const other = await signIn(hookline.baseUrl, email);
    expect(other.status).toBe(200);

    const wrong = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, CHANGE_PASSWORD, {
      current: 'not the password at all',
      new: NEW_PASSWORD,
    });
    expect(errorOf(wrong).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'currentPassword', message: 'is not your current password' }],
    });
    const tooShort = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, CHANGE_PASSWORD, {
      current: PASSWORD,
      new: 'short',
    });
    expect(errorOf(tooShort).extensions?.code).toBe('BAD_USER_INPUT');
    expect(errorOf(tooShort).message).toContain('at least 12 characters');
    // Nothing changed so far: the other session works.
    expect((await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: other.cookie }, ME, {})).status).toBe(200);

    const changed = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, CHANGE_PASSWORD, {
        current: PASSWORD,
        new: NEW_PASSWORD,
      }),
    );
    expect(changed.changePassword).toBe(1);
    const otherAfter = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: other.cookie }, ME, {});
    expect(otherAfter.status).toBe(401);
    expect(errorOf(otherAfter).extensions?.code).toBe('UNAUTHENTICATED');
    expect(dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, ME, {})).me.person?.email).toBe(email);

    expect((await signIn(hookline.baseUrl, email)).status).toBe(401);
    expect((await signIn(hookline.baseUrl, email, NEW_PASSWORD)).status).toBe(200);

    const { auditLog } = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, AUDIT_LOG, { action: 'person.changePassword' }),
    );
    expect(auditLog.edges.map(({ node }) => node)).toEqual([
      { action: 'person.changePassword', objectId: personId, summary: 'Changed their password; 1 other sessions ended' },
    ]);
    expect(JSON.stringify(auditLog)).not.toContain(NEW_PASSWORD);
  });

  it('counts a wrong current password toward the sign-in limit: after 10 failures both are refused with 429 until the window ends', async () => {
    const { owner, email } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    for (let failure = 0; failure < 5; failure++) {
      expect((await signIn(hookline.baseUrl, email, `wrong password ${failure}`)).status).toBe(401);
    }
    for (let failure = 0; failure < 5; failure++) {
      const wrong = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, CHANGE_PASSWORD, {
        current: `wrong password ${failure}`,
        new: NEW_PASSWORD,
      });
      expect(errorOf(wrong).extensions?.code).toBe('BAD_USER_INPUT');
    }
    const blocked = await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, CHANGE_PASSWORD, {
      current: PASSWORD,
      new: NEW_PASSWORD,
    });
    expect(blocked.status).toBe(429);
    expect(errorOf(blocked).extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await signIn(hookline.baseUrl, email)).status).toBe(429);
    // The password did not change.
    const row = await hookline.app.database.prisma.person.findUniqueOrThrow({ where: { email } });
    expect(await verifyPassword(row.passwordHash, PASSWORD)).toBe(true);
  });

  it('is refused to an API token, which has no password', async () => {
    const { apiToken } = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const refused = await requestGraphqlWithHeaders(hookline.baseUrl, { authorization: `Bearer ${apiToken}` }, CHANGE_PASSWORD, {
      current: PASSWORD,
      new: NEW_PASSWORD,
    });
    expect(errorOf(refused).extensions?.code).toBe('FORBIDDEN');
  });
});

describe('me.organizations', () => {
  it('lists every organization of the person with their role there; none for an API token', async () => {
    const first = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const second = await organizationWithOwner(hookline.app, hookline.baseUrl);
    const { inviteMember } = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: second.owner.cookie }, INVITE, { email: first.email, role: 'MEMBER' }),
    );
    const joined = await postJson(`${hookline.baseUrl}/api/auth/invites/accept`, {
      token: tokenOf(inviteMember.inviteUrl),
      name: 'x',
      password: PASSWORD,
    });
    expect(joined.status).toBe(200);
    const { me } = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: joined.cookie }, ME, {}));
    expect(me.organizations).toEqual([
      { organizationId: first.organizationId, name: expect.any(String), role: 'OWNER' },
      { organizationId: second.organizationId, name: expect.any(String), role: 'MEMBER' },
    ]);
    const asToken = dataOf(await requestGraphqlWithHeaders(hookline.baseUrl, { authorization: `Bearer ${first.apiToken}` }, ME, {}));
    expect(asToken.me).toEqual({ person: null, organizations: [] });
  });
});
