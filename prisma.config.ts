// Prisma CLI configuration. The CLI wants to download a native schema engine before any
// command, which fails offline; pointing PRISMA_SCHEMA_ENGINE_BINARY at any executable
// skips that download. `generate` needs no engine; migrations are applied by
// src/db/migrate.ts and written by scripts/migration-diff.ts (see README).
import { defineConfig } from 'prisma/config';

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
process.env.CHECKPOINT_DISABLE ??= '1';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/hookline' },
});
