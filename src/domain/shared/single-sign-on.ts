// Who a single sign-on signs in. The provider's word is taken for an email only when it says it
// has verified it (email_verified true): an unverified address proves nothing, and linking by it
// would let anyone who can type an address into their own provider account take over a person.
// A verified email matches the person of that email (compared case-insensitively); a verified
// email with pending links made for it (invites, and set-up links made for that email) accepts them
// all (the link went to that address, which the provider has just vouched for), making the person
// first if there is none. Any other email is refused:
// single sign-on makes no one a member of an organization on its own.
import type { Person, PrismaClient } from '../../generated/prisma/client.ts';
import type { RequestSource } from './audit.ts';
import { joinByLink, pendingLinksFor } from './invites.ts';
import { emailAddress, personName } from './passwords.ts';

export interface VerifiedIdentity {
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

export type SingleSignOnRefusal = 'email_not_verified' | 'no_account';

export class SingleSignOnRefusedError extends Error {
  override name = 'SingleSignOnRefusedError';
  constructor(
    readonly reason: SingleSignOnRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface SingleSignOn {
  person: Person;
  /** The organization of the first link accepted now, if any: the one the new session acts for. */
  joinedOrganizationId: string | undefined;
}

/** The person `identity` signs in, after accepting the pending links made for their email. */
export async function personOfVerifiedEmail(
  prisma: PrismaClient,
  identity: VerifiedIdentity,
  from: RequestSource,
  now = new Date(),
): Promise<SingleSignOn> {
  if (!identity.email || !identity.emailVerified) {
    throw new SingleSignOnRefusedError(
      'email_not_verified',
      'The sign-in provider has not verified the email address of this account; Hookline signs people in by a verified email only',
    );
  }
  const parsed = emailAddress.safeParse(identity.email);
  const noAccount = new SingleSignOnRefusedError(
    'no_account',
    `No one with the email ${identity.email} has an account here: ask an owner of your organization to invite that address`,
  );
  if (!parsed.success) throw noAccount;
  const email = parsed.data;
  return prisma.$transaction(async (tx) => {
    const invites = await pendingLinksFor(tx, email, now);
    const existing = await tx.person.findUnique({ where: { email } });
    if (!existing && invites.length === 0) throw noAccount;
    const name = personName.safeParse(identity.name);
    const person =
      existing ?? (await tx.person.create({ data: { email, name: name.success ? name.data : email.split('@')[0]!, passwordHash: null } }));
    let joinedOrganizationId: string | undefined;
    for (const invite of invites) {
      // As following the link would; one used meanwhile by someone else is passed over.
      if (await joinByLink(tx, invite, person, from, now)) joinedOrganizationId ??= invite.organizationId;
    }
    return { person, joinedOrganizationId };
  });
}
