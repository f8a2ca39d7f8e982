// `npm test`: the static checks (the server's and the dashboard's type check, then Biome) run
// while vitest runs, not before it. Most test files wait on sockets, processes and timers, so the
// checks' half minute of compiling mostly fills CPU the tests leave idle. A failed check prints its
// output as soon as it ends (vitest's own output goes on meanwhile); the run fails if any part did.
// Arguments go to vitest (`npm test -- test/x.test.ts`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Package `name`'s command `bin`, run by this Node.js (no shell, no PATH), as scripts/build.mjs runs tools. */
function tool(name, bin, ...args) {
  const directory = path.join(ROOT, 'node_modules', name);
  const bins = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')).bin;
  return { label: [bin, ...args].join(' '), command: [process.execPath, path.join(directory, bins[bin]), ...args] };
}

/** Runs `command`; its output is kept, and printed only when it fails. Resolves with success. */
function check({ label, command: [file, ...args] }) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      if (code !== 0) process.stderr.write(`\n${label} failed (exit ${code}):\n${output}\n`);
      resolve(code === 0);
    });
  });
}

const checks = (async () => {
  // One after the other: together they would only take CPU from the tests and from each other.
  let passed = true;
  for (const part of [
    tool('typescript', 'tsc', '--noEmit'),
    tool('typescript', 'tsc', '-p', 'web'),
    tool('@biomejs/biome', 'biome', 'ci', '.'),
  ]) {
    passed = (await check(part)) && passed;
  }
  return passed;
})();

const vitest = tool('vitest', 'vitest', 'run', ...process.argv.slice(2));
const tests = new Promise((resolve) => {
  const child = spawn(vitest.command[0], vitest.command.slice(1), { cwd: ROOT, stdio: 'inherit' });
  child.on('close', (code, signal) => resolve(code === 0 && signal === null));
});

const [checked, tested] = await Promise.all([checks, tests]);
if (!checked) process.stderr.write('The static checks failed (above).\n');
process.exit(checked && tested ? 0 : 1);
