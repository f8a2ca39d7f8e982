// A program run to completion as a test's subject: its exit code and output are the result,
// whatever the code (a CLI's failure is what many tests check).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface ProgramResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file` with `args`; a non-zero exit is a result, anything else (spawn failure, killed at `timeout` ms) throws. */
export async function runProgram(
  file: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; timeout: number },
): Promise<ProgramResult> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
