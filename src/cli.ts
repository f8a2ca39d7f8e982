// `hookline`: the server (`start`, what `npm start` runs), operator commands for organizations
// and API tokens (how a deployment gets its first credentials), the developer loop against a
// running Hookline, here or remote (`listen`, `trigger`), and a CI pipeline's `deploy`. Exit
// codes: 0 done, 1 failed (bad config, nothing found, database error, API refused or
// unreachable), 2 usage error; `deploy` exits 0 after a failure unless --strict. With --json,
// stdout holds exactly one JSON line, and only on success.
import { Argument, Command, CommanderError, Option } from 'commander';
import { ClientError, type HooklineApi } from './client/api.ts';
import { deployCommand } from './client/deploy/command.ts';
import { knownEventTypes, listen } from './client/listen.ts';
import { loadListenSecret } from './client/listen-secret.ts';
import { trigger, TRIGGER_TYPES, type TriggerType } from './client/trigger.ts';
import { developerConfigDirectory, directDatabaseUrl, loadConfig } from './config.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { connectDatabase } from './db/client.ts';
import { runningEmbeddedPostgres, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { applyMigrations } from './db/migrate.ts';
import { createApiToken, listApiTokens, revokeApiTokens } from './domain/shared/api-tokens.ts';
import { issueOwnerSetupLink } from './domain/shared/invites.ts';
import { createOrganization, listOrganizations } from './domain/shared/organizations.ts';
import { API_TOKEN_SCOPES, type ApiTokenScope } from './domain/shared/roles.ts';
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
    // While `npm start` runs, its PostgreSQL is shared rather than started a second time.
    embedded = (await runningEmbeddedPostgres(config.HOOKLINE_DATA_DIR)) ?? (await startEmbeddedPostgres(config.HOOKLINE_DATA_DIR));
  }
  try {
    const url = config.DATABASE_URL ?? embedded!.url;
    Object.assign(startup, { databaseUrl: url, embedded: embedded !== undefined });
    // The CLI may be the first thing run against a new database.
    await applyMigrations(directDatabaseUrl(config, url));
    const database = connectDatabase(url, { maxConnections: 2, pooled: config.DATABASE_DIRECT_URL !== undefined });
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
  .description('Run Hookline; manage organizations and API tokens; listen to and trigger events; record deploys from CI')
  // Throw instead of exiting, so the end of this file sets every exit code in one place.
  .exitOverride();

program
  .command('start')
  .description('Run Hookline (what npm start runs): the embedded PostgreSQL unless DATABASE_URL is set, the API and the worker')
  .option('--dev', 'local development: allow http:// and loopback webhook receivers (HOOKLINE_DEV=true); the start line says so')
  .action(async (options: { dev?: boolean }) => {
    // Loaded here: the other commands need none of the server.
    const { runHookline } = await import('./main.ts');
    await runHookline(options.dev ? { HOOKLINE_DEV: 'true' } : {});
  });

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
      `Created organization "${name}" (${created.organizationId}).\n` + `API token (shown once, keep it safe): ${created.apiToken}`,
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
    print(
      options.json,
      organizations,
      lines.length > 0 ? lines.join('\n') : 'No organizations yet: create one with hookline orgs create --name NAME.',
    );
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
      (token) =>
        `${token.prefix}  created ${token.createdAt.toISOString()}  ${token.revokedAt ? `revoked ${token.revokedAt.toISOString()}` : 'live'}`,
    );
    print(options.json, list, lines.length > 0 ? lines.join('\n') : 'No API tokens: add one with hookline tokens create --org ID.');
  });

tokens
  .command('create')
  .description('Add an API token to an organization')
  .requiredOption('--org <id>', 'organization id')
  .addOption(
    new Option('--scope <scope>', 'what it may do: READ (as a viewer), WRITE (as a member) or ADMIN')
      .choices(API_TOKEN_SCOPES)
      .default('ADMIN'),
  )
  .option('--json', 'print {"organizationId", "apiToken"} as JSON')
  .action(async (options: { org: string; scope: ApiTokenScope; json?: boolean }) => {
    const organizationId = options.org;
    const apiToken = await withDatabase((prisma) => createApiToken(prisma, organizationId, options.scope));
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

const users = program.command('users').description('People who sign in to the dashboard');

users
  .command('create')
  .description(
    "Print a one-use set-up link (valid 24 h): whoever opens it chooses their name and password and becomes the organization's OWNER",
  )
  .requiredOption('--org <id>', 'organization id (see orgs list)')
  .requiredOption('--email <email>', 'whom the link is for: the set-up page accepts this email only')
  .addOption(
    new Option('--role <role>', 'the role: OWNER (other roles are given by invites from the dashboard)')
      .choices(['OWNER'])
      .default('OWNER'),
  )
  .option('--json', 'print {"organizationId", "email", "setupUrl", "expiresAt"} as JSON')
  .action(async (options: { org: string; email: string; json?: boolean }) => {
    const config = loadConfig();
    const link = await withDatabase((prisma) => issueOwnerSetupLink(prisma, options.org, options.email));
    const setupUrl = `${config.PUBLIC_URL ?? `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${config.PORT}`}${link.path}`;
    print(
      options.json,
      { organizationId: options.org, email: options.email, setupUrl, expiresAt: link.expiresAt.toISOString() },
      `Owner set-up link for ${options.email} (one use, valid until ${link.expiresAt.toISOString()}):\n${setupUrl}`,
    );
  });

/** --url and --token of the commands that use a running Hookline's API. */
function apiOptions(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', 'base URL of the Hookline API').env('HOOKLINE_URL').default('http://localhost:4000'))
    .addOption(new Option('--token <token>', 'API token of the organization (hla_...)').env('HOOKLINE_API_TOKEN').makeOptionMandatory());
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

function apiOf(options: { url: string; token: string }, command: Command): HooklineApi {
  // An empty HOOKLINE_API_TOKEN counts as none, as an empty variable does for the server.
  if (!options.token) command.error("error: required option '--token <token>' not specified (or set HOOKLINE_API_TOKEN)", { exitCode: 2 });
  if (!isHttpUrl(options.url)) command.error('error: --url must be an http(s) URL', { exitCode: 2 });
  return { baseUrl: options.url.replace(/\/+$/, ''), apiToken: options.token };
}

apiOptions(
  program
    .command('listen')
    .description("Receive your organization's events live and forward each, signed with your own secret, to a local URL")
    .option('--forward-to <url>', 'POST each event here (http or https), signed as Hookline signs webhooks')
    .option('--events <types>', 'comma-separated event types to receive (default: every type)')
    .option('--print-json', 'print each event as one JSON line {"event", "status", "durationMs", "error"} instead of a summary'),
).action(async (options: { forwardTo?: string; events?: string; printJson?: boolean; url: string; token: string }, command: Command) => {
  const api = apiOf(options, command);
  if (options.forwardTo !== undefined && !isHttpUrl(options.forwardTo))
    command.error('error: --forward-to must be an http(s) URL', { exitCode: 2 });
  const eventTypes = (options.events ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  // Checked before the secret is made or its file written (this also checks the token and the URL).
  const known = await knownEventTypes(api);
  const unknown = eventTypes.filter((type) => !known.includes(type));
  if (unknown.length > 0) {
    command.error(
      `error: --events: unknown event type${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} (known: ${known.join(', ')})`,
      { exitCode: 2 },
    );
  }
  const secret = await loadListenSecret(developerConfigDirectory());
  if (secret.created) {
    console.error(`Your listen signing secret is ${secret.signingSecret}`);
    console.error(`(shown once; kept in ${secret.file}): configure your app to verify webhooks with it.`);
  } else {
    console.error(`Signing with your listen secret from ${secret.file}.`);
  }
  const listening = await listen({
    api,
    forwardTo: options.forwardTo,
    eventTypes,
    printJson: options.printJson === true,
    signingSecret: secret.signingSecret,
    print: (line) => console.log(line),
    status: (line) => console.error(line),
  });
  const stop = () => listening.stop();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  await listening.done;
});

apiOptions(
  program
    .command('trigger')
    .description('Make an example event of a type for your live listeners (hookline listen); nothing else is stored')
    .addArgument(new Argument('<type>', 'the event type to make').choices(TRIGGER_TYPES)),
).action(async (type: TriggerType, options: { url: string; token: string }, command: Command) => {
  for (const line of await trigger(apiOf(options, command), type)) console.log(line);
});

program.addCommand(deployCommand('deploy'));

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
    const startupProblem = error instanceof ClientError ? undefined : describeStartupError(error, startup);
    console.error(startupProblem ?? `error: ${describe(error)}`);
    process.exitCode = 1;
  }
}
