// Every snippet of the README and of the docs/ pages works as written, against a real Hookline
// on a loopback port: the curl walk-through in reading order (each answer matching the `# …`
// line under it), the two JavaScript programs run by Node.js as they stand (a receiver verifying
// deliveries with standardwebhooks; a live delivery log over graphql-ws), and every GraphQL
// operation is valid against the schema. The one change made to a snippet is the address:
// localhost:4000 becomes the test server's. Every relative link of those pages leads somewhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, Kind, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { LOCAL_RECEIVERS } from './support/app.ts';
import { ping } from './support/graphql-ws.ts';
import { post } from './support/http.ts';
import { eventually } from './support/receiver.ts';
import { useHookline } from './support/fixture.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const README = readFileSync(`${ROOT}README.md`, 'utf8');
/** The pages in reading order: the README, then those its Documentation list links, in its order. */
const PAGES = ['README.md', ...[...new Set([...README.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)].map((match) => match[1]!))]];

interface Snippet {
  language: string;
  code: string;
  /** Where it is: the page and the line its fence opens on. */
  at: string;
}

function snippetsOf(page: string, markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const opening = /^```(\w*)$/.exec(lines[i]!);
    if (!opening) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== '```') body.push(lines[i]!);
    snippets.push({ language: opening[1]!, code: body.join('\n'), at: `${page}:${start + 1}` });
  }
  return snippets;
}

const SNIPPETS = PAGES.flatMap((page) => snippetsOf(page, readFileSync(`${ROOT}${page}`, 'utf8')));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors of a page's headings (outside code blocks). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!fenced && heading) anchors.add(anchorOf(heading[1]!));
  }
  return anchors;
}

/** The relative links of a page (not images' sources, URLs with a scheme, nor code). */
function relativeLinksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[2]!).filter((target) => !/^[a-z]+:/.test(target));
}
const CURL_SNIPPETS = SNIPPETS.filter((snippet) => snippet.language === 'sh' && snippet.code.startsWith('curl '));
const JS_SNIPPETS = SNIPPETS.filter((snippet) => snippet.language === 'js');

function snippetStarting(prefix: string): Snippet {
  const found = JS_SNIPPETS.filter((snippet) => snippet.code.startsWith(prefix));
  expect(found, `one js snippet starting with ${prefix}`).toHaveLength(1);
  return found[0]!;
}

/**
 * The README's answer under a command (`# {…}` lines, a leading status code allowed) as a
 * pattern: a quoted string with `…` in it (an example id or token) stands for any string, any
 * other `…` for any text; everything else must match exactly.
 */
function expectedAnswer(code: string): RegExp | undefined {
  const comment = code
    .split('\n')
    .filter((line) => line.startsWith('# '))
    .map((line) => line.slice(2).trim())
    .join('');
  if (!comment) return undefined;
  const body = comment.replace(/^\d{3} /, '');
  const pattern = body
    .split(/("[^"]*…[^"]*")/)
    .map((part, index) => (index % 2 === 1 ? '"[^"]*"' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('…', '.*?')))
    .join('');
  return new RegExp(`^${pattern}$`);
}

const hookline = useHookline({ environment: { ...LOCAL_RECEIVERS, INGEST_RATE_LIMIT_PER_MINUTE: 'off' }, tenant: 'existing' });
const children: ChildProcess[] = [];

beforeAll(async () => {
  // The walk-through creates the service "checkout" itself.
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
});

function addressed(code: string): string {
  const { host } = new URL(hookline.baseUrl);
  return code.replaceAll('localhost:4000', host);
}

interface Program {
  output(): string;
  waitForOutput(pattern: RegExp, what: string, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** Runs a README JavaScript snippet with Node.js from the repository root (so its imports resolve). */
function runProgram(snippet: Snippet, environment: Record<string, string>): Program {
  const child = spawn(process.execPath, ['--input-type=module', '-e', addressed(snippet.code)], {
    cwd: ROOT,
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    output: () => output,
    waitForOutput: (pattern, what, timeoutMs = 15_000) =>
      eventually(
        async () => {
          if (child.exitCode !== null) throw new Error(`snippet ${snippet.at} exited ${child.exitCode}: ${output}`);
          return pattern.exec(output) ?? undefined;
        },
        timeoutMs,
        what,
      ),
  };
}

describe('README snippets', () => {
  it('reads every page of docs/, each linked from the README', () => {
    const pages = readdirSync(`${ROOT}docs`)
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`);
    expect(PAGES.slice(1).sort()).toEqual(pages.sort());
  });

  it('has no relative link to a missing file or heading', () => {
    const broken: string[] = [];
    for (const page of [...PAGES]) {
      for (const target of relativeLinksOf(readFileSync(`${ROOT}${page}`, 'utf8'))) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), file));
        if (!existsSync(`${ROOT}${resolved}`)) broken.push(`${page}: ${target} (no ${resolved})`);
        else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(`${ROOT}${resolved}`, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds the walk-through, the two programs and the GraphQL operations', () => {
    expect(CURL_SNIPPETS.length).toBeGreaterThanOrEqual(4);
    expect(JS_SNIPPETS).toHaveLength(2);
    expect(SNIPPETS.filter((snippet) => snippet.language === 'graphql').length).toBeGreaterThanOrEqual(10);
  });

  it('runs the curl walk-through in order, each answer as the README shows it', async () => {
    const environment: Record<string, string> = { HOOKLINE_API_TOKEN: hookline.tenant.apiToken };
    for (const snippet of CURL_SNIPPETS) {
      const run = spawn('bash', ['-euo', 'pipefail', '-c', addressed(snippet.code)], { env: { ...process.env, ...environment } });
      let stdout = '';
      let stderr = '';
      run.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const status = await new Promise<number | null>((resolve) => run.on('close', resolve));
      expect(status, `${snippet.at}: ${stderr}`).toBe(0);
      const answer = expectedAnswer(snippet.code);
      if (answer) expect(stdout.trim(), snippet.at).toMatch(answer);
      // The tokens a step prints are what the next steps send, as a reader would.
      const deployToken = /hld_[0-9A-Za-z]{40}/.exec(stdout)?.[0];
      if (deployToken) environment.HOOKLINE_DEPLOY_TOKEN = deployToken;
      const alertToken = /hlk_[0-9A-Za-z]{40}/.exec(stdout)?.[0];
      if (alertToken) environment.HOOKLINE_ALERT_TOKEN = alertToken;
    }
    expect(environment.HOOKLINE_DEPLOY_TOKEN).toBeDefined();
    expect(environment.HOOKLINE_ALERT_TOKEN).toBeDefined();
  });

  it('runs the verifying receiver: a signed delivery is printed once, a forged one refused with 400', async () => {
    const port = await freePort();
    const created = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hookline`, name: 'README receiver', eventTypes: ['test.ping'] }),
    });
    expect(created.status).toBe(201);
    const { id: endpointId, signingSecret } = created.body as { id: string; signingSecret: string };
    const receiver = runProgram(snippetStarting('// receiver.mjs'), { HOOKLINE_SIGNING_SECRET: signingSecret, PORT: String(port) });
    await receiver.waitForOutput(new RegExp(`Listening on port ${port}`), 'the receiver listening');

    const deliveryId = await ping(hookline.baseUrl, hookline.tenant, endpointId);
    await receiver.waitForOutput(new RegExp(`test\\.ping ${deliveryId}`), 'the verified test.ping printed');

    const forged = await fetch(`http://127.0.0.1:${port}/hookline`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,Zm9yZ2Vk',
      },
      body: '{"type":"test.ping"}',
    });
    expect(forged.status).toBe(400);
    expect(receiver.output()).not.toContain('msg_forged');
  });

  it('runs the live delivery log over graphql-ws on this Node.js', async () => {
    const created = await post(`${hookline.baseUrl}/api/webhooks/endpoints`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/unreachable', name: 'README live log', eventTypes: ['test.ping'] }),
    });
    expect(created.status).toBe(201);
    const endpointId = (created.body as { id: string }).id;
    const liveLog = runProgram(snippetStarting('// live-log.mjs'), {
      HOOKLINE_API_TOKEN: hookline.tenant.apiToken,
      HOOKLINE_ENDPOINT_ID: endpointId,
    });
    // A ping sent before the subscription is set up goes unseen; the next one is shown.
    for (let attempt = 1; ; attempt++) {
      const deliveryId = await ping(hookline.baseUrl, hookline.tenant, endpointId);
      try {
        await liveLog.waitForOutput(
          new RegExp(`^${deliveryId} PENDING after 0 attempt\\(s\\)$`, 'm'),
          `ping ${deliveryId} in the live log`,
          2_000,
        );
        return;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
  });

  it('has only GraphQL operations valid against schema.graphql', () => {
    const schema = buildSchema(readFileSync(`${ROOT}schema.graphql`, 'utf8'));
    for (const snippet of SNIPPETS.filter((candidate) => candidate.language === 'graphql')) {
      // A snippet may show several anonymous operations side by side: each is checked alone.
      for (const definition of parse(snippet.code).definitions) {
        const errors = validate(schema, { kind: Kind.DOCUMENT, definitions: [definition] }).map((error) => error.message);
        expect(errors, snippet.at).toEqual([]);
      }
    }
  });
});
