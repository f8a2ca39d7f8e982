// The entry of ci/hookline-deploy.mjs: `hookline deploy` alone, built with its dependencies into
// one file (`npm run build:deploy-script`) that any Node 18+ runs as it is.
import { CommanderError } from 'commander';
import { deployCommand } from './command.ts';

try {
  await deployCommand('hookline-deploy').parseAsync();
} catch (error) {
  // Commander has printed its message (or the help); any failure of its own is a usage error.
  process.exitCode = error instanceof CommanderError ? (error.exitCode === 0 ? 0 : 2) : 1;
  if (!(error instanceof CommanderError)) console.error(`hookline: error: ${(error as Error).message}`);
}
