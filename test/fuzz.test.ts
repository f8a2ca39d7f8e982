// Property-based fuzzing of the REST surface (fast-check) against a real server and database:
// thousands of generated bodies and header sets. Whatever arrives, the answer is below 500 and
// in the contract's shape, and a request that is not accepted stores nothing.
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useHookline } from './support/fixture.ts';

const RUNS = 5_000;
const PATHS = { ingest: '/api/ingest/deploy', 'ingest-test': '/api/ingest/deploy/test', endpoints: '/api/webhooks/endpoints' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// A limit out of reach, but counted: the limiter's code runs on every request.
const hookline = useHookline({
  environment: { INGEST_RATE_LIMIT_PER_MINUTE: '100000000', INGEST_TEST_RATE_LIMIT_PER_MINUTE: '100000000' },
});
let agent: http.Agent;

beforeAll(async () => {
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
});

afterAll(async () => {
  agent?.destroy();
});

// ---------------------------------------------------------------------------------------
// Generators

/** Any UTF-16 code unit, so unpaired surrogates and NUL come up as often as anything else. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const nastyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: codeUnit, maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', '\udfff', 'a\u0000b', '🚀', '\ud83d\ude80', 'x'.repeat(300), 'null', '<script>'),
);
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Mostly a plausible value, so that whole payloads are often valid; now and then anything at all. */
const mostly = <T>(plausible: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 30, arbitrary: plausible }, { weight: 2, arbitrary: nastyText }, { weight: 1, arbitrary: anyJson });
const text = mostly(fc.string({ maxLength: 40 }));

const pad = (value: number, width: number) => String(value).padStart(width, '0');
/** ISO 8601 shapes with years 0..9999 and offsets up to ±23:59: the edges of what PostgreSQL can store. */
const isoLike = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 60 }),
    fraction: fc.option(fc.integer({ min: 0, max: 999_999_999 }), { nil: undefined }),
    offset: fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([sign, hours, minutes]) => `${sign}${pad(hours, 2)}:${pad(minutes, 2)}`),
    ),
  })
  .map(
    ({ year, month, day, hour, minute, second, fraction, offset }) =>
      `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}` +
      `${fraction === undefined ? '' : `.${fraction}`}${offset}`,
  );
const timestamp = mostly(
  fc.oneof(
    isoLike,
    fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    fc.date({ min: new Date('2020-01-01'), max: new Date(), noInvalidDate: true }).map((date) => date.toISOString()),
    fc.constantFrom('0000-01-01T00:00:00Z', '9999-12-31T23:59:59-23:59', '0001-01-01T00:00:00+00:01', '+275760-09-13T00:00:00.000Z'),
  ),
);
const sha = mostly(fc.stringMatching(/^[0-9a-f]{7,40}$/));
const url = mostly(fc.oneof(fc.webUrl(), fc.constantFrom('https://ci.example.com/\u0000', 'ftp://x', 'https://x:0/', 'http://[::1]/')));

const commit = mostly(fc.record({ sha, message: text, author: text, timestamp }, { requiredKeys: ['sha'] }));
const deployPayload = fc.record(
  {
    commit_sha: sha,
    commit_message: text,
    branch: text,
    deployed_by: text,
    environment: text,
    version: text,
    description: text,
    url,
    commits: mostly(
      fc.oneof(
        { weight: 8, arbitrary: fc.array(commit, { maxLength: 5 }) },
        { weight: 1, arbitrary: fc.array(commit, { minLength: 99, maxLength: 102 }) },
      ),
    ),
    deployed_at: timestamp,
    surprise: anyJson,
  },
  { requiredKeys: [] },
);
const endpointPayload = fc.record(
  {
    url: mostly(fc.oneof(fc.constant('https://hooks.example.com/fuzz'), url)),
    name: text,
    eventTypes: mostly(fc.array(mostly(fc.constantFrom('deploy.ingested', 'incident.opened', 'test.ping')), { maxLength: 30 })),
  },
  { requiredKeys: [] },
);

/** Bodies as bytes: mostly JSON of the route's shape, then any JSON, any text, any bytes. */
function bodyOf(payload: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 6, arbitrary: payload.map((value) => Buffer.from(JSON.stringify(value))) },
    { weight: 1, arbitrary: anyJson.map((value) => Buffer.from(JSON.stringify(value) ?? '')) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((text) => Buffer.from(text)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  );
}

/** What Node's HTTP client lets through in a header value: tab, visible ASCII, and bytes 0x80..0xff. */
const headerText = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
    .map((code) => String.fromCharCode(code)),
  maxLength: 300,
});
const contentType = fc.option(
  fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON; Charset=UTF-8',
      'application/json; charset="utf-8"',
      'application/json; charset=iso-8859-1',
      'application/json; charset=utf-16',
      'application/json;',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ),
    headerText,
  ),
  { nil: undefined, freq: 10 },
);

interface Scenario {
  route: 'ingest' | 'ingest-test' | 'endpoints';
  body: Buffer;
  headers: Record<string, string>;
  chunked: boolean;
}

/** A scenario as fast-check prints a counterexample: the body as text, not as a byte list. */
function scenarioOf(route: Scenario['route'], body: Buffer, headers: Record<string, string>, chunked: boolean): Scenario {
  return {
    route,
    body,
    headers,
    chunked,
    [fc.toStringMethod]: () =>
      `POST ${PATHS[route]} ${JSON.stringify(headers)} ${chunked ? 'chunked ' : ''}body ${JSON.stringify(body.toString('latin1'))}`,
  } as Scenario;
}

const ingestScenario = (route: 'ingest' | 'ingest-test') =>
  fc
    .record({
      body: bodyOf(deployPayload),
      token: fc.oneof(
        { weight: 6, arbitrary: fc.constant('valid') },
        fc.constantFrom(undefined, 'api'),
        headerText,
        fc.stringMatching(/^hld_[0-9A-Za-z]{40}$/),
      ),
      contentType,
      // A few fixed keys come up again and again, so duplicates happen too.
      idempotencyKey: fc.option(fc.oneof(fc.constantFrom('key-1', 'key-2', ' padded ', ''), headerText), { nil: undefined, freq: 2 }),
      forwardedFor: fc.option(headerText, { nil: undefined }),
      chunked: fc.boolean(),
    })
    .map(({ body, token, contentType, idempotencyKey, forwardedFor, chunked }): Scenario => {
      const headers: Record<string, string> = {};
      if (token !== undefined)
        headers['x-deploy-token'] = token === 'valid' ? hookline.tenant.deployToken : token === 'api' ? hookline.tenant.apiToken : token;
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (idempotencyKey !== undefined) headers['x-idempotency-key'] = idempotencyKey;
      if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
      return scenarioOf(route, body, headers, chunked);
    });

const endpointScenario = fc
  .record({
    body: bodyOf(endpointPayload),
    authorization: fc.oneof({ weight: 6, arbitrary: fc.constant('valid') }, fc.constant(undefined), headerText),
    contentType,
    chunked: fc.boolean(),
  })
  .map(({ body, authorization, contentType, chunked }): Scenario => {
    const headers: Record<string, string> = {};
    if (authorization !== undefined)
      headers.authorization = authorization === 'valid' ? `Bearer ${hookline.tenant.apiToken}` : authorization;
    if (contentType !== undefined) headers['content-type'] = contentType;
    return scenarioOf('endpoints', body, headers, chunked);
  });

const scenario = fc.oneof(
  { weight: 6, arbitrary: ingestScenario('ingest') },
  { weight: 2, arbitrary: ingestScenario('ingest-test') },
  { weight: 2, arbitrary: endpointScenario },
);

// ---------------------------------------------------------------------------------------
// Sending and judging

function send({ route, body, headers, chunked }: Scenario): Promise<{ status: number; contentType: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${hookline.baseUrl}${PATHS[route]}`,
      { method: 'POST', agent, headers: chunked ? headers : { ...headers, 'content-length': String(body.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            contentType: response.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const errorShape = z
  .object({
    error: z.strictObject({
      code: z.string().regex(/^[a-z_]+$/),
      message: z.string().min(1),
      details: z
        .array(z.strictObject({ field: z.string().min(1), message: z.string().min(1) }))
        .min(1)
        .max(20)
        .optional(),
    }),
  })
  .strict();
const successShapes = {
  ingest: z.strictObject({ status: z.enum(['accepted', 'duplicate']), deploy_id: z.string().regex(UUID) }),
  'ingest-test': z.strictObject({ status: z.literal('ok'), service: z.strictObject({ id: z.string().regex(UUID), name: z.string() }) }),
  endpoints: z.strictObject({
    id: z.string().regex(UUID),
    url: z.string(),
    name: z.string(),
    status: z.literal('ACTIVE'),
    eventTypes: z.array(z.string()),
    signingSecret: z.string().startsWith('whsec_'),
    createdAt: z.iso.datetime(),
  }),
};

async function storedRows() {
  const { rows } = await hookline.app.database.pool.query<{ deploys: number; commits: number; endpoints: number }>(
    `SELECT (SELECT count(*) FROM deploys)::int AS deploys, (SELECT count(*) FROM commits)::int AS commits,
            (SELECT count(*) FROM webhook_endpoints)::int AS endpoints`,
  );
  return rows[0]!;
}

describe('fuzzing the REST surface', () => {
  // Sized for a loaded 2-core machine: idle, the run takes a fraction of this.
  it(`${RUNS} generated requests: no 5xx, every answer in the contract's shape, nothing stored unless accepted`, {
    timeout: 600_000,
  }, async () => {
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenario, async (request) => {
        const before = await storedRows();
        const answer = await send(request);
        expect(answer.status).toBeLessThan(500);
        expect(answer.contentType).toMatch(/^application\/json/);
        const body = JSON.parse(answer.text);
        const success = answer.status === 200 || answer.status === 201;
        outcomes.add(`${request.route} ${answer.status} ${body.status ?? body.error?.code ?? ''}`.trim());
        expect((success ? successShapes[request.route] : errorShape).safeParse(body).error).toBeUndefined();

        const after = await storedRows();
        if (request.route === 'ingest' && body.status === 'accepted') {
          const sent = JSON.parse(request.body.toString('utf8'));
          expect(after).toEqual({ ...before, deploys: before.deploys + 1, commits: before.commits + (sent.commits?.length ?? 0) });
        } else if (request.route === 'endpoints' && answer.status === 201) {
          expect(after).toEqual({ ...before, endpoints: before.endpoints + 1 });
        } else {
          expect(after).toEqual(before);
        }
      }),
      { numRuns: RUNS },
    );
    // The generators reach every branch: accepted, duplicate and refused requests, on each route.
    expect([...outcomes].sort()).toEqual(
      expect.arrayContaining([
        'endpoints 201 ACTIVE',
        'endpoints 400 validation_failed',
        'endpoints 401 invalid_api_token',
        'endpoints 415 unsupported_media_type',
        'ingest 200 accepted',
        'ingest 200 duplicate',
        'ingest 400 invalid_idempotency_key',
        'ingest 400 invalid_json',
        'ingest 400 validation_failed',
        'ingest 401 invalid_deploy_token',
        'ingest 415 unsupported_media_type',
        'ingest-test 200 ok',
        'ingest-test 400 validation_failed',
      ]),
    );
  });
});
