// The queries a dashboard and its users run, whose cost must follow the page asked for and not
// the data kept: measured by bench/growth.ts, their plans checked by test/query-plans.test.ts.

export interface GrowthQuery {
  name: string;
  document: string;
  variables: (ids: QueriedIds & { now: Date }) => Record<string, unknown>;
}

/** What the queries ask for: a service, an endpoint and the service's latest deploy. */
export interface QueriedIds {
  serviceId: string;
  endpointId: string;
  deployId: string;
}

const DELIVERY_PAGE = `totalCount pageInfo { hasNextPage endCursor } edges { node { id status attemptCount createdAt event { type } endpoint { name } } }`;
const DAY = 24 * 3600_000;
const HOUR = 3600_000;
const DORA_WEEK = `deployCount deploymentFrequencyPerDay leadTimeForChangesSeconds changeFailureRate timeToRestoreSeconds`;
/** The dashboard's DORA trends: the four keys over each of the last 8 weeks, in one request. */
const doraWeeks = (scope: string) =>
  `query (${scope ? '$serviceId: ID!, ' : ''}$f0: DateTime!, $f1: DateTime!, $f2: DateTime!, $f3: DateTime!, $f4: DateTime!, $f5: DateTime!, $f6: DateTime!, $f7: DateTime!, $to: DateTime!) { ${Array.from(
    { length: 8 },
    (_, week) =>
      `w${week}: dora(${scope}environment: "production", from: $f${week}, to: ${week === 7 ? '$to' : `$f${week + 1}`}) { ${DORA_WEEK} }`,
  ).join(' ')} }`;
const weekStarts = (now: Date) =>
  Object.fromEntries(Array.from({ length: 8 }, (_, week) => [`f${week}`, new Date(now.getTime() - (8 - week) * 7 * DAY)]));
const ENDPOINT_CHART = `query ($id: ID!, $interval: ChartInterval!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) { id chart(interval: $interval, from: $from, to: $to) { start deliveries succeeded failed successRate attempts latencyP50Ms latencyP95Ms } } }`;

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
    name: 'endpoint chart, 14 days by day',
    document: ENDPOINT_CHART,
    variables: ({ endpointId, now }) => ({ id: endpointId, interval: 'DAY', from: new Date(now.getTime() - 14 * DAY), to: now }),
  },
  {
    name: 'endpoint chart, 24 h by hour',
    document: ENDPOINT_CHART,
    variables: ({ endpointId, now }) => ({ id: endpointId, interval: 'HOUR', from: new Date(now.getTime() - 24 * HOUR), to: now }),
  },
  {
    // The first of the pages the DORA page reads back to the start of its period.
    name: 'deploy times, service (DORA page, a page of 100)',
    document: `query ($serviceId: ID, $environment: String) { deploys(first: 100, serviceId: $serviceId, environment: $environment) { edges { node { id deployedAt } } pageInfo { hasNextPage endCursor } } }`,
    variables: ({ serviceId }) => ({ serviceId, environment: 'production' }),
  },
  {
    name: 'weekly trends, service (DORA page)',
    document: doraWeeks('serviceId: $serviceId, '),
    variables: ({ serviceId, now }) => ({ serviceId, ...weekStarts(now), to: now }),
  },
  {
    name: 'weekly trends, organization (DORA page)',
    document: doraWeeks(''),
    variables: ({ now }) => ({ ...weekStarts(now), to: now }),
  },
  {
    name: 'service page',
    document: `query ($id: ID!) { service(id: $id) { id name deployTokenPrefix createdAt dependsOn { id name } dependents { id name } deploys(first: 10) { edges { node { id commitSha commitMessage environment version deployedBy deployedAt } } } incidents(first: 5) { edges { node { id title severity status openedAt } } } } }`,
    variables: ({ serviceId }) => ({ id: serviceId }),
  },
  {
    name: 'incidents list',
    document: `query { incidents(first: 50, orderBy: STARTED_AT) { edges { node { id title severity status environment startedAt openedAt resolvedAt service { id name } suspects { score deploy { id commitSha version } change { id kind summary } } } } pageInfo { hasNextPage endCursor } } }`,
    variables: () => ({}),
  },
  {
    name: 'deploy page',
    document: `query ($id: ID!) { deploy(id: $id) { id commitSha commitMessage branch environment version deployedBy description url deployedAt receivedAt service { id name } commitsSincePrevious { sha message author timestamp leadTimeSeconds derived } authors previousDeploy { id commitSha version deployedAt environment } isRollback restoredDeploy { id commitSha version deployedAt } rolledBack rolledBackBy { id commitSha version deployedAt } suspectIn { rank score verdict incident { id title status severity } } } }`,
    variables: ({ deployId }) => ({ id: deployId }),
  },
  {
    // Last: the one that writes (an incident and its suspects), so that the reads see the data as built.
    name: 'openIncident on a busy service (ranking)',
    document: `mutation ($serviceId: ID!) { openIncident(serviceId: $serviceId, environment: "production", title: "Checkout errors") { id suspects { rank score deploy { id } } } }`,
    variables: ({ serviceId }) => ({ serviceId }),
  },
];
