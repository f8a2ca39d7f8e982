// Single sign-on through an OpenID Connect provider, with openid-client: the authorization code
// flow with PKCE, state and nonce. The provider's discovery document is read at the first sign-in
// (not at start-up, so that a provider down for a moment does not stop Hookline), kept, and read
// again after a failure.
import * as client from 'openid-client';

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
}

/** What a sign-in must keep until the provider sends the browser back: the checks of the callback. */
export interface AuthorizationRequest {
  /** Where to send the browser. */
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export type CallbackChecks = Pick<AuthorizationRequest, 'state' | 'nonce' | 'codeVerifier'>;

/** Who the provider says signed in. */
export interface OidcIdentity {
  subject: string;
  email: string | undefined;
  /** Only an email the provider has verified may match a person. */
  emailVerified: boolean;
  name: string | undefined;
}

/** The provider could not be reached, or answered with something other than a sign-in. */
export class OidcProviderError extends Error {
  override name = 'OidcProviderError';
}

/** The callback does not complete the sign-in this browser started (state, nonce, code or PKCE). */
export class OidcCallbackError extends Error {
  override name = 'OidcCallbackError';
}

export interface OidcClient {
  authorizationRequest(redirectUri: string): Promise<AuthorizationRequest>;
  /**
   * Exchanges the callback's code for the identity, after checking it against what the request
   * kept. `callbackUrl` is the request's redirect_uri with the callback's query: the token request
   * repeats that redirect_uri.
   */
  identify(callbackUrl: URL, checks: CallbackChecks): Promise<OidcIdentity>;
}

export function createOidcClient(settings: OidcSettings): OidcClient {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= discover(settings).catch((error: unknown) => {
      discovered = undefined;
      throw new OidcProviderError(`The sign-in provider ${settings.issuer.href} could not be reached: ${messageOf(error)}`);
    });
    return discovered;
  };

  return {
    async authorizationRequest(redirectUri) {
      const config = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url, state, nonce, codeVerifier };
    },

    async identify(callbackUrl, { state, nonce, codeVerifier }) {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
        });
      } catch (error) {
        if (isProviderFailure(error)) throw new OidcProviderError(`The sign-in provider failed: ${messageOf(error)}`);
        throw new OidcCallbackError(messageOf(error));
      }
      const claims = tokens.claims();
      if (!claims) throw new OidcCallbackError('the provider sent no ID token');
      // Many providers put email and email_verified in the ID token; the others (and oidc-provider
      // by default) at the userinfo endpoint only, which is then asked, for the same subject.
      const profile =
        typeof claims.email === 'string' && typeof claims.email_verified === 'boolean'
          ? claims
          : await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch((error: unknown) => {
              throw new OidcProviderError(`The sign-in provider's userinfo endpoint failed: ${messageOf(error)}`);
            });
      return {
        subject: claims.sub,
        email: typeof profile.email === 'string' ? profile.email : undefined,
        // Strictly true: some providers send the string "true", which is not what the claim is.
        emailVerified: profile.email_verified === true,
        name: typeof profile.name === 'string' && profile.name.trim() !== '' ? profile.name.trim() : undefined,
      };
    },
  };
}

async function discover({ issuer, clientId, clientSecret }: OidcSettings): Promise<client.Configuration> {
  // The configuration only accepts http:// for an issuer on this machine (a local provider).
  const insecure = issuer.protocol === 'http:';
  return client.discovery(issuer, clientId, clientSecret, undefined, insecure ? { execute: [client.allowInsecureRequests] } : undefined);
}

/** The provider could not be reached, or answered other than OAuth says (not a refusal of this callback). */
function isProviderFailure(error: unknown): boolean {
  if (error instanceof TypeError && error.message === 'fetch failed') return true;
  return (
    error instanceof client.ClientError && (error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || error.code === 'OAUTH_RESPONSE_IS_NOT_JSON')
  );
}

/** What went wrong, in OAuth's words: the error code and description, or the check that failed and why. */
function messageOf(error: unknown): string {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  if (error instanceof client.ClientError && error.cause instanceof Error && error.cause.message !== error.message)
    return `${error.message}: ${error.cause.message}`;
  return error instanceof Error ? error.message : String(error);
}
