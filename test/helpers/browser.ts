import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The system's Chromium (Debian's `chromium` package), or the one CHROMIUM_PATH names. */
export const chromiumPath = (): string | undefined =>
  [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate): candidate is string => !!candidate && existsSync(candidate));

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  if (chromiumPath()) return undefined;
  return 'no Chromium found (install Debian\'s chromium package, as .ci/run does, or set CHROMIUM_PATH)';
}

/**
 * Flags for a headless Chromium on a machine without outside network: without the background
 * networking ones, Chromium keeps trying to reach its update and sync services.
 */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface TestBrowser {
  page: Page;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function openBrowser(viewport = { width: 1280, height: 720 }, colorScheme: 'light' | 'dark' = 'light'): Promise<TestBrowser> {
  // Playwright gives the browser a new, empty profile of its own.
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath()!, headless: true, args: FLAGS });
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  return {
    page,
    context,
    async close() {
      await browser.close();
    },
  };
}

/** Where screenshots are kept: test-artifacts/console, and also SWITCHBOARD_SCREENSHOTS_DIR when set (the README's pictures). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dirs = [path.resolve('test-artifacts', 'console')];
  if (process.env.SWITCHBOARD_SCREENSHOTS_DIR) dirs.push(path.resolve(process.env.SWITCHBOARD_SCREENSHOTS_DIR));
  let first = '';
  for (const dir of dirs) {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${name}.png`);
    await page.screenshot({ path: file });
    first ||= file;
  }
  return first;
}
