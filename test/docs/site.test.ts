// The documentation site, built in memory: complete (every operation, type, rule, migration entry and
// Markdown page), cross-linked without a broken link, searchable, and try-it only when served by the mock.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rules as catalogue, type Rule } from '../../generated/rules.js';
import { levelOf } from '../../src/contract/levels.js';
import { graphqlRootFields, parseSchema } from '../../src/docs/graphql-page.js';
import { operationAnchor, ruleAnchor } from '../../src/docs/html.js';
import { buildSite } from '../../src/docs/site.js';
import { loadSources, markdownFiles, MAX_DOCS_DEPTH } from '../../src/docs/sources.js';
import { packageFile } from '../../src/contract/package-files.js';
import { brokenLinks } from './site-links.js';

const rules: readonly Rule[] = catalogue;
const site = buildSite();
const sources = loadSources();
const page = (path: string) => {
  const file = site.files.get(path);
  if (!file) throw new Error(`no page ${path}`);
  return file.body;
};
/** The HTML of one operation's section. */
const section = (html: string, id: string) => {
  const start = html.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
};

describe('docs site: reference pages', () => {
  it('one page per bundled OpenAPI spec (REST v1, queue v2, REST v2) holding every operation with its summary, parameters and responses', () => {
    expect(sources.specs.map((s) => s.key)).toEqual(expect.arrayContaining(['rest-v1', 'queue-v2', 'rest-v2']));
    for (const spec of sources.specs) {
      const html = page(spec.page);
      for (const [path, item] of Object.entries(spec.doc.paths ?? {})) {
        for (const op of Object.values(item) as Record<string, unknown>[]) {
          if (typeof op?.operationId !== 'string') continue;
          const sectionHtml = section(html, operationAnchor(op.operationId));
          expect(sectionHtml).toContain(`<code class="path">${path.replace(/&/g, '&amp;')}</code>`);
          expect(sectionHtml).toContain('<h4>Responses</h4>');
          for (const status of Object.keys(op.responses as object)) expect(sectionHtml, `${op.operationId} ${status}`).toContain(`>${status}</span>`);
        }
      }
    }
  });

  it('shows x-rate-limit, x-source and every other extension of an operation (queue v2 runJob)', () => {
    const run = section(page('queue-v2.html'), operationAnchor('runJob'));
    expect(run).toContain('1000 requests per 10 s, 200 concurrent');
    expect(run).toContain('source-seed');
    for (const extension of ['x-max-body-bytes', 'x-result-retention-ms', 'x-max-stored-jobs']) expect(run).toContain(extension);
    expect(run).toContain('Example: Webhook, policy and s3Config');
  });

  it("links each operation to the rules that govern it: its x-rule-ids and the rules naming it", () => {
    const html = page('queue-v2.html');
    const run = section(html, operationAnchor('runJob'));
    expect(run).toContain(`href="rules.html#${ruleAnchor('QUEUE-CAPACITY-001')}"`);
    const named = rules.filter((r) => r.surface === 'queue-v2' && r.operations?.includes('getJobStatus'));
    expect(named.length).toBeGreaterThan(0);
    const status = section(html, operationAnchor('getJobStatus'));
    for (const rule of named) expect(status).toContain(`rules.html#${ruleAnchor(rule.id)}`);
  });

  it('renders the GraphQL schema with graphql-js: every type, every field and argument, with descriptions', () => {
    const html = page('graphql.html');
    const schema = parseSchema(sources.sdl);
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      expect(html, type.name).toContain(`id="type-${type.name}"`);
      if ('getFields' in type) {
        for (const field of Object.values(type.getFields())) expect(html, `${type.name}.${field.name}`).toContain(`<code>${field.name}</code>`);
      }
    }
    for (const root of graphqlRootFields(schema)) expect(html).toContain(`id="field-${root.rootType}-${root.name}"`);
    expect(html).toContain('Creates a template (input without id) or modifies one');
    expect(html).not.toContain('x-source: seed — create/modify'); // the provenance line becomes a badge
  });

  it('lists every rule with its level (from its source), surface, tier and check for the filters', () => {
    const html = page('rules.html');
    for (const rule of rules) {
      const row = new RegExp(`<tr id="${ruleAnchor(rule.id)}" class="rule" data-surface="${rule.surface}" data-level="${levelOf(rule.source)}" data-tier="${rule.tier}" data-check="${rule.check}">`);
      expect(html, rule.id).toMatch(row);
    }
    for (const filter of ['surface', 'level', 'tier', 'check']) expect(html).toContain(`data-filter="${filter}"`);
  });

  it('links rules to seed sections: every rule of source seed has at least one seed link', () => {
    const html = page('rules.html');
    for (const rule of rules.filter((r) => r.source === 'seed')) {
      const row = section(html.replace(/<\/tr>/g, '</section>'), ruleAnchor(rule.id));
      expect(row, rule.id).toMatch(/href="specs\/SEED\.html#[^"]+"/);
    }
  });

  it('holds the migration map: every REST v1 operation with its REST v2 target', () => {
    const html = page('migration.html');
    for (const [v1, mapping] of Object.entries(sources.migration.operations)) {
      expect(html).toContain(`id="migrate-${v1}"`);
      if (!('none' in mapping.v2)) expect(html).toContain(`rest-v2.html#${operationAnchor(mapping.v2.operationId)}`);
    }
  });

  it('has no broken internal link or anchor on any page', () => {
    expect(brokenLinks(site)).toEqual([]);
  });
});

describe('docs site: Markdown pages and search', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('renders every Markdown file under docs/, README.md as the home page and CONTRIBUTING.md', () => {
    const docs = markdownFiles(packageFile('docs'));
    expect(docs.length).toBeGreaterThan(0);
    for (const file of docs) {
      const rel = file.slice(packageFile('').length).replace(/^\//, '').replace(/\.md$/, '.html');
      expect(site.files.has(rel), rel).toBe(true);
    }
    expect(page('index.html')).toContain('npm ci');
    expect(site.files.has('CONTRIBUTING.html')).toBe(true);
  });

  it('picks up a new Markdown page without configuration: rendered, in the navigation and in the search index', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cc-docs-md-'));
    dirs.push(dir);
    await mkdir(join(dir, 'guides'));
    await writeFile(join(dir, 'guides', 'new-page.md'), '# A brand new page\n\n## Its section\n\nSee [the other](../other.md#top) and <script>alert(1)</script>.\n');
    await writeFile(join(dir, 'other.md'), '# Other\n\n## Top\n');
    const withNew = buildSite({ docsDir: dir });
    const html = withNew.files.get('docs/guides/new-page.html')?.body ?? '';
    expect(html).toContain('A brand new page');
    expect(html).toContain('href="../other.html#top"');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(withNew.files.get('index.html')?.body).toContain('href="docs/guides/new-page.html"');
    expect(withNew.files.get('assets/search-index.js')?.body).toContain('"u":"docs/guides/new-page.html#its-section"');
  });

  it('refuses docs/ nested deeper than its documented bound with a clear error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cc-docs-deep-'));
    dirs.push(dir);
    const deep = join(dir, ...Array.from({ length: MAX_DOCS_DEPTH + 1 }, (_, i) => `level${i + 1}`));
    await mkdir(deep, { recursive: true });
    await writeFile(join(deep, 'page.md'), '# Deep\n');
    expect(() => buildSite({ docsDir: dir })).toThrow(`docs/ nests deeper than ${MAX_DOCS_DEPTH} directory levels`);
  });

  it('indexes every operation, GraphQL type, rule and page for search', () => {
    const index = page('assets/search-index.js');
    const entries = JSON.parse(index.slice(index.indexOf('['), index.lastIndexOf(']') + 1)) as { t: string; u: string }[];
    const urls = new Set(entries.map((e) => e.u));
    for (const spec of sources.specs) {
      for (const item of Object.values(spec.doc.paths ?? {})) {
        for (const op of Object.values(item) as Record<string, unknown>[]) {
          if (typeof op?.operationId === 'string') expect(urls.has(`${spec.page}#${operationAnchor(op.operationId)}`), op.operationId).toBe(true);
        }
      }
    }
    for (const rule of rules) expect(urls.has(`rules.html#${ruleAnchor(rule.id)}`), rule.id).toBe(true);
    expect(urls.has('graphql.html#type-PodTemplate')).toBe(true);
    for (const path of site.pages) expect(urls.has(path), path).toBe(true);
  });

  it('adds try-it panels and their script only when a try-it configuration is given (the mock-served site)', () => {
    expect([...site.files.keys()]).not.toContain('assets/try-it.js');
    expect(page('queue-v2.html')).not.toContain('class="try-it"');
    const served = buildSite({ tryIt: { bases: { 'queue-v2': '/v2/{endpointId}', graphql: '/graphql' } } });
    expect(served.files.has('assets/try-it.js')).toBe(true);
    const queue = served.files.get('queue-v2.html')?.body ?? '';
    expect(queue).toContain('id="try-it-key"');
    expect(queue).toContain('id="try-it-endpoint"');
    expect(queue).toContain('data-spec="queue-v2" data-method="POST" data-path="/run"');
    expect(served.files.get('graphql.html')?.body).toContain('name="graphql:query"');
    expect(served.files.get('rest-v1.html')?.body).not.toContain('class="try-it"'); // no base given for it
  });
});
