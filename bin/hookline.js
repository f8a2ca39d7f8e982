#!/usr/bin/env node
// The `hookline` command. It runs the compiled program in dist/: an installed package ships it,
// and a clone builds it with `npm install` (the `prepare` script) or `npm run build`.
// In a clone, `hookline start` (what `npm start` runs) first builds what is missing or older
// than its sources, saying so in one line, so that an install without scripts still starts.
// The other commands never build (they may run beside a server whose dist/ a build would
// rewrite): with dist/ missing they say how to build it, with dist/ older than src/ they say so.
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const starting = process.argv[2] === 'start';

if (existsSync(path.join(root, 'src', 'main.ts'))) {
  const { build, staleParts, staleness } = await import('../scripts/build.mjs');
  const stale = staleParts();
  if (stale.length > 0 && starting) {
    const reasons = stale.map((part) => `${part.name} ${staleness(part) ?? 'to follow the new Prisma client'}`);
    console.log(`Building Hookline first (${reasons.join(', ')}): npm run build`);
    try {
      build(stale, { quiet: true });
    } catch (error) {
      console.error(error.message);
      process.exit(1);
    }
  } else if (!existsSync(path.join(root, 'dist', 'cli.js'))) {
    console.error('error: Hookline is not built (dist/ is missing): run npm run build, or npm start, which builds it');
    process.exit(1);
  } else if (stale.some((part) => part.name !== 'dashboard')) {
    console.error('warning: dist/ is older than src/: this runs the last build (npm run build updates it)');
  }
}

await import('../dist/cli.js');
