// POST /api/ingest/deploy: every field of the ingest contract (docs/ingest.md) and every step of the
// contract's check order, through real HTTP against a real database.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { post, postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000', INGEST_TEST_RATE_LIMIT_PER_MINUTE: '1000000' } });
let url: string;

beforeAll(async () => {
  // This file is about everything but the rate limit (test/rate-limit.test.ts), so lift it.
  url = hookline.baseUrl;
});

async function storedCounts() {
  const prisma = hookline.app.database.prisma;
  return { deploys: await prisma.deploy.count(), commits: await prisma.commit.count() };
}

/** Asserts that a rejected request stored nothing. */
let countsBefore: { deploys: number; commits: number };
beforeEach(async () => {
  countsBefore = await storedCounts();
});
async function expectNothingStored() {
  expect(await storedCounts()).toEqual(countsBefore);
}

function commits(count: number) {
  return Array.from({ length: count }, (_, i) => ({ sha: `c${i}`.padEnd(40, '0') }));
}

function validationError(details: { field: string; message: string }[]) {
  return { error: { code: 'validation_failed', message: 'The deploy payload is invalid', details } };
}

describe('accepted deploys', () => {
  it('stores a full deploy with its commits and answers accepted with a UUID', async () => {
    const payload = {
      commit_sha: 'a1b2c3d4e5f6',
      commit_message: 'Fix checkout rounding',
      branch: 'main',
      deployed_by: 'ci-bot',
      environment: 'production',
      version: 'v1.4.2',
      description: 'Weekly release',
      url: 'https://ci.example.com/runs/42',
      commits: [
        { sha: 'a1b2c3d4e5f6', message: 'Fix checkout rounding', author: 'ada', timestamp: '2026-11-20T10:00:00Z' },
        { sha: 'f6e5d4c3b2a1', message: 'Add test', author: 'grace', timestamp: '2026-11-20T09:00:00+02:00' },
      ],
    };
    const response = await postDeploy(url, hookline.tenant.deployToken, payload);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'accepted', deploy_id: expect.stringMatching(UUID) });

    const stored = await hookline.app.database.prisma.deploy.findUniqueOrThrow({
      where: { id: response.body.deploy_id },
      include: { commits: { orderBy: { position: 'asc' } } },
    });
    expect(stored).toMatchObject({
      organizationId: hookline.tenant.organizationId,
      serviceId: hookline.tenant.serviceId,
      commitSha: 'a1b2c3d4e5f6',
      commitMessage: 'Fix checkout rounding',
      branch: 'main',
      deployedBy: 'ci-bot',
      environment: 'production',
      version: 'v1.4.2',
      description: 'Weekly release',
      url: 'https://ci.example.com/runs/42',
      idempotencyKey: null,
    });
    expect(stored.deployedAt).toEqual(stored.receivedAt);
    expect(stored.commits.map((c) => [c.position, c.sha, c.author, c.timestamp?.toISOString()])).toEqual([
      [0, 'a1b2c3d4e5f6', 'ada', '2026-11-20T10:00:00.000Z'],
      [1, 'f6e5d4c3b2a1', 'grace', '2026-11-20T07:00:00.000Z'],
    ]);
  });

  it('accepts only commit_sha, ignores unknown fields and treats null optionals as absent', async () => {
    const response = await postDeploy(url, hookline.tenant.deployToken, {
      commit_sha: 'abc',
      surprise: { nested: true },
      version: null,
      commits: null,
    });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('accepted');
  });

  it('records deployed_at when given, for late and backfilled deploys', async () => {
    const response = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc', deployed_at: '2026-01-02T03:04:05.678Z' });
    expect(response.status).toBe(200);
    const stored = await hookline.app.database.prisma.deploy.findUniqueOrThrow({ where: { id: response.body.deploy_id } });
    expect(stored.deployedAt.toISOString()).toBe('2026-01-02T03:04:05.678Z');
  });

  it('accepts Content-Type with parameters and in other letter case', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON']) {
      const response = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'content-type': contentType });
      expect(response.status).toBe(200);
    }
  });

  it('creates a deploy per request without X-Idempotency-Key', async () => {
    const first = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'same' });
    const second = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'same' });
    expect(first.body.status).toBe('accepted');
    expect(second.body.status).toBe('accepted');
    expect(second.body.deploy_id).not.toBe(first.body.deploy_id);
  });

  it('carries RateLimit headers on every response, accepted or not', async () => {
    for (const response of [
      await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' }),
      await postDeploy(url, undefined, { commit_sha: 'abc' }),
    ]) {
      expect(response.headers.get('ratelimit-limit')).toBe('1000000');
      expect(Number(response.headers.get('ratelimit-remaining'))).toBeGreaterThan(0);
      expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('limits of the ingest contract, at their boundaries', () => {
  it('commit_sha: 255 characters accepted, 256 refused', async () => {
    expect((await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'a'.repeat(255) })).status).toBe(200);
    countsBefore = await storedCounts();
    const response = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'a'.repeat(256) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(validationError([{ field: 'commit_sha', message: 'must be at most 255 characters' }]));
    await expectNothingStored();
  });

  it('commits: 100 accepted, 101 refused', async () => {
    const ok = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc', commits: commits(100) });
    expect(ok.status).toBe(200);
    expect(await hookline.app.database.prisma.commit.count({ where: { deployId: ok.body.deploy_id } })).toBe(100);
    countsBefore = await storedCounts();
    const response = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc', commits: commits(101) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(validationError([{ field: 'commits', message: 'must have at most 100 items' }]));
    await expectNothingStored();
  });

  it('url: 2048 characters accepted, 2049 refused, and it must be an http(s) address', async () => {
    const base = 'https://ci.example.com/';
    expect(
      (await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc', url: base + 'x'.repeat(2048 - base.length) })).status,
    ).toBe(200);
    countsBefore = await storedCounts();
    const tooLong = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc', url: base + 'x'.repeat(2049 - base.length) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(validationError([{ field: 'url', message: 'must be at most 2048 characters' }]));
    const notHttp = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc', url: 'ftp://ci.example.com/run' });
    expect(notHttp.body).toEqual(validationError([{ field: 'url', message: 'must be an http or https address' }]));
    await expectNothingStored();
  });

  it('body: 102,400 bytes accepted, 102,401 bytes refused with 413', async () => {
    const bodyOfLength = (length: number) => {
      const skeleton = JSON.stringify({ commit_sha: 'abc', description: '' });
      const body = JSON.stringify({ commit_sha: 'abc', description: 'd'.repeat(length - skeleton.length) });
      expect(Buffer.byteLength(body)).toBe(length);
      return body;
    };
    expect((await postDeploy(url, hookline.tenant.deployToken, bodyOfLength(102_400))).status).toBe(200);
    countsBefore = await storedCounts();
    const response = await postDeploy(url, hookline.tenant.deployToken, bodyOfLength(102_401));
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: { code: 'payload_too_large', message: 'Request body exceeds 102400 bytes' } });
    await expectNothingStored();
  });

  it('413 also for a chunked body with no Content-Length, counted while streaming', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(25_000));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 5) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await post(`${url}/api/ingest/deploy`, {
      body: stream,
      headers: { 'content-type': 'application/json', 'x-deploy-token': hookline.tenant.deployToken },
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
    await expectNothingStored();
  });

  it('413 comes before everything else: no token, wrong type, and no rate-limit use', async () => {
    const before = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' });
    const response = await post(`${url}/api/ingest/deploy`, { body: 'x'.repeat(200_000), headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(413);
    expect(response.headers.get('ratelimit-remaining')).toBeNull();
    const after = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' });
    expect(Number(after.headers.get('ratelimit-remaining'))).toBe(Number(before.headers.get('ratelimit-remaining')) - 1);
  });
});

describe('validation', () => {
  it('reports a missing commit_sha, and a commit without sha by its path', async () => {
    const response = await postDeploy(url, hookline.tenant.deployToken, { commits: [{ sha: 'ok' }, { message: 'no sha' }] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      validationError([
        { field: 'commit_sha', message: 'is required' },
        { field: 'commits[1].sha', message: 'is required' },
      ]),
    );
    await expectNothingStored();
  });

  it('reports every wrong type at once', async () => {
    const response = await postDeploy(url, hookline.tenant.deployToken, {
      commit_sha: 123,
      branch: ['main'],
      environment: 5,
      deployed_by: true,
      commits: [{ sha: 7, author: {}, timestamp: 'yesterday' }, 'not-an-object'],
      deployed_at: 'soon',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      validationError([
        { field: 'commit_sha', message: 'must be a string' },
        { field: 'branch', message: 'must be a string' },
        { field: 'deployed_by', message: 'must be a string' },
        { field: 'environment', message: 'must be a string' },
        { field: 'commits[0].sha', message: 'must be a string' },
        { field: 'commits[0].author', message: 'must be a string' },
        { field: 'commits[0].timestamp', message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z' },
        { field: 'commits[1]', message: 'must be an object' },
        { field: 'deployed_at', message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z' },
      ]),
    );
    await expectNothingStored();
  });

  it('refuses an empty commit_sha, a commits value that is not an array, and deployed_at far in the future', async () => {
    const inTenMinutes = new Date(Date.now() + 10 * 60_000).toISOString();
    const response = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: '', commits: 'abc', deployed_at: inTenMinutes });
    expect(response.body).toEqual(
      validationError([
        { field: 'commit_sha', message: 'must not be empty' },
        { field: 'commits', message: 'must be an array' },
        { field: 'deployed_at', message: 'must not be more than 5 minutes in the future' },
      ]),
    );
    await expectNothingStored();
  });

  it('refuses JSON that is not an object', async () => {
    for (const payload of ['[]', '"abc"', 'null', '42']) {
      const response = await postDeploy(url, hookline.tenant.deployToken, payload);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(validationError([{ field: 'body', message: 'must be a JSON object' }]));
    }
    await expectNothingStored();
  });

  it('refuses malformed JSON and an empty body with invalid_json', async () => {
    for (const payload of ['{"commit_sha": "abc"', '{commit_sha: abc}', '']) {
      const response = await postDeploy(url, hookline.tenant.deployToken, payload);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_json', message: 'Body is not valid JSON' } });
    }
    await expectNothingStored();
  });

  it('refuses a wrong or missing Content-Type with 415', async () => {
    const body = JSON.stringify({ commit_sha: 'abc' });
    const contentTypes: Record<string, string>[] = [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'not a media type' },
      {},
    ];
    for (const headers of contentTypes) {
      const response = await post(`${url}/api/ingest/deploy`, {
        body: new TextEncoder().encode(body),
        headers: { 'x-deploy-token': hookline.tenant.deployToken, ...headers },
      });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ error: { code: 'unsupported_media_type', message: 'Content-Type must be application/json' } });
    }
    await expectNothingStored();
  });
});

describe('text and times PostgreSQL cannot store', () => {
  const NOT_STORABLE = 'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters';
  const OUT_OF_RANGE = 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z';

  it('refuses NUL and unpaired surrogates in any string, naming each field', async () => {
    // JSON.stringify writes them as the escapes \u0000 and \ud800, as a client's JSON would.
    const response = await postDeploy(url, hookline.tenant.deployToken, {
      commit_sha: 'abc\u0000',
      commit_message: '\ud800',
      branch: 'main\udc00',
      deployed_by: 'ci\u0000bot',
      environment: '\u0000',
      version: 'v1\ud83d',
      description: 'paired \ud83d\ude80 is fine, this \udfff is not',
      url: 'https://ci.example.com/\u0000',
      commits: [
        { sha: 'c1', message: 'ok 🚀' },
        { sha: '\ud800c2', message: 'm\u0000', author: '\udc00' },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      validationError(
        [
          'commit_sha',
          'commit_message',
          'branch',
          'deployed_by',
          'environment',
          'version',
          'description',
          'url',
          'commits[1].sha',
          'commits[1].message',
          'commits[1].author',
        ].map((field) => ({ field, message: NOT_STORABLE })),
      ),
    );
    await expectNothingStored();
  });

  it('refuses commit timestamps and deployed_at outside 1970..9999 (UTC), and accepts the edges', async () => {
    const response = await postDeploy(url, hookline.tenant.deployToken, {
      commit_sha: 'abc',
      commits: [
        { sha: 'c0', timestamp: '0000-01-01T00:00:00Z' },
        { sha: 'c1', timestamp: '9999-12-31T23:59:59-23:59' },
        { sha: 'c2', timestamp: '1970-01-01T00:59:59+01:00' },
      ],
      deployed_at: '1969-12-31T23:59:59Z',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      validationError([
        { field: 'commits[0].timestamp', message: OUT_OF_RANGE },
        { field: 'commits[1].timestamp', message: OUT_OF_RANGE },
        { field: 'commits[2].timestamp', message: OUT_OF_RANGE },
        { field: 'deployed_at', message: OUT_OF_RANGE },
      ]),
    );
    await expectNothingStored();

    const edges = await postDeploy(url, hookline.tenant.deployToken, {
      commit_sha: 'abc',
      commits: [
        { sha: 'first', timestamp: '1970-01-01T00:00:00Z' },
        { sha: 'last', timestamp: '9999-12-31T23:59:59.999+00:00' },
      ],
      deployed_at: '1970-01-01T00:00:00Z',
    });
    expect(edges.status).toBe(200);
    const stored = await hookline.app.database.prisma.deploy.findUniqueOrThrow({
      where: { id: edges.body.deploy_id },
      include: { commits: { orderBy: { position: 'asc' } } },
    });
    expect(stored.deployedAt.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(stored.commits.map((commit) => commit.timestamp?.toISOString())).toEqual([
      '1970-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]);
  });

  it('refuses a declared charset other than UTF-8 with 415, and bytes that are not UTF-8 with 400, on both routes', async () => {
    const latin1 = Buffer.from(JSON.stringify({ commit_sha: 'abc', deployed_by: 'Zoë' }), 'latin1');
    for (const path of ['/api/ingest/deploy', '/api/ingest/deploy/test']) {
      for (const charset of ['iso-8859-1', 'windows-1252', 'utf-16']) {
        const response = await post(`${url}${path}`, {
          body: latin1,
          headers: { 'content-type': `application/json; charset=${charset}`, 'x-deploy-token': hookline.tenant.deployToken },
        });
        expect(response.status, charset).toBe(415);
        expect(response.body).toEqual({ error: { code: 'unsupported_media_type', message: 'Content-Type charset must be utf-8' } });
      }
      const notUtf8 = await post(`${url}${path}`, {
        body: latin1,
        headers: { 'content-type': 'application/json', 'x-deploy-token': hookline.tenant.deployToken },
      });
      expect(notUtf8.status).toBe(400);
      expect(notUtf8.body).toEqual({ error: { code: 'invalid_json', message: 'Body is not valid UTF-8' } });
      for (const charset of ['utf-8', 'UTF-8', 'utf8']) {
        const response = await postDeploy(
          url,
          hookline.tenant.deployToken,
          { commit_sha: 'abc', deployed_by: 'Zoë' },
          { 'content-type': `application/json; charset=${charset}` },
          path,
        );
        expect(response.status, charset).toBe(200);
      }
    }
    // The content is judged after the token: without one, the answer is still 401.
    const anonymous = await post(`${url}/api/ingest/deploy`, {
      body: latin1,
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('deploy token', () => {
  const refused = { error: { code: 'invalid_deploy_token', message: 'X-Deploy-Token is missing or is not a valid deploy token' } };

  it('refuses a missing, unknown or malformed token with 401', async () => {
    for (const token of [undefined, `hld_${'x'.repeat(40)}`, 'not-a-token', hookline.tenant.apiToken]) {
      const response = await postDeploy(url, token, { commit_sha: 'abc' });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(refused);
    }
    await expectNothingStored();
  });

  it('checks the token before the content: 401 wins over 415 and 400', async () => {
    const wrongType = await post(`${url}/api/ingest/deploy`, { body: 'abc', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(401);
    const invalid = await postDeploy(url, undefined, '{broken');
    expect(invalid.status).toBe(401);
    await expectNothingStored();
  });
});

describe('idempotency', () => {
  it('answers duplicate with the first deploy id for the same key and token', async () => {
    const first = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-idempotency-key': 'run-1' });
    const again = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'different' }, { 'x-idempotency-key': 'run-1' });
    expect(first.body).toEqual({ status: 'accepted', deploy_id: expect.stringMatching(UUID) });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: 'duplicate', deploy_id: first.body.deploy_id });
    expect((await storedCounts()).deploys).toBe(countsBefore.deploys + 1);
  });

  it('scopes keys to the deploy token: the same key with another service token is a new deploy', async () => {
    const other = await hookline.createTenant('billing');
    const mine = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-idempotency-key': 'shared-key' });
    const theirs = await postDeploy(url, other.deployToken, { commit_sha: 'abc' }, { 'x-idempotency-key': 'shared-key' });
    expect(mine.body.status).toBe('accepted');
    expect(theirs.body.status).toBe('accepted');
    expect(theirs.body.deploy_id).not.toBe(mine.body.deploy_id);
  });

  it('50 concurrent requests with one key give exactly one deploy and 49 duplicates with its id', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        postDeploy(
          url,
          hookline.tenant.deployToken,
          { commit_sha: `sha-${i}`, commits: commits(3) },
          { 'x-idempotency-key': 'concurrent-key' },
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const accepted = responses.filter((r) => r.body.status === 'accepted');
    const duplicates = responses.filter((r) => r.body.status === 'duplicate');
    expect(accepted).toHaveLength(1);
    expect(duplicates).toHaveLength(49);
    expect(new Set(duplicates.map((r) => r.body.deploy_id))).toEqual(new Set([accepted[0]!.body.deploy_id]));
    expect(await storedCounts()).toEqual({ deploys: countsBefore.deploys + 1, commits: countsBefore.commits + 3 });
  });

  it('refuses a key over 255 characters or with control characters', async () => {
    expect(
      (await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-idempotency-key': 'k'.repeat(255) })).status,
    ).toBe(200);
    countsBefore = await storedCounts();
    for (const key of ['k'.repeat(256), 'tab\tinside']) {
      const response = await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-idempotency-key': key });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: { code: 'invalid_idempotency_key', message: 'X-Idempotency-Key must be 1 to 255 printable ASCII characters' },
      });
    }
    await expectNothingStored();
  });
});

describe('POST /api/ingest/deploy/test', () => {
  it('checks token and payload, answers with the service, and stores nothing', async () => {
    const response = await postDeploy(
      url,
      hookline.tenant.deployToken,
      { commit_sha: 'abc', commits: commits(2) },
      {},
      '/api/ingest/deploy/test',
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', service: { id: hookline.tenant.serviceId, name: 'checkout' } });
    await expectNothingStored();
  });

  it('runs the same checks as the real route', async () => {
    const path = '/api/ingest/deploy/test';
    expect((await postDeploy(url, undefined, { commit_sha: 'abc' }, {}, path)).status).toBe(401);
    expect((await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'a'.repeat(256) }, {}, path)).body.error.code).toBe(
      'validation_failed',
    );
    expect((await postDeploy(url, hookline.tenant.deployToken, '{', {}, path)).body.error.code).toBe('invalid_json');
    expect((await postDeploy(url, hookline.tenant.deployToken, 'x'.repeat(102_401), {}, path)).status).toBe(413);
    await expectNothingStored();
  });
});

describe('metrics', () => {
  it('counts each ingest outcome and HTTP request on /metrics', async () => {
    const counter = (text: string, name: string, labels: string) =>
      Number(text.match(new RegExp(`^${name}\\{${labels}\\} (\\d+)$`, 'm'))?.[1] ?? 0);
    const counters = async () => {
      const response = await fetch(`${url}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      const outcome = (name: string) => counter(text, 'hookline_ingest_requests_total', `route="/api/ingest/deploy",outcome="${name}"`);
      return {
        accepted: outcome('accepted'),
        invalidToken: outcome('invalid_deploy_token'),
        tooLarge: outcome('payload_too_large'),
        ok: counter(text, 'hookline_http_requests_total', 'method="POST",route="/api/ingest/deploy",status="200"'),
      };
    };
    const before = await counters();
    expect((await postDeploy(url, hookline.tenant.deployToken, { commit_sha: 'metrics' })).status).toBe(200);
    expect((await postDeploy(url, undefined, { commit_sha: 'abc' })).status).toBe(401);
    expect((await postDeploy(url, hookline.tenant.deployToken, 'x'.repeat(102_401))).status).toBe(413);
    expect(await counters()).toEqual({
      accepted: before.accepted + 1,
      invalidToken: before.invalidToken + 1,
      tooLarge: before.tooLarge + 1,
      ok: before.ok + 1,
    });
  });
});
