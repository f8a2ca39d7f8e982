// The OpenAPI 3.1 document of the REST routes (/api/openapi.json, committed as openapi.json):
// valid by a real OpenAPI validator, and true to what the server does. Real requests over HTTP
// give every documented answer; each answer's status, body and headers are checked against the
// document with ajv.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { createTenant, startApp, type RunningApp, type Tenant } from './support/app.ts';

const root = path.resolve(import.meta.dirname, '..');
const DOCUMENT_ID = 'https://hookline.invalid/openapi.json';
const INGEST_TEST_LIMIT = 4;

interface OpenApiResponse {
  headers?: Record<string, { required?: boolean; schema: object } | { $ref: string }>;
  content?: Record<string, { schema: object }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse | { $ref: string }>; security?: unknown[] }>>;
  components: { headers: Record<string, { required?: boolean; schema: object }>; responses?: Record<string, OpenApiResponse> };
}

let database: TestDatabase;
let running: RunningApp;
let tenant: Tenant;
let documentText: string;
let document: OpenApiDocument;
let ajv: Ajv2020;

beforeAll(async () => {
  database = await createTestDatabase();
  running = await startApp(database.url, { INGEST_TEST_RATE_LIMIT_PER_MINUTE: String(INGEST_TEST_LIMIT) });
  tenant = await createTenant(running.app);
  documentText = await readFile(path.join(root, 'openapi.json'), 'utf8');
  document = JSON.parse(documentText);
  ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  // The document's own members are not JSON Schema keywords; the schemas inside are checked strictly.
  ajv.addVocabulary(['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'components', 'security', 'tags']);
  ajv.addSchema(document, DOCUMENT_ID);
});

afterAll(async () => {
  await running?.close();
  await database?.drop();
});

/** A JSON pointer segment (RFC 6901). */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

function resolve<T>(value: T | { $ref: string }): T {
  if (typeof value === 'object' && value !== null && '$ref' in value) {
    const target = value.$ref.replace(/^#\//, '').split('/').reduce<any>((node, key) => node[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
    return target as T;
  }
  return value;
}

interface Case {
  name: string;
  method: 'get' | 'post';
  path: string;
  /** Which token the request carries, if any. */
  credential?: 'deploy' | 'api';
  /** Content-Type of the body; application/json unless said. */
  contentType?: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
}

function requestHeaders({ credential, contentType, headers, body }: Case): Record<string, string> {
  return {
    ...(body === undefined ? {} : { 'content-type': contentType ?? 'application/json' }),
    ...(credential === 'deploy' ? { 'x-deploy-token': tenant.deployToken } : {}),
    ...(credential === 'api' ? { authorization: `Bearer ${tenant.apiToken}` } : {}),
    ...headers,
  };
}

/** Asks the server, then checks the answer against the document's response for its status. */
async function checkAgainstDocument(request: Case) {
  const { method, path: route, body, status } = request;
  const response = await fetch(`${running.baseUrl}${route}`, { method: method.toUpperCase(), headers: requestHeaders(request), body });
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const operation = document.paths[route]?.[method];
  expect(operation, `${method} ${route} is documented`).toBeDefined();
  const documented = operation!.responses[String(status)];
  expect(documented, `${status} is documented for ${method} ${route}`).toBeDefined();
  const answer = resolve(documented!);
  const location = '$ref' in documented! ? documented.$ref : `#/paths/${pointer(route)}/${method}/responses/${status}`;

  const mediaType = response.headers.get('content-type')!.split(';')[0]!;
  expect(Object.keys(answer.content ?? {})).toContain(mediaType);
  if (mediaType === 'application/json') {
    const ref = `${DOCUMENT_ID}${location}/content/${pointer(mediaType)}/schema`;
    const validate = ajv.getSchema(ref)!;
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
  }

  for (const [name, header] of Object.entries(answer.headers ?? {}).map(([name, header]) => [name, resolve(header)] as const)) {
    const value = response.headers.get(name);
    if (header.required) expect(value, `${name} on ${status}`).not.toBeNull();
    if (value !== null) {
      const valid = ajv.validate(header.schema, /^\d+$/.test(value) ? Number(value) : value);
      expect(valid, `${name}: ${value} ${JSON.stringify(ajv.errors)}`).toBe(true);
    }
  }
  return { response, text };
}

const json = (value: unknown) => JSON.stringify(value);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(documentText));
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
    // The validator does look: a response without its required description fails.
    const broken = JSON.parse(documentText);
    delete broken.paths['/healthz'].get.responses['200'].description;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('is served at /api/openapi.json exactly as committed', async () => {
    const response = await fetch(`${running.baseUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(document);
  });

  it('describes the REST routes, their credentials, error shape and rate-limit headers', () => {
    expect(Object.fromEntries(Object.entries(document.paths).map(([route, item]) => [route, Object.keys(item)]))).toEqual({
      '/api/ingest/deploy': ['post'],
      '/api/ingest/deploy/test': ['post'],
      '/api/ingest/change': ['post'],
      '/api/webhooks/endpoints': ['post'],
      '/healthz': ['get'],
      '/readyz': ['get'],
      '/metrics': ['get'],
      '/api/openapi.json': ['get'],
    });
    expect(document.paths['/api/ingest/deploy']!.post!.security).toEqual([{ deployToken: [] }]);
    expect(document.paths['/api/webhooks/endpoints']!.post!.security).toEqual([{ apiToken: [] }]);
    expect(Object.keys(document.components.headers).sort()).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
    // The error schema is not vacuous: a body of another shape fails it.
    const ref = `${DOCUMENT_ID}#/paths/${pointer('/api/ingest/deploy')}/post/responses/401/content/${pointer('application/json')}/schema`;
    const validate = ajv.getSchema(ref)!;
    expect(validate({ error: { code: 'invalid_deploy_token', message: 'X-Deploy-Token is missing' } })).toBe(true);
    expect(validate({ error: { code: 'rate_limited', message: 'Slow down' } })).toBe(false);
    expect(validate({ message: 'Unauthorized' })).toBe(false);
  });
});

describe('real answers match the document', () => {
  const deploy = { commit_sha: 'a1b2c3d', environment: 'production', commits: [{ sha: 'a1b2c3d', message: 'Fix', timestamp: '2026-11-21T10:00:00Z' }] };
  const endpoint = { url: 'https://hooks.example.com/hookline', name: 'Alerts', eventTypes: ['deploy.ingested'] };
  const cases: Case[] = [
    { name: 'new deploy', method: 'post', path: '/api/ingest/deploy', credential: 'deploy', headers: { 'x-idempotency-key': 'openapi-1' }, body: json(deploy), status: 200 },
    { name: 'duplicate deploy', method: 'post', path: '/api/ingest/deploy', credential: 'deploy', headers: { 'x-idempotency-key': 'openapi-1' }, body: json(deploy), status: 200 },
    { name: 'invalid deploy', method: 'post', path: '/api/ingest/deploy', credential: 'deploy', body: json({ commits: 'many' }), status: 400 },
    { name: 'deploy, malformed JSON', method: 'post', path: '/api/ingest/deploy', credential: 'deploy', body: '{"commit_sha":', status: 400 },
    { name: 'deploy, bad idempotency key', method: 'post', path: '/api/ingest/deploy', credential: 'deploy', headers: { 'x-idempotency-key': 'k'.repeat(256) }, body: json(deploy), status: 400 },
    { name: 'deploy without token', method: 'post', path: '/api/ingest/deploy', body: json(deploy), status: 401 },
    { name: 'deploy as text', method: 'post', path: '/api/ingest/deploy', credential: 'deploy', contentType: 'text/plain', body: 'deployed', status: 415 },
    { name: 'deploy too large', method: 'post', path: '/api/ingest/deploy', credential: 'deploy', body: json({ commit_sha: 'x', description: 'x'.repeat(102_400) }), status: 413 },
    { name: 'new change', method: 'post', path: '/api/ingest/change', credential: 'deploy', body: json({ kind: 'feature_flag', summary: 'checkout-v2 on' }), status: 200 },
    { name: 'invalid change', method: 'post', path: '/api/ingest/change', credential: 'deploy', body: json({ kind: 'Deploy!' }), status: 400 },
    { name: 'change without token', method: 'post', path: '/api/ingest/change', body: '{}', status: 401 },
    { name: 'change as text', method: 'post', path: '/api/ingest/change', credential: 'deploy', contentType: 'text/plain', body: 'x', status: 415 },
    { name: 'change too large', method: 'post', path: '/api/ingest/change', credential: 'deploy', body: 'x'.repeat(102_401), status: 413 },
    // The test route's own limit (INGEST_TEST_LIMIT): four answers, then 429 (a 413 comes before the limit).
    { name: 'test, valid', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: json(deploy), status: 200 },
    { name: 'test, invalid', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: json({}), status: 400 },
    { name: 'test as text', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', contentType: 'text/plain', body: 'x', status: 415 },
    { name: 'test without token', method: 'post', path: '/api/ingest/deploy/test', body: json(deploy), status: 401 },
    { name: 'test, rate-limited', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: json(deploy), status: 429 },
    { name: 'test too large', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: 'x'.repeat(102_401), status: 413 },
    { name: 'new endpoint', method: 'post', path: '/api/webhooks/endpoints', credential: 'api', body: json(endpoint), status: 201 },
    { name: 'invalid endpoint', method: 'post', path: '/api/webhooks/endpoints', credential: 'api', body: json({ url: 'http://127.0.0.1/' }), status: 400 },
    { name: 'endpoint, malformed JSON', method: 'post', path: '/api/webhooks/endpoints', credential: 'api', body: '{', status: 400 },
    { name: 'endpoint without token', method: 'post', path: '/api/webhooks/endpoints', body: json(endpoint), status: 401 },
    { name: 'endpoint as text', method: 'post', path: '/api/webhooks/endpoints', credential: 'api', contentType: 'text/plain', body: endpoint.url, status: 415 },
    { name: 'endpoint too large', method: 'post', path: '/api/webhooks/endpoints', credential: 'api', body: json({ ...endpoint, name: 'x'.repeat(1_048_576) }), status: 413 },
    { name: 'health', method: 'get', path: '/healthz', status: 200 },
    { name: 'readiness', method: 'get', path: '/readyz', status: 200 },
    { name: 'metrics', method: 'get', path: '/metrics', status: 200 },
    { name: 'the document itself', method: 'get', path: '/api/openapi.json', status: 200 },
  ];

  // In order (not concurrent): the test route's rate limit counts the answers before.
  it.each(cases)('$name → $status', async (request) => {
    await checkAgainstDocument(request);
  });

  it('gave every documented operation at least one real request', () => {
    const operations = Object.entries(document.paths).flatMap(([route, item]) => Object.keys(item).map((method) => `${method} ${route}`));
    expect(new Set(cases.map(({ method, path: route }) => `${method} ${route}`))).toEqual(new Set(operations));
  });

  it('429 carries Retry-After and the RateLimit headers, as documented', async () => {
    const { response } = await checkAgainstDocument({ name: 'again', method: 'post', path: '/api/ingest/deploy/test', credential: 'deploy', body: json(deploy), status: 429 });
    expect(response.headers.get('ratelimit-limit')).toBe(String(INGEST_TEST_LIMIT));
    expect(response.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
