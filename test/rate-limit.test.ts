// Per-IP rate limits with counters in PostgreSQL: one limit across api processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from './support/app.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const ENVIRONMENT = { INGEST_RATE_LIMIT_PER_MINUTE: '5', INGEST_TEST_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1' };
const hookline = useHookline({ environment: ENVIRONMENT });
let second: RunningApp;

// Each test speaks from its own client address (X-Forwarded-For from the loopback proxy),
// so the tests share no bucket.
let nextAddress = 1;
const clientAddress = () => `203.0.113.${nextAddress++}`;

beforeAll(async () => {
  second = await hookline.startApp(ENVIRONMENT);
});

describe('ingest rate limit', () => {
  it('allows the limit, then answers 429 with Retry-After and RateLimit headers', async () => {
    const ip = clientAddress();
    for (let i = 1; i <= 5; i++) {
      const response = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': ip });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe('5');
      expect(response.headers.get('ratelimit-remaining')).toBe(String(5 - i));
    }
    const deploysBefore = await hookline.app.database.prisma.deploy.count();
    const limited = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': ip });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: { code: 'rate_limited', message: expect.stringMatching(/^Rate limit of 5 requests per minute exceeded; retry in \d+ s$/) },
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe(String(retryAfter));
    expect(await hookline.app.database.prisma.deploy.count()).toBe(deploysBefore);
  });

  it('is checked before the token: an over-limit request without a token gets 429', async () => {
    const ip = clientAddress();
    for (let i = 0; i < 5; i++) await postDeploy(hookline.baseUrl, undefined, { commit_sha: 'abc' }, { 'x-forwarded-for': ip });
    const response = await postDeploy(hookline.baseUrl, undefined, { commit_sha: 'abc' }, { 'x-forwarded-for': ip });
    expect(response.status).toBe(429);
  });

  it('is one limit shared by two server instances on one database', async () => {
    const ip = clientAddress();
    const statuses: number[] = [];
    for (const instance of [hookline, second, hookline, second, second, hookline, second]) {
      statuses.push(
        (await postDeploy(instance.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': ip })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('allows exactly the limit to a burst of concurrent requests spread over both instances', async () => {
    const ip = clientAddress();
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        postDeploy((i % 2 ? hookline : second).baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': ip }),
      ),
    );
    const allowed = responses.filter((response) => response.status === 200);
    expect(allowed).toHaveLength(5);
    expect(allowed.map((response) => response.headers.get('ratelimit-remaining')).sort()).toEqual(['0', '1', '2', '3', '4']);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(19);
  });

  it('counts each client address separately', async () => {
    const [a, b] = [clientAddress(), clientAddress()];
    for (let i = 0; i < 5; i++)
      await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': a });
    expect((await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': a })).status).toBe(
      429,
    );
    expect((await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': b })).status).toBe(
      200,
    );
  });

  it('gives the test endpoint its own, smaller limit', async () => {
    const ip = clientAddress();
    const path = '/api/ingest/deploy/test';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await postDeploy(second.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': ip }, path)).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The production route's bucket is untouched by the test endpoint.
    const production = await postDeploy(second.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, { 'x-forwarded-for': ip });
    expect(production.status).toBe(200);
    expect(production.headers.get('ratelimit-remaining')).toBe('4');
  });
});

describe('client address', () => {
  let untrusting: RunningApp;
  beforeAll(async () => {
    untrusting = await hookline.startApp({ INGEST_RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(() => untrusting?.close());

  it('ignores X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      // A client cannot escape its limit by inventing a new forwarded address each time.
      const response = await postDeploy(
        untrusting.baseUrl,
        hookline.tenant.deployToken,
        { commit_sha: 'abc' },
        { 'x-forwarded-for': clientAddress() },
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('rate limit off', () => {
  let unlimited: RunningApp;
  beforeAll(async () => {
    unlimited = await hookline.startApp({ INGEST_RATE_LIMIT_PER_MINUTE: 'off', INGEST_TEST_RATE_LIMIT_PER_MINUTE: 'off' });
  });
  afterAll(() => unlimited?.close());

  it('neither limits nor sends RateLimit headers', async () => {
    for (let i = 0; i < 7; i++) {
      const response = await postDeploy(unlimited.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});
