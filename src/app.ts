// One Hookline process: the database connection, the HTTP server and their shutdown.
// main.ts runs it; tests run several of these side by side against one database.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { connectDatabase, type Database } from './db/client.ts';
import { readMigrations } from './db/migrate.ts';
import { buildServer } from './http/server.ts';
import { createMetrics } from './metrics.ts';

export interface App {
  server: FastifyInstance;
  database: Database;
  /** Listens and returns the address, e.g. http://127.0.0.1:4000. */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, finishes requests in flight, then closes the pool. */
  close(): Promise<void>;
}

export async function createApp(config: Config, databaseUrl: string): Promise<App> {
  const database = connectDatabase(databaseUrl);
  const server = buildServer({ config, database, metrics: createMetrics(), migrations: await readMigrations() });
  return {
    server,
    database,
    async listen(port, host) {
      return server.listen({ port, host });
    },
    async close() {
      await server.close();
      await database.close();
    },
  };
}
