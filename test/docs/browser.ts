// Test helper: headless Chromium from the Debian package (never a downloaded browser), with every
// request outside the allowed origins aborted and recorded, and console errors collected.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install the Debian package with \`apt-get install -y chromium\` (the docs browser test never downloads a browser; .ci/run installs it).`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** URLs the page tried to load outside the allowed origins (all aborted). */
  blocked: string[];
  /** Console errors and uncaught page errors. */
  errors: string[];
}

/** A page whose requests may only go to `file://` and the given origins (`http://127.0.0.1:1234`). */
export async function watchedPage(browser: Browser, allowedOrigins: readonly string[] = []): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const blocked: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file://') || allowedOrigins.some((origin) => url === origin || url.startsWith(`${origin}/`))) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return { context, page, blocked, errors };
}
