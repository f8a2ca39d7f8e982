// Which layer of src/ may import which (docs/architecture.md explains the layers). Checked by
// `npm test` (test/architecture.test.ts) and by `npx depcruise src`.
//
//   db          ← nothing of ours: the pool, Prisma, transactions, migrations, the embedded server
//   domain      ← db: the rules of Hookline, with no HTTP, GraphQL, queue or outbound HTTP in them,
//                 one folder per subdomain, each on the ones below it only:
//                   ingest/       deploys, change events, alerts, services: what arrives
//                   correlation/  incidents, suspects, rollbacks, DORA: what the changes did
//                   webhooks/     events, outbox, endpoints, deliveries: what is sent out
//                   shared/       errors, ids, input, tokens, organizations, counts
//   delivery    ← domain, db: the outbound side (queue, worker, attempts, signing, notifications)
//   background  ← delivery, domain, db: the worker processes' periodic jobs and their scheduler
//   graphql     ← domain, db, auth: the GraphQL schema and resolvers
//   http        ← graphql, domain, db, auth: the Fastify server, REST routes, WebSocket
//   auth        ← domain: who a request is (API tokens, sessions, deploy tokens) and what it may do
//   client      ← only the pure signing and webhook-body modules: the CLI's API client (listen, trigger)
//   At the top level, cli.ts (the hookline command), main.ts (the server program, which it runs) and
//   app.ts (one process) compose the layers, which import none of them; config.ts, metrics.ts and
//   their like serve the layers and compose nothing.
const layer = (name) => `^src/${name}/`;
const subdomain = (name) => `^src/domain/${name}/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be understood, tested or changed alone.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment: 'db/ knows PostgreSQL and nothing of what Hookline does with it.',
      from: { path: layer('db') },
      to: { path: '^src/', pathNot: ['^src/db/', '^src/generated/'] },
    },
    {
      name: 'domain-only-on-db',
      severity: 'error',
      comment: 'The domain is plain rules: it may use the database, never HTTP, GraphQL, the queue or the worker.',
      from: { path: layer('domain') },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/db/', '^src/generated/'] },
    },
    {
      name: 'domain-shared-is-the-floor',
      severity: 'error',
      comment: 'What every subdomain uses (errors, input, ids, tokens, organizations) knows none of them.',
      from: { path: subdomain('shared') },
      to: { path: '^src/domain/', pathNot: subdomain('shared') },
    },
    {
      name: 'webhooks-only-on-shared',
      severity: 'error',
      comment: 'Sending events knows nothing of what they are about: deploys and incidents hand it their events.',
      from: { path: subdomain('webhooks') },
      to: { path: '^src/domain/', pathNot: [subdomain('webhooks'), subdomain('shared')] },
    },
    {
      name: 'correlation-not-on-ingest',
      severity: 'error',
      comment: 'Incidents and their suspects read the recorded deploys and emit events; they never record what arrives.',
      from: { path: subdomain('correlation') },
      to: { path: '^src/domain/', pathNot: [subdomain('correlation'), subdomain('webhooks'), subdomain('shared')] },
    },
    {
      name: 'domain-in-its-subdomains',
      severity: 'error',
      comment: 'Every rule belongs to one subdomain (or to shared/): no file sits loose in domain/.',
      from: { path: '^src/' },
      to: { path: '^src/domain/[^/]+$' },
    },
    {
      name: 'delivery-not-on-adapters',
      severity: 'error',
      comment: 'The outbound side depends on the domain, not on the inbound adapters.',
      from: { path: layer('delivery') },
      to: { path: ['^src/http/', '^src/graphql/', '^src/auth/'] },
    },
    {
      name: 'background-not-on-adapters',
      severity: 'error',
      comment: 'Background jobs run domain rules and queue upkeep in worker processes: no server, GraphQL or client in them.',
      from: { path: layer('background') },
      to: { path: ['^src/http/', '^src/graphql/', '^src/auth/', '^src/client/'] },
    },
    {
      name: 'background-started-by-app',
      severity: 'error',
      comment: 'Which jobs a process runs is decided in one place, app.ts: no layer starts background work of its own.',
      from: { path: '^src/', pathNot: ['^src/app\\.ts$', layer('background')] },
      to: { path: layer('background') },
    },
    {
      name: 'graphql-not-on-http-or-delivery',
      severity: 'error',
      comment: 'The GraphQL layer gets what it needs from the domain (ports included), not from the worker or the server.',
      from: { path: layer('graphql') },
      to: { path: ['^src/http/', '^src/delivery/'] },
    },
    {
      name: 'http-not-on-delivery',
      severity: 'error',
      comment: 'The server is handed what it needs by app.ts; it does not reach into the worker.',
      from: { path: layer('http') },
      to: { path: '^src/delivery/' },
    },
    {
      name: 'cli-imported-by-none',
      severity: 'error',
      comment: 'cli.ts is the hookline command, the top of the graph: nothing of ours imports it.',
      from: { path: '^src/' },
      to: { path: '^src/cli\\.ts$' },
    },
    {
      name: 'main-only-for-the-cli',
      severity: 'error',
      comment: 'main.ts is the server program: run directly, or by `hookline start`, never imported by a layer.',
      from: { path: '^src/', pathNot: '^src/cli\\.ts$' },
      to: { path: '^src/main\\.ts$' },
    },
    {
      name: 'app-only-for-main',
      severity: 'error',
      comment: 'app.ts composes one process from the layers; only the server program runs it.',
      from: { path: '^src/', pathNot: '^src/main\\.ts$' },
      to: { path: '^src/app\\.ts$' },
    },
    {
      name: 'top-level-services-compose-nothing',
      severity: 'error',
      comment:
        'The top-level modules the layers use (settings, metrics, start-up messages, the Node.js check) stand below them: ' +
        'they read the database layer and the parser of the retry schedule, never a layer that imports them.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: ['^src/app\\.ts$', '^src/main\\.ts$', '^src/cli\\.ts$'] },
      to: {
        path: '^src/',
        pathNot: ['^src/[^/]+\\.ts$', '^src/db/', '^src/generated/', '^src/delivery/backoff\\.ts$'],
      },
    },
    {
      name: 'auth-only-on-domain',
      severity: 'error',
      comment: 'Authentication is shared by REST, GraphQL and WebSocket, and so depends on none of them.',
      from: { path: layer('auth') },
      to: { path: '^src/', pathNot: ['^src/auth/', '^src/domain/', '^src/db/', '^src/generated/'] },
    },
    {
      name: 'client-only-on-pure-modules',
      severity: 'error',
      comment:
        'The client talks to a Hookline, maybe remote, through its public API only: it shares the signing scheme and the ' +
        'webhook body with the server (pure functions), never the database, the domain rules or the server.',
      from: { path: layer('client') },
      to: {
        path: '^src/',
        pathNot: [
          '^src/client/',
          '^src/delivery/signing\\.ts$',
          '^src/domain/webhooks/signing-secrets\\.ts$',
          '^src/domain/webhooks/events\\.ts$',
        ],
      },
    },
    {
      name: 'client-only-for-the-cli',
      severity: 'error',
      comment: 'The server never runs client code: only the CLI does.',
      from: { path: '^src/', pathNot: ['^src/client/', '^src/cli\\.ts$'] },
      to: { path: layer('client') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
