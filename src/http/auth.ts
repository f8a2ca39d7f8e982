// Signing in and out: POST /api/auth/sign-in, /sign-out, /setup (the first owner's set-up link)
// and /invites/accept. Each answers 200 with the person and their organizations and sets the
// session cookie (a new session id every time: no id chosen before sign-in is ever kept).
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/caller.ts';
import type { PrismaClient, Person } from '../generated/prisma/client.ts';
import { parseInput } from '../domain/shared/input.ts';
import { ExistingAccountError, InvalidLinkError, redeemLink } from '../domain/shared/invites.ts';
import { emailAddress, newPassword, personName } from '../domain/shared/passwords.ts';
import { checkCredentials, passwordFailureKey, type FailureLimiter } from '../domain/shared/people.ts';
import { ROLES } from '../domain/shared/roles.ts';
import { signOut, type SessionLifetime } from '../domain/shared/sessions.ts';
import { HttpError } from './errors.ts';
import { takeJsonBodies } from './json-body.ts';
import { BODY_ERRORS, errorResponse, jsonResponse, RETRY_AFTER, TRANSPORT_RESPONSES, UNSUPPORTED_MEDIA_TYPE } from './route-schemas.ts';
import { beginSession, clearSessionCookie, isAllowedOrigin, ownOrigin, requestSource } from './sessions.ts';

export interface AuthRouteDependencies {
  prisma: PrismaClient;
  lifetime: SessionLifetime;
  corsOrigins: '*' | string[];
  /** Failed sign-ins per email and client address (more than 10 in 15 minutes: 429). */
  signInFailures: FailureLimiter;
}

const signedInSchema = z
  .object({
    person: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
    organizations: z.array(z.object({ id: z.uuid(), name: z.string(), role: z.enum(ROLES as [string, ...string[]]) })),
  })
  .meta({ id: 'SignedIn' });

const signInBody = z.object({ email: z.string({ error: 'must be a string' }), password: z.string({ error: 'must be a string' }) });
const setupBody = z.object({
  token: z.string({ error: 'must be a string' }).min(1, 'is required'),
  email: emailAddress,
  name: personName,
  password: newPassword,
});
const acceptBody = z.object({
  token: z.string({ error: 'must be a string' }).min(1, 'is required'),
  name: personName,
  password: newPassword,
});

const INVALID_CREDENTIALS = 'The email or password is wrong';
const SESSION_SET = { 'Set-Cookie': { $ref: '#/components/headers/Set-Cookie' } };
const BODY_RESPONSES = {
  '400': errorResponse('The body is not JSON, or a field is invalid', [...BODY_ERRORS]),
  '403': errorResponse('The Origin is neither this server nor one of CORS_ORIGINS', ['cross_origin']),
  '415': errorResponse(UNSUPPORTED_MEDIA_TYPE, ['unsupported_media_type']),
};
const LINK_REFUSED = {
  '401': errorResponse('The email has an account already and the password is not its password', ['invalid_credentials']),
  '410': errorResponse('The link is unknown, already used, expired or cancelled', ['invalid_link']),
};

/** Refuses sign-in's cousins from another origin too: no one may be signed in by a page of another site. */
function refuseForeignOrigin(request: FastifyRequest, corsOrigins: '*' | string[]): void {
  if (isAllowedOrigin(request.headers.origin, ownOrigin(request), corsOrigins)) return;
  throw new HttpError(403, 'cross_origin', 'Signing in must come from Hookline’s own pages (or an origin in CORS_ORIGINS)');
}

export async function authRoutes(app: FastifyInstance, deps: AuthRouteDependencies) {
  takeJsonBodies(app);
  await app.register(fastifyCookie);
  app.addHook('onRequest', async (request) => refuseForeignOrigin(request, deps.corsOrigins));

  /** A new session for the person (the request's former one, if any, ends), and the sign-in answer. */
  async function signIn(request: FastifyRequest, reply: FastifyReply, person: Person, organizationId?: string) {
    const organizations = await beginSession(request, reply, deps, { personId: person.id, how: 'password', organizationId });
    return { person: { id: person.id, email: person.email, name: person.name }, organizations };
  }

  app.post(
    '/api/auth/sign-in',
    {
      config: { invalidInput: 'The sign-in is invalid' },
      schema: {
        operationId: 'signIn',
        summary: 'Sign in with email and password: sets the hookline_session cookie',
        description:
          'A wrong email and a wrong password get the same 401. More than 10 failures for one email from one address within ' +
          '15 minutes: 429 with Retry-After, until the window ends.',
        body: signInBody,
        response: {
          '200': jsonResponse('Signed in; the session cookie is set', signedInSchema, SESSION_SET),
          ...BODY_RESPONSES,
          '401': errorResponse(INVALID_CREDENTIALS, ['invalid_credentials']),
          '429': errorResponse('Too many failed sign-ins for this email from this address', ['rate_limited'], RETRY_AFTER),
          ...TRANSPORT_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const { email, password } = parseInput(signInBody, request.body);
      const key = passwordFailureKey(request.ip, email);
      const blockedFor = await deps.signInFailures.blockedFor(key);
      if (blockedFor !== null) {
        reply.header('retry-after', blockedFor);
        throw new HttpError(429, 'rate_limited', `Too many failed sign-ins for this email; retry in ${blockedFor} s`);
      }
      const person = await checkCredentials(deps.prisma, email, password);
      if (!person) {
        await deps.signInFailures.recordFailure(key);
        throw new HttpError(401, 'invalid_credentials', INVALID_CREDENTIALS);
      }
      await deps.signInFailures.reset(key);
      return signIn(request, reply, person);
    },
  );

  app.post(
    '/api/auth/sign-out',
    {
      schema: {
        operationId: 'signOut',
        summary: 'Sign out: the session ends on the server and its cookie is cleared',
        security: [{ sessionCookie: [] }],
        response: {
          '204': { description: 'Signed out (also when there was no live session)' },
          '403': BODY_RESPONSES['403'],
          ...TRANSPORT_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      await signOut(deps.prisma, request.cookies[SESSION_COOKIE], requestSource(request));
      clearSessionCookie(request, reply);
      return reply.status(204).send();
    },
  );

  /** Redeems a link and signs its person in; a bad link is 410, another account's email without its password 401. */
  async function redeem(request: FastifyRequest, reply: FastifyReply, run: () => ReturnType<typeof redeemLink>) {
    try {
      const { person, organizationId } = await run();
      return await signIn(request, reply, person, organizationId);
    } catch (error) {
      if (error instanceof InvalidLinkError) throw new HttpError(410, 'invalid_link', error.message);
      if (error instanceof ExistingAccountError) throw new HttpError(401, 'invalid_credentials', error.message);
      throw error;
    }
  }

  app.post(
    '/api/auth/setup',
    {
      config: { invalidInput: 'The set-up is invalid' },
      schema: {
        operationId: 'completeSetup',
        summary: "Complete an owner set-up link: the person becomes the organization's OWNER and is signed in",
        description: 'password: 12 to 256 characters. An email that has an account already needs that account’s password.',
        body: setupBody,
        response: {
          '200': jsonResponse('Set up and signed in', signedInSchema, SESSION_SET),
          ...BODY_RESPONSES,
          ...LINK_REFUSED,
          ...TRANSPORT_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const body = parseInput(setupBody, request.body);
      return redeem(request, reply, () => redeemLink(deps.prisma, 'OWNER_SETUP', body, requestSource(request)));
    },
  );

  app.post(
    '/api/auth/invites/accept',
    {
      config: { invalidInput: 'The acceptance is invalid' },
      schema: {
        operationId: 'acceptInvite',
        summary: "Accept an invite: join the organization with the invite's role, signed in",
        description: 'password: 12 to 256 characters. An invited email that has an account already needs that account’s password.',
        body: acceptBody,
        response: {
          '200': jsonResponse('Joined and signed in', signedInSchema, SESSION_SET),
          ...BODY_RESPONSES,
          ...LINK_REFUSED,
          ...TRANSPORT_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const body = parseInput(acceptBody, request.body);
      return redeem(request, reply, () => redeemLink(deps.prisma, 'INVITE', body, requestSource(request)));
    },
  );
}
