// `hookline trigger TYPE`: makes a realistic event of a type through the public API, as the real
// thing would happen (a deploy reported by CI, an incident opened, acknowledged, resolved), so
// that a `hookline listen` and the subscribed endpoints receive it.
import { randomBytes } from 'node:crypto';
import type { ResultOf } from '@graphql-typed-document-node/core';
import { ofetch } from 'ofetch';
import { ClientError, requestGraphql, unreachable, type HooklineApi } from './api.ts';
import { graphql } from './gql/index.ts';

/** The service the fixtures belong to, made on first use. */
export const TRIGGER_SERVICE = 'hookline-trigger';

/** The event types a trigger can make (endpoint-side events, such as auto-disable, it cannot). */
export const TRIGGER_TYPES = ['deploy.ingested', 'incident.opened', 'incident.acknowledged', 'incident.resolved', 'test.ping'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** What a trigger made, one line each, for the user. */
export type TriggerReport = string[];

export async function trigger(api: HooklineApi, type: TriggerType): Promise<TriggerReport> {
  switch (type) {
    case 'deploy.ingested':
      return [await ingestDeploy(api)];
    case 'incident.opened':
      return [(await openIncident(api)).line];
    case 'incident.acknowledged':
      return changeIncident(api, 'acknowledged');
    case 'incident.resolved':
      return changeIncident(api, 'resolved');
    case 'test.ping': {
      const { pingListeners } = await requestGraphql(api, graphql(`mutation TriggerPing { pingListeners { id } }`));
      return [`Stored test.ping event ${pingListeners.id} for your live listeners (no endpoint gets it).`];
    }
  }
}

interface TriggerService {
  id: string;
  /** Only when the service was just made (its deploy token is shown once). */
  deployToken?: string;
}

const PAGE = 100;
const SERVICES = graphql(
  `query TriggerServices($first: Int, $after: String) { services(first: $first, after: $after) { edges { node { id name } } pageInfo { hasNextPage endCursor } } }`,
);

/** The organization's hookline-trigger service, made if it is not there yet. */
async function triggerService(api: HooklineApi): Promise<TriggerService> {
  let after: string | null = null;
  for (;;) {
    const page: ResultOf<typeof SERVICES> = await requestGraphql(api, SERVICES, { first: PAGE, after });
    const found = page.services.edges.find(({ node }) => node.name === TRIGGER_SERVICE);
    if (found) return { id: found.node.id };
    if (!page.services.pageInfo.hasNextPage) break;
    after = page.services.pageInfo.endCursor;
  }
  const { createService } = await requestGraphql(
    api,
    graphql(`mutation TriggerCreateService($name: String!) { createService(name: $name) { service { id } deployToken } }`),
    { name: TRIGGER_SERVICE },
  );
  return { id: createService.service.id, deployToken: createService.deployToken };
}

/** A deploy of two commits reported as CI would, with the service's deploy token. */
async function ingestDeploy(api: HooklineApi): Promise<string> {
  const service = await triggerService(api);
  // An existing service's token is shown only once, when made: a new one replaces it.
  const deployToken =
    service.deployToken ??
    (
      await requestGraphql(
        api,
        graphql(`mutation TriggerRotateDeployToken($serviceId: ID!) { rotateDeployToken(serviceId: $serviceId) { deployToken } }`),
        { serviceId: service.id },
      )
    ).rotateDeployToken.deployToken;
  const sha = () => randomBytes(20).toString('hex');
  const now = Date.now();
  const commits = [
    {
      sha: sha(),
      message: 'Retry payment capture on gateway timeouts',
      author: 'dev@example.com',
      timestamp: new Date(now - 3_600_000).toISOString(),
    },
    { sha: sha(), message: 'Bump checkout to 2.14.0', author: 'dev@example.com', timestamp: new Date(now - 600_000).toISOString() },
  ];
  const payload = {
    commit_sha: commits[1]!.sha,
    commit_message: commits[1]!.message,
    branch: 'main',
    deployed_by: 'hookline-trigger',
    environment: 'staging',
    version: '2.14.0',
    description: 'Fixture deploy made by hookline trigger',
    commits,
  };
  let response: { status?: string; deploy_id?: string; error?: { code: string; message: string } };
  try {
    response = await ofetch(`${api.baseUrl}/api/ingest/deploy`, {
      method: 'POST',
      headers: { 'x-deploy-token': deployToken },
      body: payload,
      retry: 0,
      ignoreResponseError: true,
    });
  } catch (error) {
    throw unreachable(api, error);
  }
  if (response.status !== 'accepted')
    throw new ClientError(`the deploy was refused: ${response.error?.message ?? JSON.stringify(response)}`);
  return `Created deploy ${response.deploy_id} of service ${TRIGGER_SERVICE} (commit ${payload.commit_sha.slice(0, 7)} on main, staging): a deploy.ingested event.`;
}

async function openIncident(api: HooklineApi): Promise<{ id: string; line: string }> {
  const service = await triggerService(api);
  const { openIncident: incident } = await requestGraphql(
    api,
    graphql(
      `mutation TriggerOpenIncident($serviceId: ID!, $title: String!) { openIncident(serviceId: $serviceId, title: $title, severity: SEV2, environment: "staging") { id title } }`,
    ),
    { serviceId: service.id, title: 'Checkout error rate above 5% (hookline trigger)' },
  );
  return { id: incident.id, line: `Opened incident ${incident.id} "${incident.title}" on ${TRIGGER_SERVICE}: an incident.opened event.` };
}

const ACKNOWLEDGE_INCIDENT = graphql(`mutation TriggerAcknowledgeIncident($id: ID!) { acknowledgeIncident(id: $id) { id } }`);
const RESOLVE_INCIDENT = graphql(`mutation TriggerResolveIncident($id: ID!) { resolveIncident(id: $id) { id } }`);

/** Opens an incident and then acknowledges or resolves it (two events, as it happens for real). */
async function changeIncident(api: HooklineApi, done: 'acknowledged' | 'resolved'): Promise<TriggerReport> {
  const opened = await openIncident(api);
  const variables = { id: opened.id };
  await (done === 'acknowledged' ? requestGraphql(api, ACKNOWLEDGE_INCIDENT, variables) : requestGraphql(api, RESOLVE_INCIDENT, variables));
  return [opened.line, `Incident ${opened.id} ${done}: an incident.${done} event.`];
}
