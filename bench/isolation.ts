// `npm run bench:isolation [-- --baseline-seconds 20 --flood-seconds 60 --hanging-endpoints 50 --y-rate 4]`
//
// Tenant isolation of ONE worker (the app in this process, ROLE=all, default delivery settings:
// DELIVERY_CONCURRENCY, DELIVERY_TIMEOUT_MS, the caps and the circuit breaker) on one
// PostgreSQL server: DATABASE_URL (an admin connection, used to create and drop a scratch
// database), or an embedded PostgreSQL in a temp dir when it is unset.
//
// Organization Y has one healthy endpoint (a loopback receiver answering 200 at once) and sends
// --y-rate deploys/s throughout (several, for steadier percentiles). Baseline: Y alone for --baseline-seconds. Flood: organization X, with
// --hanging-endpoints endpoints on a receiver that accepts every request and never answers,
// sends 1 deploy/s (the default per-IP ingest limit) for --flood-seconds. Printed: Y's event →
// receipt latency (the deploy recorded → Y's receiver has the request) in both phases, and the
// ratio; the target is the flood's p95 at most twice the baseline's and at most 250 ms.
import http from 'node:http';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { percentile } from './percentile.ts';
import { cleanUpOnInterrupt, cleanups, postgresServer, runBench, scratchDatabase, positiveInteger } from './support.ts';

const TARGET_RATIO = 2;
const TARGET_P95_MS = 250;

const { values: args } = parseArgs({
  options: {
    'baseline-seconds': { type: 'string', default: '20' },
    'flood-seconds': { type: 'string', default: '60' },
    'hanging-endpoints': { type: 'string', default: '50' },
    'y-rate': { type: 'string', default: '4' },
  },
});
const options = {
  baselineSeconds: positiveInteger('baseline-seconds', args['baseline-seconds']),
  floodSeconds: positiveInteger('flood-seconds', args['flood-seconds']),
  hangingEndpoints: positiveInteger('hanging-endpoints', args['hanging-endpoints']),
  yRate: positiveInteger('y-rate', args['y-rate']),
};

cleanUpOnInterrupt('stopping the app and receivers, dropping the scratch database');

interface Receiver {
  url: string;
  /** Y's receipts: event → receipt, ms, and when it arrived. */
  receipts: { latencyMs: number; at: number }[];
  /** Requests received and never answered (the hanging receiver). */
  hanging: number;
}

/** A loopback receiver: `answer` false accepts each request and never answers it. */
async function startReceiver(answer: boolean): Promise<Receiver> {
  const receiver: Receiver = { url: '', receipts: [], hanging: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (!answer) {
        receiver.hanging++;
        return;
      }
      const at = Date.now();
      response.end('ok');
      const recordedAt = Date.parse(JSON.parse(Buffer.concat(chunks).toString()).data.deploy.receivedAt);
      receiver.receipts.push({ latencyMs: at - recordedAt, at });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

interface Tenant {
  deployToken: string;
}

async function createTenant(app: App, apiUrl: string, name: string, endpointUrls: string[]): Promise<Tenant> {
  const { organizationId, apiToken } = await createOrganization(app.database.prisma, name);
  const { deployToken } = await createService(app.database.prisma, organizationId, 'checkout');
  for (const [index, url] of endpointUrls.entries()) {
    const response = await fetch(`${apiUrl}/api/webhooks/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ url, name: `${name} ${index}`, eventTypes: ['deploy.ingested'] }),
    });
    if (response.status !== 201) throw new Error(`creating an endpoint answered ${response.status}: ${await response.text()}`);
  }
  return { deployToken };
}

/** Sends `perSecond` deploys a second for `seconds`, starting `offsetMs` in; resolves when the last is answered. */
async function deploy(apiUrl: string, tenant: Tenant, perSecond: number, seconds: number, offsetMs: number): Promise<void> {
  const started = Date.now();
  const sent: Promise<void>[] = [];
  for (let index = 0; index < seconds * perSecond; index++) {
    const dueAt = started + offsetMs + (index * 1000) / perSecond;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt - Date.now())));
    sent.push(
      fetch(`${apiUrl}/api/ingest/deploy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-deploy-token': tenant.deployToken },
        body: JSON.stringify({ commit_sha: `${started}-${index}`, environment: 'production' }),
      }).then(async (response) => {
        if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
      }),
    );
  }
  await Promise.all(sent);
}

/** Waits until `count` receipts arrived, at most `timeoutMs`. */
async function receiptsArrive(receiver: Receiver, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.receipts.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

interface Summary {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

function summarize(latencies: number[]): Summary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? Number.NaN };
}

async function main(): Promise<void> {
  const loadStart = loadavg()[0]!;
  const adminUrl = await postgresServer();
  const databaseUrl = await scratchDatabase(adminUrl);
  await applyMigrations(databaseUrl);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // Both tenants ingest from this one address.
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
  });
  const app = await createApp(config, databaseUrl);
  cleanups.push(() => app.close());
  const apiUrl = await app.listen(0, '127.0.0.1');
  // Closed before the app (clean-up runs backwards): the hanging attempts then end at once.
  const healthy = await startReceiver(true);
  const hanging = await startReceiver(false);
  console.log(
    `one worker: DELIVERY_CONCURRENCY ${config.DELIVERY_CONCURRENCY}, DELIVERY_TIMEOUT_MS ${config.DELIVERY_TIMEOUT_MS}, ` +
      `DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT ${config.DELIVERY_MAX_IN_FLIGHT_PER_ENDPOINT}, ` +
      `circuit breaker after ${config.DELIVERY_CIRCUIT_BREAKER_TIMEOUTS} timeouts for ${config.DELIVERY_CIRCUIT_BREAKER_COOLDOWN_MS} ms`,
  );

  const y = await createTenant(app, apiUrl, 'y', [`${healthy.url}/y`]);
  const x = await createTenant(
    app,
    apiUrl,
    'x',
    Array.from({ length: options.hangingEndpoints }, (_, index) => `${hanging.url}/x/${index}`),
  );

  const baselineDeploys = options.baselineSeconds * options.yRate;
  const floodDeploys = options.floodSeconds * options.yRate;
  console.log(`\nbaseline: Y alone, ${options.yRate} deploys/s for ${options.baselineSeconds} s`);
  await deploy(apiUrl, y, options.yRate, options.baselineSeconds, 0);
  await receiptsArrive(healthy, baselineDeploys, 10_000);
  const baseline = summarize(healthy.receipts.map((receipt) => receipt.latencyMs));

  console.log(
    `flood: X (${options.hangingEndpoints} endpoints that never answer) 1 deploy/s, Y ${options.yRate}/s, for ${options.floodSeconds} s`,
  );
  const floodStart = healthy.receipts.length;
  const floodStartedAt = Date.now();
  await Promise.all([
    deploy(apiUrl, x, 1, options.floodSeconds, 0),
    deploy(apiUrl, y, options.yRate, options.floodSeconds, 500 / options.yRate),
  ]);
  await receiptsArrive(healthy, floodStart + floodDeploys, 10_000);
  const floodReceipts = healthy.receipts.slice(floodStart);
  const flood = summarize(floodReceipts.map((receipt) => receipt.latencyMs));
  const { rows } = await app.database.pool.query<{ attempts: number; active: number; waiting: number }>(
    `SELECT (SELECT count(*)::int FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN organizations o ON o.id = d.organization_id WHERE o.name = 'x') AS attempts,
            (SELECT count(*)::int FROM pgboss.job WHERE name = 'deliver' AND state = 'active') AS active,
            (SELECT count(*)::int FROM deliveries d JOIN organizations o ON o.id = d.organization_id WHERE o.name = 'x' AND d.status = 'PENDING') AS waiting`,
  );
  const xState = rows[0]!;

  const show = (name: string, summary: Summary) =>
    console.log(
      `  ${name.padEnd(9)} ${String(summary.count).padStart(4)} receipts   p50 ${summary.p50} ms   p95 ${summary.p95} ms   max ${summary.max} ms`,
    );
  console.log(`\nY's event → receipt (ms)`);
  show('baseline', baseline);
  show('flood', flood);
  const ratio = flood.p95 / baseline.p95;
  console.log(`  flood p95 / baseline p95 = ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}, and p95 ≤ ${TARGET_P95_MS} ms)`);
  console.log(
    `X during the flood (${Math.round((Date.now() - floodStartedAt) / 1000)} s): ${hanging.hanging} requests to its receivers, ` +
      `${xState.attempts} attempts recorded, ${xState.active} attempts in flight now, ${xState.waiting} deliveries PENDING`,
  );
  const missing = baselineDeploys + floodDeploys - healthy.receipts.length;
  if (missing > 0) console.log(`  ${missing} of Y's deliveries had not arrived 10 s after the last deploy`);
  console.log(`machine load (1 min): ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
  const met = missing <= 0 && ratio <= TARGET_RATIO && flood.p95 <= TARGET_P95_MS;
  console.log(met ? 'target met' : 'TARGET MISSED');
  if (!met) process.exitCode = 1;
}

await runBench(main);
