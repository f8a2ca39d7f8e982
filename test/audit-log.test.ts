// The audit log as a client sees it: every mutation of the schema and every REST write leaves
// exactly one entry (who, what, which object, when, from where) committed with the change, a
// refused change leaves none, no entry ever holds a secret the API returned, ingest leaves none,
// and auditLog lists the entries newest first with its filters.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema.ts';
import { hashToken } from '../src/domain/shared/tokens.ts';
import { graphql } from './gql/index.ts';
import { dataOf, LOCAL_RECEIVERS, requestGraphqlWithHeaders, type Tenant } from './support/app.ts';
import { post, postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { invitePerson, PASSWORD, postJson, setUpOwner, signIn } from './support/people.ts';
import { connectGraphqlWs } from './support/graphql-ws.ts';

const AUDIT_LOG = graphql(`
  query AuditLog($first: Int, $after: String, $filter: AuditLogFilter) {
    auditLog(first: $first, after: $after, filter: $filter) {
      totalCount
      edges {
        node {
          id
          at
          action
          objectId
          summary
          ip
          userAgent
          actor {
            __typename
            ... on ApiToken { id prefix }
            ... on AlertSource { id name }
            ... on Person { id email }
            ... on System { name }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const USER_AGENT = 'audit-test/1.0 (+https://example.com)';
const hookline = useHookline({ environment: { ROLE: 'api', LOG_LEVEL: 'error', ...LOCAL_RECEIVERS }, tenant: false });
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: hookline.database.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
});

interface AuditRow {
  organization_id: string;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  object_id: string | null;
  summary: string;
  ip: string | null;
  user_agent: string | null;
}

async function auditRows(organizationId: string): Promise<AuditRow[]> {
  const { rows } = await admin.query(
    `SELECT organization_id, actor_kind, actor_id, action, object_id, summary, ip, user_agent
     FROM audit_entries WHERE organization_id = $1 ORDER BY at, id`,
    [organizationId],
  );
  return rows;
}

async function apiTokenIdOf(plaintext: string): Promise<string> {
  const { rows } = await admin.query(`SELECT id FROM api_tokens WHERE token_hash = $1`, [hashToken(plaintext)]);
  return rows[0].id;
}

/**
 * A GraphQL operation over HTTP with a User-Agent of its own, as a client other than the tests' would
 * send: with the tenant's API token, or with a person's session cookie.
 */
async function mutate(tenant: Tenant | { cookie: string }, query: string, variables: Record<string, unknown> = {}) {
  const credential: Record<string, string> =
    'cookie' in tenant ? { cookie: tenant.cookie } : { authorization: `Bearer ${tenant.apiToken}` };
  const response = await fetch(`${hookline.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...credential, 'user-agent': USER_AGENT },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  expect(response.status).toBe(200);
  return body.data!;
}

/** What a mutation's run should have recorded, and the secrets its answer held. */
interface Expected {
  action: string;
  objectId: string | null;
  secrets?: string[];
  /** The person who made the change with their session; the tenant's API token otherwise. */
  personId?: string;
}

const uniqueEmail = (name: string) => `${name}-${crypto.randomUUID()}@example.com`;

async function deliveryOf(endpointId: string, status: string): Promise<string> {
  const { rows } = await admin.query(
    `WITH event AS (INSERT INTO events (organization_id, type, data)
       SELECT organization_id, 'test.ping', '{}'::jsonb FROM webhook_endpoints WHERE id = $1 RETURNING id, organization_id)
     INSERT INTO deliveries (organization_id, event_id, endpoint_id, event_type, status)
     SELECT organization_id, id, $1, 'test.ping', $2::"DeliveryStatus" FROM event RETURNING id`,
    [endpointId, status],
  );
  return rows[0].id;
}

describe('every mutation', () => {
  it('writes exactly one entry, with the actor, action, object, address and user agent, and never a secret it returned', async () => {
    const tenant = await hookline.createTenant('checkout');
    const tokenId = await apiTokenIdOf(tenant.apiToken);
    const deployedAt = new Date(Date.now() - 3600_000).toISOString();
    const deploy = await postDeploy(hookline.baseUrl, tenant.deployToken, {
      commit_sha: 'a1b2c3d',
      environment: 'production',
      deployed_at: deployedAt,
    });
    expect(deploy.status).toBe(200);
    const deployId: string = deploy.body.deploy_id;
    const state: Record<string, string> = {};
    // People's mutations are a person's: the owner, a member whose role changes, and spare sessions
    // of the owner's to end and to switch to another organization of theirs.
    const ownerEmail = uniqueEmail('owner');
    const owner = await setUpOwner(hookline.app, hookline.baseUrl, tenant.organizationId, ownerEmail);
    const ownerId = owner.body.person!.id;
    const member = await invitePerson(hookline.baseUrl, owner.cookie, uniqueEmail('member'), 'MEMBER');
    const spare = await signIn(hookline.baseUrl, ownerEmail);
    const switcher = await signIn(hookline.baseUrl, ownerEmail);
    const elsewhere = await hookline.createTenant('payments');
    await setUpOwner(hookline.app, hookline.baseUrl, elsewhere.organizationId, ownerEmail);

    // In an order where each run finds what it needs; the keys are the schema's mutations.
    const runs: Record<string, () => Promise<Expected>> = {
      createService: async () => {
        const data = await mutate(tenant, 'mutation { createService(name: "payments") { service { id } deployToken } }');
        state.serviceId = data.createService.service.id;
        return { action: 'service.create', objectId: state.serviceId!, secrets: [data.createService.deployToken] };
      },
      rotateDeployToken: async () => {
        const data = await mutate(tenant, 'mutation($id: ID!) { rotateDeployToken(serviceId: $id) { deployToken } }', {
          id: state.serviceId,
        });
        return { action: 'service.rotateDeployToken', objectId: state.serviceId!, secrets: [data.rotateDeployToken.deployToken] };
      },
      rotateGitHubWebhookSecret: async () => {
        const data = await mutate(tenant, 'mutation($id: ID!) { rotateGitHubWebhookSecret(serviceId: $id) { secret } }', {
          id: state.serviceId,
        });
        return {
          action: 'service.rotateGitHubWebhookSecret',
          objectId: state.serviceId!,
          secrets: [data.rotateGitHubWebhookSecret.secret],
        };
      },
      setServiceDependencies: async () => {
        await mutate(tenant, 'mutation($id: ID!, $on: [ID!]!) { setServiceDependencies(serviceId: $id, dependsOn: $on) { id } }', {
          id: tenant.serviceId,
          on: [state.serviceId],
        });
        return { action: 'service.setDependencies', objectId: tenant.serviceId };
      },
      setServiceRepositoryUrl: async () => {
        await mutate(
          tenant,
          'mutation($id: ID!) { setServiceRepositoryUrl(serviceId: $id, url: "https://github.com/acme/checkout") { id } }',
          {
            id: tenant.serviceId,
          },
        );
        return { action: 'service.setRepositoryUrl', objectId: tenant.serviceId };
      },
      setEnvironmentAliases: async () => {
        await mutate(tenant, 'mutation { setEnvironmentAliases(environment: "production", aliases: ["prod"]) { name } }');
        return { action: 'environment.setAliases', objectId: null };
      },
      createWebhookEndpoint: async () => {
        const data = await mutate(
          tenant,
          `mutation { createWebhookEndpoint(url: "http://127.0.0.1:9/hooks/s3cr3t-path-token", name: "Orders",
             headers: [{ name: "Authorization", value: "Bearer header-secret-value" }]) { endpoint { id } signingSecret } }`,
        );
        state.endpointId = data.createWebhookEndpoint.endpoint.id;
        return {
          action: 'webhookEndpoint.create',
          objectId: state.endpointId!,
          secrets: [data.createWebhookEndpoint.signingSecret, 's3cr3t-path-token', 'header-secret-value'],
        };
      },
      updateWebhookEndpoint: async () => {
        await mutate(tenant, 'mutation($id: ID!) { updateWebhookEndpoint(id: $id, name: "Orders v2", timeoutMs: null) { id } }', {
          id: state.endpointId,
        });
        return { action: 'webhookEndpoint.update', objectId: state.endpointId! };
      },
      rotateWebhookSecret: async () => {
        const data = await mutate(tenant, 'mutation($id: ID!) { rotateWebhookSecret(id: $id) { signingSecret } }', {
          id: state.endpointId,
        });
        return { action: 'webhookEndpoint.rotateSecret', objectId: state.endpointId!, secrets: [data.rotateWebhookSecret.signingSecret] };
      },
      revealWebhookSecret: async () => {
        const data = await mutate(tenant, 'mutation($id: ID!) { revealWebhookSecret(id: $id) { signingSecret } }', {
          id: state.endpointId,
        });
        return { action: 'webhookEndpoint.revealSecret', objectId: state.endpointId!, secrets: [data.revealWebhookSecret.signingSecret] };
      },
      sendTestEvent: async () => {
        await mutate(tenant, 'mutation($id: ID!) { sendTestEvent(endpointId: $id) { id } }', { id: state.endpointId });
        return { action: 'webhookEndpoint.sendTest', objectId: state.endpointId! };
      },
      sendExample: async () => {
        await mutate(tenant, 'mutation($id: ID!) { sendExample(endpointId: $id, eventType: "deploy.ingested") { id } }', {
          id: state.endpointId,
        });
        return { action: 'webhookEndpoint.sendExample', objectId: state.endpointId! };
      },
      retryDelivery: async () => {
        const id = await deliveryOf(state.endpointId!, 'FAILED');
        await mutate(tenant, 'mutation($id: ID!) { retryDelivery(id: $id) { id } }', { id });
        return { action: 'delivery.retry', objectId: id };
      },
      resendDelivery: async () => {
        const id = await deliveryOf(state.endpointId!, 'SUCCEEDED');
        await mutate(tenant, 'mutation($id: ID!) { resendDelivery(id: $id) { id } }', { id });
        return { action: 'delivery.resend', objectId: id };
      },
      recoverDeliveries: async () => {
        await deliveryOf(state.endpointId!, 'FAILED');
        const since = new Date(Date.now() - 3600_000).toISOString();
        await mutate(tenant, 'mutation($id: ID!, $since: DateTime!) { recoverDeliveries(endpointId: $id, since: $since) { queued } }', {
          id: state.endpointId,
          since,
        });
        return { action: 'webhookEndpoint.recoverDeliveries', objectId: state.endpointId! };
      },
      resendDeliveries: async () => {
        await mutate(tenant, 'mutation($id: ID!) { resendDeliveries(filter: { endpointId: $id, status: SUCCEEDED }) { queued } }', {
          id: state.endpointId,
        });
        return { action: 'delivery.resendMatching', objectId: state.endpointId! };
      },
      setWebhookEndpointActive: async () => {
        await mutate(tenant, 'mutation($id: ID!) { setWebhookEndpointActive(id: $id, active: false) { id } }', { id: state.endpointId });
        return { action: 'webhookEndpoint.deactivate', objectId: state.endpointId! };
      },
      deleteWebhookEndpoint: async () => {
        await mutate(tenant, 'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', { id: state.endpointId });
        return { action: 'webhookEndpoint.delete', objectId: state.endpointId! };
      },
      createListener: async () => {
        const data = await mutate(tenant, 'mutation { createListener(eventTypes: ["incident.opened"]) { id } }');
        return { action: 'listener.create', objectId: data.createListener.id };
      },
      pingListeners: async () => {
        const data = await mutate(tenant, 'mutation { pingListeners { id } }');
        return { action: 'listener.ping', objectId: data.pingListeners.id };
      },
      openIncident: async () => {
        const data = await mutate(
          tenant,
          'mutation($id: ID!) { openIncident(serviceId: $id, title: "Checkout errors", environment: "production") { id } }',
          {
            id: tenant.serviceId,
          },
        );
        state.incidentId = data.openIncident.id;
        return { action: 'incident.open', objectId: state.incidentId! };
      },
      setIncidentLookback: async () => {
        await mutate(tenant, 'mutation($id: ID!) { setIncidentLookback(id: $id, lookbackHours: 48) { id } }', { id: state.incidentId });
        return { action: 'incident.setLookback', objectId: state.incidentId! };
      },
      markSuspect: async () => {
        await mutate(
          tenant,
          'mutation($id: ID!, $deploy: ID!) { markSuspect(incidentId: $id, deployId: $deploy, verdict: DISMISSED) { id } }',
          {
            id: state.incidentId,
            deploy: deployId,
          },
        );
        return { action: 'incident.markSuspect', objectId: state.incidentId! };
      },
      addIncidentNote: async () => {
        await mutate(tenant, 'mutation($id: ID!) { addIncidentNote(incidentId: $id, body: "Rolled back") { id } }', {
          id: state.incidentId,
        });
        return { action: 'incident.addNote', objectId: state.incidentId! };
      },
      acknowledgeIncident: async () => {
        await mutate(tenant, 'mutation($id: ID!) { acknowledgeIncident(id: $id) { id } }', { id: state.incidentId });
        return { action: 'incident.acknowledge', objectId: state.incidentId! };
      },
      resolveIncident: async () => {
        await mutate(tenant, 'mutation($id: ID!) { resolveIncident(id: $id) { id } }', { id: state.incidentId });
        return { action: 'incident.resolve', objectId: state.incidentId! };
      },
      createAlertSource: async () => {
        const data = await mutate(
          tenant,
          'mutation { createAlertSource(name: "Prometheus", kind: ALERTMANAGER) { alertSource { id } token } }',
        );
        state.alertSourceId = data.createAlertSource.alertSource.id;
        return { action: 'alertSource.create', objectId: state.alertSourceId!, secrets: [data.createAlertSource.token] };
      },
      rotateAlertSourceToken: async () => {
        const data = await mutate(tenant, 'mutation($id: ID!) { rotateAlertSourceToken(id: $id) { token } }', { id: state.alertSourceId });
        return { action: 'alertSource.rotateToken', objectId: state.alertSourceId!, secrets: [data.rotateAlertSourceToken.token] };
      },
      deleteAlertSource: async () => {
        await mutate(tenant, 'mutation($id: ID!) { deleteAlertSource(id: $id) }', { id: state.alertSourceId });
        return { action: 'alertSource.delete', objectId: state.alertSourceId! };
      },
      createApiToken: async () => {
        const data = await mutate(tenant, 'mutation { createApiToken(name: "CI") { apiToken { id } plaintextToken } }');
        state.apiTokenId = data.createApiToken.apiToken.id;
        return { action: 'apiToken.create', objectId: state.apiTokenId!, secrets: [data.createApiToken.plaintextToken] };
      },
      revokeApiToken: async () => {
        await mutate(tenant, 'mutation($id: ID!) { revokeApiToken(id: $id) { id } }', { id: state.apiTokenId });
        return { action: 'apiToken.revoke', objectId: state.apiTokenId! };
      },
      inviteMember: async () => {
        const data = await mutate(owner, 'mutation($email: String!) { inviteMember(email: $email, role: VIEWER) { inviteUrl } }', {
          email: uniqueEmail('invited'),
        });
        const inviteUrl: string = data.inviteMember.inviteUrl;
        const { rows } = await admin.query(`SELECT id FROM invites WHERE token_hash = $1`, [
          hashToken(new URL(inviteUrl).searchParams.get('token')!),
        ]);
        state.inviteId = rows[0].id;
        return {
          action: 'member.invite',
          objectId: rows[0].id,
          personId: ownerId,
          secrets: [inviteUrl, new URL(inviteUrl).searchParams.get('token')!],
        };
      },
      cancelInvite: async () => {
        await mutate(owner, 'mutation($id: ID!) { cancelInvite(id: $id) { id } }', { id: state.inviteId });
        return { action: 'member.cancelInvite', objectId: state.inviteId!, personId: ownerId };
      },
      changeMemberRole: async () => {
        await mutate(owner, 'mutation($id: ID!) { changeMemberRole(personId: $id, role: ADMIN) { id } }', { id: member.body.person!.id });
        return { action: 'member.changeRole', objectId: member.body.person!.id, personId: ownerId };
      },
      removeMember: async () => {
        await mutate(owner, 'mutation($id: ID!) { removeMember(personId: $id) }', { id: member.body.person!.id });
        return { action: 'member.remove', objectId: member.body.person!.id, personId: ownerId };
      },
      revokeSession: async () => {
        const { rows } = await admin.query(`SELECT id FROM sessions WHERE id_hash = $1`, [
          hashToken(decodeURIComponent(spare.cookie.split('=')[1]!)),
        ]);
        await mutate(owner, 'mutation($id: ID!) { revokeSession(id: $id) { id } }', { id: rows[0].id });
        return { action: 'session.revoke', objectId: rows[0].id, personId: ownerId };
      },
      switchOrganization: async () => {
        await mutate(switcher, 'mutation($id: ID!) { switchOrganization(id: $id) { role } }', { id: elsewhere.organizationId });
        return { action: 'session.switchOrganization', objectId: elsewhere.organizationId, personId: ownerId };
      },
      changePassword: async () => {
        const newPassword = 'another correct horse battery';
        await mutate(owner, 'mutation($current: String!, $new: String!) { changePassword(currentPassword: $current, newPassword: $new) }', {
          current: PASSWORD,
          new: newPassword,
        });
        return { action: 'person.changePassword', objectId: ownerId, personId: ownerId, secrets: [newPassword] };
      },
      revokeAllSessions: async () => {
        await mutate(owner, 'mutation { revokeAllSessions }');
        return { action: 'session.revokeAll', objectId: ownerId, personId: ownerId };
      },
    };

    // A mutation added to the schema without a run here fails this line: give it one, and an entry.
    expect(Object.keys(runs).sort()).toEqual(Object.keys(schema.getMutationType()!.getFields()).sort());

    const secrets: string[] = [tenant.apiToken, tenant.deployToken, PASSWORD, owner.cookie, member.cookie, spare.cookie, switcher.cookie];
    for (const [mutation, run] of Object.entries(runs)) {
      const before = (await auditRows(tenant.organizationId)).length;
      const expected = await run();
      secrets.push(...(expected.secrets ?? []));
      const added = (await auditRows(tenant.organizationId)).slice(before);
      expect({ mutation, added }).toEqual({
        mutation,
        added: [
          {
            organization_id: tenant.organizationId,
            actor_kind: expected.personId ? 'PERSON' : 'API_TOKEN',
            actor_id: expected.personId ?? tokenId,
            action: expected.action,
            object_id: expected.objectId,
            summary: expect.any(String),
            ip: '127.0.0.1',
            user_agent: USER_AGENT,
          },
        ],
      });
    }

    const rows = JSON.stringify([...(await auditRows(tenant.organizationId)), ...(await auditRows(elsewhere.organizationId))]);
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(rows).not.toContain(secret);
  });

  it('writes none when the change is refused: the entry and the change commit together or not at all', async () => {
    const tenant = await hookline.createTenant('checkout');
    const duplicate = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
      body: JSON.stringify({ query: 'mutation { createService(name: "checkout") { deployToken } }' }),
    });
    expect((await duplicate.json()).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const missing = await fetch(`${hookline.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiToken}` },
      body: JSON.stringify({ query: 'mutation { deleteWebhookEndpoint(id: "00000000-0000-4000-8000-000000000000") }' }),
    });
    expect((await missing.json()).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await auditRows(tenant.organizationId)).toEqual([]);
  });

  it('records the address of a mutation sent over the WebSocket: its upgrade request’s', async () => {
    const tenant = await hookline.createTenant('checkout');
    const client = connectGraphqlWs(hookline.baseUrl, tenant.apiToken);
    try {
      const result = await new Promise<unknown>((resolve, reject) => {
        let answer: unknown;
        client.subscribe(
          { query: 'mutation { createService(name: "over-the-socket") { service { id } } }' },
          { next: (value) => (answer = value), error: reject, complete: () => resolve(answer) },
        );
      });
      expect(result).toMatchObject({ data: { createService: { service: { id: expect.any(String) } } } });
    } finally {
      await client.dispose();
    }
    expect(await auditRows(tenant.organizationId)).toEqual([
      expect.objectContaining({ action: 'service.create', actor_kind: 'API_TOKEN', ip: '127.0.0.1' }),
    ]);
  });
});

describe('REST', () => {
  it('writes one entry per endpoint write (create, change, delete) and none for reads or ingest', async () => {
    const tenant = await hookline.createTenant('checkout');
    const tokenId = await apiTokenIdOf(tenant.apiToken);
    const headers = { authorization: `Bearer ${tenant.apiToken}`, 'content-type': 'application/json', 'user-agent': USER_AGENT };
    const created = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      headers,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/rest-hook', name: 'REST hook' }),
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const changed = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ name: 'REST hook 2' }),
    });
    expect(changed.status).toBe(200);
    const read = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints/${id}`, { headers });
    expect(read.status).toBe(200);
    const deleted = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints/${id}`, {
      method: 'DELETE',
      headers: { authorization: headers.authorization, 'user-agent': USER_AGENT },
    });
    expect(deleted.status).toBe(204);
    const deploy = await postDeploy(hookline.baseUrl, tenant.deployToken, { commit_sha: 'f00ba47', environment: 'production' });
    expect(deploy.status).toBe(200);

    const entry = (action: string, summary: string) => ({
      organization_id: tenant.organizationId,
      actor_kind: 'API_TOKEN',
      actor_id: tokenId,
      action,
      object_id: id,
      summary,
      ip: '127.0.0.1',
      user_agent: USER_AGENT,
    });
    expect(await auditRows(tenant.organizationId)).toEqual([
      entry('webhookEndpoint.create', 'Created webhook endpoint "REST hook"'),
      entry('webhookEndpoint.update', 'Changed webhook endpoint "REST hook 2": name'),
      entry('webhookEndpoint.delete', 'Deleted webhook endpoint "REST hook 2"'),
    ]);
    expect(JSON.stringify(await auditRows(tenant.organizationId))).not.toContain(created.body.signingSecret);
  });
});

describe('people over REST', () => {
  it('records set-up, invite acceptance, sign-in and sign-out as the person, never a password, cookie or link', async () => {
    const tenant = await hookline.createTenant('checkout');
    const ownerEmail = uniqueEmail('owner');
    const owner = await setUpOwner(hookline.app, hookline.baseUrl, tenant.organizationId, ownerEmail);
    const ownerId = owner.body.person!.id;
    const invited = await mutate(owner, 'mutation($email: String!) { inviteMember(email: $email, role: MEMBER) { inviteUrl } }', {
      email: uniqueEmail('member'),
    });
    const inviteUrl: string = invited.inviteMember.inviteUrl;
    const token = new URL(inviteUrl).searchParams.get('token')!;
    const accepted = await postJson(
      `${hookline.baseUrl}/api/auth/invites/accept`,
      { token, name: 'Member', password: PASSWORD },
      { 'user-agent': USER_AGENT },
    );
    expect(accepted.status).toBe(200);
    const memberId = accepted.body.person!.id;
    const again = await signIn(hookline.baseUrl, ownerEmail, PASSWORD, { 'user-agent': USER_AGENT });
    expect(again.status).toBe(200);
    const wrong = await signIn(hookline.baseUrl, ownerEmail, 'not the password at all', { 'user-agent': USER_AGENT });
    expect(wrong.status).toBe(401);
    const signedOut = await fetch(`${hookline.baseUrl}/api/auth/sign-out`, {
      method: 'POST',
      headers: { cookie: again.cookie, 'user-agent': USER_AGENT },
    });
    expect(signedOut.status).toBe(204);
    const sessionOf = async (cookie: string) =>
      (await admin.query(`SELECT id FROM sessions WHERE id_hash = $1`, [hashToken(cookie.split('=')[1]!)])).rows[0].id;

    const rows = await auditRows(tenant.organizationId);
    const entry = (personId: string, action: string, objectId: string, summary: string | RegExp, userAgent: string | null) => ({
      organization_id: tenant.organizationId,
      actor_kind: 'PERSON',
      actor_id: personId,
      action,
      object_id: objectId,
      summary: typeof summary === 'string' ? summary : expect.stringMatching(summary),
      ip: '127.0.0.1',
      user_agent: userAgent,
    });
    expect(rows).toEqual([
      entry(ownerId, 'member.completeSetup', ownerId, `${JSON.stringify(ownerEmail)} joined as OWNER`, expect.any(String)),
      entry(ownerId, 'session.signIn', await sessionOf(owner.cookie), 'Signed in with password', expect.any(String)),
      entry(ownerId, 'member.invite', expect.any(String), /^Invited ".+" as MEMBER$/, USER_AGENT),
      entry(memberId, 'member.acceptInvite', memberId, /^".+" joined as MEMBER$/, USER_AGENT),
      entry(memberId, 'session.signIn', await sessionOf(accepted.cookie), 'Signed in with password', USER_AGENT),
      entry(ownerId, 'session.signIn', await sessionOf(again.cookie), 'Signed in with password', USER_AGENT),
      entry(ownerId, 'session.signOut', await sessionOf(again.cookie), 'Signed out', USER_AGENT),
    ]);
    const log = dataOf(
      await requestGraphqlWithHeaders(hookline.baseUrl, { cookie: owner.cookie }, AUDIT_LOG, { filter: { action: 'member.invite' } }),
    );
    expect(log.auditLog.edges.map((edge) => edge.node.actor)).toEqual([{ __typename: 'Person', id: ownerId, email: ownerEmail }]);
    const text = JSON.stringify(rows);
    for (const secret of [PASSWORD, 'not the password at all', inviteUrl, token, owner.cookie, accepted.cookie, again.cookie]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('auditLog', () => {
  it('lists the organization’s entries newest first, a page at a time, filtered by actor, action, object and time', async () => {
    const tenant = await hookline.createTenant('checkout');
    const other = await hookline.createTenant('checkout');
    const tokenId = await apiTokenIdOf(tenant.apiToken);
    const first = await mutate(tenant, 'mutation { createWebhookEndpoint(url: "http://127.0.0.1:9/a", name: "A") { endpoint { id } } }');
    const a: string = first.createWebhookEndpoint.endpoint.id;
    const between = new Date();
    const second = await mutate(tenant, 'mutation { createWebhookEndpoint(url: "http://127.0.0.1:9/b", name: "B") { endpoint { id } } }');
    const b: string = second.createWebhookEndpoint.endpoint.id;
    await mutate(tenant, 'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', { id: a });
    await mutate(other, 'mutation { createWebhookEndpoint(url: "http://127.0.0.1:9/c", name: "C") { endpoint { id } } }');

    const node = (action: string, objectId: string, summary: string) => ({
      id: expect.any(String),
      at: expect.any(String),
      action,
      objectId,
      summary,
      ip: '127.0.0.1',
      userAgent: USER_AGENT,
      actor: { __typename: 'ApiToken', id: tokenId, prefix: tenant.apiToken.slice(0, 12) },
    });
    const all = dataOf(await hookline.graphql(tenant.apiToken, AUDIT_LOG, {}));
    expect(all.auditLog.totalCount).toBe(3);
    expect(all.auditLog.edges.map((edge) => edge.node)).toEqual([
      node('webhookEndpoint.delete', a, 'Deleted webhook endpoint "A"'),
      node('webhookEndpoint.create', b, 'Created webhook endpoint "B"'),
      node('webhookEndpoint.create', a, 'Created webhook endpoint "A"'),
    ]);

    const page = dataOf(await hookline.graphql(tenant.apiToken, AUDIT_LOG, { first: 2 }));
    expect(page.auditLog.pageInfo.hasNextPage).toBe(true);
    const rest = dataOf(await hookline.graphql(tenant.apiToken, AUDIT_LOG, { first: 2, after: page.auditLog.pageInfo.endCursor }));
    expect(rest.auditLog.edges.map((edge) => edge.node.objectId)).toEqual([a]);

    const filtered = async (filter: Record<string, unknown>) =>
      dataOf(await hookline.graphql(tenant.apiToken, AUDIT_LOG, { filter })).auditLog.edges.map(
        (edge) => `${edge.node.action} ${edge.node.objectId === a ? 'A' : 'B'}`,
      );
    expect(await filtered({ objectId: a })).toEqual(['webhookEndpoint.delete A', 'webhookEndpoint.create A']);
    expect(await filtered({ action: 'webhookEndpoint.create' })).toEqual(['webhookEndpoint.create B', 'webhookEndpoint.create A']);
    expect(await filtered({ actorId: tokenId, from: between.toISOString() })).toEqual([
      'webhookEndpoint.delete A',
      'webhookEndpoint.create B',
    ]);
    expect(await filtered({ to: between.toISOString() })).toEqual(['webhookEndpoint.create A']);
    expect(await filtered({ actorId: 'not-a-uuid' })).toEqual([]);
  });
});
