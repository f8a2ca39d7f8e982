// The Node.js versions Hookline supports are those its dependencies declare (package.json
// `engines`, kept to their intersection). Older ones may work; a start on one says so.
import semver from 'semver';
import packageJson from '../package.json' with { type: 'json' };

export const SUPPORTED_NODE = packageJson.engines.node;

/** Warns (through `warn`) when this Node.js is outside the supported range. */
export function checkNodeVersion(warn: (message: string) => void, version = process.version): void {
  if (semver.satisfies(version, SUPPORTED_NODE)) return;
  warn(
    `Warning: Hookline supports Node.js ${SUPPORTED_NODE} (what its dependencies declare); this is ${version}. ` +
      'It may work, but is not supported: upgrade Node.js.',
  );
}
