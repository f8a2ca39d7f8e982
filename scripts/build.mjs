// Builds what `hookline start` runs from a clone: the Prisma client (src/generated), the
// dashboard (web/dist) and the server (dist/), each only when one of its inputs is newer than
// its output, as make does. Plain JavaScript, because it runs before anything is compiled.
//
//   node scripts/build.mjs            the stale parts, with their tools' output (npm run build)
//   node scripts/build.mjs --clean    everything from scratch (npm pack: no leftover file is packed)
//   node scripts/build.mjs --prepare  as without flags, except under npx (see below)
//
// bin/hookline.js imports it to build on start when dist/ is missing or stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * A tool's command line: the script its package.json names as `bin`, run by this Node.js, so no
 * shell and no PATH are involved (and no package's `exports` hides it).
 */
function tool(name, ...args) {
  const directory = path.join(ROOT, 'node_modules', name);
  const { bin } = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
  return [process.execPath, path.join(directory, typeof bin === 'string' ? bin : Object.values(bin)[0]), ...args];
}

/** Resolved when a part is built: an installed package has no development tools, and needs none. */
const command =
  (name, ...args) =>
  () =>
    tool(name, ...args);

/** Each part: what it is built from, the file whose age stands for the output, and how. */
export const PARTS = [
  {
    name: 'Prisma client',
    inputs: ['prisma/schema.prisma'],
    output: 'src/generated/prisma/client.ts',
    clean: ['src/generated'],
    command: command('prisma', 'generate'),
  },
  {
    name: 'dashboard',
    inputs: ['web/index.html', 'web/vite.config.ts', 'web/src'],
    output: 'web/dist/index.html',
    clean: ['web/dist'],
    command: command('vite', 'build', 'web'),
  },
  {
    name: 'server',
    // The generated client is compiled with the rest of src/, so a new one makes dist/ stale too.
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json'],
    output: 'dist/main.js',
    clean: ['dist'],
    command: command('typescript', '-p', 'tsconfig.build.json'),
  },
];

/** Newest modification time under `file` (a file or a directory), 0 when absent. */
function newest(file) {
  if (!existsSync(file)) return 0;
  const stats = statSync(file);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

/** Whether this is a clone (the sources are here) rather than an installed package (only what runs). */
export function isSourceTree(root = ROOT) {
  return existsSync(path.join(root, 'src', 'main.ts'));
}

/** Why a part must be built ("missing", "older than its sources"), or undefined when it is current. */
export function staleness(part, root = ROOT) {
  const output = path.join(root, part.output);
  if (!existsSync(output)) return 'missing';
  const built = statSync(output).mtimeMs;
  return part.inputs.some((input) => newest(path.join(root, input)) > built) ? 'older than its sources' : undefined;
}

/** The parts to build, in order: a new Prisma client makes the server stale even if it was not before. */
export function staleParts(root = ROOT) {
  const stale = PARTS.filter((part) => staleness(part, root) !== undefined);
  if (stale.some((part) => part.name === 'Prisma client') && !stale.some((part) => part.name === 'server')) stale.push(PARTS[2]);
  return stale;
}

/**
 * Runs each part's command. `quiet`: their output is kept and shown only if one fails (start-up
 * says one line instead). Throws on the first failure.
 */
export function build(parts, { quiet = false, clean = false, root = ROOT } = {}) {
  for (const part of parts) {
    if (clean) for (const directory of part.clean) rmSync(path.join(root, directory), { recursive: true, force: true });
    const [program, ...args] = part.command();
    // The tools' output goes to stderr: stdout stays what the caller prints (`npm pack --json`).
    // Prisma runs the Pothos generator by its command name: found on PATH, as npm scripts have it,
    // also when `node bin/hookline.js start` builds outside npm.
    const env = { ...process.env, PATH: [path.join(root, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter) };
    const result = spawnSync(program, args, { cwd: root, env, stdio: quiet ? 'pipe' : ['inherit', 2, 2], encoding: 'utf8' });
    if (result.status !== 0) {
      const said = quiet ? `\n${result.stdout}${result.stderr}` : '';
      throw new Error(`building the ${part.name} failed (${args.join(' ')}, exit ${result.status ?? result.signal})${said}`);
    }
  }
}

if (process.argv[1] === import.meta.filename) {
  const flags = new Set(process.argv.slice(2));
  // `npx hookline` in a clone makes npm link the clone into its npx cache, and a link runs its
  // `prepare` (arborist does so for every linked directory): a build under a server that may be
  // running from dist/. npm says it is doing so with npm_command=exec; `hookline start` builds
  // what is stale itself.
  if (flags.has('--prepare') && process.env.npm_command === 'exec') process.exit(0);
  if (!isSourceTree()) process.exit(0);
  const clean = flags.has('--clean');
  const parts = clean ? PARTS : staleParts();
  if (parts.length === 0) console.error('Hookline is built: dist/ and web/dist/ are newer than their sources.');
  try {
    build(parts, { clean });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
