// The part of oidc-provider's API the tests use (the package ships no types, and there is no
// @types package for version 9).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  }

  export interface Configuration {
    clients?: ClientMetadata[];
    findAccount?: (context: unknown, id: string) => Promise<Account | undefined> | Account | undefined;
    claims?: Record<string, string[] | null>;
    cookies?: { keys?: string[] };
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    ttl?: Record<string, number>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
