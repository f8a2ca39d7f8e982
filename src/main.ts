// The server: configuration, database (embedded unless DATABASE_URL is set), migrations, the
// HTTP server, first-start bootstrap, and a clean shutdown on SIGINT/SIGTERM. `hookline start`
// (what `npm start` runs) calls runHookline; `node dist/main.js` runs it directly.
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { closeDeadlineMs, createApp, type App } from './app.ts';
import { describeListening, directDatabaseUrl, loadServerConfig, type Config, type ConfigOverrides } from './config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { applyMigrations } from './db/migrate.ts';
import { issueOwnerSetupLink } from './domain/shared/invites.ts';
import { bootstrapDefaultOrganization } from './domain/shared/organizations.ts';
import { checkNodeVersion } from './node-version.ts';
import { describeStartupError, type StartupContext } from './startup-errors.ts';

async function main(config: Config, context: StartupContext): Promise<void> {
  let embedded: EmbeddedDatabase | undefined;
  let app: App | undefined;

  // Installed before anything starts, so a signal at any moment (even during start-up)
  // stops what is running in order: HTTP first (requests in flight finish), then the worker,
  // the queue and the pools, then the embedded database. A signal while stopping (Ctrl-C
  // pressed again, a process manager's SIGTERM after its SIGINT) changes nothing: the stop is
  // bounded anyway, by closeDeadlineMs.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing requests in flight, then stopping`);
    const deadlineMs = closeDeadlineMs(config);
    setTimeout(() => {
      console.error(`Stopping took longer than ${deadlineMs} ms (requests, attempts and the queue had that long): exiting now`);
      process.exit(1);
    }, deadlineMs).unref();
    try {
      await app?.close();
      await embedded?.stop();
      console.log('Stopped cleanly');
      process.exit(0);
    } catch (error) {
      console.error('Shutdown failed:', error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    if (!config.DATABASE_URL) {
      console.log(`DATABASE_URL is not set: starting the embedded PostgreSQL in ${config.HOOKLINE_DATA_DIR}/`);
      embedded = await startEmbeddedPostgres(config.HOOKLINE_DATA_DIR);
    }
    const databaseUrl = config.DATABASE_URL ?? embedded!.url;
    context.databaseUrl = databaseUrl;
    // Under a session advisory lock: PostgreSQL itself, not a transaction pooler.
    const applied = await applyMigrations(directDatabaseUrl(config, databaseUrl));
    if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);
    app = await createApp(config, databaseUrl);
    // Listening first: if the port is taken, start-up fails before anything (an organization,
    // its token printed once) is created.
    const address = await app.listen(config.PORT, config.HOST);
    // The first start's organization and API token come from a process that serves the API
    // (the token is printed where the API's operator reads it); a worker has no use for them.
    const created = config.ROLE === 'worker' ? null : await bootstrapDefaultOrganization(app.database.prisma);
    if (created) {
      const setup = await issueOwnerSetupLink(app.database.prisma, created.organizationId);
      console.log(
        `Created organization "default" (${created.organizationId}).\n` +
          `API token (shown once, keep it safe): ${created.apiToken}\n` +
          `Owner set-up link (one use, valid 24 h): ${config.PUBLIC_URL ?? address}${setup.path}`,
      );
    }
    console.log(describeListening(address, config));
  } catch (error) {
    await app?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}

/** Runs Hookline until a signal stops it; a failure to start is printed and exits 1. */
export async function runHookline(overrides: ConfigOverrides = {}): Promise<void> {
  // A reader of the output that goes away (`npm start | head`, a pipe to a process that ended)
  // ends the output, not the process: unheard, the write error would crash it mid-request.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

  const context: StartupContext = { embedded: false, port: 0, host: '' };
  try {
    const config = loadServerConfig(overrides);
    Object.assign(context, { embedded: !config.DATABASE_URL, port: config.PORT, host: config.HOST });
    checkNodeVersion((message) => console.warn(message));
    await main(config, context);
  } catch (error) {
    console.error(describeStartupError(error, context) ?? error);
    process.exit(1);
  }
}

// `node dist/main.js`: this module is the program (through a symlink too, as npm's bin links are).
const entry = process.argv[1];
if (entry && existsSync(entry) && realpathSync(entry) === fileURLToPath(import.meta.url)) await runHookline();
