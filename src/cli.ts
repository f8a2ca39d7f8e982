// `hookline`: operator commands for organizations and API tokens (how a deployment gets its
// first credentials). Exit codes: 0 done, 1 failed (bad config, nothing found, database
// error), 2 usage error. With --json, stdout holds exactly one JSON line, and only on success.
import { Command, CommanderError } from 'commander';
import { loadConfig } from './config.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { connectDatabase } from './db/client.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { applyMigrations } from './db/migrate.ts';
import { createApiToken, listApiTokens, revokeApiTokens } from './domain/api-tokens.ts';
import { createOrganization, listOrganizations } from './domain/organizations.ts';
import { describeStartupError, type StartupContext } from './startup-errors.ts';

/** The display prefix shown at creation (`hla_` + 8), or a whole token. */
const TOKEN_PREFIX = /^hla_[0-9A-Za-z]{8}$/;
const WHOLE_TOKEN = /^hla_[0-9A-Za-z]{40}$/;

/** Where the command's database is, for describing a failure to reach it. */
const startup: StartupContext = { embedded: false, port: 0, host: '' };

/** Runs `work` on the configured database, as `npm start` would find it, then closes everything. */
async function withDatabase<T>(work: (prisma: PrismaClient) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let embedded: EmbeddedDatabase | undefined;
  if (!config.DATABASE_URL) {
    console.error(`DATABASE_URL is not set: using the embedded PostgreSQL in ${config.HOOKLINE_DATA_DIR}/`);
    embedded = await startEmbeddedPostgres(config.HOOKLINE_DATA_DIR);
  }
  try {
    const url = config.DATABASE_URL ?? embedded!.url;
    Object.assign(startup, { databaseUrl: url, embedded: embedded !== undefined });
    // The CLI may be the first thing run against a new database.
    await applyMigrations(url);
    const database = connectDatabase(url, { maxConnections: 2 });
    try {
      return await work(database.prisma);
    } finally {
      await database.close();
    }
  } finally {
    await embedded?.stop();
  }
}

function print(json: boolean | undefined, value: unknown, text: string): void {
  console.log(json ? JSON.stringify(value) : text);
}

const program = new Command('hookline')
  .description('Manage Hookline organizations and API tokens')
  // Throw instead of exiting, so the end of this file sets every exit code in one place.
  .exitOverride();

const orgs = program.command('orgs').description('Organizations (tenants)');

orgs
  .command('create')
  .description('Create an organization with one API token')
  .requiredOption('--name <name>', 'organization name')
  .option('--json', 'print {"organizationId", "apiToken"} as JSON')
  .action(async (options: { name: string; json?: boolean }, command: Command) => {
    const name = options.name.trim();
    if (!name) command.error('error: --name must not be empty', { exitCode: 2 });
    const created = await withDatabase((prisma) => createOrganization(prisma, name));
    print(
      options.json,
      created,
      `Created organization "${name}" (${created.organizationId}).\n` +
        `API token (shown once, keep it safe): ${created.apiToken}`,
    );
  });

orgs
  .command('list')
  .description('List the organizations, with their ids (tokens create --org takes one)')
  .option('--json', 'print [{"id", "name", "createdAt", "liveApiTokens"}] as JSON')
  .action(async (options: { json?: boolean }) => {
    const organizations = await withDatabase((prisma) => listOrganizations(prisma));
    const lines = organizations.map(
      (organization) =>
        `${organization.id}  ${organization.name}  (created ${organization.createdAt.toISOString()}, ` +
        `${organization.liveApiTokens} live API token${organization.liveApiTokens === 1 ? '' : 's'})`,
    );
    print(options.json, organizations, lines.length > 0 ? lines.join('\n') : 'No organizations yet: create one with hookline orgs create --name NAME.');
  });

const tokens = program.command('tokens').description('API tokens');

tokens
  .command('list')
  .description("List an organization's API tokens by their prefix (the tokens themselves are not stored)")
  .requiredOption('--org <id>', 'organization id (see orgs list)')
  .option('--json', 'print [{"prefix", "createdAt", "revokedAt"}] as JSON')
  .action(async (options: { org: string; json?: boolean }) => {
    const organizationId = options.org;
    const list = await withDatabase((prisma) => listApiTokens(prisma, organizationId));
    const lines = list.map(
      (token) => `${token.prefix}  created ${token.createdAt.toISOString()}  ${token.revokedAt ? `revoked ${token.revokedAt.toISOString()}` : 'live'}`,
    );
    print(options.json, list, lines.length > 0 ? lines.join('\n') : 'No API tokens: add one with hookline tokens create --org ID.');
  });

tokens
  .command('create')
  .description('Add an API token to an organization')
  .requiredOption('--org <id>', 'organization id')
  .option('--json', 'print {"organizationId", "apiToken"} as JSON')
  .action(async (options: { org: string; json?: boolean }) => {
    const organizationId = options.org;
    const apiToken = await withDatabase((prisma) => createApiToken(prisma, organizationId));
    print(
      options.json,
      { organizationId, apiToken },
      `Created an API token for organization ${organizationId}.\n` + `API token (shown once, keep it safe): ${apiToken}`,
    );
  });

tokens
  .command('revoke')
  .description('Revoke API tokens by the prefix shown at creation (hla_XXXXXXXX), or by the whole token')
  .requiredOption('--token-prefix <prefix>', 'the 12-character prefix, or the whole token')
  .option('--json', 'print {"revoked": N} as JSON')
  .action(async (options: { tokenPrefix: string; json?: boolean }, command: Command) => {
    const prefix = options.tokenPrefix;
    // Any other value could only match nothing, so say why rather than "nothing revoked".
    if (!TOKEN_PREFIX.test(prefix) && !WHOLE_TOKEN.test(prefix)) {
      command.error(
        'error: --token-prefix must be the 12-character prefix shown at creation (hla_ and 8 letters or digits) or the whole token',
        { exitCode: 2 },
      );
    }
    const revoked = await withDatabase((prisma) => revokeApiTokens(prisma, prefix));
    if (revoked === 0) throw new Error(`no live API token matches ${prefix.slice(0, 12)} (unknown, or already revoked)`);
    print(options.json, { revoked }, `Revoked ${revoked} API token${revoked === 1 ? '' : 's'} matching ${prefix.slice(0, 12)}.`);
  });

/** One line for the user; no stack trace. */
function describe(error: unknown): string {
  let text = error === undefined ? '' : String(error);
  if (error instanceof Error) text = error.message || String((error as { code?: unknown }).code ?? error.name);
  return text.replace(/\s+/g, ' ').trim();
}

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has printed its message (or the help) already; any failure of its own is a usage error.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    // Start-up failures (configuration, database) say what to do; the rest get commander's prefix.
    console.error(describeStartupError(error, startup) ?? `error: ${describe(error)}`);
    process.exitCode = 1;
  }
}
