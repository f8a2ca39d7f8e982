// Links into a service's repository (GitHub, GitLab, Bitbucket, by the address's host): a
// commit, the pull request a commit message names, and the comparison of two deploys. Only
// http(s) addresses become links.

/** The hosts whose paths are known, recognised by name (github.com and GitHub Enterprise hosts with "github" in their name, and so on). */
type RepositoryHost = 'github' | 'gitlab' | 'bitbucket';

/** A repository address as stored: http(s), without a trailing slash or ".git". */
export function normalizeRepositoryUrl(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  url.search = '';
  url.hash = '';
  return url
    .toString()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

function hostOf(repositoryUrl: string): RepositoryHost | null {
  if (!URL.canParse(repositoryUrl)) return null;
  const { protocol, hostname } = new URL(repositoryUrl);
  if (protocol !== 'https:' && protocol !== 'http:') return null;
  if (hostname.includes('github')) return 'github';
  if (hostname.includes('gitlab')) return 'gitlab';
  if (hostname.includes('bitbucket')) return 'bitbucket';
  return null;
}

const segment = (value: string) => encodeURIComponent(value);

/** The page of a commit, or null when the repository's host is not known. */
export function commitUrl(repositoryUrl: string | null, sha: string): string | null {
  const host = repositoryUrl && hostOf(repositoryUrl);
  if (!host) return null;
  const path = { github: 'commit', gitlab: '-/commit', bitbucket: 'commits' }[host];
  return `${repositoryUrl}/${path}/${segment(sha)}`;
}

/** The comparison of the commit deployed before with the one deployed now. */
export function compareUrl(repositoryUrl: string | null, previousSha: string, sha: string): string | null {
  const host = repositoryUrl && hostOf(repositoryUrl);
  if (!host || previousSha === sha) return null;
  if (host === 'bitbucket') return `${repositoryUrl}/branches/compare/${segment(sha)}%0D${segment(previousSha)}`;
  return `${repositoryUrl}/${host === 'gitlab' ? '-/compare' : 'compare'}/${segment(previousSha)}...${segment(sha)}`;
}

/**
 * The number of the pull (merge) request a commit message names: GitHub's merge commit ("Merge
 * pull request #123 from …") and squash subject ("Fix it (#123)"), GitLab's "See merge request
 * group/project!123", Bitbucket's "Merged in branch (pull request #123)".
 */
export function pullRequestNumber(message: string | null): number | null {
  if (!message) return null;
  const found =
    /Merge pull request #(\d+)/.exec(message) ??
    /\(pull request #(\d+)\)/.exec(message) ??
    /See merge request \S*!(\d+)/.exec(message) ??
    /\(#(\d+)\)\s*$/m.exec(message.split('\n')[0] ?? '');
  return found ? Number(found[1]) : null;
}

/** The pull (merge) request a commit message names, on the repository's host. */
export function pullRequestUrl(repositoryUrl: string | null, message: string | null): string | null {
  const host = repositoryUrl && hostOf(repositoryUrl);
  const number = pullRequestNumber(message);
  if (!host || number === null) return null;
  const path = { github: 'pull', gitlab: '-/merge_requests', bitbucket: 'pull-requests' }[host];
  return `${repositoryUrl}/${path}/${number}`;
}

/** A commit message's first line, and the rest (null when there is none). */
export function subjectAndBody(message: string | null): { subject: string | null; body: string | null } {
  if (message === null) return { subject: null, body: null };
  const [subject = '', ...rest] = message.replace(/\r\n/g, '\n').split('\n');
  const body = rest.join('\n').trim();
  return { subject: subject.trim(), body: body === '' ? null : body };
}

/** A deploy's message: its own commit_message, else the deployed commit's among those sent, else the first sent one with a message. */
export function deployHeadline(
  commitMessage: string | null,
  commitSha: string,
  commits: readonly { sha: string; message: string | null }[],
): string | null {
  if (commitMessage) return commitMessage;
  return (
    (commits.find((commit) => commit.sha === commitSha && commit.message) ?? commits.find((commit) => commit.message))?.message ?? null
  );
}
