// GraphiQL at /graphql, as a person exploring the API meets it: always served (in every
// environment), the page free to load, every query it runs needing the API token, and all of it
// coming from Hookline itself: in a real browser with every request to another host refused.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Locator } from 'playwright-core';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumRequired,
  hasChromium,
  launchBrowser,
  screenshot,
  CHROMIUM_PATH,
  type Browser,
  type RecordedPage,
} from './support/browser.ts';
import { useHookline } from './support/fixture.ts';

if (!hasChromium && !chromiumRequired) {
  console.warn(`GraphiQL browser test skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium; CI installs it in .ci/run)`);
}

const hookline = useHookline({ environment: { ROLE: 'api' } });
/** What `{ viewer { name } }` answers with the tenant's token. */
let organizationName: string;

beforeAll(async () => {
  const viewer = await hookline.app.database.prisma.organization.findUniqueOrThrow({ where: { id: hookline.tenant.organizationId } });
  organizationName = viewer.name;
});

const openInBrowser = () => fetch(`${hookline.baseUrl}/graphql`, { headers: { accept: 'text/html' } });

/** The tags of a page that load something, with the page's inline scripts and styles left out. */
function loadingTags(html: string): string[] {
  const skeleton = html
    .replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/gi, '$1</script>')
    .replace(/(<style\b[^>]*>)[\s\S]*?<\/style>/gi, '$1</style>');
  return skeleton.match(/<(script|link|img|iframe|source|object|embed)\b[^>]*>/gi) ?? [];
}

function urlsIn(tags: string[]): string[] {
  return tags.flatMap((tag) => [...tag.matchAll(/\b(?:src|href)\s*=\s*["']([^"']*)["']/gi)].map((match) => match[1]!));
}

/** The text in one of GraphiQL's editors (Monaco shows spaces as no-break spaces). */
async function editorText(editor: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the text as the editor shows it, its line breaks included
  return (await editor.locator('.view-lines').innerText()).replaceAll('\u00a0', ' ');
}

describe('GraphiQL over HTTP', () => {
  it('is served at /graphql to a browser, without a token, with every asset inside the page or from Hookline', async () => {
    const response = await openInBrowser();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('<title>Hookline GraphQL</title>');
    // The headers editor starts with where the token goes.
    expect(page).toContain(JSON.stringify(JSON.stringify({ Authorization: 'Bearer hla_...' })));

    const tags = loadingTags(page);
    expect(tags.filter((tag) => /^<script/i.test(tag)).length).toBeGreaterThan(0);
    const urls = urlsIn(tags);
    expect(urls.length).toBeGreaterThan(0); // the favicon at least
    for (const url of urls) {
      expect(url, 'a protocol-relative URL would load from another host').not.toMatch(/^\/\//);
      if (url.startsWith('data:')) continue;
      const resolved = new URL(url, `${hookline.baseUrl}/graphql`);
      expect(resolved.origin, `${url} must come from Hookline`).toBe(hookline.baseUrl);
      expect((await fetch(resolved)).status, url).toBe(200);
    }
  });

  it('is compressed for a browser that accepts it (the page is megabytes, every asset inside it)', async () => {
    const identity = await request(`${hookline.baseUrl}/graphql`, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    const page = Buffer.from(await identity.body.arrayBuffer());
    expect(page.length).toBeGreaterThan(1_000_000);
    expect(Number(identity.headers['content-length'])).toBe(page.length);

    for (const [acceptEncoding, encoding, decompress] of [
      ['gzip', 'gzip', gunzipSync],
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ] as const) {
      for (const visit of [1, 2]) {
        const answer = await request(`${hookline.baseUrl}/graphql`, {
          headers: { accept: 'text/html', 'accept-encoding': acceptEncoding },
        });
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-encoding'], `${acceptEncoding}, visit ${visit}`).toBe(encoding);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        const compressed = Buffer.from(await answer.body.arrayBuffer());
        expect(Number(answer.headers['content-length'])).toBe(compressed.length);
        expect(compressed.length).toBeLessThan(page.length / 3);
        expect(decompress(compressed).equals(page)).toBe(true);
      }
    }
  });

  it('runs no query without the API token: the page holds no data', async () => {
    const response = await fetch(`${hookline.baseUrl}/graphql?query=${encodeURIComponent('{ viewer { name } }')}`, {
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('leaves GraphQL over HTTP GET to clients that do not ask for HTML', async () => {
    const response = await fetch(`${hookline.baseUrl}/graphql?query=${encodeURIComponent('{ viewer { name } }')}`, {
      headers: { accept: 'application/graphql-response+json, application/json', authorization: `Bearer ${hookline.tenant.apiToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(await response.json()).toEqual({ data: { viewer: { name: organizationName } } });
  });
});

// Skipped on a developer's machine without Chromium; under CI a missing browser is a failure.
describe.skipIf(!hasChromium && !chromiumRequired)('GraphiQL in a browser', () => {
  let browser: Browser;
  let tab: RecordedPage | undefined;

  beforeAll(async () => {
    if (!hasChromium)
      throw new Error(`No Chromium at ${CHROMIUM_PATH}, and CI is set: the GraphiQL browser test must run (apt-get install -y chromium)`);
    browser = await launchBrowser();
  });

  afterEach(async (context) => {
    if (tab && context.task.result?.state === 'fail') await screenshot(tab.page, 'failed-graphiql').catch(() => undefined);
    await tab?.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders with no request leaving the machine, and runs a query with the API token', async () => {
    tab = await browser.newPage();
    const { page } = tab;
    const leftTheMachine: string[] = [];
    await page.route('**/*', (route) => {
      const { hostname } = new URL(route.request().url());
      if (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]') return route.continue();
      leftTheMachine.push(route.request().url());
      return route.abort('internetdisconnected');
    });

    await page.goto(`${hookline.baseUrl}/graphql?query=${encodeURIComponent('{ viewer { name } }')}`);
    await page.locator('.graphiql-container').first().waitFor();
    const headersEditor = page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor').first();
    await expect.poll(() => editorText(headersEditor)).toBe('{"Authorization":"Bearer hla_..."}');

    // Without the token first: the API refuses, and GraphiQL shows why.
    tab.allow(/status of 401/);
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.graphiql-response').getByText('UNAUTHENTICATED').waitFor();

    // Typed as a person would (the editor closes brackets and quotes as they are typed).
    await headersEditor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(JSON.stringify({ Authorization: `Bearer ${hookline.tenant.apiToken}` }));
    await expect.poll(() => editorText(headersEditor)).toBe(`{"Authorization":"Bearer ${hookline.tenant.apiToken}"}`);
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.graphiql-response').getByText(`"${organizationName}"`).waitFor();
    await screenshot(page, '20-graphiql-query-result');

    expect(leftTheMachine).toEqual([]);
    expect(tab.problems()).toEqual([]);
  });
});
