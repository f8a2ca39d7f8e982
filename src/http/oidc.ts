// Single sign-on through an OpenID Connect provider (OIDC_ISSUER_URL, OIDC_CLIENT_ID,
// OIDC_CLIENT_SECRET). GET /api/auth/oidc/start sends the browser to the provider (authorization
// code with PKCE, state and nonce; what the callback must check is kept server-side under a key in
// a short-lived HttpOnly cookie); GET /api/auth/oidc/callback checks the provider's answer, finds
// the person by their verified email, starts a session and sends the browser into the dashboard.
// GET /api/auth/methods tells the sign-in page whether single sign-on is on.
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OidcCallbackError, OidcProviderError, type OidcClient } from '../auth/oidc.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { beginOidcSignIn, OIDC_SIGN_IN_TTL_MS, sameOriginPath, takeOidcSignIn } from '../domain/shared/oidc-sign-ins.ts';
import type { SessionLifetime } from '../domain/shared/sessions.ts';
import { personOfVerifiedEmail, SingleSignOnRefusedError } from '../domain/shared/single-sign-on.ts';
import { HttpError } from './errors.ts';
import { errorResponse, jsonResponse, TRANSPORT_RESPONSES } from './route-schemas.ts';
import { beginSession, requestSource } from './sessions.ts';

export interface OidcRouteDependencies {
  prisma: PrismaClient;
  /** The provider's client; undefined where single sign-on is not configured. */
  oidc: OidcClient | undefined;
  lifetime: SessionLifetime;
}

const OIDC_PATH = '/api/auth/oidc';
export const OIDC_START_PATH = `${OIDC_PATH}/start`;
export const OIDC_CALLBACK_PATH = `${OIDC_PATH}/callback`;
/** Holds the key of the sign-in under way; sent to the callback only. */
export const OIDC_SIGN_IN_COOKIE = 'hookline_oidc';

const NOT_CONFIGURED = errorResponse('Single sign-on is not configured on this server', ['oidc_not_configured']);
const PROVIDER_UNAVAILABLE = errorResponse('The provider could not be reached, or its discovery document is not an OpenID Connect one', [
  'oidc_provider_unavailable',
]);
const REDIRECT = (description: string) => ({
  description,
  headers: { Location: { schema: { type: 'string' as const } }, 'Set-Cookie': { schema: { type: 'string' as const } } },
});

const methodsSchema = {
  operationId: 'signInMethods',
  summary: 'How people can sign in here: with a password, and whether through single sign-on',
  response: {
    '200': jsonResponse(
      'The sign-in methods',
      z
        .object({
          password: z.literal(true),
          oidc: z
            .object({ startUrl: z.literal(OIDC_START_PATH) })
            .nullable()
            .meta({ description: 'Single sign-on: null where it is not configured' }),
        })
        .meta({ id: 'SignInMethods' }),
    ),
    ...TRANSPORT_RESPONSES,
  },
};

const startSchema = {
  operationId: 'startSingleSignOn',
  summary: 'Sends the browser to the OpenID Connect provider to sign in',
  querystring: z.object({
    returnTo: z
      .string()
      .optional()
      .meta({ description: 'The dashboard path to open once signed in (default /); a path of this server only' }),
  }),
  response: {
    '302': REDIRECT('To the provider; the cookie hookline_oidc (HttpOnly, 10 minutes) holds the sign-in under way'),
    '400': errorResponse('returnTo is not a path of this server', ['invalid_return_to']),
    '404': NOT_CONFIGURED,
    '502': PROVIDER_UNAVAILABLE,
    ...TRANSPORT_RESPONSES,
  },
};

const callbackSchema = {
  operationId: 'completeSingleSignOn',
  summary: 'Where the provider sends the browser back: signs the person in and opens the dashboard',
  description:
    'The person is found by the email the provider has verified (email_verified true); pending invites of that email are accepted. ' +
    'Each sign-in started can complete once, in the browser that started it, within 10 minutes.',
  querystring: z.object({
    code: z.string().optional().meta({ description: 'The authorization code' }),
    state: z.string().optional().meta({ description: 'The state sent with the authorization request' }),
    iss: z.string().optional().meta({ description: 'The issuer (RFC 9207)' }),
    error: z.string().optional().meta({ description: 'The provider refused or the person cancelled' }),
  }),
  response: {
    '302': REDIRECT('Into the dashboard (the returnTo of the start), with the session cookie hookline_session'),
    '400': errorResponse(
      'No sign-in under way in this browser (started elsewhere, expired, or already used), or the answer does not complete it (state, code, nonce or PKCE)',
      ['sign_in_not_started', 'invalid_callback'],
    ),
    '403': errorResponse(
      'The provider has not verified the email, no person has it and no invite is pending for it, or the person is a member of no organization',
      ['email_not_verified', 'no_account', 'forbidden'],
    ),
    '404': NOT_CONFIGURED,
    '502': PROVIDER_UNAVAILABLE,
    ...TRANSPORT_RESPONSES,
  },
};

function configured(oidc: OidcClient | undefined): OidcClient {
  if (!oidc) {
    throw new HttpError(
      404,
      'oidc_not_configured',
      'Single sign-on is not configured on this server: set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
    );
  }
  return oidc;
}

/** The provider's failures are the operator's to see (a client's 502 alone would hide them). */
function providerUnavailable(request: FastifyRequest) {
  return (error: unknown): never => {
    if (!(error instanceof OidcProviderError)) throw error;
    request.log.warn({ err: error }, 'single sign-on: the provider is unavailable');
    throw new HttpError(502, 'oidc_provider_unavailable', error.message);
  };
}

/** Where the provider sends the browser back: this server as the browser reached it (TRUST_PROXY decides whether a proxy's word counts). */
function redirectUriOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${OIDC_CALLBACK_PATH}`;
}

function signInCookieOptions(request: FastifyRequest) {
  return { httpOnly: true, sameSite: 'lax' as const, path: OIDC_PATH, secure: request.protocol === 'https' };
}

export async function oidcRoutes(app: FastifyInstance, deps: OidcRouteDependencies) {
  await app.register(fastifyCookie);

  app.get('/api/auth/methods', { schema: methodsSchema }, async () => ({
    password: true,
    oidc: deps.oidc ? { startUrl: OIDC_START_PATH } : null,
  }));

  app.get(OIDC_START_PATH, { schema: startSchema }, async (request: FastifyRequest<{ Querystring: { returnTo?: unknown } }>, reply) => {
    const oidc = configured(deps.oidc);
    const requested = request.query.returnTo;
    const returnTo = requested === undefined ? '/' : typeof requested === 'string' ? sameOriginPath(requested) : null;
    if (returnTo === null) throw new HttpError(400, 'invalid_return_to', 'returnTo must be a path of this server, such as /incidents');
    const redirectUri = redirectUriOf(request);
    const { url, state, nonce, codeVerifier } = await oidc.authorizationRequest(redirectUri).catch(providerUnavailable(request));
    const key = await beginOidcSignIn(deps.prisma, { state, nonce, codeVerifier, redirectUri, returnTo });
    reply.setCookie(OIDC_SIGN_IN_COOKIE, key, { ...signInCookieOptions(request), maxAge: OIDC_SIGN_IN_TTL_MS / 1000 });
    return reply.redirect(url.href, 302);
  });

  app.get(OIDC_CALLBACK_PATH, { schema: callbackSchema }, async (request, reply) => {
    const oidc = configured(deps.oidc);
    const key = request.cookies[OIDC_SIGN_IN_COOKIE];
    // Whatever happens next, this sign-in is over: a new attempt starts from the start.
    reply.clearCookie(OIDC_SIGN_IN_COOKIE, signInCookieOptions(request));
    const signIn = key ? await takeOidcSignIn(deps.prisma, key) : null;
    if (!signIn) {
      throw new HttpError(
        400,
        'sign_in_not_started',
        'No single sign-on is under way in this browser (it expired after 10 minutes, was already completed, or was started elsewhere): sign in again',
      );
    }
    const callbackUrl = new URL(signIn.redirectUri);
    callbackUrl.search = new URL(request.url, signIn.redirectUri).search;
    const identity = await oidc.identify(callbackUrl, signIn).catch((error: unknown) => {
      if (error instanceof OidcCallbackError)
        throw new HttpError(400, 'invalid_callback', `The sign-in could not be completed: ${error.message}`);
      return providerUnavailable(request)(error);
    });
    const { person, joinedOrganizationId } = await personOfVerifiedEmail(deps.prisma, identity, requestSource(request)).catch(
      (error: unknown) => {
        if (error instanceof SingleSignOnRefusedError) throw new HttpError(403, error.reason, error.message);
        throw error;
      },
    );
    await beginSession(request, reply, deps, { personId: person.id, how: 'single sign-on', organizationId: joinedOrganizationId });
    return reply.redirect(signIn.returnTo, 302);
  });
}
