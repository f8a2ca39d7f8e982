// Once per `npm test`: build the program the tests start as processes (`npm run build`, so
// they never run a stale dist/), find a PostgreSQL server (DATABASE_URL, or an embedded one
// when it is unset, as on a machine with only Node.js), and build a migrated template database
// that every test clones in milliseconds.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { startQueue } from '../../src/delivery/queue.ts';
import { adminQuery, databaseUrl, randomDatabaseName } from '../../src/db/admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * `npm run build`: what is older than its sources is built again, and nothing else (after `npm ci`
 * or `npm install`, which build everything, a compile here would only repeat theirs).
 */
function buildProgram(): void {
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
}

export default async function setup(project: TestProject) {
  buildProgram();
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded = async () => {};
  if (!adminUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hookline-test-'));
    const embedded = await startEmbeddedPostgres(dataDir);
    adminUrl = embedded.adminUrl;
    stopEmbedded = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const templateDatabase = randomDatabaseName('hookline_template');
  await adminQuery(adminUrl, `CREATE DATABASE "${templateDatabase}"`);
  const templateUrl = databaseUrl(adminUrl, templateDatabase);
  await applyMigrations(templateUrl);
  // pg-boss's schema too, so that apps on cloned databases start without creating it.
  const boss = await startQueue({ databaseUrl: templateUrl, jobExpirySeconds: 30, onError: () => {} });
  await boss.stop({ graceful: false });
  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);

  return async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${templateDatabase}" WITH (FORCE)`);
    await stopEmbedded();
  };
}
