// The incident workflow as a client sees it over HTTP: who acknowledged and who resolved (an API
// token, an alert source), notes with author and time, a timeline of everything that happened
// oldest first, resolveIncident(resolvedAt:) for incidents entered afterwards, and the actors in
// the incident.* webhook payloads.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/domain/shared/tokens.ts';
import { graphql } from './gql/index.ts';
import { dataOf, errorOf } from './support/app.ts';
import { post, postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const OPEN = graphql(`
  mutation WorkflowOpen($serviceId: ID!, $startedAt: DateTime) {
    openIncident(serviceId: $serviceId, title: "Checkout errors", environment: "production", startedAt: $startedAt) { id startedAt }
  }
`);
const ACKNOWLEDGE = graphql(`
  mutation WorkflowAcknowledge($id: ID!) { acknowledgeIncident(id: $id) { id status } }
`);
const RESOLVE = graphql(`
  mutation WorkflowResolve($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id status resolvedAt } }
`);
const MARK = graphql(`
  mutation WorkflowMark($id: ID!, $deployId: ID!) { markSuspect(incidentId: $id, deployId: $deployId, verdict: CAUSED) { id } }
`);
const ADD_NOTE = graphql(`
  mutation WorkflowAddNote($incidentId: ID!, $body: String!) {
    addIncidentNote(incidentId: $incidentId, body: $body) {
      id body createdAt incident { id }
      author { __typename ... on ApiToken { id } }
    }
  }
`);
const CREATE_ALERT_SOURCE = graphql(`
  mutation WorkflowAlertSource { createAlertSource(name: "PagerDuty", kind: PAGERDUTY_EVENTS) { alertSource { id } token } }
`);
const DELETE_ALERT_SOURCE = graphql(`
  mutation WorkflowDeleteAlertSource($id: ID!) { deleteAlertSource(id: $id) }
`);
const INCIDENT = graphql(`
  query WorkflowIncident($id: ID!) {
    incident(id: $id) {
      status acknowledgedAt resolvedAt
      acknowledgedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }
      resolvedBy { __typename ... on ApiToken { id } ... on AlertSource { id name } ... on System { name } }
      notes { id body createdAt author { __typename ... on ApiToken { id } } }
      timeline {
        kind at
        actor { __typename ... on ApiToken { id } ... on AlertSource { id } ... on System { name } }
        alert { fingerprint }
        note { body }
        verdict
        deploy { id }
        change { id }
      }
    }
  }
`);

const hookline = useHookline({ environment: { ROLE: 'api' } });
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: hookline.database.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function tokenId(): Promise<string> {
  const { rows } = await admin.query(`SELECT id FROM api_tokens WHERE token_hash = $1`, [hashToken(hookline.tenant.apiToken)]);
  return rows[0].id;
}

async function deploy(deployedAt: string): Promise<string> {
  const response = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, {
    commit_sha: `c${Math.random().toString(16).slice(2, 10)}`,
    environment: 'production',
    deployed_at: deployedAt,
  });
  expect(response.status).toBe(200);
  return response.body.deploy_id;
}

async function incident(id: string) {
  return dataOf(await hookline.graphql(hookline.tenant.apiToken, INCIDENT, { id })).incident!;
}

describe('an incident worked through the API', () => {
  it('records who acknowledged and resolved it, its notes, and a timeline of every step, oldest first', async () => {
    const token = await tokenId();
    const byToken = { __typename: 'ApiToken', id: token };
    const early = await deploy(minutesAgo(50));
    const opened = dataOf(
      await hookline.graphql(hookline.tenant.apiToken, OPEN, { serviceId: hookline.tenant.serviceId, startedAt: minutesAgo(10) }),
    ).openIncident;
    // Reported late, dated before the start: Hookline ranks the suspects again.
    const late = await deploy(minutesAgo(20));
    dataOf(await hookline.graphql(hookline.tenant.apiToken, MARK, { id: opened.id, deployId: early }));
    dataOf(await hookline.graphql(hookline.tenant.apiToken, ACKNOWLEDGE, { id: opened.id }));
    const note = dataOf(
      await hookline.graphql(hookline.tenant.apiToken, ADD_NOTE, { incidentId: opened.id, body: '  Rolled back v2.14 to v2.13.  ' }),
    ).addIncidentNote;
    expect(note).toEqual({
      id: expect.any(String),
      body: 'Rolled back v2.14 to v2.13.',
      createdAt: expect.any(String),
      incident: { id: opened.id },
      author: byToken,
    });
    const resolved = dataOf(await hookline.graphql(hookline.tenant.apiToken, RESOLVE, { id: opened.id })).resolveIncident;
    expect(resolved.status).toBe('RESOLVED');

    const seen = await incident(opened.id);
    expect(seen.acknowledgedBy).toEqual(byToken);
    expect(seen.resolvedBy).toEqual(byToken);
    expect(seen.notes).toEqual([{ id: note.id, body: note.body, createdAt: note.createdAt, author: byToken }]);
    const nothing = { alert: null, note: null, verdict: null, deploy: null, change: null };
    expect(seen.timeline).toEqual([
      { ...nothing, kind: 'OPENED', at: expect.any(String), actor: byToken },
      { ...nothing, kind: 'RERANKED', at: expect.any(String), actor: { __typename: 'System', name: 'Hookline' }, deploy: { id: late } },
      { ...nothing, kind: 'VERDICT', at: expect.any(String), actor: byToken, verdict: 'CAUSED', deploy: { id: early } },
      { ...nothing, kind: 'ACKNOWLEDGED', at: seen.acknowledgedAt, actor: byToken },
      { ...nothing, kind: 'NOTE', at: note.createdAt, actor: byToken, note: { body: note.body } },
      { ...nothing, kind: 'RESOLVED', at: seen.resolvedAt, actor: byToken },
    ]);
    const times = seen.timeline.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // The webhook payloads say who, as kind and id.
    const { rows } = await admin.query(
      `SELECT type, data->'incident'->'acknowledgedBy' AS "acknowledgedBy", data->'incident'->'resolvedBy' AS "resolvedBy"
       FROM events WHERE data->'incident'->>'id' = $1 ORDER BY created_at`,
      [opened.id],
    );
    expect(rows).toEqual([
      { type: 'incident.opened', acknowledgedBy: null, resolvedBy: null },
      { type: 'incident.acknowledged', acknowledgedBy: { kind: 'API_TOKEN', id: token }, resolvedBy: null },
      { type: 'incident.resolved', acknowledgedBy: { kind: 'API_TOKEN', id: token }, resolvedBy: { kind: 'API_TOKEN', id: token } },
    ]);
  });

  it('refuses an empty note, and a note on another organization’s or an unknown incident', async () => {
    const opened = dataOf(await hookline.graphql(hookline.tenant.apiToken, OPEN, { serviceId: hookline.tenant.serviceId })).openIncident;
    const empty = await hookline.graphql(hookline.tenant.apiToken, ADD_NOTE, { incidentId: opened.id, body: '   ' });
    expect(errorOf(empty).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'body', message: 'must be 1 to 10000 characters' }],
    });
    const other = await hookline.createTenant();
    const foreign = await hookline.graphql(other.apiToken, ADD_NOTE, { incidentId: opened.id, body: 'Not mine' });
    expect(errorOf(foreign).extensions).toEqual({ code: 'NOT_FOUND' });
    expect((await incident(opened.id)).notes).toEqual([]);
  });
});

describe('resolveIncident(resolvedAt:)', () => {
  it('dates the resolution of an incident entered afterwards, on its timeline too', async () => {
    const opened = dataOf(
      await hookline.graphql(hookline.tenant.apiToken, OPEN, { serviceId: hookline.tenant.serviceId, startedAt: minutesAgo(120) }),
    ).openIncident;
    const resolvedAt = new Date(Date.parse(opened.startedAt) + 45 * 60_000).toISOString();
    const resolved = dataOf(await hookline.graphql(hookline.tenant.apiToken, RESOLVE, { id: opened.id, resolvedAt })).resolveIncident;
    expect(resolved).toEqual({ id: opened.id, status: 'RESOLVED', resolvedAt });
    const seen = await incident(opened.id);
    expect(seen.timeline.map((entry) => [entry.kind, entry.at])).toEqual([
      ['OPENED', opened.startedAt],
      ['RESOLVED', resolvedAt],
    ]);
  });

  it('refuses a time before the incident started or in the future, naming resolvedAt, and changes nothing', async () => {
    const opened = dataOf(
      await hookline.graphql(hookline.tenant.apiToken, OPEN, { serviceId: hookline.tenant.serviceId, startedAt: minutesAgo(30) }),
    ).openIncident;
    const before = await hookline.graphql(hookline.tenant.apiToken, RESOLVE, { id: opened.id, resolvedAt: minutesAgo(31) });
    expect(errorOf(before).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'resolvedAt', message: `must not be before the incident started (${opened.startedAt})` }],
    });
    const future = await hookline.graphql(hookline.tenant.apiToken, RESOLVE, {
      id: opened.id,
      resolvedAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(errorOf(future).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'resolvedAt', message: 'must not be more than 5 minutes in the future' }],
    });
    const seen = await incident(opened.id);
    expect({ status: seen.status, resolvedAt: seen.resolvedAt, resolvedBy: seen.resolvedBy }).toEqual({
      status: 'OPEN',
      resolvedAt: null,
      resolvedBy: null,
    });
    expect(seen.timeline.map((entry) => entry.kind)).toEqual(['OPENED']);
  });
});

describe('an incident worked by its alert source', () => {
  it('is opened, acknowledged and resolved by the alert source, with its alert joining and resolving on the timeline', async () => {
    const { alertSource, token } = dataOf(await hookline.graphql(hookline.tenant.apiToken, CREATE_ALERT_SOURCE, {})).createAlertSource;
    const send = (event_action: string, extra: object = {}) =>
      post(`${hookline.baseUrl}/api/ingest/alerts/pagerduty/v2/enqueue`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ routing_key: token, dedup_key: 'checkout/errors', event_action, ...extra }),
      });
    const trigger = await send('trigger', {
      payload: { summary: 'Checkout errors', source: 'checkout', severity: 'critical', timestamp: minutesAgo(5) },
    });
    expect(trigger.status).toBe(202);
    expect((await send('acknowledge')).status).toBe(202);
    expect((await send('resolve')).status).toBe(202);
    const { rows } = await admin.query(`SELECT id FROM incidents WHERE alert_source_id = $1`, [alertSource.id]);
    const seen = await incident(rows[0].id);
    const bySource = { __typename: 'AlertSource', id: alertSource.id, name: 'PagerDuty' };
    expect(seen.acknowledgedBy).toEqual(bySource);
    expect(seen.resolvedBy).toEqual(bySource);
    const nothing = { alert: null, note: null, verdict: null, deploy: null, change: null };
    const actor = { __typename: 'AlertSource', id: alertSource.id };
    expect(seen.timeline).toEqual([
      { ...nothing, kind: 'OPENED', at: expect.any(String), actor },
      { ...nothing, kind: 'ALERT_JOINED', at: expect.any(String), actor, alert: { fingerprint: 'checkout/errors' } },
      { ...nothing, kind: 'ACKNOWLEDGED', at: seen.acknowledgedAt, actor },
      { ...nothing, kind: 'ALERT_RESOLVED', at: seen.resolvedAt, actor, alert: { fingerprint: 'checkout/errors' } },
      { ...nothing, kind: 'RESOLVED', at: seen.resolvedAt, actor },
    ]);

    // Once the source is deleted, what it did stays on record, by no one that can be shown.
    dataOf(await hookline.graphql(hookline.tenant.apiToken, DELETE_ALERT_SOURCE, { id: alertSource.id }));
    const after = await incident(rows[0].id);
    expect({ acknowledgedBy: after.acknowledgedBy, resolvedBy: after.resolvedBy }).toEqual({ acknowledgedBy: null, resolvedBy: null });
    expect(after.timeline.map((entry) => entry.kind)).toEqual(seen.timeline.map((entry) => entry.kind));
  });
});
