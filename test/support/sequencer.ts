// The order test files start in. Vitest starts the files it remembers as slowest first, but only
// with the durations of an earlier run on the same machine (node_modules/.vite); a fresh clone,
// as on CI, has none, and vitest then starts the largest files first, by bytes: the slowest file,
// the package's (it packs, installs and builds; 266 lines), started 34th of 121, and others later
// still, where they could be left running alone at the end. These files start first, slowest
// first, as measured (docs/development.md); the rest follow in vitest's own order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOWEST_FIRST = [
  'test/package.test.ts',
  'test/dashboard-pages.test.ts',
  'test/dashboard.test.ts',
  'test/dashboard-plans.test.ts',
  'test/cli-deploy.test.ts',
  'test/cli-listen.test.ts',
  'test/durability.test.ts',
  'test/startup.test.ts',
  'test/pgbouncer.test.ts',
  'test/startup-address.test.ts',
];

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the files not listed keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
