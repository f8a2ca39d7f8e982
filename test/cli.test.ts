// The `hookline` CLI as an operator runs it: a child process through bin/hookline.js, on
// this file's own database, with exit codes and stdout/stderr checked exactly.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/db/client.ts';
import { authenticateApiToken, createApiToken, revokeApiTokens } from '../src/domain/shared/api-tokens.ts';
import { createOrganization } from '../src/domain/shared/organizations.ts';
import { useHookline } from './support/fixture.ts';
import { runProgram, type ProgramResult } from './support/programs.ts';

const BIN = fileURLToPath(new URL('../bin/hookline.js', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_TOKEN = /^hla_[0-9A-Za-z]{40}$/;

const fixture = useHookline({ app: false });
let database: Database;

/** Runs the CLI to completion; a non-zero exit is a result here, not a failure. */
function hookline(args: string[], env: Record<string, string> = {}): Promise<ProgramResult> {
  return runProgram(process.execPath, [BIN, ...args], {
    env: { ...process.env, DATABASE_URL: fixture.database.url, ...env },
    timeout: 25_000,
  });
}

/** stdout of a --json run: exactly one line of JSON. */
function json(result: ProgramResult): unknown {
  expect(result.stdout.endsWith('\n') && result.stdout.indexOf('\n') === result.stdout.length - 1).toBe(true);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  database = connectDatabase(fixture.database.url, { maxConnections: 2 });
});

afterAll(async () => {
  await database?.close();
});

describe('hookline CLI', () => {
  let organizationId: string;
  let firstToken: string;

  it('orgs create --json prints the organization id and a working API token', async () => {
    const result = await hookline(['orgs', 'create', '--name', 'acme', '--json']);
    expect(result.code).toBe(0);
    const output = json(result) as { organizationId: string; apiToken: string };
    expect(Object.keys(output)).toEqual(['organizationId', 'apiToken']);
    expect(output.organizationId).toMatch(UUID);
    expect(output.apiToken).toMatch(API_TOKEN);
    ({ organizationId, apiToken: firstToken } = output);

    expect(await authenticateApiToken(database.prisma, firstToken)).toEqual({
      id: organizationId,
      name: 'acme',
      apiTokenId: expect.any(String),
      scope: 'ADMIN',
    });
  });

  it('orgs create without --json says the token is shown once', async () => {
    const result = await hookline(['orgs', 'create', '--name', 'globex']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Created organization "globex" \([0-9a-f-]{36}\)/);
    expect(result.stdout).toMatch(/shown once.*hla_[0-9A-Za-z]{40}/);
  });

  it('tokens create --json adds another working token to the organization', async () => {
    const result = await hookline(['tokens', 'create', '--org', organizationId, '--json']);
    expect(result.code).toBe(0);
    const output = json(result) as { organizationId: string; apiToken: string };
    expect(Object.keys(output)).toEqual(['organizationId', 'apiToken']);
    expect(output.organizationId).toBe(organizationId);
    expect(output.apiToken).toMatch(API_TOKEN);
    expect(output.apiToken).not.toBe(firstToken);
    expect(await authenticateApiToken(database.prisma, output.apiToken)).toEqual({
      id: organizationId,
      name: 'acme',
      apiTokenId: expect.any(String),
      scope: 'ADMIN',
    });
  });

  it.each([
    ['an unknown organization', '00000000-0000-4000-8000-000000000000'],
    ['a malformed id', 'not-a-uuid'],
  ])('tokens create for %s exits 1 with a message', async (_, id) => {
    const result = await hookline(['tokens', 'create', '--org', id, '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`No organization with id ${id}`);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('tokens revoke by the 12-character prefix revokes the token, and only once', async () => {
    const prefix = firstToken.slice(0, 12);
    const result = await hookline(['tokens', 'revoke', '--token-prefix', prefix, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ revoked: 1 });
    expect(await authenticateApiToken(database.prisma, firstToken)).toBeNull();

    const again = await hookline(['tokens', 'revoke', '--token-prefix', prefix, '--json']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(prefix);
  });

  it('tokens revoke accepts the whole token', async () => {
    const created = json(await hookline(['tokens', 'create', '--org', organizationId, '--json'])) as { apiToken: string };
    const result = await hookline(['tokens', 'revoke', '--token-prefix', created.apiToken]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Revoked 1 API token');
    expect(await authenticateApiToken(database.prisma, created.apiToken)).toBeNull();
  });

  it.each(['abc_12345678', 'hla_1234', 'hla_1234567890'])('tokens revoke refuses the prefix %s as a usage error', async (prefix) => {
    const result = await hookline(['tokens', 'revoke', '--token-prefix', prefix]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--token-prefix');
  });

  it('orgs list names every organization with its id and live tokens; tokens list shows prefixes, never tokens', async () => {
    // Made by the domain code, so that only the listing runs the CLI (each run starts Node).
    const initech = await createOrganization(database.prisma, 'initech');
    const second = await createApiToken(database.prisma, initech.organizationId);
    expect(await revokeApiTokens(database.prisma, second)).toBe(1);

    const listed = json(await hookline(['orgs', 'list', '--json'])) as {
      id: string;
      name: string;
      createdAt: string;
      liveApiTokens: number;
    }[];
    expect(listed.find((organization) => organization.id === initech.organizationId)).toEqual({
      id: initech.organizationId,
      name: 'initech',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      liveApiTokens: 1,
    });
    const text = await hookline(['orgs', 'list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^${initech.organizationId}  initech  \\(created \\S+, 1 live API token\\)$`, 'm'));

    const tokens = json(await hookline(['tokens', 'list', '--org', initech.organizationId, '--json'])) as {
      prefix: string;
      revokedAt: string | null;
    }[];
    expect(tokens).toEqual([
      { prefix: initech.apiToken.slice(0, 12), createdAt: expect.any(String), revokedAt: null },
      { prefix: second.slice(0, 12), createdAt: expect.any(String), revokedAt: expect.any(String) },
    ]);
    const tokensText = await hookline(['tokens', 'list', '--org', initech.organizationId]);
    expect(tokensText.stdout).toMatch(new RegExp(`^${initech.apiToken.slice(0, 12)}  created \\S+  live$`, 'm'));
    expect(tokensText.stdout).not.toContain(initech.apiToken);

    const unknown = await hookline(['tokens', 'list', '--org', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No organization with id 00000000-0000-4000-8000-000000000000');
  });

  it('tokens create --scope READ makes a token that reads as a VIEWER', async () => {
    const result = await hookline(['tokens', 'create', '--org', organizationId, '--scope', 'READ', '--json']);
    expect(result.code).toBe(0);
    const { apiToken } = json(result) as { apiToken: string };
    expect((await authenticateApiToken(database.prisma, apiToken))?.scope).toBe('READ');
    const wrong = await hookline(['tokens', 'create', '--org', organizationId, '--scope', 'OWNER']);
    expect(wrong.code).toBe(2);
  });

  it('users create prints a one-use owner set-up link for that email', async () => {
    const result = await hookline(
      ['users', 'create', '--org', organizationId, '--email', 'Boss@Example.com', '--role', 'OWNER', '--json'],
      {
        PUBLIC_URL: 'https://hookline.example.com',
      },
    );
    expect(result.code).toBe(0);
    const printed = json(result) as { setupUrl: string; email: string; expiresAt: string };
    expect(printed.setupUrl).toMatch(/^https:\/\/hookline\.example\.com\/setup\?token=[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(printed.expiresAt) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const link = await database.prisma.invite.findFirstOrThrow({ where: { organizationId, kind: 'OWNER_SETUP' } });
    expect(link).toMatchObject({ email: 'boss@example.com', role: 'OWNER', usedAt: null });
  });

  it('exits 2 on a missing required option, as on any usage error', async () => {
    const result = await hookline(['orgs', 'create']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--name');
  });

  it('exits 1 naming DATABASE_URL when the configuration is invalid', async () => {
    const result = await hookline(['orgs', 'create', '--name', 'x', '--json'], { DATABASE_URL: 'mysql://x' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('DATABASE_URL');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
