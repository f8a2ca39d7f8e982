// What many test files do to reach the state they test from, or wait for: an endpoint made
// through the GraphQL API, a deploy ingested through the REST API, a delivery as stored. Each asserts it succeeded, so a test
// fails where its set-up did rather than later.
import { expect } from 'vitest';
import type { App } from '../../src/app.ts';
import { graphql } from '../gql/index.ts';
import type { WebhookHeaderInput } from '../gql/graphql.ts';
import { dataOf, requestGraphqlWith } from './app.ts';
import { postDeploy } from './http.ts';
import { eventually } from './receiver.ts';

/** Where an app listens: the fixture, a RunningApp, or a process's address. */
export type Reachable = string | { baseUrl: string };

const baseUrlOf = (at: Reachable) => (typeof at === 'string' ? at : at.baseUrl);

/** For tests of the mutation's answers themselves (refusals); createEndpoint for set-up. */
export const CREATE_ENDPOINT = graphql(`
  mutation CreateEndpoint($url: String!, $name: String!, $eventTypes: [String!], $headers: [WebhookHeaderInput!]) {
    createWebhookEndpoint(url: $url, name: $name, eventTypes: $eventTypes, headers: $headers) { signingSecret endpoint { id } }
  }
`);

export interface EndpointInput {
  url: string;
  name: string;
  eventTypes?: string[] | null;
  headers?: WebhookHeaderInput[] | null;
}

/** A webhook endpoint of the API token's organization: its id and signing secret. */
export async function createEndpoint(
  at: Reachable,
  apiToken: string,
  input: EndpointInput,
): Promise<{ id: string; signingSecret: string }> {
  const { createWebhookEndpoint } = dataOf(await requestGraphqlWith(baseUrlOf(at), apiToken, CREATE_ENDPOINT, input));
  return { id: createWebhookEndpoint.endpoint.id, signingSecret: createWebhookEndpoint.signingSecret };
}

export interface IngestOptions {
  headers?: Record<string, string>;
  /** The answer's status expected; default "accepted" (a first deploy). */
  status?: 'accepted' | 'duplicate' | 'updated';
}

/** POSTs a deploy with the deploy token and asserts it was taken; its deploy id. */
export async function ingest(
  at: Reachable,
  deployToken: string,
  payload: Record<string, unknown>,
  { headers = {}, status = 'accepted' }: IngestOptions = {},
): Promise<string> {
  const response = await postDeploy(baseUrlOf(at), deployToken, payload, headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.status, JSON.stringify(response.body)).toBe(status);
  return response.body.deploy_id as string;
}

/**
 * Delivery `id` as stored, with its attempts (in order) and its endpoint, once `done` holds of
 * it; fails after `timeoutMs`.
 */
export function deliveryWhen(
  app: App,
  id: string,
  done: (delivery: { status: string; attemptCount: number; attempts: unknown[] }) => boolean,
  timeoutMs = 20_000,
) {
  return eventually(
    async () => {
      const delivery = await app.database.prisma.delivery.findFirst({
        where: { id },
        include: { attempts: { orderBy: { number: 'asc' } }, endpoint: true },
      });
      return delivery && done(delivery) ? delivery : undefined;
    },
    timeoutMs,
    `delivery ${id}`,
  );
}
