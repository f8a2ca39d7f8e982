// Builds ci/hookline-deploy.mjs: `hookline deploy` (src/client/deploy) and commander in one file
// that a pipeline runs with plain Node, nothing installed (`npm run build:deploy-script`). A test
// fails when the committed file is not what this builds.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const DEPLOY_SCRIPT_PATH = path.join(root, 'ci/hookline-deploy.mjs');

export async function buildDeployScript(): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/client/deploy/script.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    write: false,
    legalComments: 'inline',
    banner: {
      js: [
        '#!/usr/bin/env node',
        '// hookline-deploy: records a deploy in Hookline from any CI. Run `node hookline-deploy.mjs --help`.',
        '// Built from src/client/deploy by `npm run build:deploy-script`; do not edit.',
        // commander is CommonJS: its require() of Node's modules needs a require in an ES module.
        "import { createRequire as __hooklineCreateRequire } from 'node:module';",
        'const require = __hooklineCreateRequire(import.meta.url);',
      ].join('\n'),
    },
  });
  return result.outputFiles[0]!.text;
}

if (process.argv[1] === import.meta.filename) {
  await writeFile(DEPLOY_SCRIPT_PATH, await buildDeployScript(), { mode: 0o755 });
  console.log(`Wrote ${path.relative(root, DEPLOY_SCRIPT_PATH)}`);
}
