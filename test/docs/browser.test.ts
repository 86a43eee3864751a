// The documentation site in a real browser (headless Debian Chromium): every page opened from disk with
// the network blocked shows every operation, GraphQL type and rule; no console error; no request leaves
// the page; one screenshot per page in reports/docs/. The rule filters and the search work. Served by the
// mock (`docs: true`), the try-it panels send to the mock and show its answers.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { rules } from '../../generated/rules.js';
import { levelOf } from '../../src/contract/levels.js';
import { runDocsCommand } from '../../src/cli/docs-command.js';
import { parseSchema } from '../../src/docs/graphql-page.js';
import { loadSources } from '../../src/docs/sources.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { packageFile } from '../../src/contract/package-files.js';
import { launchChromium, watchedPage } from './browser.js';

const SCREENSHOTS = packageFile('reports/docs');
/** A bound, not a goal: generous because other test files share the CPU with the browser. */
const BROWSER_TEST_TIMEOUT_MS = 90_000;
const sources = loadSources();
let browser: Browser;
let out: string;
/** The site's pages: the HTML files `compute-contract docs` wrote (the site's files but assets; a build costs ~1 s of CPU). */
let pages: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  out = await mkdtemp(join(tmpdir(), 'cc-docs-browser-'));
  expect(await runDocsCommand(['--out', out])).toBe(0);
  pages = (await readdir(out, { recursive: true })).filter((path) => path.endsWith('.html')).map((path) => path.split(sep).join('/')).sort();
  await mkdir(SCREENSHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

/** Strings each page must show, from the sources rather than from the HTML. */
function expectedText(path: string): string[] {
  const spec = sources.specs.find((s) => s.page === path);
  if (spec) {
    return Object.values(spec.doc.paths ?? {}).flatMap((item) =>
      (Object.values(item) as Record<string, unknown>[]).filter((op) => typeof op?.operationId === 'string').flatMap((op) => [String(op.operationId), String(op.summary ?? '')]));
  }
  if (path === 'graphql.html') return Object.keys(parseSchema(sources.sdl).getTypeMap()).filter((name) => !name.startsWith('__'));
  if (path === 'rules.html') return rules.map((r) => r.id);
  if (path === 'migration.html') return Object.keys(sources.migration.operations);
  if (path === 'index.html') return ['npm ci', 'npm start', 'npm test'];
  return [];
}

/**
 * Pages open at once in the page test: one browser, a tab per lane (each in its own context). Two, not more:
 * the run is CPU-bound on a 2-core machine, and each further tab is another renderer process to start.
 */
const LANES = 2;

/** Screenshots as JPEG: for people to look at, and half the browser's CPU of a PNG. */
const shoot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.jpg`), type: 'jpeg', quality: 85 });

/**
 * What the page test checks on some pages once their content, console and requests are judged — on the page it
 * already loaded, instead of a tab and a load of its own (each such page is loaded once). Each one fails the page
 * test with its own message.
 */
const pageChecks: Record<string, (page: Page, expect: ExpectStatic) => Promise<void>> = {
  // The GraphQL page holds an element per type.
  'graphql.html': async (page, expect) => {
    const names = expectedText('graphql.html');
    const counts = await page.evaluate((ids) => ids.map((id) => document.querySelectorAll(`[id="${id}"]`).length), names.map((name) => `type-${name}`));
    expect(Object.fromEntries(names.map((name, i) => [name, counts[i]])), 'one element per GraphQL type').toEqual(Object.fromEntries(names.map((name) => [name, 1])));
  },
  // The rule catalogue holds a row per rule; its filters show only the rules of the chosen level and surface.
  'rules.html': async (page, expect) => {
    expect(await page.locator('tr.rule').count(), 'a row per rule').toBe(rules.length);
    await page.selectOption('select[data-filter="level"]', 'must');
    await page.selectOption('select[data-filter="surface"]', 'queue-v2');
    const expected = rules.filter((r) => levelOf(r.source) === 'must' && r.surface === 'queue-v2');
    expect(expected.length).toBeGreaterThan(0);
    expect(await page.locator('tr.rule:visible').count(), 'filtered rows').toBe(expected.length);
    expect(await page.locator(`#rule-${expected[0]!.id}`).isVisible()).toBe(true);
    expect(await page.locator('#rule-count').textContent()).toBe(`${expected.length} of ${rules.length} rules`);
    await shoot(page, 'rules-filtered');
  },
  // Search finds an operation from any page, and its result opens the operation.
  'docs/mock.html': async (page, expect) => {
    await page.fill('#search', 'runJobSync');
    const first = page.locator('#search-results a').first();
    expect(await first.getAttribute('href')).toBe('../queue-v2.html#op-runJobSync');
    await shoot(page, 'search');
    await first.click();
    await page.waitForURL(/queue-v2\.html#op-runJobSync$/);
    expect(await page.locator('#op-runJobSync').isVisible(), 'the search result opened the operation').toBe(true);
  },
};

// Tests of a describe run at the same time, each in its own browser context: one browser, many tabs.
describe.concurrent('docs site in headless Chromium, from disk, network blocked', () => {
  it('every page renders its content with no console error and no request leaving the page; screenshot each; the GraphQL page holds an element per type, the rule catalogue a row per rule and working filters, search opens an operation', async ({ expect }) => {
    const timings: Record<string, { firstContentfulPaintMs: number; loadMs: number; bytes: number }> = {};
    const queue = [...pages];
    const lane = async () => {
      const { context, page, blocked, errors } = await watchedPage(browser);
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        blocked.length = 0;
        errors.length = 0;
        await page.goto(pathToFileURL(join(out, path)).href, { waitUntil: 'load' });
        // One round trip for what the page shows (the browser's CPU is the test's cost).
        const seen = await page.evaluate(() => ({
          text: document.body.textContent ?? '',
          titles: document.querySelectorAll('main h1').length,
          searchIndex: Array.isArray((window as unknown as { SEARCH_INDEX?: unknown }).SEARCH_INDEX),
          nav: Array.from(document.querySelectorAll<HTMLAnchorElement>('nav.site-nav a'), (a) => a.href),
          timing: {
            firstContentfulPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
            loadMs: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd ?? -1,
            bytes: document.documentElement.outerHTML.length,
          },
        }));
        for (const expected of expectedText(path)) expect(seen.text, `${path} shows "${expected}"`).toContain(expected);
        expect(seen.titles, `${path} has a title`).toBeGreaterThan(0);
        expect(seen.searchIndex, `${path} loaded the search index`).toBe(true);
        // The navigation lists exactly the pages written, each once.
        expect(seen.nav.map((href) => relative(out, fileURLToPath(href)).split(sep).join('/')).sort(), `${path} navigation`).toEqual(pages);
        timings[path] = seen.timing;
        await shoot(page, path.replace(/\//g, '__'));
        await pageChecks[path]?.(page, expect);
        expect(blocked, `${path} requested nothing outside the site`).toEqual([]);
        expect(errors, `${path} console`).toEqual([]);
      }
      await context.close();
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    expect(Object.keys(timings).sort()).toEqual([...pages].sort());
    for (const path of Object.keys(pageChecks)) expect(pages, `${path} (it has checks of its own) is a page of the site`).toContain(path);
    // Figures for the issue note (not asserted: timing is for `npm run bench`-style reading only).
    await writeFile(join(SCREENSHOTS, 'timings.json'), `${JSON.stringify(Object.fromEntries(pages.map((p) => [p, timings[p]])), null, 2)}\n`);
  }, 4 * BROWSER_TEST_TIMEOUT_MS);
});

describe.concurrent('docs site served by the mock (`docs: true`): try-it', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', docs: true, control: true, apiKeys: [{ key: 'docs-key', scopes: ['read', 'write', 'jobs', 'graphql'] }] });
    const seeded = await fetch(`${mock.controlUrl}/seed`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ templates: [{ id: 'tpl-docs', name: 'docs-worker', imageName: 'repo/w:1' }], endpoints: [{ id: 'ep-docs', name: 'docs', templateId: 'tpl-docs', workersMax: 1 }] }),
    });
    expect(seeded.status).toBe(200);
  });
  afterAll(() => mock?.close());

  it('sends a panel\'s request to the mock with the key from the key field and shows the answer', async ({ expect }) => {
    const { context, page, blocked, errors } = await watchedPage(browser, [mock.url]);
    await page.goto(`${mock.url}/docs/queue-v2.html`);
    await page.fill('#try-it-key', 'docs-key');
    await page.fill('#try-it-endpoint', 'ep-docs');
    const panel = page.locator('#op-getHealth details.try-it');
    await panel.locator('summary').click();
    await panel.locator('button[type="submit"]').click();
    await expect.poll(() => panel.locator('.try-it-status').textContent(), { timeout: 20_000 }).toMatch(/^200 /);
    expect(await panel.locator('.try-it-result code').textContent()).toContain('"workers"');
    await shoot(page, 'try-it-queue-v2');

    await page.fill('#try-it-key', 'wrong-key');
    await panel.locator('button[type="submit"]').click();
    await expect.poll(() => panel.locator('.try-it-status').textContent(), { timeout: 20_000 }).toMatch(/^401 /);
    expect(await panel.locator('.try-it-result code').textContent()).not.toContain('wrong-key');
    expect(blocked).toEqual([]);
    // Chromium reports the deliberate 401 on the console; nothing else may appear there.
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await context.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  it('runs a GraphQL operation document, a REST v1 and a REST v2 call from their pages', async ({ expect }) => {
    const { context, page, blocked, errors } = await watchedPage(browser, [mock.url]);
    await page.goto(`${mock.url}/docs/graphql.html`);
    await page.fill('#try-it-key', 'docs-key');
    const panel = page.locator('[id="doc-GetPodTemplate.graphql"] details.try-it');
    await panel.locator('summary').click();
    await panel.locator('textarea[name="graphql:variables"]').fill('{"id": "tpl-docs"}');
    await panel.locator('button[type="submit"]').click();
    await expect.poll(() => panel.locator('.try-it-status').textContent(), { timeout: 20_000 }).toMatch(/^200 /);
    expect(await panel.locator('.try-it-result code').textContent()).toContain('docs-worker');

    await page.goto(`${mock.url}/docs/rest-v1.html`); // the key field remembers the key for the tab
    expect(await page.inputValue('#try-it-key')).toBe('docs-key');
    const list = page.locator('#op-listTemplates details.try-it');
    await list.locator('summary').click();
    await list.locator('button[type="submit"]').click();
    await expect.poll(() => list.locator('.try-it-status').textContent(), { timeout: 20_000 }).toMatch(/^200 /);
    expect(await list.locator('.try-it-result code').textContent()).toContain('tpl-docs');
    await shoot(page, 'try-it-rest-v1');

    await page.goto(`${mock.url}/docs/rest-v2.html`); // REST v2 lives at /v2/<collection> on the mock, as on api.runpod.io
    const v2 = page.locator('#op-listTemplates details.try-it');
    await v2.locator('summary').click();
    await v2.locator('button[type="submit"]').click();
    await expect.poll(() => v2.locator('.try-it-status').textContent(), { timeout: 20_000 }).toMatch(/^200 .*GET \/v2\/templates/);
    expect(await v2.locator('.try-it-result code').textContent()).toContain('"templates"');
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, BROWSER_TEST_TIMEOUT_MS);

  it('serves the same pages as `compute-contract docs` writes, plus the try-it script', async ({ expect }) => {
    const served = await fetch(`${mock.url}/docs/rules.html`).then((r) => r.text());
    expect(served).toBe(await readFile(join(out, 'rules.html'), 'utf8').then((t) => t.replace('<script src="assets/site.js" defer></script>', '<script src="assets/site.js" defer></script><script src="assets/try-it.js" defer></script>')));
  });
});
