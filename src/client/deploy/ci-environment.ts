// What a CI system says about the job that runs `hookline deploy`, from its own variables, so a
// pipeline step needs no flags beyond the environment's name. Each provider is recognised by the
// variable it documents as always set; a field it does not know stays undefined (the command
// then asks git, or leaves it out).

type Environment = Record<string, string | undefined>;

export interface CiJob {
  /** The CI system, for people ("GitHub Actions"), and for the idempotency key ("github"). */
  provider: { name: string; key: string };
  commitSha?: string;
  commitMessage?: string;
  branch?: string;
  /** A tag being built: the deploy's version. */
  tag?: string;
  deployedBy?: string;
  /** Set by the CIs whose jobs declare their environment (GitLab, Bitbucket). */
  environment?: string;
  /** A link to this run or job in the CI. */
  url?: string;
  /** The repository's web address (GitHub, GitLab, Bitbucket), for links to commits and pull requests. */
  repositoryUrl?: string;
  /** The pipeline run, and which attempt of it this is (a retry or re-run is a new attempt). */
  run?: { id: string; attempt?: string };
}

/** An unset or empty variable is no value (CIs often export empty ones). */
function read(environment: Environment, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value ? value : undefined;
}

const providers: ((get: (name: string) => string | undefined) => CiJob | null)[] = [
  // https://docs.github.com/en/actions/reference/variables-reference
  (get) => {
    if (get('GITHUB_ACTIONS') !== 'true') return null;
    const runId = get('GITHUB_RUN_ID');
    const attempt = get('GITHUB_RUN_ATTEMPT');
    const repository = get('GITHUB_REPOSITORY');
    const isTag = get('GITHUB_REF_TYPE') === 'tag';
    return {
      provider: { name: 'GitHub Actions', key: 'github' },
      commitSha: get('GITHUB_SHA'),
      // A pull request's own branch; GITHUB_REF_NAME would be "<number>/merge".
      branch: get('GITHUB_HEAD_REF') ?? (isTag ? undefined : get('GITHUB_REF_NAME')),
      tag: isTag ? get('GITHUB_REF_NAME') : undefined,
      deployedBy: get('GITHUB_TRIGGERING_ACTOR') ?? get('GITHUB_ACTOR'),
      url:
        repository && runId
          ? `${get('GITHUB_SERVER_URL') ?? 'https://github.com'}/${repository}/actions/runs/${runId}${attempt ? `/attempts/${attempt}` : ''}`
          : undefined,
      run: runId ? { id: runId, attempt } : undefined,
      repositoryUrl: repository ? `${get('GITHUB_SERVER_URL') ?? 'https://github.com'}/${repository}` : undefined,
    };
  },
  // https://docs.gitlab.com/ci/variables/predefined_variables/
  (get) => {
    if (get('GITLAB_CI') !== 'true') return null;
    const pipelineId = get('CI_PIPELINE_ID');
    return {
      provider: { name: 'GitLab CI', key: 'gitlab' },
      commitSha: get('CI_COMMIT_SHA'),
      commitMessage: get('CI_COMMIT_MESSAGE'),
      branch: get('CI_COMMIT_BRANCH') ?? get('CI_MERGE_REQUEST_SOURCE_BRANCH_NAME'),
      tag: get('CI_COMMIT_TAG'),
      deployedBy: get('GITLAB_USER_LOGIN'),
      environment: get('CI_ENVIRONMENT_NAME'),
      url: get('CI_JOB_URL') ?? get('CI_PIPELINE_URL'),
      repositoryUrl: get('CI_PROJECT_URL'),
      // A retried job is a new job with a new id: GitLab's attempt.
      run: pipelineId ? { id: pipelineId, attempt: get('CI_JOB_ID') } : undefined,
    };
  },
  // https://circleci.com/docs/reference/variables/
  (get) => {
    if (get('CIRCLECI') !== 'true') return null;
    const workflowId = get('CIRCLE_WORKFLOW_ID');
    return {
      provider: { name: 'CircleCI', key: 'circleci' },
      commitSha: get('CIRCLE_SHA1'),
      branch: get('CIRCLE_BRANCH'),
      tag: get('CIRCLE_TAG'),
      deployedBy: get('CIRCLE_USERNAME'),
      url: get('CIRCLE_BUILD_URL'),
      // Re-running a job gives it a new build number.
      run: workflowId ? { id: workflowId, attempt: get('CIRCLE_BUILD_NUM') } : undefined,
    };
  },
  // https://buildkite.com/docs/pipelines/configure/environment-variables
  (get) => {
    if (get('BUILDKITE') !== 'true') return null;
    const buildId = get('BUILDKITE_BUILD_ID');
    const buildUrl = get('BUILDKITE_BUILD_URL');
    const jobId = get('BUILDKITE_JOB_ID');
    return {
      provider: { name: 'Buildkite', key: 'buildkite' },
      commitSha: get('BUILDKITE_COMMIT'),
      commitMessage: get('BUILDKITE_MESSAGE'),
      branch: get('BUILDKITE_BRANCH'),
      tag: get('BUILDKITE_TAG'),
      deployedBy: get('BUILDKITE_BUILD_CREATOR_EMAIL') ?? get('BUILDKITE_BUILD_CREATOR'),
      url: buildUrl && jobId ? `${buildUrl}#${jobId}` : buildUrl,
      // A retried job is a new job with a new id.
      run: buildId ? { id: buildId, attempt: jobId } : undefined,
    };
  },
  // https://www.jenkins.io/doc/book/pipeline/jenkinsfile/#using-environment-variables (and the Git plugin's)
  (get) => {
    if (!get('JENKINS_URL')) return null;
    const buildTag = get('BUILD_TAG');
    return {
      provider: { name: 'Jenkins', key: 'jenkins' },
      commitSha: get('GIT_COMMIT'),
      // A multibranch pipeline's BRANCH_NAME; the Git plugin's GIT_BRANCH is "origin/main".
      branch: get('BRANCH_NAME') ?? get('GIT_BRANCH')?.replace(/^origin\//, ''),
      tag: get('TAG_NAME'),
      // Set by the build-user-vars plugin, when installed.
      deployedBy: get('BUILD_USER_ID'),
      url: get('BUILD_URL'),
      // BUILD_TAG is "jenkins-<job>-<build number>": a rebuild is a new build.
      run: buildTag ? { id: buildTag } : undefined,
    };
  },
  // https://support.atlassian.com/bitbucket-cloud/docs/variables-and-secrets/
  (get) => {
    const buildNumber = get('BITBUCKET_BUILD_NUMBER');
    if (!buildNumber) return null;
    const origin = get('BITBUCKET_GIT_HTTP_ORIGIN');
    return {
      provider: { name: 'Bitbucket Pipelines', key: 'bitbucket' },
      commitSha: get('BITBUCKET_COMMIT'),
      branch: get('BITBUCKET_BRANCH'),
      tag: get('BITBUCKET_TAG'),
      environment: get('BITBUCKET_DEPLOYMENT_ENVIRONMENT'),
      url: origin ? `${origin}/pipelines/results/${buildNumber}` : undefined,
      // Bitbucket Cloud gives its origin as http://; its pages are served over https.
      repositoryUrl: origin?.replace(/^http:\/\/bitbucket\.org\//, 'https://bitbucket.org/'),
      run: { id: get('BITBUCKET_PIPELINE_UUID') ?? buildNumber, attempt: get('BITBUCKET_STEP_UUID') },
    };
  },
];

/** The CI job this process runs in, or null outside a known CI. */
export function detectCiJob(environment: Environment): CiJob | null {
  const get = (name: string) => read(environment, name);
  for (const provider of providers) {
    const job = provider(get);
    if (job) return job;
  }
  return null;
}

/**
 * The X-Idempotency-Key of this job's deploy to `environment`: the CLI's own retries, and the
 * step run again in the same attempt, record one deploy; a new attempt (a re-run) deploys again
 * and records again. Printable ASCII, at most 255 characters, as the ingest route requires.
 */
export function idempotencyKeyOf(job: CiJob, environment: string | undefined): string | undefined {
  if (!job.run) return undefined;
  const parts = [job.provider.key, job.run.id, job.run.attempt ?? '-', environment ?? '-'];
  return `hookline-deploy:${parts.map((part) => encodeURIComponent(part)).join(':')}`.slice(0, 255);
}
