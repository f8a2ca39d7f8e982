// Entry point of `npm start`: configuration, database (embedded unless DATABASE_URL is set),
// migrations, first-start bootstrap, the HTTP server, and a clean shutdown on SIGINT/SIGTERM.
import { createApp, type App } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { applyMigrations } from './db/migrate.ts';
import { bootstrapDefaultOrganization } from './domain/organizations.ts';

async function main(config: Config): Promise<void> {
  let embedded: EmbeddedDatabase | undefined;
  let app: App | undefined;

  // Installed before anything starts, so a signal at any moment (even during start-up)
  // stops what is running in order: HTTP first (requests in flight finish), then the pool,
  // then the embedded database.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing requests in flight, then stopping`);
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
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    if (!config.DATABASE_URL) {
      console.log(`DATABASE_URL is not set: starting the embedded PostgreSQL in ${config.HOOKLINE_DATA_DIR}/`);
      embedded = await startEmbeddedPostgres(config.HOOKLINE_DATA_DIR);
    }
    const databaseUrl = config.DATABASE_URL ?? embedded!.url;
    const applied = await applyMigrations(databaseUrl);
    if (applied.length > 0) console.log(`Applied migrations: ${applied.join(', ')}`);
    app = await createApp(config, databaseUrl);
    const created = await bootstrapDefaultOrganization(app.database.prisma);
    if (created) {
      console.log(
        `Created organization "default" (${created.organizationId}).\n` +
          `API token (shown once, keep it safe): ${created.apiToken}`,
      );
    }
    const address = await app.listen(config.PORT, config.HOST);
    console.log(`Hookline listening on ${address}`);
  } catch (error) {
    await app?.close().catch(() => {});
    await embedded?.stop();
    throw error;
  }
}

try {
  await main(loadConfig());
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
