// Every DateTime a client can send (arguments and filter fields) accepts only instants PostgreSQL
// can store, years 0001..9999 in UTC: anything else is BAD_USER_INPUT naming the field, never an
// internal error from the database (SQLSTATE 22008). The table below must name every DateTime
// input of the schema, so a new one cannot be added without this check.
import {
  getNamedType,
  isInputObjectType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLNamedType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOT_STORABLE_TIME_MESSAGE } from '../src/domain/shared/input.ts';
import { schema } from '../src/graphql/schema.ts';
import { graphql } from './gql/index.ts';
import { dataOf, requestGraphqlWith, type GraphqlResponse } from './support/app.ts';
import { post } from './support/http.ts';
import { useHookline } from './support/fixture.ts';
import { createEndpoint } from './support/operations.ts';

const DELIVERIES = graphql(`
  query DateInputDeliveries($filter: DeliveryFilter) { deliveries(filter: $filter) { totalCount } }
`);
const EVENTS = graphql(`
  query DateInputEvents($filter: EventFilter) { events(filter: $filter) { totalCount } }
`);
const DORA = graphql(`
  query DateInputDora($from: DateTime!, $to: DateTime!) { dora(from: $from, to: $to) { deployCount } }
`);
const OPEN_INCIDENT = graphql(`
  mutation DateInputOpenIncident($serviceId: ID!, $startedAt: DateTime) {
    openIncident(serviceId: $serviceId, title: "Checkout errors", startedAt: $startedAt) { id }
  }
`);
const RECOVER = graphql(`
  mutation DateInputRecover($endpointId: ID!, $since: DateTime!, $until: DateTime) {
    recoverDeliveries(endpointId: $endpointId, since: $since, until: $until) { queued }
  }
`);
const RESEND = graphql(`
  mutation DateInputResend($filter: DeliveryFilter!) { resendDeliveries(filter: $filter) { queued } }
`);
const AUDIT_LOG = graphql(`
  query DateInputAuditLog($filter: AuditLogFilter) { auditLog(filter: $filter) { totalCount } }
`);
const RESOLVE_INCIDENT = graphql(`
  mutation DateInputResolveIncident($id: ID!, $resolvedAt: DateTime) { resolveIncident(id: $id, resolvedAt: $resolvedAt) { id } }
`);
const CHART = graphql(`
  query DateInputChart($id: ID!, $from: DateTime!, $to: DateTime!) { webhookEndpoint(id: $id) { chart(interval: DAY, from: $from, to: $to) { start } } }
`);

const hookline = useHookline({ environment: { ROLE: 'api' } });
let endpointId: string;

beforeAll(async () => {
  endpointId = (await createEndpoint(hookline, hookline.tenant.apiToken, { url: 'https://hooks.example.com/dates', name: 'dates' })).id;
});

const GOOD = '2026-11-01T00:00:00Z';

/** Each DateTime input of the schema (`Type.field(argument.inputField)`), sent with `date` and the field that must be named. */
const DATE_INPUTS: Record<string, { field: string; send: (date: string) => Promise<GraphqlResponse<unknown>> }> = {
  'Query.deliveries(filter.from)': { field: 'filter.from', send: (date) => request(DELIVERIES, { filter: { from: date } }) },
  'Query.deliveries(filter.to)': { field: 'filter.to', send: (date) => request(DELIVERIES, { filter: { to: date } }) },
  'Query.events(filter.from)': { field: 'filter.from', send: (date) => request(EVENTS, { filter: { from: date } }) },
  'Query.events(filter.to)': { field: 'filter.to', send: (date) => request(EVENTS, { filter: { to: date } }) },
  'Query.dora(from)': { field: 'from', send: (date) => request(DORA, { from: date, to: GOOD }) },
  'Query.dora(to)': { field: 'to', send: (date) => request(DORA, { from: GOOD, to: date }) },
  'Query.auditLog(filter.from)': { field: 'filter.from', send: (date) => request(AUDIT_LOG, { filter: { from: date } }) },
  'Query.auditLog(filter.to)': { field: 'filter.to', send: (date) => request(AUDIT_LOG, { filter: { to: date } }) },
  'Mutation.resolveIncident(resolvedAt)': {
    field: 'resolvedAt',
    send: async (date) => {
      const opened = dataOf(await request(OPEN_INCIDENT, { serviceId: hookline.tenant.serviceId, startedAt: GOOD })) as {
        openIncident: { id: string };
      };
      return request(RESOLVE_INCIDENT, { id: opened.openIncident.id, resolvedAt: date });
    },
  },
  'Mutation.openIncident(startedAt)': {
    field: 'startedAt',
    send: (date) => request(OPEN_INCIDENT, { serviceId: hookline.tenant.serviceId, startedAt: date }),
  },
  'Mutation.recoverDeliveries(since)': { field: 'since', send: (date) => request(RECOVER, { endpointId, since: date }) },
  'Mutation.recoverDeliveries(until)': { field: 'until', send: (date) => request(RECOVER, { endpointId, since: GOOD, until: date }) },
  'Mutation.resendDeliveries(filter.from)': { field: 'filter.from', send: (date) => request(RESEND, { filter: { from: date } }) },
  'Mutation.resendDeliveries(filter.to)': { field: 'filter.to', send: (date) => request(RESEND, { filter: { to: date } }) },
  'WebhookEndpoint.chart(from)': { field: 'from', send: (date) => request(CHART, { id: endpointId, from: date, to: GOOD }) },
  'WebhookEndpoint.chart(to)': { field: 'to', send: (date) => request(CHART, { id: endpointId, from: GOOD, to: date }) },
};

function request<TResult, TVariables>(document: Parameters<typeof requestGraphqlWith<TResult, TVariables>>[2], variables: TVariables) {
  return requestGraphqlWith(hookline.baseUrl, hookline.tenant.apiToken, document, variables as never) as Promise<GraphqlResponse<unknown>>;
}

/** Every DateTime input reachable from the root types, through input objects, as `Type.field(path)`. */
function dateTimeInputsOfSchema(): string[] {
  const found: string[] = [];
  const visit = (owner: string, path: string, input: GraphQLArgument | GraphQLInputField, seen: Set<GraphQLNamedType>) => {
    const type = getNamedType(input.type);
    if (type.name === 'DateTime') found.push(`${owner}(${path})`);
    if (isInputObjectType(type) && !seen.has(type)) {
      for (const field of Object.values(type.getFields())) visit(owner, `${path}.${field.name}`, field, new Set([...seen, type]));
    }
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      for (const argument of field.args) visit(`${type.name}.${field.name}`, argument.name, argument, new Set());
    }
  }
  return found.sort();
}

describe('DateTime inputs', () => {
  it('the table names every DateTime input of the schema', () => {
    expect(Object.keys(DATE_INPUTS).sort()).toEqual(dateTimeInputsOfSchema());
  });

  // Year 0 as written, and 1969 once converted to UTC; both are valid RFC 3339 to the scalar.
  it.each(
    Object.entries(DATE_INPUTS).flatMap(([input, check]) =>
      ['0000-01-01T00:00:00Z', '1970-01-01T00:30:00+01:00'].map((date) => ({ input, date, ...check })),
    ),
  )('$input = $date → BAD_USER_INPUT naming $field', async ({ field, send, date }) => {
    const response = await send(date);
    expect(response.status).toBe(200);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', fields: [{ field, message: NOT_STORABLE_TIME_MESSAGE }] } }),
    ]);
  });

  it('refuses a literal date in a filter the same way', async () => {
    const response = await post(`${hookline.baseUrl}/graphql`, {
      body: JSON.stringify({ query: '{ deliveries(filter: {from: "0000-01-01T00:00:00Z"}) { totalCount } }' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'filter.from', message: NOT_STORABLE_TIME_MESSAGE }] },
      }),
    ]);
  });

  it('accepts the first and the last storable instants', async () => {
    for (const date of ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      for (const send of [DATE_INPUTS['Query.deliveries(filter.from)']!.send, DATE_INPUTS['Query.events(filter.to)']!.send]) {
        const response = await send(date);
        expect(response.body.errors, date).toBeUndefined();
      }
    }
  });
});
