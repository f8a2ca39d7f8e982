// A Hookline API as a client reaches it: GraphQL over HTTP and over graphql-ws, and the ingest
// route, at a base URL with an API token. What `hookline listen` and `hookline trigger` use, here
// or against a remote Hookline; it knows nothing of the server's code.
import { createClient, type Client, type ClientOptions } from 'graphql-ws';
import { FetchError, ofetch } from 'ofetch';
import WebSocket from 'ws';
import type { TypedDocumentString } from './gql/graphql.ts';

export interface HooklineApi {
  baseUrl: string;
  apiToken: string;
}

interface GraphqlError {
  message: string;
  extensions?: { code?: string };
}

/** A failure the user can act on, said in one line (the CLI prints it and exits 1). */
export class ClientError extends Error {
  override name = 'ClientError';
}

/** Runs one query or mutation; GraphQL errors become a ClientError naming the first one. */
export async function requestGraphql<Result, Variables>(
  api: HooklineApi,
  document: TypedDocumentString<Result, Variables>,
  ...[variables]: Variables extends Record<string, never> ? [] : [Variables]
): Promise<Result> {
  let response: { data?: Result | null; errors?: GraphqlError[] };
  try {
    response = await ofetch(`${api.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.apiToken}` },
      body: { query: document.toString(), variables: variables ?? {} },
      retry: 0,
      // GraphQL answers errors with a body; read it whatever the status.
      ignoreResponseError: true,
    });
  } catch (error) {
    throw unreachable(api, error);
  }
  const [first] = response.errors ?? [];
  if (first) throw new ClientError(describeGraphqlError(first));
  if (!response.data) throw new ClientError(`${api.baseUrl}/graphql answered without data`);
  return response.data;
}

export function describeGraphqlError(error: GraphqlError): string {
  if (error.extensions?.code === 'UNAUTHENTICATED') return 'the API token was refused (check --token or HOOKLINE_API_TOKEN)';
  return error.extensions?.code ? `${error.message} (${error.extensions.code})` : error.message;
}

export function unreachable(api: HooklineApi, error: unknown): ClientError {
  const cause = error instanceof FetchError ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new ClientError(`cannot reach Hookline at ${api.baseUrl}: ${cause}`);
}

/** A graphql-ws client on the API's WebSocket, authenticated with the token. */
export function connectWebSocket(api: HooklineApi, options: Omit<ClientOptions, 'url' | 'webSocketImpl' | 'connectionParams'>): Client {
  return createClient({
    url: `${api.baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${api.apiToken}` },
    ...options,
  });
}
