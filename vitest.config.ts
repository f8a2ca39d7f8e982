import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { SlowestFirstSequencer } from './test/support/sequencer.ts';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS and ESM builds; Node (and so Yoga and Pothos) loads the
    // CommonJS one, so our own code must too, or GraphQLError instances stop matching.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // A safety net against a hang, not a judgement of speed: tests wait on conditions, and on a
    // busy two-core machine (a laptop building and browsing, load 15 to 25) a test that takes 10 s
    // when quiet can take over a minute. Each condition's own deadline still fails a stuck test.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    // Test files run in parallel, each on its own database cloned from a migrated template.
    pool: 'forks',
    // A worker process runs its files one after another with the modules it already loaded. Each
    // file importing the app afresh (the server, the GraphQL schema, Prisma: 1.5 to 4.5 s before
    // its first app answered, by load) took half the CPU of the files that start one. Files stay
    // apart through what they start, not through the process: each has its own database, and the
    // fixture (test/support/fixture.ts) closes its apps, processes, receivers and pools after it.
    isolate: false,
    // Most files wait on sockets, child processes and timers rather than compute: three at once
    // on a two-core machine take about 60 % of the time one at a time does (the default, one
    // fewer than the cores).
    maxWorkers: 3,
    // The slowest files start first, so that none of them is left running alone at the end.
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
