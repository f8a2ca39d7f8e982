// The commits a deploy ships, from the checkout the pipeline runs in: `git log previous..HEAD`,
// at most 100 (the ingest limit), with authors and times. CI checkouts are often shallow (GitHub
// fetches one commit by default): the history back to the previous deploy is fetched when it is
// missing, and when it cannot be, `note` says exactly what is sent instead.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The ingest route's limit on `commits`. */
export const MAX_COMMITS = 100;

export interface GitCommit {
  sha: string;
  message: string;
  /** "Name <email>", as git shows it. */
  author: string;
  /** The author date (when the change was written; a rebase keeps it), ISO 8601. */
  timestamp: string;
}

export interface CommitList {
  commits: GitCommit[];
  /** One line for the log: what was sent, and why when it is not the whole range. */
  note: string;
}

export class Git {
  constructor(private readonly directory: string) {}

  /** git's output, or null when git fails (not a repository, unknown commit, no git at all). */
  async output(args: string[]): Promise<string | null> {
    try {
      const { stdout } = await run('git', args, { cwd: this.directory, maxBuffer: 16 * 1024 * 1024 });
      return stdout;
    } catch {
      return null;
    }
  }

  async resolveCommit(revision: string): Promise<string | null> {
    return (await this.output(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]))?.trim() || null;
  }

  async branch(): Promise<string | null> {
    const name = (await this.output(['symbolic-ref', '--quiet', '--short', 'HEAD']))?.trim();
    return name || null;
  }

  /** The tag on exactly this commit, if any (the newest when there are several). */
  async tagOf(sha: string): Promise<string | null> {
    const tags = (await this.output(['tag', '--points-at', sha, '--sort=-creatordate']))?.split('\n').filter(Boolean) ?? [];
    return tags[0] ?? null;
  }

  async log(args: string[]): Promise<GitCommit[]> {
    // Fields end with NUL and commits with RS, which no name, date or message holds.
    const output = await this.output(['log', '--no-color', '--format=%H%x00%an <%ae>%x00%aI%x00%B%x1e', ...args]);
    if (output === null) return [];
    return output
      .split('\x1e')
      .map((record) => record.replace(/^\n/, ''))
      .filter(Boolean)
      .map((record) => {
        const [sha = '', author = '', timestamp = '', message = ''] = record.split('\x00');
        return { sha, author, timestamp, message: message.trim() };
      });
  }

  async isShallow(): Promise<boolean> {
    return (await this.output(['rev-parse', '--is-shallow-repository']))?.trim() === 'true';
  }

  /** Deepens a shallow checkout by `depth` commits below `head`; the error in one line, or null. */
  async deepen(head: string, depth: number): Promise<string | null> {
    try {
      await run('git', ['fetch', '--quiet', '--no-tags', `--deepen=${depth}`, 'origin', head], { cwd: this.directory });
      return null;
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1);
      return stderr || (error as Error).message.split('\n')[0]!;
    }
  }
}

const short = (sha: string) => sha.slice(0, 12);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The commits from `previous` (the previous deploy's commit; null for a first deploy) to `head`,
 * newest first, at most MAX_COMMITS.
 */
export async function commitsSince(git: Git, head: string, previous: string | null): Promise<CommitList> {
  const headOnly = await git.log(['--max-count=1', head]);
  if (previous === null) {
    // The history before a first deploy went out some other way; counting it would make every
    // old commit look just shipped (lead time, suspects).
    return { commits: headOnly, note: 'first deploy here: sending the deployed commit only' };
  }
  let fetchProblem: string | null = null;
  if (!(await git.resolveCommit(previous)) && (await git.isShallow())) {
    fetchProblem = await git.deepen(head, MAX_COMMITS);
  }
  if (await git.resolveCommit(previous)) {
    const range = await git.log([`--max-count=${MAX_COMMITS + 1}`, `${previous}..${head}`]);
    if (range.length === 0) return { commits: [], note: `no commits since the previous deploy (${short(previous)})` };
    if (range.length > MAX_COMMITS) {
      return {
        commits: range.slice(0, MAX_COMMITS),
        note: `more than ${MAX_COMMITS} commits since ${short(previous)}: sending the newest ${MAX_COMMITS}`,
      };
    }
    return { commits: range, note: `${plural(range.length, 'commit')} since the previous deploy (${short(previous)})` };
  }
  if (await git.isShallow()) {
    // What the checkout holds is the newest part of the range: send it, and say so.
    const available = await git.log([`--max-count=${MAX_COMMITS}`, head]);
    const why = fetchProblem ? `fetching more history failed (${fetchProblem})` : `it is more than ${MAX_COMMITS} commits back`;
    return {
      commits: available,
      note: `the previous deploy's commit ${short(previous)} is not in this shallow clone and ${why}: sending the ${plural(available.length, 'commit')} the checkout has`,
    };
  }
  return {
    commits: headOnly,
    note: `the previous deploy's commit ${short(previous)} is not in this repository's history (another branch, or rewritten history): sending the deployed commit only`,
  };
}
