// `hookline deploy`: records the deploy a CI job has just made, with the commits since the
// service's previous deploy to the same environment. The same command is built into one
// dependency-free file (ci/hookline-deploy.mjs) that a pipeline runs without installing Hookline.
// A tracking tool must not fail a deploy: any failure is one warning and exit 0, unless --strict.
import { Command, InvalidArgumentError, Option } from 'commander';
import { detectCiJob, idempotencyKeyOf } from './ci-environment.ts';
import { commitsSince, Git, type CommitList, type GitCommit } from './git-history.ts';
import { RequestFailure, requestJson, type RetryPolicy } from './request.ts';

/** The ingest route's body limit: a long history is trimmed to fit under it. */
const BODY_LIMIT_BYTES = 102_400;
/** Retry-After beyond this ends the tries: a deploy step must not wait for long. */
const MAX_RETRY_DELAY_MS = 60_000;

interface DeployOptions {
  url?: string;
  token?: string;
  environment?: string;
  commitSha?: string;
  commitMessage?: string;
  branch?: string;
  version?: string;
  deployedBy?: string;
  description?: string;
  deployUrl?: string;
  repositoryUrl?: string;
  idempotencyKey?: string;
  repo: string;
  strict?: boolean;
  dryRun?: boolean;
  json?: boolean;
  retries: number;
  retryDelayMs: number;
  timeout: number;
}

interface LatestDeployAnswer {
  service: { id: string; name: string };
  deploy: { deploy_id: string; commit_sha: string; deployed_at: string } | null;
}

interface IngestAnswer {
  status: 'accepted' | 'duplicate';
  deploy_id: string;
}

/** Thrown to end the command with one warning (or, with --strict, one error). */
class DeployProblem extends Error {}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

const log = (line: string) => console.error(`hookline: ${line}`);
const short = (sha: string) => sha.slice(0, 12);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The deploy's commits as the ingest route takes them, trimmed (messages, then the oldest) to fit its body limit. */
function fitBody(deploy: Record<string, unknown>, commits: GitCommit[]): { body: string; note?: string } {
  const withCommits = (list: GitCommit[]) =>
    JSON.stringify({ ...deploy, commits: list.map(({ sha, message, author, timestamp }) => ({ sha, message, author, timestamp })) });
  let body = withCommits(commits);
  if (Buffer.byteLength(body) <= BODY_LIMIT_BYTES) return { body };
  const subjects = commits.map((commit) => ({ ...commit, message: commit.message.split('\n')[0]! }));
  let kept = subjects.length;
  for (;;) {
    body = withCommits(subjects.slice(0, kept));
    if (Buffer.byteLength(body) <= BODY_LIMIT_BYTES || kept === 0) break;
    kept--;
  }
  return {
    body,
    note: `the commit list is over ${BODY_LIMIT_BYTES} bytes: sending subject lines only, and the newest ${plural(kept, 'commit')}`,
  };
}

async function run(options: DeployOptions): Promise<void> {
  const job = detectCiJob(process.env);
  const git = new Git(options.repo);
  const url = options.url?.replace(/\/+$/, '') || undefined;
  const token = options.token || undefined;
  if (url && !(URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)))
    throw new DeployProblem(`--url (HOOKLINE_URL) must be an http(s) URL, not "${url}"`);
  if (!options.dryRun && (!url || !token)) {
    const missing = [!url && '--url (or HOOKLINE_URL)', !token && '--token (or HOOKLINE_DEPLOY_TOKEN)'].filter(Boolean).join(' and ');
    throw new DeployProblem(`${missing} not set`);
  }
  if (job)
    log(`${job.provider.name} detected${job.run ? ` (run ${job.run.id}${job.run.attempt ? `, attempt ${job.run.attempt}` : ''})` : ''}`);

  const environment = options.environment ?? job?.environment;
  const commitSha = options.commitSha ?? job?.commitSha ?? (await git.resolveCommit('HEAD'));
  if (!commitSha)
    throw new DeployProblem(
      `no commit to record: ${options.repo} is not a git checkout, and neither --commit-sha nor the CI says which commit`,
    );
  const head = await git.resolveCommit(commitSha);
  const headCommit = head ? (await git.log(['--max-count=1', head]))[0] : undefined;
  const policy: RetryPolicy = {
    retries: options.retries,
    delayMs: options.retryDelayMs,
    maxDelayMs: MAX_RETRY_DELAY_MS,
    timeoutMs: options.timeout * 1000,
  };
  const onRetry = (reason: string, delayMs: number) => log(`${reason}: trying again in ${(delayMs / 1000).toFixed(1)} s`);

  let service: string | undefined;
  let previous: string | null | undefined;
  if (url && token) {
    const query = environment === undefined ? '' : `?environment=${encodeURIComponent(environment)}`;
    try {
      const latest = await requestJson<LatestDeployAnswer>(
        `${url}/api/ingest/deploy/latest${query}`,
        { method: 'GET', headers: { 'x-deploy-token': token } },
        policy,
        onRetry,
      );
      service = latest.service.name;
      previous = latest.deploy?.commit_sha ?? null;
    } catch (error) {
      // A Hookline from before this route still takes the deploy; anything else would refuse it too.
      if (!(error instanceof RequestFailure && error.status === 404))
        throw new DeployProblem(`asking for the previous deploy: ${(error as Error).message}`);
      log(`${url} cannot tell the previous deploy (${error.message})`);
    }
  }

  let commits: CommitList;
  if (!head) commits = { commits: [], note: `commit ${short(commitSha)} is not in the checkout at ${options.repo}: sending no commits` };
  else if (previous === undefined)
    commits = { commits: headCommit ? [headCommit] : [], note: 'the previous deploy is unknown: sending the deployed commit only' };
  else commits = await commitsSince(git, head, previous);
  log(commits.note);

  const deploy = Object.fromEntries(
    Object.entries({
      commit_sha: commitSha,
      commit_message: options.commitMessage ?? headCommit?.message ?? job?.commitMessage,
      branch: options.branch ?? job?.branch ?? (head ? await git.branch() : null),
      deployed_by: options.deployedBy ?? job?.deployedBy,
      environment,
      version: options.version ?? job?.tag ?? (head ? await git.tagOf(head) : null),
      description: options.description,
      url: options.deployUrl ?? job?.url,
      repository_url: options.repositoryUrl ?? job?.repositoryUrl,
    }).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
  const { body, note } = fitBody(deploy, commits.commits);
  if (note) log(note);
  const idempotencyKey = options.idempotencyKey ?? (job ? idempotencyKeyOf(job, environment) : undefined);

  if (options.dryRun) {
    log(
      `dry run: nothing sent${url ? ` to ${url}/api/ingest/deploy` : ''}${idempotencyKey ? `, X-Idempotency-Key: ${idempotencyKey}` : ''}`,
    );
    console.log(JSON.stringify(JSON.parse(body), null, 2));
    return;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-deploy-token': token! };
  if (idempotencyKey) headers['x-idempotency-key'] = idempotencyKey;
  let answer: IngestAnswer;
  try {
    answer = await requestJson<IngestAnswer>(`${url}/api/ingest/deploy`, { method: 'POST', headers, body }, policy, onRetry);
  } catch (error) {
    throw new DeployProblem((error as Error).message);
  }
  const count = JSON.parse(body).commits.length as number;
  const target = `${service ?? 'the service'}${environment === undefined ? '' : ` to ${environment}`}`;
  if (options.json) console.log(JSON.stringify(answer));
  else if (answer.status === 'duplicate')
    console.log(`Already recorded: deploy ${answer.deploy_id} of ${target} (same X-Idempotency-Key ${idempotencyKey}).`);
  else console.log(`Recorded deploy ${answer.deploy_id} of ${target} at ${short(commitSha)}, with ${plural(count, 'commit')}.`);
}

/** One line a CI shows prominently: GitHub Actions makes it an annotation of the run. */
function report(level: 'warning' | 'error', message: string): void {
  if (process.env.GITHUB_ACTIONS === 'true') console.error(`::${level} title=Hookline::${message}`);
  else console.error(`hookline: ${level}: ${message}`);
}

/** The command, named `name` (`deploy` in the hookline CLI, `hookline-deploy` as the built script). */
export function deployCommand(name: string): Command {
  return new Command(name)
    .description(
      "Record the deploy this CI job made, with the commits since the service's previous deploy to the environment. " +
        'Reads GitHub Actions, GitLab CI, CircleCI, Buildkite, Jenkins and Bitbucket Pipelines variables; flags override them. ' +
        'Never fails the pipeline unless --strict.',
    )
    .addOption(new Option('--url <url>', 'base URL of Hookline').env('HOOKLINE_URL'))
    .addOption(new Option('--token <token>', "the service's deploy token (hld_...)").env('HOOKLINE_DEPLOY_TOKEN'))
    .option('--environment <name>', 'where it was deployed (GitLab and Bitbucket name it themselves)')
    .option('--commit-sha <sha>', "the deployed commit (default: the CI's, else HEAD)")
    .option('--commit-message <text>', "the deployed commit's message (default: git's)")
    .option('--branch <name>', "the deployed branch (default: the CI's, else the checked-out branch)")
    .option('--version <version>', 'version or tag (default: the tag being built, else a tag on the commit)')
    .option('--deployed-by <who>', "who deployed (default: the CI's user who started the run)")
    .option('--description <text>', 'free text')
    .option('--deploy-url <url>', 'a link to the deploy (default: the CI run or job)')
    .option('--repository-url <url>', "the service's repository, for commit links (default: GitHub's, GitLab's or Bitbucket's)")
    .option('--idempotency-key <key>', 'X-Idempotency-Key (default: from the CI run, attempt and environment)')
    .option('--repo <path>', 'the git checkout', '.')
    .option('--strict', 'exit 1 when the deploy is not recorded (default: a warning, exit 0)')
    .option('--dry-run', 'print the body that would be sent, and send nothing')
    .option('--json', 'print the answer {"status", "deploy_id"} as one JSON line')
    .addOption(new Option('--retries <count>', 'tries after the first on 429, 5xx and network failures').argParser(wholeNumber).default(4))
    .addOption(
      new Option('--retry-delay-ms <ms>', 'the first wait; each next doubles (Retry-After wins when longer)')
        .argParser(wholeNumber)
        .default(1000)
        .env('HOOKLINE_RETRY_DELAY_MS'),
    )
    .addOption(new Option('--timeout <seconds>', 'per request').argParser(wholeNumber).default(15))
    .exitOverride()
    .action(async (options: DeployOptions) => {
      try {
        await run(options);
      } catch (error) {
        // Whatever went wrong, even a fault of this command, the deploy itself went well.
        const message = error instanceof Error ? error.message : String(error);
        if (options.strict) {
          report('error', `the deploy was not recorded: ${message}`);
          process.exitCode = 1;
        } else {
          report('warning', `the deploy was not recorded: ${message} (the pipeline goes on; --strict would fail it)`);
        }
      }
    });
}
