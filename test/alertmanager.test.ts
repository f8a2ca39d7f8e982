// The real thing: Debian's prometheus-alertmanager (0.25) on a free loopback port, its webhook
// receiver pointing at Hookline with Bearer credentials, exactly as the README's configuration.
// Alerts posted to Alertmanager's own API open an incident on the right service at the alert's
// start, with the deploy just before it as first suspect; incident.opened reaches a customer
// endpoint signed (verified with standardwebhooks) and carrying the alerts; ending the alert in
// Alertmanager resolves the incident.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertmanagerConfig } from '../web/src/alert-config.ts';
import { freePort } from '../src/db/embedded.ts';
import { createAlertSource } from '../src/domain/ingest/alert-sources.ts';
import { createEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { webhookBodySchema } from '../src/domain/webhooks/event-catalogue.ts';
import type { EventType } from '../src/domain/webhooks/events.ts';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
// CI installs it (.ci/run); a developer machine without it skips, CI never does.
const available = existsSync(ALERTMANAGER);
if (!available && process.env.CI) throw new Error(`${ALERTMANAGER} is missing: apt-get install -y prometheus-alertmanager`);

const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, DELIVERY_BACKOFF_BASE_MS: '100' }, receiver: true });
let signingSecret: string;
let alertmanager: { url: string; process: ChildProcess; directory: string; log: string[] } | undefined;

async function startAlertmanager(config: string) {
  const directory = await mkdtemp(path.join(tmpdir(), 'hookline-alertmanager-'));
  await writeFile(path.join(directory, 'alertmanager.yml'), config);
  const port = await freePort();
  const log: string[] = [];
  const child = spawn(
    ALERTMANAGER,
    [
      `--config.file=${path.join(directory, 'alertmanager.yml')}`,
      `--storage.path=${path.join(directory, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`alertmanager exited with ${child.exitCode}: ${log.join('')}`);
      const ready = await fetch(`${url}/-/ready`).catch(() => undefined);
      return ready?.ok ? true : undefined;
    },
    30_000,
    'Alertmanager ready',
  );
  return { url, process: child, directory, log };
}

async function postAlerts(alerts: unknown[]) {
  const response = await fetch(`${alertmanager!.url}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(alerts),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  if (!available) return;
  const created = await createEndpoint(
    hookline.app.database.prisma,
    hookline.tenant.organizationId,
    { url: `${hookline.receiver.url}/hooks`, name: 'on-call', eventTypes: ['incident.opened', 'incident.resolved'] },
    { allowHttp: true, allowPrivate: true },
    1,
  );
  signingSecret = created.signingSecret;
  const source = await createAlertSource(hookline.app.database.prisma, hookline.tenant.organizationId, {
    name: 'Prometheus',
    kind: 'ALERTMANAGER',
  });
  // The configuration the dashboard and the README give to paste, with 1 s group timings.
  const url = `${hookline.baseUrl}/api/ingest/alerts/alertmanager`;
  alertmanager = await startAlertmanager(alertmanagerConfig(url, source.token, { groupWait: '1s', groupInterval: '1s' }));
}, 60_000);

afterAll(async () => {
  if (alertmanager) {
    const exited = new Promise((resolve) => alertmanager!.process.once('exit', resolve));
    alertmanager.process.kill('SIGTERM');
    await exited;
    await rm(alertmanager.directory, { recursive: true, force: true });
  }
});

interface IncidentBody {
  type: string;
  data: {
    incident: {
      id: string;
      status: string;
      startedAt: string;
      resolvedAt: string | null;
      service: { id: string; name: string };
      alertSource: { id: string; name: string; kind: string } | null;
      alerts: {
        fingerprint: string;
        status: string;
        labels: Record<string, string>;
        annotations: Record<string, string>;
        startsAt: string;
        endsAt: string | null;
        generatorURL: string | null;
      }[];
      suspects: { rank: number; deploy: { id: string } | null }[];
    };
  };
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);

/**
 * The delivery of `type`, its signature verified as a customer's Standard Webhooks library does,
 * its body valid against the event catalogue's JSON Schema.
 */
async function delivered(type: EventType): Promise<IncidentBody> {
  const request = await eventually(
    async () => hookline.receiver.requests.find((request) => request.headers['x-service-event'] === type),
    30_000,
    `${type} delivered`,
  );
  const body = new Webhook(signingSecret).verify(request.body, request.headers as Record<string, string>) as IncidentBody;
  const validate = ajv.compile(webhookBodySchema(type));
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  return body;
}

describe.skipIf(!available)('a real Prometheus Alertmanager', () => {
  it('opens the incident at the alert start with the deploy before it first, then resolves it when the alert ends', async () => {
    const prisma = hookline.app.database.prisma;
    const startsAt = new Date(Date.now() - 10 * 60_000);
    const deploy = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
      commit_sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
      environment: 'production',
      deployed_at: new Date(startsAt.getTime() - 4 * 60_000).toISOString(),
    });
    expect(deploy.status).toBe(200);

    const alert = {
      labels: { alertname: 'CheckoutErrorRate', service: 'checkout', severity: 'critical', environment: 'production' },
      annotations: { summary: 'Checkout error rate above 5%', runbook_url: 'https://runbooks.example.com/checkout' },
      generatorURL: 'http://prometheus.example.com/graph?g0.expr=checkout_errors',
      startsAt: startsAt.toISOString(),
    };
    await postAlerts([alert]);

    const incident = await eventually(
      () =>
        prisma.incident
          .findFirst({ where: { organizationId: hookline.tenant.organizationId }, include: { alerts: true } })
          .then((found) => found ?? undefined),
      30_000,
      'incident opened',
    );
    expect(incident).toMatchObject({
      serviceId: hookline.tenant.serviceId,
      status: 'OPEN',
      severity: 'SEV1',
      environment: 'production',
      title: 'Checkout error rate above 5%',
    });
    expect(incident.startedAt.toISOString()).toBe(startsAt.toISOString());
    const suspects = await prisma.incidentSuspect.findMany({ where: { incidentId: incident.id }, orderBy: { rank: 'asc' } });
    expect(suspects[0]).toMatchObject({ rank: 1, deployId: deploy.body.deploy_id });

    const opened = await delivered('incident.opened');
    expect(opened.type).toBe('incident.opened');
    expect(opened.data.incident).toMatchObject({
      id: incident.id,
      status: 'OPEN',
      startedAt: startsAt.toISOString(),
      service: { id: hookline.tenant.serviceId, name: 'checkout' },
      alertSource: { name: 'Prometheus', kind: 'ALERTMANAGER' },
    });
    expect(opened.data.incident.alerts).toEqual([
      {
        fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
        status: 'FIRING',
        labels: alert.labels,
        annotations: alert.annotations,
        startsAt: startsAt.toISOString(),
        endsAt: null,
        generatorURL: alert.generatorURL,
      },
    ]);
    expect(opened.data.incident.suspects[0]).toMatchObject({ rank: 1, deploy: { id: deploy.body.deploy_id } });

    // Ending the alert in Alertmanager: endsAt in the past.
    const endsAt = new Date(Date.now() - 1000);
    await postAlerts([{ ...alert, endsAt: endsAt.toISOString() }]);
    const resolved = await eventually(
      () => prisma.incident.findFirst({ where: { id: incident.id, status: 'RESOLVED' } }).then((found) => found ?? undefined),
      30_000,
      'incident resolved',
    );
    expect(resolved.resolvedAt?.toISOString()).toBe(endsAt.toISOString());
    const resolvedEvent = await delivered('incident.resolved');
    expect(resolvedEvent.data.incident).toMatchObject({ id: incident.id, status: 'RESOLVED', resolvedAt: endsAt.toISOString() });
    expect(resolvedEvent.data.incident.alerts).toEqual([expect.objectContaining({ status: 'RESOLVED', endsAt: endsAt.toISOString() })]);
    expect(await prisma.incident.count({ where: { organizationId: hookline.tenant.organizationId } })).toBe(1);
  });
});
