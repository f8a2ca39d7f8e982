// `hookline deploy` as a CI job runs it: a child process (the CLI through bin/hookline.js, and the
// built ci/hookline-deploy.mjs with plain Node) inside a real git repository made here with git
// (commits, a tag, shallow clones), against a real Hookline, with each CI provider's variables.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createService } from '../src/domain/ingest/services.ts';
import { useHookline } from './support/fixture.ts';
import { runProgram, type ProgramResult } from './support/programs.ts';

const exec = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/hookline.js', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../ci/hookline-deploy.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const fixture = useHookline({ environment: { INGEST_RATE_LIMIT_PER_MINUTE: '1000000' } });
let workspace: string;
/** The "remote" every checkout is cloned from. */
let origin: string;

/** A clean environment: none of the runner's own CI variables leak into the command. */
function baseEnvironment(): Record<string, string> {
  return {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
    HOME: workspace,
    GIT_CONFIG_NOSYSTEM: '1',
    HOOKLINE_RETRY_DELAY_MS: '10',
  };
}

let clock = Date.parse('2026-11-01T09:00:00Z');
/** Runs git in `directory`, committing as Ada at a fixed, advancing time. */
async function git(directory: string, ...args: string[]): Promise<string> {
  const date = new Date((clock += 60_000)).toISOString();
  const { stdout } = await exec('git', args, {
    cwd: directory,
    env: {
      ...baseEnvironment(),
      GIT_AUTHOR_NAME: 'Ada Lovelace',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: 'Ada Lovelace',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
      GIT_COMMITTER_DATE: date,
    },
  });
  return stdout.trim();
}

/** Adds `count` commits to origin's main in one git fast-import; their SHAs, oldest first. */
async function commit(count: number, subject = 'Change', body = 'Why it changed.'): Promise<string[]> {
  const parent = await git(origin, 'rev-parse', '--verify', '--quiet', 'main').catch(() => '');
  let stream = '';
  for (let i = 0; i < count; i++) {
    const message = `${subject} ${i + 1}\n\n${body}\n`;
    stream += `commit refs/heads/main\nmark :${i + 1}\ncommitter Ada Lovelace <ada@example.com> ${(clock += 60_000) / 1000} +0000\n`;
    stream += `data ${Buffer.byteLength(message)}\n${message}`;
    if (i === 0 && parent) stream += `from ${parent}\n`;
    stream += '\n';
  }
  const marksFile = path.join(workspace, 'marks');
  const importer = spawn('git', ['fast-import', '--quiet', `--export-marks=${marksFile}`], { cwd: origin, env: baseEnvironment() });
  let errors = '';
  importer.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  importer.stdin.end(stream);
  const [code] = await once(importer, 'close');
  expect(code, errors).toBe(0);
  const marks = await readFile(marksFile, 'utf8');
  const shas = new Map(
    marks
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string]),
  );
  return Array.from({ length: count }, (_, i) => shas.get(`:${i + 1}`)!);
}

async function clone(options: { depth?: number } = {}): Promise<string> {
  const directory = await mkdtemp(path.join(workspace, 'checkout-'));
  await git(workspace, 'clone', '--quiet', ...(options.depth ? [`--depth=${options.depth}`] : []), `file://${origin}`, directory);
  return directory;
}

/** How a test runs a program in `directory`: with the base environment and `environment`. */
const runIn = (directory: string, environment: Record<string, string>) => ({
  cwd: directory,
  env: { ...baseEnvironment(), ...environment },
  timeout: 30_000,
});

/** Runs `hookline deploy`, or a copy of the built script at `script`, in `directory`; any exit is a result. */
function deploy(directory: string, args: string[], environment: Record<string, string> = {}, script?: string): Promise<ProgramResult> {
  return runProgram(process.execPath, script ? [script, ...args] : [BIN, 'deploy', ...args], runIn(directory, environment));
}

function hookline(token = fixture.tenant.deployToken): Record<string, string> {
  return { HOOKLINE_URL: fixture.baseUrl, HOOKLINE_DEPLOY_TOKEN: token };
}

function github(sha: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    GITHUB_ACTIONS: 'true',
    GITHUB_SHA: sha,
    GITHUB_REF_NAME: 'main',
    GITHUB_REF_TYPE: 'branch',
    GITHUB_ACTOR: 'octocat',
    GITHUB_RUN_ID: '7001',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_REPOSITORY: 'acme/checkout',
    GITHUB_SERVER_URL: 'https://github.com',
    ...overrides,
  };
}

async function storedDeploy(id: string) {
  return fixture.app.database.prisma.deploy.findUniqueOrThrow({ where: { id }, include: { commits: { orderBy: { position: 'asc' } } } });
}

const deployCount = () => fixture.app.database.prisma.deploy.count();
const recordedId = (result: ProgramResult) => new RegExp(`^Recorded deploy (${UUID}) of `).exec(result.stdout)?.[1];

beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'hookline-deploy-'));
  origin = path.join(workspace, 'origin');
  await exec('git', ['init', '--quiet', '--initial-branch=main', origin]);
});

afterAll(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

describe('hookline deploy in GitHub Actions', () => {
  let first: string;

  it('records a first deploy with only the deployed commit, and the version from its tag: --environment is all it needs', async () => {
    [, , first] = (await commit(3, 'Initial')) as [string, string, string];
    await git(origin, 'tag', 'v1.0.0');
    const checkout = await clone();
    const result = await deploy(checkout, ['--environment', 'production'], { ...hookline(), ...github(first) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `Recorded deploy ${recordedId(result)} of checkout to production at ${first.slice(0, 12)}, with 1 commit.\n`,
    );
    expect(result.stderr).toBe(
      'hookline: GitHub Actions detected (run 7001, attempt 1)\nhookline: first deploy here: sending the deployed commit only\n',
    );

    const stored = await storedDeploy(recordedId(result)!);
    expect(stored).toMatchObject({
      commitSha: first,
      commitMessage: 'Initial 3\n\nWhy it changed.',
      branch: 'main',
      deployedBy: 'octocat',
      environment: 'production',
      version: 'v1.0.0',
      url: 'https://github.com/acme/checkout/actions/runs/7001/attempts/1',
      idempotencyKey: 'hookline-deploy:github:7001:1:production',
    });
    // The repository GitHub names becomes the service's (it had none).
    const service = await fixture.app.database.prisma.service.findUniqueOrThrow({ where: { id: stored.serviceId } });
    expect(service.repositoryUrl).toBe('https://github.com/acme/checkout');
    expect(
      stored.commits.map(({ sha, message, author, timestamp }) => ({ sha, message, author, timestamp: timestamp?.toISOString() })),
    ).toEqual([
      {
        sha: first,
        message: 'Initial 3\n\nWhy it changed.',
        author: 'Ada Lovelace <ada@example.com>',
        timestamp: expect.stringMatching(/^2026-11-01T09:/),
      },
    ]);
  });

  it('records a re-run of the same attempt once (the same idempotency key), and says so', async () => {
    const before = await deployCount();
    const checkout = await clone();
    const result = await deploy(checkout, ['--environment', 'production'], { ...hookline(), ...github(first) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^Already recorded: deploy ${UUID} of checkout to production \\(same X-Idempotency-Key hookline-deploy:github:7001:1:production\\)\\.\\n$`,
      ),
    );
    expect(await deployCount()).toBe(before);
  });

  it('in a shallow clone, fetches the history back to the previous deploy and sends exactly the commits since, newest first', async () => {
    const shas = await commit(3, 'Feature');
    const checkout = await clone({ depth: 1 });
    expect(await git(checkout, 'rev-parse', '--is-shallow-repository')).toBe('true');
    const result = await deploy(checkout, ['--environment', 'production'], {
      ...hookline(),
      ...github(shas[2]!, { GITHUB_RUN_ID: '7002' }),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`hookline: 3 commits since the previous deploy (${first.slice(0, 12)})\n`);
    const stored = await storedDeploy(recordedId(result)!);
    expect(stored.version).toBeNull();
    expect(stored.commits.map((commit) => [commit.sha, commit.message, commit.author])).toEqual(
      [...shas].reverse().map((sha, i) => [sha, `Feature ${3 - i}\n\nWhy it changed.`, 'Ada Lovelace <ada@example.com>']),
    );
    // Author times, to the second, as git recorded them.
    const times = await git(origin, 'log', '--format=%aI', '-n', '3');
    expect(stored.commits.map((commit) => commit.timestamp!.getTime())).toEqual(times.split('\n').map((time) => Date.parse(time)));
  });

  it('in a shallow clone that cannot fetch, says exactly what it sends instead', async () => {
    const [sha] = await commit(1, 'Hotfix');
    const checkout = await clone({ depth: 1 });
    await git(checkout, 'remote', 'set-url', 'origin', `file://${workspace}/gone`);
    const result = await deploy(checkout, ['--environment', 'production'], { ...hookline(), ...github(sha!, { GITHUB_RUN_ID: '7003' }) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^hookline: the previous deploy's commit [0-9a-f]{12} is not in this shallow clone and fetching more history failed \(.+\): sending the 1 commit the checkout has$/m,
    );
    expect((await storedDeploy(recordedId(result)!)).commits.map((commit) => commit.sha)).toEqual([sha]);
  });

  it('sends the newest 100 commits when more were made since the previous deploy, and says so', async () => {
    const shas = await commit(102, 'Batch');
    const checkout = await clone();
    const result = await deploy(checkout, ['--environment', 'production'], {
      ...hookline(),
      ...github(shas.at(-1)!, { GITHUB_RUN_ID: '7004' }),
    });
    expect(result.stderr).toMatch(/^hookline: more than 100 commits since [0-9a-f]{12}: sending the newest 100$/m);
    const stored = await storedDeploy(recordedId(result)!);
    expect(stored.commits.map((commit) => commit.sha)).toEqual(shas.slice(2).reverse());
  });

  it('a commit list over the 100 KB body limit keeps subject lines, then the newest commits that fit, and says so', async () => {
    const shas = await commit(40, 'Long', 'x'.repeat(3000));
    const checkout = await clone();
    const result = await deploy(checkout, ['--environment', 'production'], {
      ...hookline(),
      ...github(shas.at(-1)!, { GITHUB_RUN_ID: '7006' }),
    });
    expect(result.stderr).toContain(
      'hookline: the commit list is over 102400 bytes: sending subject lines only, and the newest 40 commits\n',
    );
    const stored = await storedDeploy(recordedId(result)!);
    expect(stored.commits.map((commit) => commit.message)).toEqual(shas.map((_, i) => `Long ${i + 1}`).reverse());
    // The deployed commit's own message is kept whole.
    expect(stored.commitMessage).toBe(`Long 40\n\n${'x'.repeat(3000)}`);
  });

  it('the built script, as Hookline serves it, does the same with plain Node', async () => {
    const response = await fetch(`${fixture.baseUrl}/ci/hookline-deploy.mjs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const served = await response.text();
    expect(served).toBe(await readFile(SCRIPT, 'utf8'));
    const downloaded = path.join(workspace, 'hookline-deploy.mjs');
    await writeFile(downloaded, served);

    const [sha] = await commit(1, 'Script');
    const checkout = await clone({ depth: 1 });
    const result = await deploy(
      checkout,
      ['--environment', 'production'],
      { ...hookline(), ...github(sha!, { GITHUB_RUN_ID: '7005' }) },
      downloaded,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('hookline: 1 commit since the previous deploy');
    expect((await storedDeploy(recordedId(result)!)).commits.map((commit) => commit.sha)).toEqual([sha]);
  });
});

describe('the GitHub Action and the GitLab CI template', () => {
  /** Runs a shell script as the CI would, in `directory`; any exit is a result. */
  function shell(shellArgs: string[], script: string, directory: string, environment: Record<string, string>): Promise<ProgramResult> {
    return runProgram(shellArgs[0]!, [...shellArgs.slice(1), script], runIn(directory, environment));
  }

  it('action.yml (composite) runs the committed script with its inputs, as GitHub runs a composite step', async () => {
    const action = parseYaml(await readFile(path.join(ROOT, 'action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual([
      'url',
      'token',
      'environment',
      'version',
      'description',
      'working-directory',
      'strict',
      'dry-run',
    ]);
    const [step] = action.runs.steps as { shell: string; env: Record<string, string>; run: string }[];
    expect(step!.shell).toBe('bash');
    const inputs: Record<string, string> = {
      ...Object.fromEntries(
        Object.entries(action.inputs as Record<string, { default?: string }>).map(([name, input]) => [name, input.default ?? '']),
      ),
      url: fixture.baseUrl,
      token: fixture.tenant.deployToken,
      environment: 'canary',
      description: "Friday's release; $(echo not run)",
    };
    // GitHub's expressions, as GitHub evaluates these: ${{ inputs.name }}.
    const env = Object.fromEntries(
      Object.entries(step!.env).map(([name, value]) => [
        name,
        value.replace(/^\$\{\{ inputs\.([\w-]+) \}\}$/, (_, input: string) => inputs[input]!),
      ]),
    );
    const [sha] = await commit(1, 'Action');
    const checkout = await clone({ depth: 1 });
    // GitHub runs a composite bash step so: bash --noprofile --norc -eo pipefail {0}.
    const result = await shell(['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c'], step!.run, checkout, {
      ...env,
      ...github(sha!, { GITHUB_RUN_ID: '8001' }),
      GITHUB_ACTION_PATH: ROOT,
    });
    expect(result.code).toBe(0);
    const stored = await storedDeploy(recordedId(result)!);
    expect(stored).toMatchObject({
      commitSha: sha,
      environment: 'canary',
      description: "Friday's release; $(echo not run)",
      idempotencyKey: 'hookline-deploy:github:8001:1:canary',
    });
  });

  it("the GitLab CI template, as Hookline serves it, downloads the script from Hookline and records the job's deploy to its environment", async () => {
    const response = await fetch(`${fixture.baseUrl}/ci/hookline-deploy.gitlab-ci.yml`);
    expect(response.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    const served = await response.text();
    expect(served).toBe(await readFile(path.join(ROOT, 'ci/hookline-deploy.gitlab-ci.yml'), 'utf8'));
    const template = parseYaml(served)['.hookline-deploy'] as { variables: Record<string, string>; script: string[] };
    const [sha] = await commit(1, 'GitLab');
    const checkout = await clone({ depth: 1 });
    const gitlab = {
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: sha!,
      CI_ENVIRONMENT_NAME: 'production',
      CI_PIPELINE_ID: '601',
      CI_JOB_ID: '91',
      TMPDIR: workspace,
    };
    const result = await shell(['sh', '-ec'], template.script.join('\n'), checkout, { ...template.variables, ...hookline(), ...gitlab });
    expect(result.code).toBe(0);
    const stored = await storedDeploy(recordedId(result)!);
    expect(stored).toMatchObject({ commitSha: sha, environment: 'production', idempotencyKey: 'hookline-deploy:gitlab:601:91:production' });
    // The Action's commit before it went to canary only: production gets it now.
    const actionCommit = await git(origin, 'rev-parse', `${sha}~1`);
    expect(stored.commits.map((commit) => commit.sha)).toEqual([sha, actionCommit]);

    // Hookline unreachable: a warning, and the job goes on; with --strict it fails.
    const unreachable = { ...template.variables, ...hookline(), HOOKLINE_URL: 'http://127.0.0.1:9', ...gitlab };
    const lenient = await shell(['sh', '-ec'], template.script.join('\n'), checkout, unreachable);
    expect(lenient).toMatchObject({
      code: 0,
      stdout: 'hookline: warning: the deploy was not recorded: could not download http://127.0.0.1:9/ci/hookline-deploy.mjs\n',
    });
    const strict = await shell(['sh', '-ec'], template.script.join('\n'), checkout, { ...unreachable, HOOKLINE_DEPLOY_ARGS: '--strict' });
    expect(strict.code).toBe(1);
  });
});

describe('each CI provider', () => {
  let checkout: string;
  let head: string;

  beforeAll(async () => {
    checkout = await clone();
    head = await git(checkout, 'rev-parse', 'HEAD');
  });

  const providers: {
    name: string;
    environment: () => Record<string, string>;
    args?: string[];
    body: Record<string, unknown>;
    key: string;
  }[] = [
    {
      name: 'GitLab CI',
      environment: () => ({
        GITLAB_CI: 'true',
        CI_COMMIT_SHA: head,
        CI_COMMIT_BRANCH: 'main',
        GITLAB_USER_LOGIN: 'grace',
        CI_ENVIRONMENT_NAME: 'staging',
        CI_JOB_URL: 'https://gitlab.example.com/acme/checkout/-/jobs/88',
        CI_PIPELINE_ID: '501',
        CI_JOB_ID: '88',
        CI_PROJECT_URL: 'https://gitlab.example.com/acme/checkout',
      }),
      body: {
        branch: 'main',
        deployed_by: 'grace',
        environment: 'staging',
        url: 'https://gitlab.example.com/acme/checkout/-/jobs/88',
        repository_url: 'https://gitlab.example.com/acme/checkout',
      },
      key: 'hookline-deploy:gitlab:501:88:staging',
    },
    {
      name: 'CircleCI',
      environment: () => ({
        CIRCLECI: 'true',
        CIRCLE_SHA1: head,
        CIRCLE_TAG: 'v2.0.0',
        CIRCLE_USERNAME: 'linus',
        CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/checkout/314',
        CIRCLE_WORKFLOW_ID: 'wf-1',
        CIRCLE_BUILD_NUM: '314',
      }),
      args: ['--environment', 'production'],
      body: { version: 'v2.0.0', deployed_by: 'linus', environment: 'production', url: 'https://circleci.com/gh/acme/checkout/314' },
      key: 'hookline-deploy:circleci:wf-1:314:production',
    },
    {
      name: 'Buildkite',
      environment: () => ({
        BUILDKITE: 'true',
        BUILDKITE_COMMIT: head,
        BUILDKITE_BRANCH: 'release',
        BUILDKITE_BUILD_CREATOR_EMAIL: 'margaret@example.com',
        BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/checkout/builds/12',
        BUILDKITE_BUILD_ID: 'build-12',
        BUILDKITE_JOB_ID: 'job-3',
      }),
      args: ['--environment', 'production'],
      body: { branch: 'release', deployed_by: 'margaret@example.com', url: 'https://buildkite.com/acme/checkout/builds/12#job-3' },
      key: 'hookline-deploy:buildkite:build-12:job-3:production',
    },
    {
      name: 'Jenkins',
      environment: () => ({
        JENKINS_URL: 'https://jenkins.example.com/',
        GIT_COMMIT: head,
        GIT_BRANCH: 'origin/main',
        BUILD_URL: 'https://jenkins.example.com/job/checkout/9/',
        BUILD_TAG: 'jenkins-checkout-9',
      }),
      args: ['--environment', 'production'],
      body: { branch: 'main', url: 'https://jenkins.example.com/job/checkout/9/' },
      key: 'hookline-deploy:jenkins:jenkins-checkout-9:-:production',
    },
    {
      name: 'Bitbucket Pipelines',
      environment: () => ({
        CI: 'true',
        BITBUCKET_BUILD_NUMBER: '77',
        BITBUCKET_COMMIT: head,
        BITBUCKET_BRANCH: 'main',
        BITBUCKET_DEPLOYMENT_ENVIRONMENT: 'production',
        // Bitbucket Cloud's own value: http, though its pages are https.
        BITBUCKET_GIT_HTTP_ORIGIN: 'http://bitbucket.org/acme/checkout',
        BITBUCKET_PIPELINE_UUID: '{p-1}',
        BITBUCKET_STEP_UUID: '{s-2}',
      }),
      body: {
        branch: 'main',
        environment: 'production',
        url: 'http://bitbucket.org/acme/checkout/pipelines/results/77',
        repository_url: 'https://bitbucket.org/acme/checkout',
      },
      key: 'hookline-deploy:bitbucket:%7Bp-1%7D:%7Bs-2%7D:production',
    },
  ];

  it.each(providers)(
    '$name: its variables fill the deploy and the idempotency key',
    async ({ name, environment, args = [], body, key }) => {
      const result = await deploy(checkout, ['--dry-run', ...args], { ...hookline(), ...environment() });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`hookline: ${name} detected`);
      expect(result.stderr).toContain(`X-Idempotency-Key: ${key}\n`);
      expect(JSON.parse(result.stdout)).toMatchObject({ commit_sha: head, ...body });
    },
  );

  it('flags override what the CI says', async () => {
    const [gitlab] = providers;
    const result = await deploy(
      checkout,
      [
        '--dry-run',
        '--environment',
        'eu-prod',
        '--branch',
        'hotfix',
        '--deployed-by',
        'ops',
        '--deploy-url',
        'https://deploys.example.com/1',
        '--idempotency-key',
        'mine',
        '--version',
        '9.9',
      ],
      { ...hookline(), ...gitlab!.environment() },
    );
    expect(result.stderr).toContain('X-Idempotency-Key: mine\n');
    expect(JSON.parse(result.stdout)).toMatchObject({
      commit_sha: head,
      environment: 'eu-prod',
      branch: 'hotfix',
      deployed_by: 'ops',
      url: 'https://deploys.example.com/1',
      version: '9.9',
    });
  });
});

describe('failures never fail the pipeline unless --strict', () => {
  let checkout: string;
  beforeAll(async () => {
    checkout = await clone();
  });

  it('--dry-run prints the body and stores nothing', async () => {
    const before = await deployCount();
    const result = await deploy(checkout, ['--dry-run', '--environment', 'production', '--description', 'Weekly'], hookline());
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({
      commit_sha: await git(checkout, 'rev-parse', 'HEAD'),
      environment: 'production',
      description: 'Weekly',
      branch: 'main',
    });
    expect(body.commits).toEqual([]);
    expect(result.stderr).toMatch(/^hookline: no commits since the previous deploy \([0-9a-f]{12}\)$/m);
    expect(result.stderr).toMatch(/^hookline: dry run: nothing sent to http:\/\/127\.0\.0\.1:\d+\/api\/ingest\/deploy$/m);
    expect(await deployCount()).toBe(before);
  });

  it('a refused token: one warning and exit 0; with --strict one error and exit 1; nothing stored', async () => {
    const before = await deployCount();
    const badToken = hookline(`hld_${'x'.repeat(40)}`);
    const refused =
      'the deploy was not recorded: asking for the previous deploy: HTTP 401 invalid_deploy_token: X-Deploy-Token is missing or is not a valid deploy token';
    const lenient = await deploy(checkout, ['--environment', 'production'], badToken);
    expect(lenient).toEqual({
      code: 0,
      stdout: '',
      stderr: `hookline: warning: ${refused} (the pipeline goes on; --strict would fail it)\n`,
    });
    const strict = await deploy(checkout, ['--environment', 'production', '--strict'], badToken);
    expect(strict).toEqual({ code: 1, stdout: '', stderr: `hookline: error: ${refused}\n` });
    // In GitHub Actions the warning is an annotation of the run.
    const annotated = await deploy(checkout, ['--environment', 'production'], { ...badToken, GITHUB_ACTIONS: 'true' });
    expect(annotated.stderr).toContain(`::warning title=Hookline::${refused}`);
    expect(await deployCount()).toBe(before);
  });

  it('no token or URL (a fork without secrets): one warning, exit 0', async () => {
    const result = await deploy(checkout, ['--environment', 'production']);
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr:
        'hookline: warning: the deploy was not recorded: --url (or HOOKLINE_URL) and --token (or HOOKLINE_DEPLOY_TOKEN) not set (the pipeline goes on; --strict would fail it)\n',
    });
  });

  it('Hookline unreachable: tries again, then one warning, exit 0', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const result = await deploy(checkout, ['--environment', 'production', '--retries', '1'], {
      HOOKLINE_URL: `http://127.0.0.1:${port}`,
      HOOKLINE_DEPLOY_TOKEN: fixture.tenant.deployToken,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'hookline: ECONNREFUSED: trying again in 0.0 s\n' +
        'hookline: warning: the deploy was not recorded: asking for the previous deploy: ECONNREFUSED, after 2 tries (the pipeline goes on; --strict would fail it)\n',
    );
  });

  it('a usage error is exit 2', async () => {
    const result = await deploy(checkout, ['--no-such-flag'], hookline());
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: unknown option '--no-such-flag'\n");
  });
});

describe('retries', () => {
  /** A stand-in Hookline whose deploy route answers `answers` in turn; records every request. */
  async function flakyHookline(answers: { status: number; headers?: Record<string, string>; body: unknown }[]) {
    const requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; at: number }[] = [];
    const server = http.createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      requests.push({ method: request.method!, url: request.url!, headers: request.headers, body, at: performance.now() });
      const answer =
        request.method === 'GET'
          ? { status: 200, body: { service: { id: fixture.tenant.serviceId, name: 'checkout' }, deploy: null } }
          : (answers.shift() ?? { status: 500, body: {} });
      response
        .writeHead(answer.status, { 'content-type': 'application/json', ...('headers' in answer ? answer.headers : {}) })
        .end(JSON.stringify(answer.body));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, requests, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('429 with Retry-After, then 200: waits as told, sends the same body and key again, and records', async () => {
    const server = await flakyHookline([
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { error: { code: 'rate_limited', message: 'Rate limit of 60 requests per minute exceeded; retry in 1 s' } },
      },
      { status: 200, body: { status: 'accepted', deploy_id: '00000000-0000-4000-8000-000000000001' } },
    ]);
    try {
      const checkout = await clone();
      const result = await deploy(checkout, ['--environment', 'production', '--json'], {
        HOOKLINE_URL: server.url,
        HOOKLINE_DEPLOY_TOKEN: fixture.tenant.deployToken,
        ...github(await git(checkout, 'rev-parse', 'HEAD'), { GITHUB_RUN_ID: '9001' }),
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('{"status":"accepted","deploy_id":"00000000-0000-4000-8000-000000000001"}\n');
      expect(result.stderr).toContain(
        'hookline: HTTP 429 rate_limited: Rate limit of 60 requests per minute exceeded; retry in 1 s: trying again in 1.0 s\n',
      );
      const posts = server.requests.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(2);
      expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(990);
      expect(posts[1]!.body).toBe(posts[0]!.body);
      expect(posts.map((post) => post.headers['x-idempotency-key'])).toEqual([
        'hookline-deploy:github:9001:1:production',
        'hookline-deploy:github:9001:1:production',
      ]);
      expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/api/ingest/deploy/latest?environment=production' });
    } finally {
      await server.close();
    }
  });

  it('5xx answers are tried again; a 400 is not', async () => {
    const server = await flakyHookline([
      { status: 503, body: { error: { code: 'database_unavailable', message: 'The database is unavailable' } } },
      { status: 502, body: '<html>Bad gateway</html>' },
      {
        status: 400,
        body: {
          error: {
            code: 'validation_failed',
            message: 'The deploy payload is invalid',
            details: [{ field: 'environment', message: 'must be a string' }],
          },
        },
      },
    ]);
    try {
      const checkout = await clone();
      const result = await deploy(checkout, ['--environment', 'production'], {
        HOOKLINE_URL: server.url,
        HOOKLINE_DEPLOY_TOKEN: fixture.tenant.deployToken,
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('hookline: HTTP 503 database_unavailable: The database is unavailable: trying again in 0.0 s\n');
      expect(result.stderr).toContain('hookline: HTTP 502: trying again in 0.0 s\n');
      expect(result.stderr).toMatch(
        /hookline: warning: the deploy was not recorded: HTTP 400 validation_failed: The deploy payload is invalid \(environment must be a string\) \(the pipeline goes on; --strict would fail it\)\n$/,
      );
      expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

describe('the previous deploy is per service and environment', () => {
  it("another service's first deploy to the same environment is a first deploy", async () => {
    const other = await createService(fixture.app.database.prisma, fixture.tenant.organizationId, 'payments');
    const checkout = await clone();
    const result = await deploy(checkout, ['--environment', 'production'], hookline(other.deployToken));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('hookline: first deploy here: sending the deployed commit only\n');
    expect(result.stdout).toMatch(/^Recorded deploy .+ of payments to production at [0-9a-f]{12}, with 1 commit\.\n$/);
  });
});
