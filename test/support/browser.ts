// A real browser for end-to-end tests: Debian's Chromium driven by playwright-core (which
// downloads no browser of its own), on a fresh profile, with every console error and uncaught
// page error recorded so that a test can fail on them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
/** On CI (`CI=true`, as GitHub Actions and most CI services set it) browser tests may not be skipped. */
export const chromiumRequired = process.env.CI === 'true' || process.env.CI === '1';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

/** Chromium here has no network but loopback: nothing in the background may try to reach out. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** A new tab (so a new sessionStorage) whose console errors and page errors are recorded. */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<RecordedPage>;
  close(): Promise<void>;
}

export interface RecordedPage {
  page: Page;
  /** Console errors and uncaught exceptions so far, except those matching `allowed`. */
  problems(): string[];
  /** The text frames the page received on its WebSockets so far. */
  webSocketFrames(): string[];
  /** Lets console errors matching `pattern` pass (an expected 401 of a refused token, say). */
  allow(pattern: RegExp): void;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'hookline-chromium-'));
  // A persistent context on a fresh directory: Playwright itself passes it as --user-data-dir.
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    // Chromium's start can take over 20 s while the other test files load both cores; the
    // suite's hook timeout (60 s) stays the bound.
    timeout: 50_000,
  });
  // Each action and expectation waits for its condition at most this long (a loaded machine renders slowly).
  context.setDefaultTimeout(30_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // The persistent context opens with one blank tab; tests use their own.
  for (const page of context.pages()) await page.close();

  return {
    context,
    async newPage({ viewport } = {}) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      const problems: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const text = `console.error: ${message.text()} (${message.location().url})`;
        if (!allowed.some((pattern) => pattern.test(text))) problems.push(text);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error.message}`));
      const frames: string[] = [];
      page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
      return {
        page,
        problems: () => [...problems],
        webSocketFrames: () => [...frames],
        allow: (pattern) => allowed.push(pattern),
        close: () => page.close(),
      };
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs the browser in with a session cookie (`hookline_session=…`, as a sign-in answer set it;
 * cookies are per host, so every tab of the browser shares it), then opens `url` in `tab`.
 */
export async function openSignedIn(tab: RecordedPage, sessionCookie: string, url: string): Promise<RecordedPage> {
  const [name, ...value] = sessionCookie.split('=');
  const { hostname } = new URL(url);
  await tab.page
    .context()
    .addCookies([{ name: name!, value: value.join('='), domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' }]);
  await tab.page.goto(url);
  return tab;
}

/**
 * One browser for the tests of a describe block: launched before them, closed after them. After
 * each test, its tabs are closed (a failed test's screenshotted first, its console and page errors
 * printed) and its cookies cleared, so that no test runs in another's session.
 */
export function useBrowserTabs(name: string) {
  let browser: Browser;
  const tabs: RecordedPage[] = [];
  beforeAll(async () => {
    if (!hasChromium) throw new Error(`No Chromium at ${CHROMIUM_PATH}, and CI is set: the dashboard browser tests must run`);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (context) => {
    for (const tab of tabs.splice(0)) {
      if (tab.page.isClosed()) continue;
      if (context.task.result?.state === 'fail') {
        await screenshot(tab.page, `failed-${name}-${context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 50)}`).catch(() => undefined);
        console.warn(`console and page errors: ${JSON.stringify(tab.problems())}`);
      }
      await tab.close();
    }
    await browser.context.clearCookies();
  });
  const newTab = async (): Promise<RecordedPage> => {
    const tab = await browser.newPage();
    tabs.push(tab);
    return tab;
  };
  return {
    /** A new tab, closed after the test. */
    newTab,
    /** A new tab signed in with `sessionCookie`, at `url`. */
    signedIn: async (sessionCookie: string, url: string) => openSignedIn(await newTab(), sessionCookie, url),
    /** Signs every tab out (the cookies are the browser's, shared by its tabs). */
    clearCookies: () => browser.context.clearCookies(),
  };
}

/** No console errors and no uncaught exceptions in the tab, then closes it. */
export async function closeClean(tab: RecordedPage): Promise<void> {
  expect(tab.problems()).toEqual([]);
  await tab.close();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

function newestMtime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * The dashboard as `npm run build:web` builds it (npm install runs that): built again here
 * when web/dist is missing or older than a source, so the tests never run a stale app.
 */
export function ensureDashboardBuilt(): void {
  const web = path.join(ROOT, 'web');
  const index = path.join(web, 'dist', 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestMtime(web)) return;
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', web, '--logLevel', 'warn'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
}
