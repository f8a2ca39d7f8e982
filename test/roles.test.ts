// Every mutation of the built schema, tried over HTTP by every role (signed-in people) and every
// token scope: refused with FORBIDDEN below its role in MUTATION_ROLES, let through at and above
// it (its own answer may then be NOT_FOUND or BAD_USER_INPUT: the arguments are placeholders). A
// mutation with no rule fails this test, and is refused to everyone by the server.
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { issueApiToken } from '../src/domain/shared/api-tokens.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { API_TOKEN_SCOPES, hasRole, ROLES, SCOPE_ROLE, type Role } from '../src/domain/shared/roles.ts';
import { MUTATION_ROLES } from '../src/graphql/roles.ts';
import { schema } from '../src/graphql/schema.ts';
import { useHookline } from './support/fixture.ts';
import { invitePerson, setUpOwner } from './support/people.ts';

const hookline = useHookline({ tenant: false, environment: { MUTATION_RATE_LIMIT_PER_MINUTE: 'off' } });

const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

/** A literal of the input type that parses (required fields only); its value is a placeholder. */
function literalOf(type: GraphQLInputType): string {
  const named = getNullableType(type);
  if (isListType(named)) return '[]';
  if (isEnumType(named)) return named.getValues()[0]!.name;
  if (isInputObjectType(named)) {
    const fields = Object.values(named.getFields()).filter((field) => isNonNullType(field.type));
    return `{${fields.map((field) => `${field.name}: ${literalOf(field.type)}`).join(', ')}}`;
  }
  if (isScalarType(named)) {
    switch (named.name) {
      case 'ID':
        return `"${PLACEHOLDER_ID}"`;
      case 'Int':
      case 'Float':
        return '1';
      case 'Boolean':
        return 'true';
      case 'DateTime':
        return '"2026-01-01T00:00:00Z"';
      default:
        return '"placeholder"';
    }
  }
  throw new Error(`no placeholder for ${String(named)}`);
}

const mutations = Object.values(schema.getMutationType()!.getFields());
/** "Sign out everywhere" ends the caller's own session: tried last. */
const ordered = [
  ...mutations.filter((field) => field.name !== 'revokeAllSessions'),
  ...mutations.filter((field) => field.name === 'revokeAllSessions'),
];

function documentOf(field: (typeof mutations)[number]): string {
  const args = field.args.filter((arg: GraphQLArgument) => isNonNullType(arg.type));
  const argumentList = args.length > 0 ? `(${args.map((arg) => `${arg.name}: ${literalOf(arg.type)}`).join(', ')})` : '';
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  return `mutation { ${field.name}${argumentList}${selection} }`;
}

describe('roles of mutations', () => {
  it('has a rule for every mutation of the schema, and none for a mutation that does not exist', () => {
    const names = mutations.map((field) => field.name).sort();
    expect(names.filter((name) => !MUTATION_ROLES[name])).toEqual([]);
    expect(Object.keys(MUTATION_ROLES).sort()).toEqual(names);
  });

  it('refuses every mutation below its role with FORBIDDEN, for every role and token scope, and lets it through at or above', async () => {
    const prisma = hookline.app.database.prisma;
    const { organizationId } = await createOrganization(prisma, 'roles');
    const owner = await setUpOwner(hookline.app, hookline.baseUrl, organizationId, 'owner@roles.example');
    const callers: { name: string; role: Role; headers: Record<string, string> }[] = [];
    for (const role of ROLES) {
      const cookie =
        role === 'OWNER'
          ? owner.cookie
          : (await invitePerson(hookline.baseUrl, owner.cookie, `${role.toLowerCase()}@roles.example`, role)).cookie;
      callers.push({ name: `a ${role} person`, role, headers: { cookie } });
    }
    for (const scope of API_TOKEN_SCOPES) {
      const token = (await issueApiToken(prisma, organizationId, scope, scope)).plaintext;
      callers.push({ name: `a ${scope} token`, role: SCOPE_ROLE[scope], headers: { authorization: `Bearer ${token}` } });
    }
    const outcomes: string[] = [];
    for (const field of ordered) {
      const query = documentOf(field);
      for (const caller of callers) {
        const response = await fetch(`${hookline.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...caller.headers },
          body: JSON.stringify({ query }),
        });
        const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
        const codes = (body.errors ?? []).map((error) => error.extensions?.code);
        const allowed = hasRole(caller.role, MUTATION_ROLES[field.name]!);
        const refused = codes.includes('FORBIDDEN');
        if (allowed === refused || codes.includes('UNAUTHENTICATED') || codes.includes('GRAPHQL_VALIDATION_FAILED')) {
          outcomes.push(`${field.name} by ${caller.name}: ${codes.join(',') || 'ok'} (${allowed ? 'should run' : 'should be FORBIDDEN'})`);
        }
      }
    }
    expect(outcomes).toEqual([]);
  });
});
