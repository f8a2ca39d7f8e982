// ESLint runs on the GraphQL schema only (`npx eslint schema.graphql`; test/graphql-lint.test.ts
// keeps it at 0 findings): @graphql-eslint's schema-recommended and Relay rules, which the tools
// clients build on expect. Where a rule would rename or reshape what the API contract publishes,
// it is configured below to accept the contract, with the reason.
import graphqlPlugin from '@graphql-eslint/eslint-plugin';

const recommended = graphqlPlugin.configs['flat/schema-recommended'].rules;
const [, namingConvention] = recommended['@graphql-eslint/naming-convention'];

export default [
  {
    files: ['schema.graphql'],
    languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: 'schema.graphql' } } },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...recommended,
      ...graphqlPlugin.configs['flat/schema-relay'].rules,
      // Only things with an identity of their own have an id (and implement Node). Connections,
      // edges and mutation payloads are envelopes; the others are values of the object that holds
      // them (a commit is its sha, as the ingest payload names it; a suspect is an incident and a
      // deploy; an event type and an environment are their names; stats, metrics and their bands,
      // chart buckets, rollout stages, policy, headers, reasons; System, Hookline itself as an
      // actor, of which there is one; an incident's timeline entries, moments of it). An id on them
      // would be one no other API knows.
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          exceptions: {
            suffixes: ['Connection', 'Edge', 'Payload'],
            types: [
              'PageInfo',
              // Who is calling: a view of the request, not a stored thing.
              'Me',
              // One of the caller's organizations (its organizationId), not a row of its own.
              'MyOrganization',
              'Commit',
              'ChangeCommit',
              'Suspect',
              'SuspectReason',
              'EventType',
              'AlertSourceKindDescription',
              'Environment',
              'EndpointStats',
              'DoraMetrics',
              'DoraBands',
              // A failed deploy with why it counts (the deploy is its Deploy), and one service's four keys.
              'DoraFailedDeploy',
              'DoraServiceKeys',
              'DeployHealth',
              'EndpointChartBucket',
              'RolloutStage',
              'WebhookDestinationPolicy',
              'WebhookHeader',
              'HttpHeader',
              'System',
              'IncidentTimelineEntry',
            ],
          },
        },
      ],
      // Short bounded lists (a delivery's attempts, a deploy's commits, an incident's suspects,
      // the event types) are plain lists in the published API, as clients read them today;
      // every unbounded list is a connection.
      '@graphql-eslint/relay-edge-types': ['error', { listTypeCanWrapOnlyEdgeType: false }],
      // Published names that start with their type's name: Deploy.deployedAt and deployedBy (the
      // ingest payload's deployed_at and deployed_by) and Alert.alertSource.
      '@graphql-eslint/no-typename-prefix': 'off',
      // EventType (the event-type catalogue) is a published name: the "Type" suffix stays allowed.
      '@graphql-eslint/naming-convention': [
        'error',
        { ...namingConvention, 'ObjectTypeDefinition,ObjectTypeExtension': { forbiddenPrefixes: ['Type'] } },
      ],
    },
  },
];
