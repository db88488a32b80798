/**
 * The system Chromium driven by playwright-core, for the page tests. `findChromium()` looks for the
 * browser (CHROMIUM_PATH, then `chromium` / `chromium-browser` / `google-chrome` on PATH); when it
 * is absent the tests skip saying why — except under CI=true, where a missing browser is a failure
 * (`.ci/run` installs Debian's `chromium`). Pages are opened from file:// with the network blocked,
 * so a page that tried to fetch anything would fail its test; console errors are collected.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot } from '../helpers/shared.js';

function findChromium(): string | null {
  const env = process.env.CHROMIUM_PATH;
  if (env !== undefined && env !== '' && existsSync(env)) return env;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const p = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (p !== '') return p;
    } catch {
      // not on PATH
    }
  }
  return null;
}

export const CHROMIUM = findChromium();
export const CHROMIUM_SKIP_REASON =
  'no chromium on PATH (apt-get install chromium, or set CHROMIUM_PATH): browser tests skipped';
if (CHROMIUM === null) {
  if (process.env.CI === 'true') throw new Error(`CI=true but ${CHROMIUM_SKIP_REASON}`);
  process.stderr.write(`${CHROMIUM_SKIP_REASON}\n`);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM!,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export interface OpenedPage {
  readonly page: Page;
  /** console errors and uncaught page errors so far */
  readonly errors: string[];
  /** requests that tried to leave the page (anything but file:, data:, blob:) */
  readonly outbound: string[];
}

/** Opens a file in a fresh context with the network blocked. */
export async function openFile(browser: Browser, file: string, hash = ''): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const outbound: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(file|data|blob):/.test(url)) return route.continue();
    outbound.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href + hash);
  return { page, errors, outbound };
}

/** A screenshot (the viewport, or the whole page) under test-results/ (gitignored) for a person to look at. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  const dir = join(repoRoot, 'test-results');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
