// Alerts in over real HTTP and a real database: Alertmanager's webhook (version 4), Grafana's
// contact point and PagerDuty's Events API v2 bodies, routing, the incident lifecycle, and the
// ingest rules (401, 415, 400 with details, 413, nothing stored from a refused request, tenancy).
// The Grafana and PagerDuty bodies are the examples of their published documentation.
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAlertSource, deleteAlertSource, rotateAlertSourceToken } from '../src/domain/ingest/alert-sources.ts';
import { createService } from '../src/domain/ingest/services.ts';
import { transitionIncident } from '../src/domain/correlation/incidents.ts';
import { SYSTEM_ACTOR } from '../src/domain/shared/actors.ts';
import { attemptQueue } from '../src/delivery/queue.ts';
import { post, postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' } });
let alertmanagerToken: string;
let pagerDutyToken: string;
let alertmanagerSourceId: string;

beforeAll(async () => {
  const prisma = hookline.app.database.prisma;
  const alertmanager = await createAlertSource(prisma, hookline.tenant.organizationId, { name: 'Prometheus', kind: 'ALERTMANAGER' });
  alertmanagerToken = alertmanager.token;
  alertmanagerSourceId = alertmanager.alertSource.id;
  pagerDutyToken = (await createAlertSource(prisma, hookline.tenant.organizationId, { name: 'Datadog', kind: 'PAGERDUTY_EVENTS' })).token;
});

const prisma = () => hookline.app.database.prisma;

/** `token` null: no Authorization header. */
function postAlertmanager(body: unknown, token: string | null = alertmanagerToken, headers: Record<string, string> = {}) {
  return post(`${hookline.baseUrl}/api/ingest/alerts/alertmanager`, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

function postPagerDuty(body: unknown, headers: Record<string, string> = {}) {
  return post(`${hookline.baseUrl}/api/ingest/alerts/pagerduty/v2/enqueue`, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

let groupCounter = 0;
/** A fresh Alertmanager group key per test, so tests never share an incident. */
const newGroupKey = () => `{}/{alertname="HighErrorRate"}:{n="${++groupCounter}"}`;

interface AlertSpec {
  fingerprint: string;
  status?: 'firing' | 'resolved';
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt: string;
  endsAt?: string;
}

/** An Alertmanager webhook body, version 4, as Alertmanager 0.25 writes it. */
function notification(groupKey: string, alerts: AlertSpec[]) {
  const full = alerts.map((alert) => ({
    status: alert.status ?? 'firing',
    labels: alert.labels ?? { alertname: 'HighErrorRate', service: 'checkout', severity: 'critical', environment: 'production' },
    annotations: alert.annotations ?? { summary: 'Checkout error rate above 5%' },
    startsAt: alert.startsAt,
    endsAt: alert.endsAt ?? '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus.example.com/graph?g0.expr=rate%28errors%5B5m%5D%29',
    fingerprint: alert.fingerprint,
  }));
  return {
    receiver: 'hookline',
    status: full.some((alert) => alert.status === 'firing') ? 'firing' : 'resolved',
    alerts: full,
    groupLabels: { alertname: 'HighErrorRate' },
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example.com:9093',
    version: '4',
    groupKey,
    truncatedAlerts: 0,
  };
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function storedCounts() {
  return { incidents: await prisma().incident.count(), alerts: await prisma().alert.count(), events: await prisma().event.count() };
}

describe('Alertmanager webhook', () => {
  it('opens an incident on the labelled service at the earliest startsAt, with its alerts', async () => {
    const groupKey = newGroupKey();
    const labels = { alertname: 'HighErrorRate', service: 'checkout', severity: 'warning', env: 'staging', instance: 'web-1' };
    const sevenMinutesAgo = minutesAgo(7);
    const response = await postAlertmanager(
      notification(groupKey, [
        { fingerprint: 'aaaa000000000001', startsAt: minutesAgo(5), labels: { ...labels, severity: 'critical' } },
        { fingerprint: 'aaaa000000000002', startsAt: sevenMinutesAgo, labels },
      ]),
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'accepted',
      incidents: [{ incident_id: expect.stringMatching(UUID), action: 'opened' }],
      unrouted: [],
    });
    const incident = await prisma().incident.findUniqueOrThrow({
      where: { id: response.body.incidents[0].incident_id },
      include: { alerts: { orderBy: { startsAt: 'asc' } } },
    });
    expect(incident).toMatchObject({
      organizationId: hookline.tenant.organizationId,
      serviceId: hookline.tenant.serviceId,
      title: 'Checkout error rate above 5%',
      severity: 'SEV1',
      environment: 'staging',
      status: 'OPEN',
      alertSourceId: alertmanagerSourceId,
      alertGroupKey: groupKey,
    });
    expect(incident.startedAt.toISOString()).toBe(sevenMinutesAgo);
    expect(incident.alerts.map((alert) => [alert.fingerprint, alert.status, alert.endsAt])).toEqual([
      ['aaaa000000000002', 'FIRING', null],
      ['aaaa000000000001', 'FIRING', null],
    ]);
    expect(incident.alerts[0]).toMatchObject({
      labels,
      annotations: { summary: 'Checkout error rate above 5%' },
      generatorUrl: 'http://prometheus.example.com/graph?g0.expr=rate%28errors%5B5m%5D%29',
      unroutedReason: null,
    });
    const source = await prisma().alertSource.findUniqueOrThrow({ where: { id: alertmanagerSourceId } });
    expect(source.lastReceivedAt).not.toBeNull();
  });

  it('answers a repeat (repeat_interval, a retried notification) unchanged, storing and emitting nothing', async () => {
    const body = notification(newGroupKey(), [{ fingerprint: 'bbbb000000000001', startsAt: minutesAgo(3) }]);
    const opened = await postAlertmanager(body);
    const before = await storedCounts();
    const repeats = await Promise.all([postAlertmanager(body), postAlertmanager(body), postAlertmanager(body)]);
    for (const repeat of repeats) {
      expect(repeat.status).toBe(200);
      expect(repeat.body.incidents).toEqual([{ incident_id: opened.body.incidents[0].incident_id, action: 'unchanged' }]);
    }
    expect(await storedCounts()).toEqual(before);
  });

  it('opens exactly one incident when the same first notification arrives several times at once (a retry racing its original)', async () => {
    const groupKey = newGroupKey();
    const body = notification(groupKey, [{ fingerprint: 'b0b0000000000001', startsAt: minutesAgo(2) }]);
    const answers = await Promise.all(Array.from({ length: 5 }, () => postAlertmanager(body)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((answer) => answer.body.incidents[0].action).sort()).toEqual([
      'opened',
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(new Set(answers.map((answer) => answer.body.incidents[0].incident_id)).size).toBe(1);
    expect(await prisma().incident.count({ where: { alertGroupKey: groupKey } })).toBe(1);
  });

  it('counts an alert listed twice in one notification once, as its last listing says', async () => {
    const groupKey = newGroupKey();
    const startsAt = minutesAgo(6);
    const twice = notification(groupKey, [
      { fingerprint: 'dede000000000001', startsAt },
      { fingerprint: 'dede000000000001', startsAt, labels: { service: 'checkout', severity: 'warning' } },
    ]);
    const opened = await postAlertmanager(twice);
    expect(opened.body.incidents).toEqual([{ incident_id: expect.stringMatching(UUID), action: 'opened' }]);
    const incident = await prisma().incident.findUniqueOrThrow({
      where: { id: opened.body.incidents[0].incident_id },
      include: { alerts: true },
    });
    expect(incident.severity).toBe('SEV3');
    expect(incident.alerts.map((alert) => alert.labels)).toEqual([{ service: 'checkout', severity: 'warning' }]);
    const joined = notification(groupKey, [
      { fingerprint: 'dede000000000002', startsAt },
      { fingerprint: 'dede000000000002', startsAt },
      { fingerprint: 'dede000000000001', startsAt },
    ]);
    expect((await postAlertmanager(joined)).body.incidents).toEqual([{ incident_id: incident.id, action: 'updated' }]);
    expect(await prisma().alert.count({ where: { incidentId: incident.id } })).toBe(2);
  });

  it('lets new alerts join, raises the severity, moves the start earlier, and resolves at the latest endsAt', async () => {
    const groupKey = newGroupKey();
    const first = { fingerprint: 'cccc000000000001', startsAt: minutesAgo(10), labels: { service: 'checkout', severity: 'info' } };
    const opened = await postAlertmanager(notification(groupKey, [first]));
    const id = opened.body.incidents[0].incident_id;
    expect((await prisma().incident.findUniqueOrThrow({ where: { id } })).severity).toBe('SEV4');

    const second = { fingerprint: 'cccc000000000002', startsAt: minutesAgo(20), labels: { service: 'checkout', severity: 'error' } };
    const joined = await postAlertmanager(notification(groupKey, [first, second]));
    expect(joined.body.incidents).toEqual([{ incident_id: id, action: 'updated' }]);
    let incident = await prisma().incident.findUniqueOrThrow({ where: { id }, include: { alerts: true } });
    expect(incident).toMatchObject({ severity: 'SEV2', status: 'OPEN' });
    expect(incident.startedAt.toISOString()).toBe(new Date(second.startsAt).toISOString());
    expect(incident.alerts).toHaveLength(2);

    const firstEnd = minutesAgo(2);
    const partly = await postAlertmanager(notification(groupKey, [{ ...first, status: 'resolved', endsAt: firstEnd }, second]));
    expect(partly.body.incidents).toEqual([{ incident_id: id, action: 'updated' }]);
    expect((await prisma().incident.findUniqueOrThrow({ where: { id } })).status).toBe('OPEN');

    const secondEnd = minutesAgo(1);
    const resolved = await postAlertmanager(
      notification(groupKey, [
        { ...first, status: 'resolved', endsAt: firstEnd },
        { ...second, status: 'resolved', endsAt: secondEnd },
      ]),
    );
    expect(resolved.body.incidents).toEqual([{ incident_id: id, action: 'resolved' }]);
    incident = await prisma().incident.findUniqueOrThrow({ where: { id }, include: { alerts: { orderBy: { fingerprint: 'asc' } } } });
    expect(incident.status).toBe('RESOLVED');
    expect(incident.resolvedAt?.toISOString()).toBe(secondEnd);
    expect(incident.alerts.map((alert) => [alert.status, alert.endsAt?.toISOString()])).toEqual([
      ['RESOLVED', firstEnd],
      ['RESOLVED', secondEnd],
    ]);

    // The resolved notification again: nothing changes.
    const again = await postAlertmanager(
      notification(groupKey, [
        { ...first, status: 'resolved', endsAt: firstEnd },
        { ...second, status: 'resolved', endsAt: secondEnd },
      ]),
    );
    expect(again.body.incidents).toEqual([{ incident_id: id, action: 'unchanged' }]);

    // The same alert firing again (a new startsAt) opens a new incident.
    const refired = await postAlertmanager(notification(groupKey, [{ ...first, startsAt: minutesAgo(0.5) }]));
    expect(refired.body.incidents).toEqual([{ incident_id: expect.not.stringMatching(id), action: 'opened' }]);
  });

  it('keeps an incident resolved by hand resolved while the same alerts keep firing', async () => {
    const body = notification(newGroupKey(), [{ fingerprint: 'dddd000000000001', startsAt: minutesAgo(4) }]);
    const opened = await postAlertmanager(body);
    const id = opened.body.incidents[0].incident_id;
    await transitionIncident({ prisma: prisma(), queue: attemptQueue(hookline.app.boss) }, hookline.tenant.organizationId, id, 'resolve', {
      actor: SYSTEM_ACTOR,
    });
    const before = await storedCounts();
    const repeat = await postAlertmanager(body);
    expect(repeat.body.incidents).toEqual([{ incident_id: id, action: 'unchanged' }]);
    expect(await storedCounts()).toEqual(before);
  });

  it('routes by service, else app, else job, names in any letter case; one incident per service of a group', async () => {
    const payments = await createService(prisma(), hookline.tenant.organizationId, 'Payments');
    const search = await createService(prisma(), hookline.tenant.organizationId, 'search-api');
    const groupKey = newGroupKey();
    const response = await postAlertmanager(
      notification(groupKey, [
        { fingerprint: 'eeee000000000001', startsAt: minutesAgo(3), labels: { SERVICE: 'CHECKOUT' } },
        { fingerprint: 'eeee000000000002', startsAt: minutesAgo(3), labels: { service: 'nope', app: 'payments' } },
        { fingerprint: 'eeee000000000003', startsAt: minutesAgo(3), labels: { job: 'Search-API' } },
      ]),
    );
    expect(response.status).toBe(200);
    expect(response.body.unrouted).toEqual([]);
    const services = await Promise.all(
      response.body.incidents.map(async (entry: { incident_id: string; action: string }) => {
        expect(entry.action).toBe('opened');
        return (await prisma().incident.findUniqueOrThrow({ where: { id: entry.incident_id } })).serviceId;
      }),
    );
    expect(services.sort()).toEqual([hookline.tenant.serviceId, payments.service.id, search.service.id].sort());
  });

  it('answers alerts that name no service in unrouted, keeps them once, and routes them once the service exists', async () => {
    const groupKey = newGroupKey();
    const body = notification(groupKey, [
      { fingerprint: 'ffff000000000001', startsAt: minutesAgo(3), labels: { alertname: 'DiskFull', service: 'inventory' } },
      { fingerprint: 'ffff000000000002', startsAt: minutesAgo(3), labels: { alertname: 'DiskFull' } },
    ]);
    const before = await storedCounts();
    const response = await postAlertmanager(body);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'accepted',
      incidents: [],
      unrouted: [
        {
          fingerprint: 'ffff000000000001',
          reason:
            'No service is named "inventory" (label service). Create a service of that name, or change the label to the name of an existing service.',
        },
        {
          fingerprint: 'ffff000000000002',
          reason:
            'The alert has no service, app or job label (PagerDuty: payload.component or payload.source). Add one whose value is the name of a Hookline service.',
        },
      ],
    });
    await postAlertmanager(body);
    const kept = await prisma().alert.findMany({
      where: { alertSourceId: alertmanagerSourceId, groupKey },
      orderBy: { fingerprint: 'asc' },
    });
    expect(kept.map((alert) => [alert.fingerprint, alert.incidentId, alert.unroutedReason])).toEqual([
      ['ffff000000000001', null, response.body.unrouted[0].reason],
      ['ffff000000000002', null, response.body.unrouted[1].reason],
    ]);
    expect(await storedCounts()).toEqual({ ...before, alerts: before.alerts + 2 });

    await createService(prisma(), hookline.tenant.organizationId, 'inventory');
    const routed = await postAlertmanager(body);
    expect(routed.body.incidents).toEqual([{ incident_id: expect.stringMatching(UUID), action: 'opened' }]);
    expect(routed.body.unrouted.map((entry: { fingerprint: string }) => entry.fingerprint)).toEqual(['ffff000000000002']);
    expect(await prisma().alert.count({ where: { alertSourceId: alertmanagerSourceId, groupKey, incidentId: null } })).toBe(1);
  });

  it('ranks the deploy just before the alert as the first suspect', async () => {
    const service = await createService(prisma(), hookline.tenant.organizationId, 'ledger');
    const deployedAt = minutesAgo(30);
    const deploy = await postDeploy(hookline.baseUrl, service.deployToken, {
      commit_sha: 'abc123',
      environment: 'production',
      deployed_at: deployedAt,
    });
    const response = await postAlertmanager(
      notification(newGroupKey(), [
        { fingerprint: 'abab000000000001', startsAt: minutesAgo(20), labels: { service: 'ledger', environment: 'production' } },
      ]),
    );
    const suspects = await prisma().incidentSuspect.findMany({
      where: { incidentId: response.body.incidents[0].incident_id },
      orderBy: { rank: 'asc' },
    });
    expect(suspects[0]).toMatchObject({ rank: 1, deployId: deploy.body.deploy_id });
  });
});

describe('Grafana contact point (the example of its documentation)', () => {
  // https://grafana.com/docs/grafana/latest/alerting/configure-notifications/manage-contact-points/integrations/webhook-notifier/
  const grafanaExample = () => ({
    receiver: 'My Super Webhook',
    status: 'firing',
    orgId: 1,
    alerts: [
      {
        status: 'firing',
        labels: { alertname: 'High memory usage', team: 'blue', zone: 'us-1' },
        annotations: {
          description: 'The system has high memory usage',
          runbook_url: 'https://myrunbook.com/runbook/1234',
          summary: 'This alert was triggered for zone us-1',
        },
        startsAt: '2021-10-12T09:51:03.157076+02:00',
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'https://play.grafana.org/alerting/1afz29v7z/edit',
        fingerprint: 'c6eadffa33fcdf37',
        silenceURL:
          'https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3Dus-1',
        dashboardURL: '',
        panelURL: '',
        values: { B: 44.23943737541908, C: 1 },
      },
      {
        status: 'firing',
        labels: { alertname: 'High CPU usage', team: 'blue', zone: 'eu-1' },
        annotations: {
          description: 'The system has high CPU usage',
          runbook_url: 'https://myrunbook.com/runbook/1234',
          summary: 'This alert was triggered for zone eu-1',
        },
        startsAt: '2021-10-12T09:56:03.157076+02:00',
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'https://play.grafana.org/alerting/d1rdpdv7k/edit',
        fingerprint: 'bc97ff14869b13e3',
        silenceURL:
          'https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT1%2Cteam%3Dblue%2Czone%3Deu-1',
        dashboardURL: '',
        panelURL: '',
        values: { B: 44.23943737541908, C: 1 },
      },
    ],
    groupLabels: {},
    commonLabels: { team: 'blue' },
    commonAnnotations: {},
    externalURL: 'https://play.grafana.org/',
    version: '1',
    groupKey: '{}:{}',
    truncatedAlerts: 0,
    title: '[FIRING:2]  (blue)',
    state: 'alerting',
    message: '**Firing**\n\nLabels:\n - alertname = T2\n - team = blue\n - zone = us-1\n...',
  });

  it('keeps the verbatim example as unrouted (its labels name no service), field by field', async () => {
    const organization = await hookline.createTenant('unrelated');
    const source = await createAlertSource(prisma(), organization.organizationId, { name: 'Grafana', kind: 'ALERTMANAGER' });
    const response = await postAlertmanager(grafanaExample(), source.token);
    expect(response.status).toBe(200);
    expect(response.body.incidents).toEqual([]);
    expect(response.body.unrouted.map((entry: { fingerprint: string }) => entry.fingerprint)).toEqual([
      'c6eadffa33fcdf37',
      'bc97ff14869b13e3',
    ]);
    const kept = await prisma().alert.findMany({ where: { alertSourceId: source.alertSource.id }, orderBy: { startsAt: 'asc' } });
    const example = grafanaExample();
    expect(kept).toHaveLength(2);
    kept.forEach((alert, index) => {
      const sent = example.alerts[index]!;
      expect(alert.fingerprint).toBe(sent.fingerprint);
      expect(alert.status).toBe('FIRING');
      expect(alert.labels).toEqual(sent.labels);
      expect(alert.annotations).toEqual(sent.annotations);
      expect(alert.startsAt.toISOString()).toBe(new Date(sent.startsAt).toISOString());
      expect(alert.endsAt).toBeNull();
      expect(alert.generatorUrl).toBe(sent.generatorURL);
      expect(alert.groupKey).toBe('{}:{}');
      expect(alert.incidentId).toBeNull();
      expect(alert.organizationId).toBe(organization.organizationId);
    });
  });

  it('opens an incident from the example once its alerts carry a service label', async () => {
    const organization = await hookline.createTenant('memory-service');
    const source = await createAlertSource(prisma(), organization.organizationId, { name: 'Grafana', kind: 'ALERTMANAGER' });
    const body = grafanaExample();
    for (const alert of body.alerts) Object.assign(alert.labels, { service: 'memory-service' });
    const response = await postAlertmanager(body, source.token);
    expect(response.body).toEqual({
      status: 'accepted',
      incidents: [{ incident_id: expect.stringMatching(UUID), action: 'opened' }],
      unrouted: [],
    });
    const incident = await prisma().incident.findUniqueOrThrow({ where: { id: response.body.incidents[0].incident_id } });
    expect(incident).toMatchObject({
      serviceId: organization.serviceId,
      title: 'This alert was triggered for zone us-1',
      severity: 'SEV3',
      environment: null,
    });
    expect(incident.startedAt.toISOString()).toBe('2021-10-12T07:51:03.157Z');
  });
});

describe('PagerDuty Events API v2 (the example of its documentation)', () => {
  // https://developer.pagerduty.com/docs/events-api-v2/trigger-events/
  const pagerDutyExample = (routingKey: string) => ({
    payload: {
      summary: 'DISK at 99% on machine prod-datapipe03.example.com',
      timestamp: '2015-07-17T08:42:58.315+0000',
      severity: 'critical',
      source: 'prod-datapipe03.example.com',
      component: 'mysql',
      group: 'prod-datapipe',
      class: 'disk',
      custom_details: { 'free space': '1%', 'ping time': '1500ms', 'load avg': 0.75 },
    },
    routing_key: routingKey,
    dedup_key: 'srv01/mysql',
    images: [
      {
        src: 'https://www.pagerduty.com/wp-content/uploads/2016/05/pagerduty-logo-green.png',
        href: 'https://example.com/',
        alt: 'Example text',
      },
    ],
    links: [{ href: 'https://example.com/', text: 'Link text' }],
    event_action: 'trigger',
    client: 'Example Monitoring Client',
    client_url: 'https://monitoring.example.com',
  });

  it('triggers, repeats, acknowledges and resolves the incident of a dedup_key, answering as PagerDuty does', async () => {
    const mysql = await createService(prisma(), hookline.tenant.organizationId, 'mysql');
    const trigger = await postPagerDuty(pagerDutyExample(pagerDutyToken));
    expect(trigger.status).toBe(202);
    expect(trigger.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'srv01/mysql' });
    const incident = await prisma().incident.findFirstOrThrow({ where: { alertGroupKey: 'srv01/mysql' }, include: { alerts: true } });
    expect(incident).toMatchObject({
      serviceId: mysql.service.id,
      title: 'DISK at 99% on machine prod-datapipe03.example.com',
      severity: 'SEV1',
      status: 'OPEN',
    });
    expect(incident.startedAt.toISOString()).toBe('2015-07-17T08:42:58.315Z');
    expect(incident.alerts).toHaveLength(1);
    expect(incident.alerts[0]).toMatchObject({
      fingerprint: 'srv01/mysql',
      status: 'FIRING',
      labels: { severity: 'critical', source: 'prod-datapipe03.example.com', component: 'mysql', group: 'prod-datapipe', class: 'disk' },
      annotations: {
        summary: 'DISK at 99% on machine prod-datapipe03.example.com',
        'free space': '1%',
        'ping time': '1500ms',
        'load avg': '0.75',
      },
      generatorUrl: 'https://monitoring.example.com',
      endsAt: null,
    });

    const before = await storedCounts();
    const repeat = await postPagerDuty({
      ...pagerDutyExample(pagerDutyToken),
      payload: { ...pagerDutyExample('').payload, timestamp: '2015-07-17T08:47:00.000+0000' },
    });
    expect(repeat.status).toBe(202);
    expect(await storedCounts()).toEqual(before);

    const acknowledge = await postPagerDuty({ routing_key: pagerDutyToken, dedup_key: 'srv01/mysql', event_action: 'acknowledge' });
    expect(acknowledge.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'srv01/mysql' });
    expect((await prisma().incident.findUniqueOrThrow({ where: { id: incident.id } })).status).toBe('ACKNOWLEDGED');

    const resolve = await postPagerDuty({ routing_key: pagerDutyToken, dedup_key: 'srv01/mysql', event_action: 'resolve' });
    expect(resolve.status).toBe(202);
    const resolved = await prisma().incident.findUniqueOrThrow({ where: { id: incident.id }, include: { alerts: true } });
    expect(resolved.status).toBe('RESOLVED');
    expect(resolved.alerts[0]!.status).toBe('RESOLVED');

    const afterResolve = await storedCounts();
    const resolveAgain = await postPagerDuty({ routing_key: pagerDutyToken, dedup_key: 'srv01/mysql', event_action: 'resolve' });
    expect(resolveAgain.status).toBe(202);
    expect(await storedCounts()).toEqual(afterResolve);
  });

  it('makes a dedup_key for a trigger without one, and routes by component, else source', async () => {
    await createService(prisma(), hookline.tenant.organizationId, 'edge-proxy');
    const { dedup_key: _none, ...example } = pagerDutyExample(pagerDutyToken);
    const trigger = await postPagerDuty({
      ...example,
      payload: { ...example.payload, component: 'not-a-service', source: 'edge-proxy', timestamp: undefined },
    });
    expect(trigger.status).toBe(202);
    expect(trigger.body.dedup_key).toMatch(/^[0-9a-f]{32}$/);
    const incident = await prisma().incident.findFirstOrThrow({
      where: { alertGroupKey: trigger.body.dedup_key },
      include: { service: true },
    });
    expect(incident.service.name).toBe('edge-proxy');
  });

  it('answers acknowledge and resolve of an unknown dedup_key 202 and stores nothing', async () => {
    const before = await storedCounts();
    for (const action of ['acknowledge', 'resolve']) {
      const response = await postPagerDuty({ routing_key: pagerDutyToken, dedup_key: 'never-triggered', event_action: action });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'never-triggered' });
    }
    expect(await storedCounts()).toEqual(before);
  });

  it("refuses an event without what PagerDuty requires, with every field at fault, in PagerDuty's own 400", async () => {
    const before = await storedCounts();
    const trigger = await postPagerDuty({
      routing_key: pagerDutyToken,
      event_action: 'trigger',
      payload: { severity: 'fatal', timestamp: 'yesterday' },
    });
    expect(trigger.status).toBe(400);
    expect(trigger.body).toEqual({
      status: 'invalid event',
      message: 'Event object is invalid',
      errors: [
        'payload.summary is required',
        'payload.source is required',
        'payload.severity must be one of critical, error, warning, info',
        'payload.timestamp must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z',
      ],
    });
    const resolve = await postPagerDuty({ routing_key: pagerDutyToken, event_action: 'resolve' });
    expect(resolve.status).toBe(400);
    expect(resolve.body.errors).toEqual(['dedup_key is required for resolve events']);
    const noAction = await postPagerDuty({ routing_key: pagerDutyToken });
    expect(noAction.body.errors).toEqual(['event_action is required']);
    expect(await storedCounts()).toEqual(before);
  });
});

describe('refused requests store nothing', () => {
  let before: Awaited<ReturnType<typeof storedCounts>>;
  const body = () => notification(newGroupKey(), [{ fingerprint: '1111000000000001', startsAt: minutesAgo(1) }]);
  beforeEach(async () => {
    before = await storedCounts();
  });

  it('401 for a missing, malformed, unknown, other-kind or rotated token, before the content is judged', async () => {
    const invalid = {
      error: {
        code: 'invalid_alert_token',
        message: 'Authorization must be "Bearer" and the token of a live Alertmanager alert source (hlk_…)',
      },
    };
    const other = await createAlertSource(prisma(), hookline.tenant.organizationId, { name: 'rotating', kind: 'ALERTMANAGER' });
    await rotateAlertSourceToken(prisma(), hookline.tenant.organizationId, other.alertSource.id);
    for (const token of [
      null,
      'hlk_short',
      `hlk_${'x'.repeat(40)}`,
      pagerDutyToken,
      other.token,
      hookline.tenant.apiToken,
      hookline.tenant.deployToken,
    ]) {
      for (const payload of [body(), 'not json', { alerts: 'nope' }]) {
        const response = await postAlertmanager(payload, token);
        expect(response.status).toBe(401);
        expect(response.body).toEqual(invalid);
      }
    }
    const pagerDuty = await postPagerDuty({ routing_key: alertmanagerToken, event_action: 'trigger' });
    expect(pagerDuty.status).toBe(401);
    expect(pagerDuty.body.error.code).toBe('invalid_alert_token');
    expect(await storedCounts()).toEqual(before);
  });

  it('a deleted source is refused; its incidents stay', async () => {
    const doomed = await createAlertSource(prisma(), hookline.tenant.organizationId, { name: 'doomed', kind: 'ALERTMANAGER' });
    const opened = await postAlertmanager(body(), doomed.token);
    await deleteAlertSource(prisma(), hookline.tenant.organizationId, doomed.alertSource.id);
    expect((await postAlertmanager(body(), doomed.token)).status).toBe(401);
    const incident = await prisma().incident.findUniqueOrThrow({
      where: { id: opened.body.incidents[0].incident_id },
      include: { alerts: true },
    });
    expect(incident.alertSourceId).toBeNull();
    expect(incident.alerts).toHaveLength(1);
  });

  it('415 for another media type, 400 invalid_json for bad JSON', async () => {
    const wrongType = await postAlertmanager(JSON.stringify(body()), alertmanagerToken, { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('unsupported_media_type');
    const badJson = await postAlertmanager('{"alerts": [', alertmanagerToken);
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.code).toBe('invalid_json');
    expect((await postPagerDuty('{', {})).body.error.code).toBe('invalid_json');
    expect(await storedCounts()).toEqual(before);
  });

  it('400 validation_failed with every field at fault', async () => {
    const response = await postAlertmanager({
      groupKey: 5,
      alerts: [{ status: 'pending', labels: { service: 3 }, startsAt: 'soon', generatorURL: 'ftp://x', fingerprint: '' }],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        code: 'validation_failed',
        message: 'The Alertmanager notification is invalid',
        details: [
          { field: 'groupKey', message: 'must be a string' },
          { field: 'alerts[0].status', message: 'must be "firing" or "resolved"' },
          { field: 'alerts[0].labels.service', message: 'must be a string' },
          { field: 'alerts[0].startsAt', message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z' },
          { field: 'alerts[0].generatorURL', message: 'must be an http or https address' },
          { field: 'alerts[0].fingerprint', message: 'must not be empty' },
        ],
      },
    });
    expect(await storedCounts()).toEqual(before);
  });

  it('413 for a body over 100 KB, before the token is looked at', async () => {
    const huge = notification(newGroupKey(), [
      { fingerprint: '2222000000000001', startsAt: minutesAgo(1), annotations: { summary: 'x'.repeat(102_400) } },
    ]);
    for (const token of [alertmanagerToken, null]) {
      const response = await postAlertmanager(huge, token);
      expect(response.status).toBe(413);
      expect(response.body.error.code).toBe('payload_too_large');
    }
    expect(await storedCounts()).toEqual(before);
  });

  it('generated bad bodies: 400 and nothing stored', async () => {
    const notText = fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { minLength: 1, maxLength: 2 }),
      fc.constant('\u0000'),
    );
    const badAlert = fc.oneof(
      fc.record({
        status: fc.string().filter((s) => s !== 'firing' && s !== 'resolved'),
        labels: fc.constant({}),
        startsAt: fc.constant(minutesAgo(1)),
      }),
      fc.record({
        status: fc.constant('firing'),
        labels: fc.dictionary(fc.string(), notText, { minKeys: 1, maxKeys: 3 }),
        startsAt: fc.constant(minutesAgo(1)),
      }),
      fc.record({
        status: fc.constant('firing'),
        labels: fc.constant({}),
        startsAt: fc.oneof(fc.string(), fc.integer(), fc.constant('2026-13-01T00:00:00Z')),
      }),
      fc.record({
        status: fc.constant('firing'),
        labels: fc.constant({ service: 'checkout' }),
        startsAt: fc.constant(minutesAgo(1)),
        generatorURL: fc.constantFrom('javascript:alert(1)', 'not a url', 42),
      }),
      fc.jsonValue({ maxDepth: 2 }).filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
    );
    const badBody = fc.oneof(
      fc.record({ groupKey: fc.constant('{}:{}'), alerts: fc.array(badAlert, { minLength: 1, maxLength: 3 }) }),
      fc.record({ groupKey: fc.oneof(notText, fc.constant('')), alerts: fc.constant([]) }),
      fc.record({ groupKey: fc.constant('{}:{}'), alerts: fc.oneof(notText, fc.dictionary(fc.string(), fc.string())) }),
      fc.jsonValue({ maxDepth: 2 }).filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
    );
    await fc.assert(
      fc.asyncProperty(badBody, async (bad) => {
        const response = await postAlertmanager(JSON.stringify(bad));
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('validation_failed');
        expect(response.body.error.details.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
    const badEvent = fc.oneof(
      fc.record({ event_action: fc.string().filter((s) => !['trigger', 'acknowledge', 'resolve'].includes(s)) }),
      fc.record({
        event_action: fc.constantFrom('acknowledge', 'resolve'),
        dedup_key: fc.oneof(notText, fc.constant(''), fc.constant('x'.repeat(256))),
      }),
      fc.record({
        event_action: fc.constant('trigger'),
        payload: fc.oneof(notText, fc.record({ summary: fc.string(), source: notText, severity: fc.string() })),
      }),
    );
    await fc.assert(
      fc.asyncProperty(badEvent, async (bad) => {
        const response = await postPagerDuty({ ...bad, routing_key: pagerDutyToken });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ status: 'invalid event', message: 'Event object is invalid', errors: expect.any(Array) });
        expect(response.body.errors.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
    expect(await storedCounts()).toEqual(before);
  });
});

describe('tenancy', () => {
  it("routes only to the source's own organization's services", async () => {
    const other = await hookline.createTenant('billing');
    const response = await postAlertmanager(
      notification(newGroupKey(), [{ fingerprint: '3333000000000001', startsAt: minutesAgo(1), labels: { service: 'billing' } }]),
    );
    expect(response.body.incidents).toEqual([]);
    expect(response.body.unrouted).toHaveLength(1);
    expect(await prisma().incident.count({ where: { organizationId: other.organizationId } })).toBe(0);
  });
});

describe('rate limit', () => {
  it('429 with Retry-After past the limit, on a budget of its own: deploys from the same address still pass', async () => {
    // A database of its own: the counters are kept in PostgreSQL, by client address.
    const limitedDatabase = await hookline.createDatabase();
    const limited = await hookline.startApp({ INGEST_RATE_LIMIT_PER_MINUTE: '2' }, limitedDatabase.url);
    try {
      const own = await hookline.createTenant('limited', limited.app);
      const { token } = await createAlertSource(limited.app.database.prisma, own.organizationId, { name: 'limited', kind: 'ALERTMANAGER' });
      const send = () =>
        post(`${limited.baseUrl}/api/ingest/alerts/alertmanager`, {
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(
            notification(newGroupKey(), [{ fingerprint: '4444000000000001', startsAt: minutesAgo(1), labels: { service: 'limited' } }]),
          ),
        });
      expect((await send()).status).toBe(200);
      const second = await send();
      expect(second.status).toBe(200);
      expect(second.headers.get('ratelimit-remaining')).toBe('0');
      const before = await limited.app.database.prisma.incident.count();
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await limited.app.database.prisma.incident.count()).toBe(before);
      expect((await postDeploy(limited.baseUrl, own.deployToken, { commit_sha: 'abc' })).status).toBe(200);
    } finally {
      await limited.close();
      await limitedDatabase.drop();
    }
  });
});
