// The webhook endpoints over REST, as a script or a generated client uses them: list (newest
// first, a page at a time), read, change and delete, each with the API token, each refusing
// another organization's endpoint as unknown. Real HTTP against a listening server.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from './support/app.ts';
import { useHookline } from './support/fixture.ts';

const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const hookline = useHookline();
let stranger: Tenant;

beforeAll(async () => {
  stranger = await hookline.createTenant();
});

async function call(method: string, path: string, { body, token = hookline.tenant.apiToken }: { body?: unknown; token?: string } = {}) {
  const response = await fetch(`${hookline.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

async function create(name: string, token = hookline.tenant.apiToken): Promise<string> {
  const created = await call('POST', '/api/webhooks/endpoints', { body: { url: `https://hooks.example.test/${name}`, name }, token });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('GET /api/webhooks/endpoints/{id}', () => {
  it('answers the endpoint, without its signing secret', async () => {
    const id = await create('read');
    const read = await call('GET', `/api/webhooks/endpoints/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id,
      url: 'https://hooks.example.test/read',
      name: 'read',
      status: 'ACTIVE',
      eventTypes: [],
      headers: [],
      timeoutMs: null,
      rateLimitPerSecond: null,
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
      createdAt: expect.stringMatching(INSTANT),
      updatedAt: expect.stringMatching(INSTANT),
    });
  });

  it.each([
    ["another organization's endpoint", async () => create('theirs', stranger.apiToken)],
    ['an unknown id', async () => '00000000-0000-4000-8000-000000000000'],
    ['a malformed id', async () => 'not-a-uuid'],
  ])('answers 404 for %s', async (_what, idOf) => {
    const id = await idOf();
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const answer = await call(method, `/api/webhooks/endpoints/${id}`, method === 'PATCH' ? { body: { name: 'x' } } : {});
      expect({ method, status: answer.status, body: answer.body }).toEqual({
        method,
        status: 404,
        body: { error: { code: 'not_found', message: `Webhook endpoint ${id} not found` } },
      });
    }
  });

  it('refuses a missing or bad API token with 401', async () => {
    const id = await create('guarded');
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const answer = await call(method, `/api/webhooks/endpoints/${id}`, {
        token: `hla_${'x'.repeat(40)}`,
        ...(method === 'PATCH' ? { body: {} } : {}),
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('invalid_api_token');
    }
  });
});

describe('PATCH /api/webhooks/endpoints/{id}', () => {
  it('changes the fields given, keeps the others, and clears a setting given null', async () => {
    const id = await create('patch');
    const changed = await call('PATCH', `/api/webhooks/endpoints/${id}`, {
      body: { name: 'renamed', eventTypes: ['incident.opened'], timeoutMs: 5000, headers: [{ name: 'X-Team', value: 'payments' }] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      id,
      url: 'https://hooks.example.test/patch',
      name: 'renamed',
      eventTypes: ['incident.opened'],
      timeoutMs: 5000,
      headers: [{ name: 'X-Team', value: 'payments' }],
    });

    const cleared = await call('PATCH', `/api/webhooks/endpoints/${id}`, { body: { timeoutMs: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ name: 'renamed', timeoutMs: null });
    expect((await call('GET', `/api/webhooks/endpoints/${id}`)).body).toEqual(cleared.body);
  });

  it('reports every invalid field, and changes nothing', async () => {
    const id = await create('invalid-patch');
    const refused = await call('PATCH', `/api/webhooks/endpoints/${id}`, {
      body: { url: 'http://127.0.0.1/', name: '', eventTypes: ['nope'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('validation_failed');
    expect(refused.body.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['eventTypes[0]', 'name', 'url']);
    expect((await call('GET', `/api/webhooks/endpoints/${id}`)).body).toMatchObject({
      url: 'https://hooks.example.test/invalid-patch',
      name: 'invalid-patch',
    });
  });
});

describe('DELETE /api/webhooks/endpoints/{id}', () => {
  it('deletes it for good: 204, then 404', async () => {
    const id = await create('delete');
    const deleted = await call('DELETE', `/api/webhooks/endpoints/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await call('GET', `/api/webhooks/endpoints/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/webhooks/endpoints/${id}`)).status).toBe(404);
  });
});

describe('GET /api/webhooks/endpoints', () => {
  it("lists the organization's endpoints newest first, a page at a time, and no one else's", async () => {
    const own = await hookline.createTenant();
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three', 'four', 'five']) ids.push(await create(name, own.apiToken));
    await create('foreign', stranger.apiToken);

    const first = await call('GET', '/api/webhooks/endpoints?limit=2', { token: own.apiToken });
    expect(first.status).toBe(200);
    expect(first.body.data.map((endpoint: { name: string }) => endpoint.name)).toEqual(['five', 'four']);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call('GET', `/api/webhooks/endpoints?limit=2&after=${encodeURIComponent(first.body.nextCursor)}`, {
      token: own.apiToken,
    });
    expect(second.body.data.map((endpoint: { name: string }) => endpoint.name)).toEqual(['three', 'two']);
    const last = await call('GET', `/api/webhooks/endpoints?limit=2&after=${encodeURIComponent(second.body.nextCursor)}`, {
      token: own.apiToken,
    });
    expect(last.body).toEqual({ data: [expect.objectContaining({ id: ids[0], name: 'one' })], nextCursor: null });

    const all = await call('GET', '/api/webhooks/endpoints', { token: own.apiToken });
    expect(all.body.data).toHaveLength(5);
    expect(all.body.data[0]).toEqual((await call('GET', `/api/webhooks/endpoints/${ids[4]}`, { token: own.apiToken })).body);
  });

  it('refuses a bad limit or cursor with the fields at fault', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=two', 'after=garbage', 'limit=-1&after=%00']) {
      const refused = await call('GET', `/api/webhooks/endpoints?${query}`);
      expect({ query, status: refused.status, code: refused.body.error.code }).toEqual({ query, status: 400, code: 'validation_failed' });
    }
    const both = await call('GET', '/api/webhooks/endpoints?limit=0&after=garbage');
    expect(both.body.error.details).toEqual([
      { field: 'limit', message: 'must be a whole number from 1 to 100' },
      { field: 'after', message: 'must be a nextCursor this route answered' },
    ]);
  });

  it('answers 405 with Allow for a method no endpoint route serves', async () => {
    const id = await create('methods');
    const put = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints/${id}`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
    const list = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints`, { method: 'DELETE' });
    expect(list.status).toBe(405);
    expect(list.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
