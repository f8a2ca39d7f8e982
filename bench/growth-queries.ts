// The queries a dashboard and its users run, whose cost must follow the page asked for and not
// the data kept: measured by bench/growth.ts, their plans checked by test/query-plans.test.ts.

export interface GrowthQuery {
  name: string;
  document: string;
  variables: (ids: { serviceId: string; endpointId: string; now: Date }) => Record<string, unknown>;
}

const DELIVERY_PAGE = `totalCount pageInfo { hasNextPage endCursor } edges { node { id status attemptCount createdAt event { type } endpoint { name } } }`;
const DAY = 24 * 3600_000;

export const GROWTH_QUERIES: GrowthQuery[] = [
  {
    name: 'deliveries by endpoint',
    document: `query ($endpointId: ID!) { deliveries(first: 25, filter: { endpointId: $endpointId }) { ${DELIVERY_PAGE} } }`,
    variables: ({ endpointId }) => ({ endpointId }),
  },
  {
    name: 'deliveries by event type',
    document: `query { deliveries(first: 25, filter: { eventType: "incident.opened" }) { ${DELIVERY_PAGE} } }`,
    variables: () => ({}),
  },
  {
    name: 'deliveries with 5xx responses',
    document: `query { deliveries(first: 25, filter: { responseStatusClass: SERVER_ERROR }) { ${DELIVERY_PAGE} } }`,
    variables: () => ({}),
  },
  {
    name: 'events, no filter',
    document: `query { events(first: 25) { totalCount edges { node { id type createdAt deliveries(first: 10) { totalCount edges { node { id status } } } } } } }`,
    variables: () => ({}),
  },
  {
    name: 'endpoint page, 25 latest deliveries',
    document: `query ($endpointId: ID!) { webhookEndpoint(id: $endpointId) { id name status deliveries(first: 25) { ${DELIVERY_PAGE} } } }`,
    variables: ({ endpointId }) => ({ endpointId }),
  },
  {
    name: 'deploy timeline, organization',
    document: `query { timeline(first: 25) { pageInfo { hasNextPage endCursor } edges { node { __typename ... on Deploy { id commitSha environment deployedAt service { name } } ... on ChangeEvent { id kind summary changedAt service { name } } } } } }`,
    variables: () => ({}),
  },
  {
    name: 'DORA, one service, 365 d',
    document: `query ($serviceId: ID!, $from: DateTime!, $to: DateTime!) { dora(serviceId: $serviceId, environment: "production", from: $from, to: $to) { deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds } }`,
    variables: ({ serviceId, now }) => ({ serviceId, from: new Date(now.getTime() - 365 * DAY), to: now }),
  },
  {
    name: 'DORA, organization, 30 d',
    document: `query ($from: DateTime!, $to: DateTime!) { dora(from: $from, to: $to) { deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds } }`,
    variables: ({ now }) => ({ from: new Date(now.getTime() - 30 * DAY), to: now }),
  },
  {
    name: 'openIncident on a busy service (ranking)',
    document: `mutation ($serviceId: ID!) { openIncident(serviceId: $serviceId, environment: "production", title: "Checkout errors") { id suspects { rank score deploy { id } } } }`,
    variables: ({ serviceId }) => ({ serviceId }),
  },
];
