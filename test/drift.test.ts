// Generated and derived files must match their sources: schema.graphql and the typed
// documents against the Pothos builder, openapi.json against the REST routes' schemas, the
// migrations against prisma/schema.prisma and prisma/sql/, the built deploy script against its
// sources.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, inject, it } from 'vitest';
import { deliveryPolicy } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { printSchemaSdl } from '../src/graphql/schema.ts';
import { printOpenApiDocument } from '../src/http/openapi.ts';
import { MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { buildDeployScript, DEPLOY_SCRIPT_PATH } from '../scripts/build-deploy-script.ts';
import { diffMigrationsAgainstSchema } from '../scripts/migration-diff.ts';
import { sqlSourcesDrift } from '../scripts/sql-sources.ts';
import codegenConfig from '../codegen.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('drift', () => {
  it('schema.graphql is what the builder prints (run `npm run schema:print`)', async () => {
    expect(await readFile(path.join(root, 'schema.graphql'), 'utf8')).toBe(printSchemaSdl());
  });

  it('openapi.json is what the REST routes describe with the default settings (run `npm run openapi:print`)', async () => {
    expect(await readFile(path.join(root, 'openapi.json'), 'utf8')).toBe(
      await printOpenApiDocument(deliveryPolicy(loadConfig({})).destination),
    );
  });

  it('test/gql matches schema.graphql and the operations (run `npm run codegen`)', async () => {
    const outputs: { filename: string; content: string }[] = await generate({ ...codegenConfig, cwd: root, silent: true }, false);
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) {
      expect(await readFile(path.resolve(root, output.filename), 'utf8'), output.filename).toBe(output.content);
    }
  });

  it('ci/hookline-deploy.mjs is what src/client/deploy builds (run `npm run build:deploy-script`)', async () => {
    expect(await readFile(DEPLOY_SCRIPT_PATH, 'utf8')).toBe(await buildDeployScript());
  });

  it('prisma/migrations build exactly prisma/schema.prisma (run `npm run migrate:new -- <name>`)', async () => {
    const sql = await diffMigrationsAgainstSchema({
      adminUrl: inject('adminUrl'),
      migrationsDir: MIGRATIONS_DIR,
      schemaPath: path.join(root, 'prisma/schema.prisma'),
    });
    expect(sql).toBe('');
  });

  it('prisma/migrations leave exactly the functions and triggers of prisma/sql (run `npm run migrate:new -- <name>`)', async () => {
    expect(await sqlSourcesDrift({ adminUrl: inject('adminUrl'), migrationsDir: MIGRATIONS_DIR })).toEqual({ changed: [], unsourced: [] });
  });
});
