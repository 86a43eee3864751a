// Builds the whole documentation site in memory: reference pages for every OpenAPI spec, GraphQL, the
// rule catalogue and the migration map; every Markdown page; the bundled assets and the search index.
// The docs command writes it to a directory; the mock serves the same files at /docs (with try-it).
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { packageFile } from '../contract/package-files.js';
import { CrossLinks } from './cross-links.js';
import { graphqlPage, graphqlRootFields, parseSchema } from './graphql-page.js';
import { markdownPages, type MarkdownPage } from './markdown-pages.js';
import { MIGRATION_PAGE, migrationPage } from './migration-page.js';
import { openApiPage } from './openapi-page.js';
import { RULES_PAGE, rulesPage } from './rules-page.js';
import { searchIndexScript, type PageOutput } from './search-index.js';
import { SEED_SOURCE, seedResolver } from './seed-links.js';
import { ASSETS, pageShell, type NavGroup } from './shell.js';
import { loadSources, type SourceOptions } from './sources.js';
import type { TryItConfig } from './try-it.js';

export interface SiteOptions extends SourceOptions {
  /** Adds try-it panels sending to these bases (the mock-served site). */
  tryIt?: TryItConfig;
}

export interface SiteFile {
  contentType: string;
  body: string;
}

export interface Site {
  /** Site path (`index.html`, `docs/mock.html`, `assets/site.css`) → file. */
  files: Map<string, SiteFile>;
  /** Site paths of the HTML pages, in navigation order. */
  pages: string[];
}

const HTML = 'text/html; charset=utf-8';
const ASSET_SOURCES: Record<string, { file: string; type: string }> = {
  [ASSETS.css]: { file: 'src/docs/assets/site.css', type: 'text/css; charset=utf-8' },
  [ASSETS.js]: { file: 'src/docs/assets/site.js', type: 'text/javascript; charset=utf-8' },
  [ASSETS.tryIt]: { file: 'src/docs/assets/try-it.js', type: 'text/javascript; charset=utf-8' },
};

export function buildSite(options: SiteOptions = {}): Site {
  const sources = loadSources(options);
  const schema = parseSchema(sources.sdl);
  const links = new CrossLinks(sources.specs, graphqlRootFields(schema), sources.rules);

  const sourcePages = new Map<string, string>([
    ['specs/rules.yaml', RULES_PAGE],
    ['generated/rules.ts', RULES_PAGE],
    ['specs/migration/rest-v1-to-v2.yaml', MIGRATION_PAGE],
    ['generated/migration.ts', MIGRATION_PAGE],
    ['specs/graphql/schema.graphql', 'graphql.html'],
  ]);
  for (const spec of sources.specs) {
    sourcePages.set(`specs/${spec.key}/openapi.yaml`, spec.page);
    sourcePages.set(`generated/${spec.key}/openapi.json`, spec.page);
  }
  const docs = markdownPages(sources.markdown, sourcePages);
  const seedPage = docs.find((p) => p.repoPath === SEED_SOURCE);

  const reference: PageOutput[] = [
    ...sources.specs.map((spec) => openApiPage(spec, links, options.tryIt)),
    graphqlPage(schema, sources.graphqlDocuments, links, options.tryIt),
    rulesPage(sources.rules, links, seedPage ? seedResolver(seedPage.headings) : undefined),
    migrationPage(sources.migration, links),
  ];
  const pages: PageOutput[] = [...docs, ...reference];
  const nav = navigation(reference, docs);

  const files = new Map<string, SiteFile>();
  for (const page of pages) {
    files.set(page.path, { contentType: HTML, body: pageShell({ pagePath: page.path, title: page.title, body: page.body, nav, tryIt: options.tryIt !== undefined }) });
  }
  for (const [path, asset] of Object.entries(ASSET_SOURCES)) {
    if (path === ASSETS.tryIt && !options.tryIt) continue;
    files.set(path, { contentType: asset.type, body: readFileSync(packageFile(asset.file), 'utf8') });
  }
  files.set(ASSETS.searchIndex, { contentType: 'text/javascript; charset=utf-8', body: searchIndexScript(pages.flatMap((p) => p.entries)) });
  return { files, pages: nav.flatMap((g) => g.links.map((l) => l.page)) };
}

function navigation(reference: readonly PageOutput[], docs: readonly MarkdownPage[]): NavGroup[] {
  // Navigation titles stay short: no " reference" suffix, no trailing parenthetical.
  const link = (p: PageOutput) => ({ title: p.title.replace(/ reference$/, '').replace(/\s*\([^)]*\)\s*$/, ''), page: p.path });
  const home = docs.find((p) => p.repoPath === 'README.md');
  // Guides in the order the README links them (its "Guides" list), the rest after them by path.
  const readme = docs.find((p) => p.repoPath === 'README.md')?.body ?? '';
  const rank = (p: MarkdownPage) => {
    const at = readme.indexOf(`href="${p.path}`);
    return at === -1 ? Number.MAX_SAFE_INTEGER : at;
  };
  const guides = docs.filter((p) => p.repoPath.startsWith('docs/')).sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
  const specNotes = docs.filter((p) => p.repoPath.startsWith('specs/'));
  const project = docs.filter((p) => p !== home && !guides.includes(p) && !specNotes.includes(p));
  const groups: NavGroup[] = [
    { title: 'Start', links: home ? [{ title: 'Overview', page: home.path }] : [] },
    { title: 'Reference', links: reference.map(link) },
    { title: 'Guides', links: guides.map(link) },
    { title: 'Spec notes', links: specNotes.map(link) },
    { title: 'Project', links: project.map(link) },
  ];
  return groups.filter((g) => g.links.length > 0);
}

/** Writes the site under `dir` (created as needed); returns the bytes written. */
export async function writeSite(dir: string, site: Site): Promise<number> {
  let bytes = 0;
  for (const [path, file] of site.files) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.body);
    bytes += Buffer.byteLength(file.body);
  }
  return bytes;
}
