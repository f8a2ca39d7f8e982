// `npm run bench:api-fairness [-- --baseline-seconds 15 --flood-seconds 30 --concurrency 300 --victim-rate 10 --deliveries 20000 --flood-stub]`
//
// One organization's GraphQL flood against another organization's API calls, on ONE Hookline
// process (the app in this process, default settings, ROLE=all) and one PostgreSQL server:
// DATABASE_URL (an admin connection, used to create and drop a scratch database), or an embedded
// PostgreSQL in a temp dir when it is unset.
//
// Organization X has --deliveries deliveries (so its queries read real pages). Organization Y
// sends --victim-rate calls a second, alternately a deploy (POST /api/ingest/deploy) and a
// GraphQL query of its deliveries. Baseline: Y alone for --baseline-seconds. Flood: X keeps
// --concurrency queries of 15 aliased `deliveries(first: 5)` in flight for --flood-seconds,
// while Y goes on. Each organization's client runs in a process of its own
// (api-fairness-client.ts): the server's event loop serves requests only. Printed: Y's latency in both phases and the ratio of the
// p95s, Y's refusals (503, 429), and what X got. Target: Y's flood p95 at most twice its
// baseline's, and no 503 for Y.
//
// --flood-stub: X's flood goes to a stub in X's client process instead, which refuses each query
// 429 after GRAPHQL_OPERATION_WAIT_MS and does nothing else. The server does no work for X at all:
// Y's ratio then is what the flood costs Y through the machine alone (the flooding process on the
// same cores), the best any server-side measure could reach on this machine.
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import type { Call, FloodAnswer, FloodOrder, FloodResult, TrickleOrder, TrickleResult } from './api-fairness-client.ts';
import { percentile } from './percentile.ts';
import { stopChild } from './processes.ts';
import { cleanUpOnInterrupt, cleanups, positiveInteger, postgresServer, runBench, scratchDatabase } from './support.ts';
import { fixed, printTable } from './table.ts';

const TARGET_RATIO = 2;
const FAIRNESS_SETTINGS = [
  'GRAPHQL_MAX_OPERATIONS_PER_ORGANIZATION',
  'GRAPHQL_OPERATION_WAIT_MS',
  'DATABASE_MAX_CONNECTIONS_PER_ORGANIZATION',
  'API_STATEMENT_TIMEOUT_MS',
];
const ALIASES = 15;

const { values: args } = parseArgs({
  options: {
    'baseline-seconds': { type: 'string', default: '15' },
    'flood-seconds': { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '300' },
    'victim-rate': { type: 'string', default: '10' },
    deliveries: { type: 'string', default: '20000' },
    'flood-stub': { type: 'boolean', default: false },
  },
});
const options = {
  baselineSeconds: positiveInteger('baseline-seconds', args['baseline-seconds']),
  floodSeconds: positiveInteger('flood-seconds', args['flood-seconds']),
  concurrency: positiveInteger('concurrency', args.concurrency),
  victimRate: positiveInteger('victim-rate', args['victim-rate']),
  deliveries: positiveInteger('deliveries', args.deliveries),
};

cleanUpOnInterrupt('stopping the flood and the app, dropping the scratch database');

const DELIVERY_PAGE = 'totalCount edges { node { id status attemptCount createdAt endpoint { id name } event { id type } } }';
const FLOOD_QUERY = `{ ${Array.from({ length: ALIASES }, (_, index) => `d${index}: deliveries(first: 5) { ${DELIVERY_PAGE} }`).join(' ')} }`;
const VICTIM_QUERY = `{ deliveries(first: 5) { ${DELIVERY_PAGE} } }`;

interface Tenant {
  organizationId: string;
  apiToken: string;
  deployToken: string;
}

async function createTenant(app: App, name: string): Promise<Tenant> {
  const { organizationId, apiToken } = await createOrganization(app.database.prisma, name);
  const { deployToken } = await createService(app.database.prisma, organizationId, 'checkout');
  return { organizationId, apiToken, deployToken };
}

/**
 * `count` delivered deliveries of `tenant`, spread over 5 endpoints and the last days, one event
 * each. The endpoints are paused (INACTIVE): Y's deploys make no new deliveries, so no attempt
 * looks up or calls their hosts from this machine, and the worker's work is no part of the figures.
 */
async function seedDeliveries(app: App, tenant: Tenant, count: number): Promise<void> {
  const endpoints = await Promise.all(
    Array.from({ length: 5 }, (_, index) =>
      app.database.prisma.webhookEndpoint.create({
        data: {
          organizationId: tenant.organizationId,
          url: `https://hooks.example.com/${index}`,
          name: `endpoint ${index}`,
          status: 'INACTIVE',
          signingSecret: 'whsec_bench',
        },
      }),
    ),
  );
  await app.database.pool.query(
    `WITH events AS (
       INSERT INTO events (organization_id, type, data, created_at)
       SELECT $1, 'deploy.ingested', '{}'::jsonb, now() - g * interval '7 seconds' FROM generate_series(1, $2::int) g
       RETURNING id, organization_id, type, created_at
     )
     INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status, attempt_count, next_attempt_at, last_attempt_at, created_at)
     SELECT e.organization_id, e.id, ($3::uuid[])[1 + (row_number() OVER ()) % 5], e.type, 'SUCCEEDED', 1, NULL, e.created_at, e.created_at
     FROM events e`,
    [tenant.organizationId, count, endpoints.map((endpoint) => endpoint.id)],
  );
  await app.database.pool.query('ANALYZE events; ANALYZE deliveries');
}

/** One organization's calls from a process of its own; resolves with what it got when its last call is answered. */
function runClient<Result>(order: FloodOrder | TrickleOrder): Promise<Result> {
  const child = fork(new URL('./api-fairness-client.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  const stop = () => stopChild(child);
  cleanups.push(stop);
  child.send(order);
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as Result));
    child.once('exit', (code) => reject(new Error(`the ${order.kind} process exited (${code}) without a result`)));
  });
}

/** Y's calls for `seconds`. */
function trickle(apiUrl: string, tenant: Tenant, perSecond: number, seconds: number): Promise<TrickleResult> {
  return runClient({ kind: 'trickle', apiUrl, ...tenant, perSecond, seconds, query: VICTIM_QUERY });
}

/**
 * What the server's process went through since the last read: its event loop's delay (the app runs
 * in this process), the requests waiting for a connection of its pool, sampled every 50 ms, and
 * `tenant`'s calls as the server saw them, from their headers read to their answers written (what
 * Y's client measures beyond that is spent before the server reads a request or after it answered).
 */
function watchProcess(app: App, tenant: Tenant) {
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let waiting: number[] = [];
  const sampler = setInterval(() => waiting.push(app.database.pool.waitingCount), 50);
  let served: number[] = [];
  let accepted = 0;
  const countConnection = () => accepted++;
  app.server.server.on('connection', countConnection);
  const isTenants = (headers: IncomingHttpHeaders) =>
    headers.authorization === `Bearer ${tenant.apiToken}` || headers['x-deploy-token'] === tenant.deployToken;
  const watchRequest = (request: IncomingMessage, response: ServerResponse) => {
    if (!isTenants(request.headers)) return;
    const readAt = performance.now();
    response.once('finish', () => served.push(performance.now() - readAt));
  };
  app.server.server.on('request', watchRequest);
  return {
    read() {
      const ms = (nanoseconds: number) => fixed(nanoseconds / 1e6);
      served.sort((a, b) => a - b);
      const figures = {
        loopDelay: `${ms(loopDelay.percentile(50))} / ${ms(loopDelay.percentile(99))} / ${ms(loopDelay.max)}`,
        poolWaiting: `${fixed(waiting.reduce((sum, count) => sum + count, 0) / waiting.length)} / ${Math.max(0, ...waiting)}`,
        served: `${fixed(percentile(served, 50))} / ${fixed(percentile(served, 95))}`,
        accepted,
      };
      accepted = 0;
      loopDelay.reset();
      waiting = [];
      served = [];
      return figures;
    },
    stop() {
      loopDelay.disable();
      clearInterval(sampler);
      app.server.server.off('request', watchRequest);
      app.server.server.off('connection', countConnection);
    },
  };
}

interface Summary {
  count: number;
  p50: number;
  p95: number;
  max: number;
  byStatus: Map<string, number>;
}

function summarize(answers: { status: number | string; latencyMs: number }[]): Summary {
  const sorted = answers.map((answer) => answer.latencyMs).sort((a, b) => a - b);
  const byStatus = new Map<string, number>();
  for (const answer of answers) byStatus.set(String(answer.status), (byStatus.get(String(answer.status)) ?? 0) + 1);
  return { count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? Number.NaN, byStatus };
}

const statuses = (summary: Summary) =>
  [...summary.byStatus.entries()]
    .sort()
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');

async function main(): Promise<void> {
  const loadStart = loadavg()[0]!;
  const adminUrl = await postgresServer();
  const databaseUrl = await scratchDatabase(adminUrl);
  await applyMigrations(databaseUrl);
  // Default settings but one (both organizations call from this one address), unless the
  // environment gives the fairness settings to try.
  const fairnessSettings = Object.fromEntries(Object.entries(process.env).filter(([name]) => FAIRNESS_SETTINGS.includes(name)));
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'error', INGEST_RATE_LIMIT_PER_MINUTE: 'off', ...fairnessSettings });
  const app = await createApp(config, databaseUrl);
  cleanups.push(() => app.close());
  const apiUrl = await app.listen(0, '127.0.0.1');

  const x = await createTenant(app, 'x');
  const y = await createTenant(app, 'y');
  await seedDeliveries(app, x, options.deliveries);
  await seedDeliveries(app, y, 200);
  console.log(
    `one Hookline process (ROLE=all, ${app.database.pool.options.max} database connections for requests; ` +
      `${FAIRNESS_SETTINGS.map((name) => `${name} ${config[name as keyof typeof config]}`).join(', ')}); ` +
      `X has ${options.deliveries} deliveries, Y ${options.victimRate} calls/s (deploys and queries, alternately)`,
  );

  console.log(`baseline: Y alone for ${options.baselineSeconds} s`);
  const server = watchProcess(app, y);
  const { calls: baseline, samples } = await trickle(apiUrl, y, options.victimRate, options.baselineSeconds);
  const baselineProcess = server.read();

  console.log(
    `flood: X keeps ${options.concurrency} queries of ${ALIASES} × deliveries(first: 5) in flight for ${options.floodSeconds} s, Y goes on` +
      (args['flood-stub'] ? ` (X's against a stub refusing each after ${config.GRAPHQL_OPERATION_WAIT_MS} ms, not the server)` : ''),
  );
  const flood = runClient<FloodResult>({
    kind: 'flood',
    url: `${apiUrl}/graphql`,
    apiToken: x.apiToken,
    concurrency: options.concurrency,
    seconds: options.floodSeconds,
    query: FLOOD_QUERY,
    stubRefusalMs: args['flood-stub'] ? config.GRAPHQL_OPERATION_WAIT_MS : undefined,
  });
  const { calls: during, samples: floodSamples } = await trickle(apiUrl, y, options.victimRate, options.floodSeconds);
  const floodProcess = server.read();
  const { answers: floodAnswers, connectionsOpened } = await flood;
  server.stop();

  const lines: string[][] = [];
  const show = (name: string, calls: Call[]) => {
    const summary = summarize(calls);
    const count = (status: number) => String(summary.byStatus.get(String(status)) ?? 0);
    lines.push([name, String(summary.count), fixed(summary.p50), fixed(summary.p95), fixed(summary.max), count(503), count(429)]);
    return summary;
  };
  console.log(`\nY's calls (ms)`);
  const alone = show('baseline, all', baseline);
  show(
    '  ingest',
    baseline.filter((call) => call.kind === 'ingest'),
  );
  show(
    '  graphql',
    baseline.filter((call) => call.kind === 'graphql'),
  );
  const flooded = show('flood, all', during);
  show(
    '  ingest',
    during.filter((call) => call.kind === 'ingest'),
  );
  show(
    '  graphql',
    during.filter((call) => call.kind === 'graphql'),
  );
  printTable(['phase', 'calls', 'p50', 'p95', 'max', '503', '429'], lines);
  const ratio = flooded.p95 / alone.p95;
  const yUnavailable = flooded.byStatus.get('503') ?? 0;
  const yFailed = during.filter((call) => call.status !== 200).length;
  for (const sample of [...samples, ...floodSamples].slice(0, 3)) console.log(`  an error Y got: ${sample}`);
  console.log(
    `the server's event loop delay (p50 / p99 / max, ms): baseline ${baselineProcess.loopDelay}, flood ${floodProcess.loopDelay}; ` +
      `requests waiting for a database connection (mean / max): baseline ${baselineProcess.poolWaiting}, flood ${floodProcess.poolWaiting}; ` +
      `Y's calls inside the server (headers read to answer written, p50 / p95, ms): baseline ${baselineProcess.served}, flood ${floodProcess.served}; ` +
      `connections accepted: baseline ${baselineProcess.accepted}, flood ${floodProcess.accepted}`,
  );
  console.log(
    `Y's flood p95 / baseline p95 = ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}); Y's answers during the flood: ${statuses(flooded)}`,
  );

  const x200 = summarize(floodAnswers.filter((answer: FloodAnswer) => answer.status === 200));
  const refused = floodAnswers.filter((answer) => answer.status === 429 || answer.status === 503);
  const xRefused = summarize(refused);
  const withoutRetryAfter = refused.filter((answer) => !answer.retryAfter).length;
  console.log(`\nX's queries: ${statuses(summarize(floodAnswers))}, on ${connectionsOpened} connections`);
  printTable(
    ['X', 'answers', 'p50', 'p95', 'max'],
    [
      ['200', String(x200.count), fixed(x200.p50), fixed(x200.p95), fixed(x200.max)],
      ['429 / 503', String(xRefused.count), fixed(xRefused.p50), fixed(xRefused.p95), fixed(xRefused.max)],
    ],
  );
  if (withoutRetryAfter > 0) console.log(`${withoutRetryAfter} of X's refusals had no Retry-After`);
  console.log(`machine load (1 min): ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
  const met = ratio <= TARGET_RATIO && yUnavailable === 0;
  console.log(met ? 'target met' : 'TARGET MISSED');
  if (!met || yFailed > 0) process.exitCode = 1;
}

await runBench(main);
