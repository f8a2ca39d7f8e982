// Alert sources through GraphQL over HTTP, as the dashboard's Alert sources page uses them:
// create (the token once, only its hash stored), list with when each last received something
// and its unrouted alerts, rotate (the old token refused at once), delete; Incident.alerts and
// Incident.alertSource; each organization sees and changes only its own.
import { describe, expect, it } from 'vitest';
import { ALERT_SOURCE_KIND_LIST } from '../src/domain/ingest/alert-source-kinds.ts';
import { hashToken } from '../src/domain/shared/tokens.ts';
import { AlertSourceKind } from '../src/generated/prisma/enums.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith } from './support/app.ts';
import { post } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const CREATE = graphql(`
  mutation CreateAlertSource($name: String!, $kind: AlertSourceKind!) {
    createAlertSource(name: $name, kind: $kind) { token alertSource { id name kind ingestPath tokenPrefix lastReceivedAt unroutedAlertCount } }
  }
`);
const ROTATE = graphql(`
  mutation RotateAlertSourceToken($id: ID!) {
    rotateAlertSourceToken(id: $id) { token alertSource { id tokenPrefix } }
  }
`);
const DELETE = graphql(`
  mutation DeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }
`);
const LIST = graphql(`
  query AlertSources {
    alertSources(first: 10) {
      edges {
        node {
          id name kind lastReceivedAt unroutedAlertCount
          unroutedAlerts(first: 5) { totalCount edges { node { fingerprint status labels unroutedReason incident { id } } } }
        }
      }
    }
  }
`);
const SOURCE_CURSORS = graphql(`
  query AlertSourceCursors($after: String) {
    alertSources(first: 1, after: $after) { edges { cursor node { id } } }
  }
`);
const INCIDENT_ALERTS = graphql(`
  query IncidentAlerts($id: ID!) {
    incident(id: $id) {
      id
      alertSource { id name kind }
      alerts(first: 10) {
        totalCount
        edges { node { fingerprint status labels annotations startsAt endsAt generatorURL unroutedReason } }
      }
    }
  }
`);

const KINDS = graphql(`
  query AlertSourceKinds { alertSourceKinds { kind label detail ingestPath ingestInstructions } }
`);

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' } });

function notify(token: string, labels: Record<string, string>, fingerprint: string) {
  return post(`${hookline.baseUrl}/api/ingest/alerts/alertmanager`, {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      version: '4',
      groupKey: `{}:{fingerprint="${fingerprint}"}`,
      alerts: [
        {
          status: 'firing',
          labels,
          annotations: { summary: 'Latency high' },
          startsAt: '2026-11-20T10:00:00Z',
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'http://prometheus.example.com/graph',
          fingerprint,
        },
      ],
    }),
  });
}

describe('alert sources', () => {
  it('creates a source with an hlk_ token shown once and stored as a hash', async () => {
    const created = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, { name: ' Prometheus ', kind: 'ALERTMANAGER' }),
    ).createAlertSource;
    expect(created.token).toMatch(/^hlk_[0-9A-Za-z]{40}$/);
    expect(created.alertSource).toEqual({
      id: expect.any(String),
      name: 'Prometheus',
      kind: 'ALERTMANAGER',
      ingestPath: '/api/ingest/alerts/alertmanager',
      tokenPrefix: created.token.slice(0, 12),
      lastReceivedAt: null,
      unroutedAlertCount: 0,
    });
    const row = await hookline.app.database.prisma.alertSource.findUniqueOrThrow({ where: { id: created.alertSource.id } });
    expect(row.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const refused = await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, { name: '  ', kind: 'PAGERDUTY_EVENTS' });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('lists sources with when each last received something and the alerts it could not route', async () => {
    const organization = await hookline.createTenant('payments');
    const { token, alertSource } = dataOf(
      await requestGraphqlWith(hookline.baseUrl, organization.apiToken, CREATE, { name: 'Grafana', kind: 'ALERTMANAGER' }),
    ).createAlertSource;
    expect((await notify(token, { service: 'payments' }, 'routed01')).status).toBe(200);
    expect((await notify(token, { service: 'ghost' }, 'lost0001')).status).toBe(200);
    const sources = dataOf(await requestGraphqlWith(hookline.baseUrl, organization.apiToken, LIST, {})).alertSources.edges.map(
      (edge) => edge.node,
    );
    expect(sources).toEqual([
      {
        id: alertSource.id,
        name: 'Grafana',
        kind: 'ALERTMANAGER',
        lastReceivedAt: expect.any(String),
        unroutedAlertCount: 1,
        unroutedAlerts: {
          totalCount: 1,
          edges: [
            {
              node: {
                fingerprint: 'lost0001',
                status: 'FIRING',
                labels: { service: 'ghost' },
                unroutedReason:
                  'No service is named "ghost" (label service). Create a service of that name, or change the label to the name of an existing service.',
                incident: null,
              },
            },
          ],
        },
      },
    ]);
    // Another organization sees none of it.
    expect(
      dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, LIST, {})).alertSources.edges.map((edge) => edge.node.id),
    ).not.toContain(alertSource.id);
  });

  it('rotates the token: the old one is refused from the answer on, the new one works', async () => {
    const { token, alertSource } = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, { name: 'rotating', kind: 'ALERTMANAGER' }),
    ).createAlertSource;
    const rotated = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, ROTATE, { id: alertSource.id }),
    ).rotateAlertSourceToken;
    expect(rotated.token).toMatch(/^hlk_/);
    expect(rotated.token).not.toBe(token);
    expect(rotated.alertSource.tokenPrefix).toBe(rotated.token.slice(0, 12));
    expect((await notify(token, { service: 'checkout' }, 'rot00001')).status).toBe(401);
    expect((await notify(rotated.token, { service: 'checkout' }, 'rot00001')).status).toBe(200);
  });

  it("refuses to rotate or delete another organization's source (NOT_FOUND), and deletes its own", async () => {
    const { token, alertSource } = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, { name: 'doomed', kind: 'PAGERDUTY_EVENTS' }),
    ).createAlertSource;
    const stranger = await hookline.createTenant('stranger');
    for (const document of [ROTATE, DELETE] as const) {
      const response = await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, document as typeof ROTATE, { id: alertSource.id });
      expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(
      dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, DELETE, { id: alertSource.id })).deleteAlertSource,
    ).toBe(alertSource.id);
    const trigger = await post(`${hookline.baseUrl}/api/ingest/alerts/pagerduty/v2/enqueue`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        routing_key: token,
        event_action: 'trigger',
        payload: { summary: 's', source: 'checkout', severity: 'info' },
      }),
    });
    expect(trigger.status).toBe(401);
  });

  it("refuses another organization's alert source as a cursor", async () => {
    const stranger = await hookline.createTenant('cursor-stranger');
    await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, CREATE, { name: 'theirs', kind: 'ALERTMANAGER' });
    const theirCursor = dataOf(await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, SOURCE_CURSORS, { after: null })).alertSources
      .edges[0]!.cursor;
    const refused = await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, SOURCE_CURSORS, { after: theirCursor });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

describe('alertSourceKinds', () => {
  it('has one registry entry per kind the database stores', () => {
    expect(ALERT_SOURCE_KIND_LIST.map((entry) => entry.kind)).toEqual(Object.values(AlertSourceKind));
  });

  it('lists each kind with its label, what sends it and the request it makes, Alertmanager first', async () => {
    const { alertSourceKinds } = dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, KINDS, {}));
    expect(alertSourceKinds).toEqual([
      {
        kind: 'ALERTMANAGER',
        label: 'Prometheus Alertmanager or Grafana',
        detail: 'webhook',
        ingestPath: '/api/ingest/alerts/alertmanager',
        ingestInstructions: 'POST /api/ingest/alerts/alertmanager with Authorization: Bearer <token>',
      },
      {
        kind: 'PAGERDUTY_EVENTS',
        label: 'PagerDuty Events API v2',
        detail: 'any tool that pages PagerDuty',
        ingestPath: '/api/ingest/alerts/pagerduty/v2/enqueue',
        ingestInstructions: 'POST /api/ingest/alerts/pagerduty/v2/enqueue with the token as routing_key',
      },
    ]);
    const refused = await requestGraphqlWith(hookline.baseUrl, undefined, KINDS, {});
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('Incident.alerts and Incident.alertSource', () => {
  it('shows the alerts that opened the incident and its source, only to its organization', async () => {
    const { token, alertSource } = dataOf(
      await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CREATE, { name: 'Alertmanager', kind: 'ALERTMANAGER' }),
    ).createAlertSource;
    const answer = await notify(token, { service: 'checkout', severity: 'warning' }, 'inc00001');
    const incidentId = answer.body.incidents[0].incident_id;
    const incident = dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, INCIDENT_ALERTS, { id: incidentId }))
      .incident!;
    expect(incident).toEqual({
      id: incidentId,
      alertSource: { id: alertSource.id, name: 'Alertmanager', kind: 'ALERTMANAGER' },
      alerts: {
        totalCount: 1,
        edges: [
          {
            node: {
              fingerprint: 'inc00001',
              status: 'FIRING',
              labels: { service: 'checkout', severity: 'warning' },
              annotations: { summary: 'Latency high' },
              startsAt: '2026-11-20T10:00:00.000Z',
              endsAt: null,
              generatorURL: 'http://prometheus.example.com/graph',
              unroutedReason: null,
            },
          },
        ],
      },
    });
    const stranger = await hookline.createTenant('outsider');
    expect(dataOf(await requestGraphqlWith(hookline.baseUrl, stranger.apiToken, INCIDENT_ALERTS, { id: incidentId })).incident).toBeNull();
  });
});
