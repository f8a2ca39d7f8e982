// bench/isolation.ts run by bench/delivery.ts in the same run, in a process of its own (its
// worker is the app in that process), on the same PostgreSQL server. Its output is passed
// through, and its closing figures are read back for the summary.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stopChild, waitForExit } from './processes.ts';
import { cleanups, undoNow } from './support.ts';

export interface IsolationResult {
  /** Its summary lines: Y's receipts in both phases, the ratio, X's state, the machine load. */
  figures: string[];
  /** Its verdict line ('target met' / 'TARGET MISSED'), or why there is none. */
  verdict: string;
  met: boolean;
}

/** Lines of isolation.ts's closing summary, from "Y's event → receipt" on. */
const SUMMARY_START = /^Y's event → receipt/;

export async function runIsolation(adminUrl: string, baselineSeconds: number, floodSeconds: number): Promise<IsolationResult> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      import.meta.resolve('tsx'),
      fileURLToPath(new URL('./isolation.ts', import.meta.url)),
      '--baseline-seconds',
      String(baselineSeconds),
      '--flood-seconds',
      String(floodSeconds),
    ],
    { env: { ...process.env, DATABASE_URL: adminUrl }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Stopped with SIGTERM, it drops its scratch database itself.
  const stop = () => stopChild(child);
  cleanups.push(stop);
  const figures: string[] = [];
  let verdict: string | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    console.log(line && `  [isolation] ${line}`);
    if (line === 'target met' || line === 'TARGET MISSED') verdict = line;
    else if (figures.length > 0 || SUMMARY_START.test(line)) figures.push(line);
  }
  await waitForExit(child);
  await undoNow(stop);
  if (!verdict) return { figures, verdict: `no result (${child.signalCode ?? `exit code ${child.exitCode}`})`, met: false };
  return { figures, verdict, met: verdict === 'target met' };
}
