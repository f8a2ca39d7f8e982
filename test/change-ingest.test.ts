// POST /api/ingest/change: feature-flag flips and configuration changes, reported with a deploy
// token under the deploy route's rules (order of checks, body limit, shared rate limit,
// idempotency), through real HTTP.
import { describe, expect, it } from 'vitest';
import { dataOf, requestGraphqlWith } from './support/app.ts';
import { graphql } from './gql/index.ts';
import { postDeploy } from './support/http.ts';
import { useHookline } from './support/fixture.ts';

const CHANGE = '/api/ingest/change';
const CHANGE_DETAILS = graphql(`
  query ChangeDetails($id: ID!) { changeEvent(id: $id) { subject previous value actor } }
`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const hookline = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' } });

const postChange = (token: string | undefined, payload: unknown, headers: Record<string, string> = {}) =>
  postDeploy(hookline.baseUrl, token, payload, headers, CHANGE);

const changeCount = () => hookline.app.database.prisma.changeEvent.count({ where: { organizationId: hookline.tenant.organizationId } });

describe('POST /api/ingest/change', () => {
  it('stores a flag flip with the service of the token, and answers accepted with its change_id', async () => {
    const changedAt = new Date(Date.now() - 7 * 60_000).toISOString();
    const response = await postChange(hookline.tenant.deployToken, {
      kind: 'feature_flag',
      summary: '  new-checkout-flow: on for 50 %  ',
      environment: 'production',
      url: 'https://flags.example.com/new-checkout-flow',
      changed_at: changedAt,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'accepted', change_id: expect.stringMatching(UUID) });
    const stored = await hookline.app.database.prisma.changeEvent.findUniqueOrThrow({ where: { id: response.body.change_id } });
    expect(stored).toEqual(
      expect.objectContaining({
        organizationId: hookline.tenant.organizationId,
        serviceId: hookline.tenant.serviceId,
        kind: 'feature_flag',
        summary: 'new-checkout-flow: on for 50 %',
        environment: 'production',
        url: 'https://flags.example.com/new-checkout-flow',
        changedAt: new Date(changedAt),
        idempotencyKey: null,
      }),
    );
    // Without changed_at, the time of receipt.
    const before = Date.now();
    const now = await postChange(hookline.tenant.deployToken, { kind: 'config', summary: 'pool size 20 → 40' });
    const config = await hookline.app.database.prisma.changeEvent.findUniqueOrThrow({ where: { id: now.body.change_id } });
    expect(config.changedAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(config.changedAt).toEqual(config.receivedAt);
    expect(config.environment).toBeNull();
  });

  it('keeps the subject, its previous and new value (any JSON) and the actor, and shows them in GraphQL', async () => {
    const flip = await postChange(hookline.tenant.deployToken, {
      kind: 'feature_flag',
      summary: 'new checkout on',
      subject: 'new-checkout',
      previous: false,
      value: true,
      actor: 'alice@example.com',
    });
    const config = await postChange(hookline.tenant.deployToken, {
      kind: 'config',
      summary: 'pool',
      subject: 'db.pool',
      previous: null,
      value: { size: 40, timeouts: [1, 2] },
    });
    const bare = await postChange(hookline.tenant.deployToken, { kind: 'config', summary: 'no details' });
    const read = async (id: string) =>
      dataOf(await requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, CHANGE_DETAILS, { id })).changeEvent;
    expect(await read(flip.body.change_id)).toEqual({ subject: 'new-checkout', previous: false, value: true, actor: 'alice@example.com' });
    expect(await read(config.body.change_id)).toEqual({
      subject: 'db.pool',
      previous: null,
      value: { size: 40, timeouts: [1, 2] },
      actor: null,
    });
    expect(await read(bare.body.change_id)).toEqual({ subject: null, previous: null, value: null, actor: null });
  });

  it('refuses unknown fields, each named, with the other invalid ones, and stores nothing', async () => {
    const before = await changeCount();
    const refused = await postChange(hookline.tenant.deployToken, {
      kind: 'feature_flag',
      summary: 'on',
      flag: 'x',
      old_value: 1,
      subject: '',
    });
    expect(refused.status).toBe(400);
    const known = 'kind, summary, environment, url, changed_at, subject, previous, value, actor';
    expect(refused.body).toEqual({
      error: {
        code: 'validation_failed',
        message: 'The change payload is invalid',
        details: [
          { field: 'flag', message: `is not a field of a change event (${known})` },
          { field: 'old_value', message: `is not a field of a change event (${known})` },
          { field: 'subject', message: 'must be 1 to 255 characters' },
        ],
      },
    });
    expect(await changeCount()).toBe(before);
  });

  it('one change per idempotency key and token: concurrent retries get duplicate with the first id', async () => {
    const before = await changeCount();
    const headers = { 'x-idempotency-key': 'flag-run-77' };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => postChange(hookline.tenant.deployToken, { kind: 'feature_flag', summary: 'x on' }, headers)),
    );
    const accepted = responses.filter((r) => r.body.status === 'accepted');
    expect(accepted).toHaveLength(1);
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.body.change_id).toBe(accepted[0]!.body.change_id);
    }
    expect(await changeCount()).toBe(before + 1);
    // The same key is free for deploys (another kind of record) and for another service's token.
    const deploy = await postDeploy(hookline.baseUrl, hookline.tenant.deployToken, { commit_sha: 'abc' }, headers);
    expect(deploy.body.status).toBe('accepted');
    const other = await hookline.createTenant('flags');
    expect((await postChange(other.deployToken, { kind: 'feature_flag', summary: 'x on' }, headers)).body.status).toBe('accepted');
  });

  it('refuses what the deploy route refuses, in the same order and body shape', async () => {
    const before = await changeCount();
    const valid = { kind: 'feature_flag', summary: 'on' };
    expect((await postChange(hookline.tenant.deployToken, 'x'.repeat(102_401))).status).toBe(413);
    const missingToken = await postChange(undefined, valid);
    expect(missingToken.status).toBe(401);
    expect(missingToken.body).toEqual({
      error: { code: 'invalid_deploy_token', message: 'X-Deploy-Token is missing or is not a valid deploy token' },
    });
    expect((await postChange(`hld_${'x'.repeat(40)}`, valid)).status).toBe(401);
    // 401 before 415 and 400.
    expect((await postChange(`hld_${'x'.repeat(40)}`, '{', { 'content-type': 'text/plain' })).status).toBe(401);
    const wrongType = await postChange(hookline.tenant.deployToken, JSON.stringify(valid), { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('unsupported_media_type');
    expect((await postChange(hookline.tenant.deployToken, '{"kind":')).body.error.code).toBe('invalid_json');

    const invalid = await postChange(hookline.tenant.deployToken, {
      kind: 'Feature Flag',
      summary: '   ',
      url: 'ftp://flags.example.com',
      changed_at: new Date(Date.now() + 3_600_000).toISOString(),
      environment: 42,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      error: {
        code: 'validation_failed',
        message: 'The change payload is invalid',
        details: [
          { field: 'kind', message: 'must be a lower-case word such as feature_flag or config' },
          { field: 'summary', message: 'must be 1 to 1000 characters' },
          { field: 'environment', message: 'must be a string' },
          { field: 'url', message: 'must be an http or https address' },
          { field: 'changed_at', message: 'must not be more than 5 minutes in the future' },
        ],
      },
    });
    const missing = await postChange(hookline.tenant.deployToken, {});
    expect(missing.body.error.details).toEqual([
      { field: 'kind', message: 'is required' },
      { field: 'summary', message: 'is required' },
    ]);
    const deployKind = await postChange(hookline.tenant.deployToken, { kind: 'deploy', summary: 'v2' });
    expect(deployKind.body.error.details).toEqual([{ field: 'kind', message: 'must not be "deploy": send deploys to /api/ingest/deploy' }]);
    const badKey = await postChange(hookline.tenant.deployToken, valid, { 'x-idempotency-key': 'k'.repeat(256) });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.code).toBe('invalid_idempotency_key');
    expect(await changeCount()).toBe(before);
  });
});

describe('POST /api/ingest/change rate limit', () => {
  it('shares the per-address ingest budget with deploys', async () => {
    // Its own database: rate-limit counters live there, per client address.
    const ownDatabase = await hookline.createDatabase();
    const limited = await hookline.startApp({ INGEST_RATE_LIMIT_PER_MINUTE: '3' }, ownDatabase.url);
    try {
      const own = await hookline.createTenant('limited', limited.app);
      const deploy = await postDeploy(limited.baseUrl, own.deployToken, { commit_sha: 'a' });
      expect(deploy.headers.get('ratelimit-remaining')).toBe('2');
      const change = await postDeploy(limited.baseUrl, own.deployToken, { kind: 'config', summary: 'x' }, {}, CHANGE);
      expect(change.status).toBe(200);
      expect(change.headers.get('ratelimit-limit')).toBe('3');
      expect(change.headers.get('ratelimit-remaining')).toBe('1');
      await postDeploy(limited.baseUrl, own.deployToken, { commit_sha: 'b' });
      const refused = await postDeploy(limited.baseUrl, own.deployToken, { kind: 'config', summary: 'y' }, {}, CHANGE);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
      await ownDatabase.drop();
    }
  });
});
