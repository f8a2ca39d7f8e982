// What bench/delivery.ts and its backlog sweep (delivery-backlog.ts) set up and watch: a worker
// process as `npm start` runs one, tenants with webhook endpoints on the receiver, the CPU a
// process used, and the wait for the receiver to have every delivery.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { now } from './delivery-receiver.ts';
import { stopChild, type Receiver } from './processes.ts';
import { cleanups, undoNow } from './support.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  /** When it logged that it listens: its delivery worker is consuming by then. */
  readyAt: number;
  stop(): Promise<void>;
}

/**
 * One worker-only Hookline process, exactly as `npm start` runs one, with default delivery
 * settings. With `profileDir`, it writes a V8 CPU profile there.
 */
export async function startWorker(databaseUrl: string, profileDir?: string): Promise<WorkerProcess> {
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profiling, 'dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => stopChild(child);
  cleanups.push(stop);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (/Hookline listening on/.test(output)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`worker stopped (${signal ?? `exit code ${code}`}):\n${output}`)));
  });
  // Warnings and errors the worker logs during the run are worth seeing beside the figures.
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[worker] ${chunk}`));
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    if (/"level":(40|50|60)/.test(text)) process.stdout.write(`[worker] ${text}`);
  });
  return { child, readyAt: now(), stop: () => undoNow(stop) };
}

export interface Tenant {
  organizationId: string;
  serviceId: string;
  deployToken: string;
}

/**
 * An organization with one service and `endpoints` endpoints taking deploy.ingested, made
 * through the api's REST endpoint as a user would, at `receiverUrl`/`label`/endpoint-n.
 */
export async function createTenant(app: App, apiUrl: string, receiverUrl: string, label: string, endpoints: number): Promise<Tenant> {
  const { organizationId, apiToken } = await createOrganization(app.database.prisma, label);
  const { service, deployToken } = await createService(app.database.prisma, organizationId, 'checkout');
  for (let i = 0; i < endpoints; i++) {
    const response = await fetch(`${apiUrl}/api/webhooks/endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ url: `${receiverUrl}/${label}/endpoint-${i}`, name: `endpoint ${i}`, eventTypes: ['deploy.ingested'] }),
    });
    if (response.status !== 201) throw new Error(`creating an endpoint answered ${response.status}: ${await response.text()}`);
  }
  return { organizationId, serviceId: service.id, deployToken };
}

/** Waits until `deadline` for `expected` distinct deliveries at the receiver, reporting progress every 5 s. */
export async function waitForDeliveries(receiver: Receiver, expected: number, since: number, deadline: number): Promise<boolean> {
  for (;;) {
    const left = deadline - now();
    const { distinct, reached } = await receiver.call('waitFor', {
      distinct: expected,
      timeoutMs: Math.max(0, Math.min(5000, left)),
    });
    if (reached) return true;
    const seconds = (now() - since) / 1000;
    console.log(`  … ${distinct}/${expected} delivered after ${seconds.toFixed(1)} s (${(distinct / seconds).toFixed(0)}/s)`);
    if (left <= 5000) return false;
  }
}

/** The api in this process: api role only (no delivery worker), the ingest limit off. */
export async function startApi(url: string): Promise<{ app: App; apiUrl: string; close(): Promise<void> }> {
  const config = loadConfig({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    ROLE: 'api',
    INGEST_RATE_LIMIT_PER_MINUTE: 'off',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const app = await createApp(config, url);
  const close = () => app.close();
  cleanups.push(close);
  return { app, apiUrl: await app.listen(0, '127.0.0.1'), close: () => undoNow(close) };
}
