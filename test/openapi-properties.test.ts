// Requests generated from the OpenAPI document that the server serves (fast-check drives
// json-schema-faker over the document's own request schemas): a body or header the document
// allows gets the operation's documented success, one it forbids gets 400 in the error shape,
// and every answer (status, body, headers) validates against the document. A client or fuzzer
// generated from the document therefore agrees with the server.
//
// Generated data never leaves the machine: URLs are https://127.0.0.1 or [::1] (the server runs
// with WEBHOOK_ALLOW_PRIVATE, and ROLE=api so nothing is ever delivered). Two rules JSON Schema
// cannot state are in the document's prose, and the generated data keeps them: times are in the
// past ("at most 5 minutes ahead" is a rule of the clock), and an endpoint's custom header names
// are unique case-insensitively, within a total size.
import fc from 'fast-check';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAlertSource } from '../src/domain/ingest/alert-sources.ts';
import { documentChecker, pointer, type DocumentChecker, type OpenApiDocument } from './support/openapi.ts';
import { useHookline } from './support/fixture.ts';

const RUNS = 60;

const hookline = useHookline({
  environment: {
    ROLE: 'api',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    INGEST_RATE_LIMIT_PER_MINUTE: '100000000',
    INGEST_TEST_RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION: '100000',
  },
});
let alertmanagerToken: string;
let pagerDutyToken: string;
let checker: DocumentChecker;
let endpointId: string;

beforeAll(async () => {
  alertmanagerToken = (
    await createAlertSource(hookline.app.database.prisma, hookline.tenant.organizationId, { name: 'Prometheus', kind: 'ALERTMANAGER' })
  ).token;
  pagerDutyToken = (
    await createAlertSource(hookline.app.database.prisma, hookline.tenant.organizationId, { name: 'Datadog', kind: 'PAGERDUTY_EVENTS' })
  ).token;
  checker = documentChecker((await (await fetch(`${hookline.baseUrl}/api/openapi.json`)).json()) as OpenApiDocument);
  const created = await fetch(`${hookline.baseUrl}/api/webhooks/endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    body: JSON.stringify({ url: 'https://127.0.0.1:9/changed-by-the-property', name: 'changed' }),
  });
  expect(created.status).toBe(201);
  endpointId = ((await created.json()) as { id: string }).id;
});

/** Whether a body keeps the prose rule on custom headers: each name once (any case), at most 8,192 bytes with 4 per header. */
function keepsHeaderRules(body: unknown): boolean {
  const headers = (body as { headers?: { name: string; value: string }[] | null }).headers ?? [];
  const names = new Set(headers.map(({ name }) => name.toLowerCase()));
  return names.size === headers.length && headers.reduce((sum, { name, value }) => sum + name.length + value.length + 4, 0) <= 8192;
}

/** An operation with a JSON body, how it is called, and what a request the document allows gets. */
interface Operation {
  method: 'post' | 'patch';
  route: string;
  credential: () => Record<string, string>;
  success: number;
  /** What an invalid body is answered with, when not Hookline's `validation_failed`: PagerDuty's own 400. */
  invalid?: Record<string, unknown>;
  /** Fields the generator cannot know: the PagerDuty routing_key is the token itself. */
  complete?: (body: Record<string, unknown>) => Record<string, unknown>;
}

const OPERATIONS: Operation[] = [
  { method: 'post', route: '/api/ingest/deploy', credential: () => ({ 'x-deploy-token': hookline.tenant.deployToken }), success: 200 },
  { method: 'post', route: '/api/ingest/deploy/test', credential: () => ({ 'x-deploy-token': hookline.tenant.deployToken }), success: 200 },
  { method: 'post', route: '/api/ingest/change', credential: () => ({ 'x-deploy-token': hookline.tenant.deployToken }), success: 200 },
  {
    method: 'post',
    route: '/api/webhooks/endpoints',
    credential: () => ({ authorization: `Bearer ${hookline.tenant.apiToken}` }),
    success: 201,
  },
  {
    method: 'patch',
    route: '/api/webhooks/endpoints/{id}',
    credential: () => ({ authorization: `Bearer ${hookline.tenant.apiToken}` }),
    success: 200,
  },
  {
    method: 'post',
    route: '/api/ingest/alerts/alertmanager',
    credential: () => ({ authorization: `Bearer ${alertmanagerToken}` }),
    success: 200,
  },
  {
    method: 'post',
    route: '/api/ingest/alerts/pagerduty/v2/enqueue',
    credential: () => ({}),
    success: 202,
    invalid: { status: 'invalid event', message: 'Event object is invalid' },
    complete: (body) => ({ ...body, routing_key: pagerDutyToken }),
  },
];

/** Loopback https addresses only: the document's `uri` format, as this machine may reach it. */
const loopbackUri = (random: { int(min: number, max: number): number }) =>
  `https://${random.int(0, 1) === 0 ? '127.0.0.1' : '[::1]'}:${random.int(1, 65535)}/hook/${random.int(0, 1_000_000)}`;

/** The operation's JSON request body schema (a reference to a component schema), and where it is. */
function requestBody({ method, route }: Operation) {
  const operation = checker.document.paths[route]![method]! as { requestBody: { content: Record<string, { schema: { $ref: string } }> } };
  const schema = operation.requestBody.content['application/json']!.schema;
  return {
    location: `#/paths/${pointer(route)}/${method}/requestBody/content/${pointer('application/json')}/schema`,
    schema,
    component: checker.document.components.schemas[schema.$ref.split('/').pop()!] as { required?: string[] },
  };
}

/** A value the request body schema allows, from one seed. */
function generated(schema: { $ref: string }, seed: number): Record<string, unknown> {
  return generateSync({ ...schema, components: checker.document.components } as JsonSchema, {
    seed,
    minDateTime: '2000-01-01',
    maxDateTime: '2026-01-01',
    formats: { uri: loopbackUri },
  }) as Record<string, unknown>;
}

async function send(operation: Operation, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${hookline.baseUrl}${operation.route.replace('{id}', endpointId)}`, {
    method: operation.method.toUpperCase(),
    headers: { 'content-type': 'application/json', ...operation.credential(), ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  checker.expectDocumented(operation.route, operation.method, response, text);
  return { status: response.status, text };
}

/**
 * A change that makes a body break its schema: a required field dropped, a field given a value
 * of another JSON type, or a string field made longer than any maximum. Which field, and which
 * change, fast-check picks (and shrinks).
 */
const breakage = fc.record({
  field: fc.nat(),
  kind: fc.constantFrom('drop-required', 'wrong-type', 'too-long'),
  wrongValue: fc.oneof(fc.integer(), fc.boolean(), fc.constant({}), fc.constant([1, 2]), fc.constant(null)),
});

type Breakage = typeof breakage extends fc.Arbitrary<infer T> ? T : never;

function broken(body: Record<string, unknown>, schema: { required?: string[] }, { field, kind, wrongValue }: Breakage): unknown {
  const copy = { ...body };
  const keys = Object.keys(copy);
  if (kind === 'drop-required' && schema.required?.length) delete copy[schema.required[field % schema.required.length]!];
  // A body with no fields can only break as a whole: not an object.
  else if (keys.length === 0) return [wrongValue];
  else {
    const key = keys[field % keys.length]!;
    copy[key] = kind === 'too-long' && typeof copy[key] === 'string' ? 'x'.repeat(70_000) : wrongValue;
  }
  return copy;
}

describe('requests generated from the OpenAPI document', () => {
  it.each(OPERATIONS)('$method $route: every body the document allows gets $success', async (operation) => {
    const { location, schema } = requestBody(operation);
    const validate = checker.schemaAt(location);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const body = operation.complete ? operation.complete(generated(schema, seed)) : generated(schema, seed);
        // The generator ignores a pattern's lookaheads (the reserved header names): what it makes
        // beyond the document is no request the document allows, so it is skipped, not sent.
        fc.pre(validate(body) && keepsHeaderRules(body));
        const { status, text } = await send(operation, body);
        expect(status, `${JSON.stringify(body)} → ${text}`).toBe(operation.success);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(OPERATIONS)(
    "$method $route: every body the document forbids gets 400 (validation_failed, or PagerDuty's invalid event)",
    async (operation) => {
      const { location, schema, component } = requestBody(operation);
      const validate = checker.schemaAt(location);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), breakage, async (seed, change) => {
          const broke = broken(generated(schema, seed), component, change);
          // The credential stays: a body without it is refused as unauthenticated, not as invalid.
          const body =
            operation.complete && typeof broke === 'object' && !Array.isArray(broke)
              ? operation.complete(broke as Record<string, unknown>)
              : broke;
          fc.pre(!validate(body));
          const { status, text } = await send(operation, body);
          expect(status, `${JSON.stringify(body).slice(0, 500)} → ${text}`).toBe(400);
          expect(JSON.parse(text)).toMatchObject(operation.invalid ?? { error: { code: 'validation_failed' } });
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('X-Idempotency-Key: every key the document allows is taken, every other is 400', async () => {
    const deploy = OPERATIONS[0]!;
    const parameter = (
      checker.document.paths[deploy.route]!.post! as unknown as { parameters: { name: string; schema: object }[] }
    ).parameters.find(({ name }) => name === 'X-Idempotency-Key')!;
    const validate = checker.ajv.compile(parameter.schema);
    // Header values are visible ASCII and spaces (what a Fetch client can send at all).
    const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          headerValue,
          fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => generateSync(parameter.schema as JsonSchema, { seed }) as string),
        ),
        async (key) => {
          fc.pre(key.trim() === key); // a Fetch client trims the spaces around a header value
          const { status, text } = await send(deploy, { commit_sha: 'a1b2c3d' }, { 'x-idempotency-key': key });
          expect(status, `${JSON.stringify(key)} → ${text}`).toBe(validate(key) ? 200 : 400);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it("an endpoint's custom header name: every name the document allows is taken, every other is 400", async () => {
    const patch = OPERATIONS.find(({ method }) => method === 'patch')!;
    const { schema } = requestBody(patch);
    const component = checker.document.components.schemas[schema.$ref.split('/').pop()!] as {
      properties: { headers: { anyOf: { items?: { properties: { name: object } } }[] } };
    };
    const nameSchema = component.properties.headers.anyOf.find(({ items }) => items)!.items!.properties.name;
    const validate = checker.ajv.compile(nameSchema);
    // Hookline's own names and the connection's, in any case, beside any token.
    const ownName = fc
      .tuple(
        fc.constantFrom(
          'te',
          'Host',
          'content-length',
          'Transfer-Encoding',
          'webhook-id',
          'X-Service-Event',
          'x-service-other',
          'keep-alive',
        ),
        fc.boolean(),
      )
      .map(([name, upper]) => (upper ? name.toUpperCase() : name));
    const token = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,20}$/);
    await fc.assert(
      fc.asyncProperty(fc.oneof(ownName, token), async (name) => {
        const { status, text } = await send(patch, { headers: [{ name, value: 'v' }] });
        expect(status, `${JSON.stringify(name)} → ${text}`).toBe(validate(name) ? 200 : 400);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
