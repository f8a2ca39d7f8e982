// People for tests, made as a client makes them: an owner through a set-up link, others through
// invites accepted over HTTP, each signed in with a session cookie.
import { expect } from 'vitest';
import type { App } from '../../src/app.ts';
import { issueOwnerSetupLink } from '../../src/domain/shared/invites.ts';
import { createOrganization } from '../../src/domain/shared/organizations.ts';
import { graphql } from '../gql/index.ts';
import { dataOf, requestGraphqlWithHeaders } from './app.ts';

export const PASSWORD = 'correct horse battery staple';

export interface SignedIn {
  status: number;
  body: {
    person?: { id: string; email: string; name: string };
    organizations?: { id: string; name: string; role: string }[];
    error?: { code: string; message: string };
  };
  /** The Set-Cookie header as sent. */
  setCookie: string | null;
  /** `hookline_session=…`, to send back as a Cookie header. */
  cookie: string;
  headers: Headers;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SignedIn> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const setCookie = response.headers.get('set-cookie');
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : {},
    setCookie,
    cookie: setCookie?.split(';')[0] ?? '',
    headers: response.headers,
  };
}

export function signIn(baseUrl: string, email: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<SignedIn> {
  return postJson(`${baseUrl}/api/auth/sign-in`, { email, password }, headers);
}

/** A new owner of the organization, through a set-up link, signed in. */
export async function setUpOwner(app: App, baseUrl: string, organizationId: string, email: string): Promise<SignedIn> {
  const link = await issueOwnerSetupLink(app.database.prisma, organizationId);
  const token = new URLSearchParams(link.path.split('?')[1]).get('token')!;
  const signedIn = await postJson(`${baseUrl}/api/auth/setup`, { token, email, name: `Owner ${email}`, password: PASSWORD });
  expect(signedIn.status).toBe(200);
  return signedIn;
}

const INVITE = graphql(`
  mutation PeopleInvite($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { inviteUrl expiresAt } }
`);

/** A person invited by the owner (cookie) with `role`, who accepts over HTTP and is so signed in. */
export async function invitePerson(baseUrl: string, ownerCookie: string, email: string, role: 'VIEWER' | 'MEMBER' | 'ADMIN' | 'OWNER') {
  const { inviteMember } = dataOf(await requestGraphqlWithHeaders(baseUrl, { cookie: ownerCookie }, INVITE, { email, role }));
  const token = new URL(inviteMember.inviteUrl).searchParams.get('token')!;
  const accepted = await postJson(`${baseUrl}/api/auth/invites/accept`, { token, name: `Person ${email}`, password: PASSWORD });
  expect(accepted.status).toBe(200);
  return accepted;
}

const owners = new Map<string, Promise<string>>();

/** The session cookie of an owner of the organization (made once per organization and server), for a browser to sign in with. */
export function ownerSessionCookie(app: App, baseUrl: string, organizationId: string): Promise<string> {
  const key = `${baseUrl} ${organizationId}`;
  let cookie = owners.get(key);
  if (!cookie) {
    cookie = setUpOwner(app, baseUrl, organizationId, `owner-${organizationId}@example.test`).then((signedIn) => signedIn.cookie);
    owners.set(key, cookie);
  }
  return cookie;
}

let made = 0;
/** An email no other person of the test file has. */
export const uniqueEmail = (what: string) => `${what}-${Date.now()}-${made++}@example.com`;

/** A fresh organization with an owner signed in through its set-up link. */
export async function organizationWithOwner(app: App, baseUrl: string) {
  const { organizationId, apiToken } = await createOrganization(app.database.prisma, `org-${made++}`);
  const email = uniqueEmail('owner');
  const owner = await setUpOwner(app, baseUrl, organizationId, email);
  return { organizationId, apiToken, email, owner, personId: owner.body.person!.id };
}
