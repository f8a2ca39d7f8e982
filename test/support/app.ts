// A real Hookline app on a loopback port, on a test database, and the fixtures tests need.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { expect } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createOrganization } from '../../src/domain/shared/organizations.ts';
import { createService } from '../../src/domain/ingest/services.ts';
import { eventually } from './receiver.ts';

/** Settings that let deliveries reach the tests' receivers: plain http on loopback. */
export const LOCAL_RECEIVERS = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' } as const;

export interface RunningApp {
  app: App;
  baseUrl: string;
  close(): Promise<void>;
}

export async function startApp(databaseUrl: string, environment: Record<string, string> = {}): Promise<RunningApp> {
  // Rollbacks judged within a few tens of milliseconds of an ingest: rollbacksJudged waits briefly.
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, ROLLBACK_JUDGEMENT_INTERVAL_MS: '20', ...environment });
  const app = await createApp(config, databaseUrl);
  const baseUrl = await app.listen(0, '127.0.0.1');
  return { app, baseUrl, close: () => app.close() };
}

/**
 * Resolves once every deploy ingested so far has had its rollbacks judged (deploys.rolled_back
 * and dora_days.rolled_back_count) and has been added to DORA's daily figures, which a worker
 * process does after the ingest commits.
 */
export async function rollbacksJudged(app: App, timeoutMs = 15_000): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await app.database.pool.query(
        `SELECT EXISTS (SELECT 1 FROM rollback_judgements_due) OR EXISTS (SELECT 1 FROM dora_folds_due) AS due`,
      );
      return rows[0].due ? undefined : true;
    },
    timeoutMs,
    'rollbacks judged',
  );
}

export interface Tenant {
  organizationId: string;
  apiToken: string;
  serviceId: string;
  deployToken: string;
}

/** An organization with an API token and one service with its deploy token. */
export async function createTenant(app: App, serviceName = 'checkout'): Promise<Tenant> {
  const { organizationId, apiToken } = await createOrganization(app.database.prisma, `org-${Math.random().toString(36).slice(2)}`);
  const { service, deployToken } = await createService(app.database.prisma, organizationId, serviceName);
  return { organizationId, apiToken, serviceId: service.id, deployToken };
}

export interface GraphqlResponse<T> {
  status: number;
  body: { data?: T | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

/** The response's data, after asserting the operation succeeded. */
export function dataOf<T>(response: GraphqlResponse<T>): T {
  expect(response.body.errors).toBeUndefined();
  expect(response.body.data).toBeTruthy();
  return response.body.data!;
}

/** The one error of a response, after asserting there is exactly one. */
export function errorOf(response: GraphqlResponse<unknown>) {
  expect(response.body.errors).toHaveLength(1);
  return response.body.errors![0]!;
}

/** POSTs a typed GraphQL operation (from codegen, test/gql) as a dashboard would. */
export async function requestGraphql<TResult, TVariables>(
  baseUrl: string,
  apiToken: string | undefined,
  document: TypedDocumentNode<TResult, TVariables>,
  ...[variables]: TVariables extends Record<string, never> ? [] : [TVariables]
): Promise<GraphqlResponse<TResult>> {
  return requestGraphqlWithHeaders(baseUrl, apiToken ? { authorization: `Bearer ${apiToken}` } : {}, document, variables as TVariables);
}

/**
 * A typed GraphQL operation with the request's own headers: a signed-in browser's (cookie, origin),
 * a token's, or X-Hookline-Organization.
 */
export async function requestGraphqlWithHeaders<TResult, TVariables>(
  baseUrl: string,
  headers: Record<string, string>,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: NoInfer<TVariables>,
): Promise<GraphqlResponse<TResult>> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

/** requestGraphql for an operation with variables, typed by the document alone. */
export function requestGraphqlWith<TResult, TVariables>(
  baseUrl: string,
  apiToken: string | undefined,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: NoInfer<TVariables>,
): Promise<GraphqlResponse<TResult>> {
  return requestGraphql<TResult, Record<string, unknown>>(
    baseUrl,
    apiToken,
    document as TypedDocumentNode<TResult, Record<string, unknown>>,
    variables as Record<string, unknown>,
  );
}
