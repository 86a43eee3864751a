// Everything the site is built from, read once: the bundled OpenAPI specs (every generated/*/openapi.json),
// the GraphQL SDL, the rule catalogue, the migration map and the Markdown files writers keep.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { migrationMapData } from '../../generated/migration.js';
import { rules, type Rule } from '../../generated/rules.js';
import type { MigrationMap } from '../migration/index.js';
import { packageRoot } from '../contract/package-files.js';

/** An OpenAPI document as parsed JSON; the renderers read it defensively. */
export type OpenApiDocument = Record<string, unknown> & {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
};

export interface OpenApiSpec {
  /** Directory name under generated/ (`rest-v1`); also the page name. */
  key: string;
  /** Short name used in navigation and links (`REST v1`). */
  label: string;
  /** One line on what the surface is for. */
  blurb: string;
  page: string;
  doc: OpenApiDocument;
}

export interface MarkdownSource {
  /** Repository-relative path with `/` separators (`docs/mock.md`). */
  repoPath: string;
  text: string;
}

export interface SiteSources {
  specs: OpenApiSpec[];
  sdl: string;
  /** specs/graphql/operations/*.graphql, by file name. */
  graphqlDocuments: { file: string; text: string }[];
  rules: readonly Rule[];
  migration: MigrationMap;
  /** README.md first, then every other Markdown file the site renders. */
  markdown: MarkdownSource[];
}

/** Known surfaces in reading order; any other generated/<dir>/openapi.json follows, by name. */
const KNOWN_SPECS: Record<string, { label: string; blurb: string }> = {
  'rest-v1': { label: 'REST v1', blurb: 'management (pods, endpoints, templates, volumes, registry auths, billing)' },
  'queue-v2': { label: 'queue v2', blurb: 'serverless jobs of one endpoint' },
  'rest-v2': { label: 'REST v2', blurb: 'management since REST v1 was retired' },
  worker: { label: 'worker protocol', blurb: 'what a queue worker asks of its endpoint (job-take, job-done, job-stop)' },
};

/** Markdown files outside docs/ that the site renders too (when they exist). */
export const EXTRA_MARKDOWN = [
  'README.md',
  'CONTRIBUTING.md',
  'specs/CONVENTIONS.md',
  'specs/EXTENSIONS.md',
  'specs/SEED.md',
  'specs/rest-v2/OPERATIONS.md',
];

/** Deepest docs/ nesting and most Markdown files read from it; beyond either the build fails with a clear error. */
export const MAX_DOCS_DEPTH = 4;
export const MAX_DOCS_FILES = 500;

export interface SourceOptions {
  /** Directory of the Markdown pages (default: the package's docs/). Tests point it elsewhere. */
  docsDir?: string;
}

export function loadSources(options: SourceOptions = {}): SiteSources {
  const root = packageRoot;
  const specRoot = join(packageRoot, 'generated');
  const specKeys = readdirSync(specRoot)
    .filter((name) => existsSync(join(specRoot, name, 'openapi.json')))
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const specs = specKeys.map((key): OpenApiSpec => {
    const doc = JSON.parse(readFileSync(join(specRoot, key, 'openapi.json'), 'utf8')) as OpenApiDocument;
    const known = KNOWN_SPECS[key];
    return { key, label: known?.label ?? doc.info?.title ?? key, blurb: known?.blurb ?? '', page: `${key}.html`, doc };
  });
  const markdown: MarkdownSource[] = [];
  for (const repoPath of EXTRA_MARKDOWN) {
    const file = join(root, repoPath);
    if (existsSync(file)) markdown.push({ repoPath, text: readFileSync(file, 'utf8') });
  }
  const docsDir = options.docsDir ?? join(root, 'docs');
  for (const file of markdownFiles(docsDir)) {
    markdown.push({ repoPath: posix.join('docs', relative(docsDir, file).split(sep).join('/')), text: readFileSync(file, 'utf8') });
  }
  return {
    specs,
    sdl: readFileSync(join(packageRoot, 'specs/graphql/schema.graphql'), 'utf8'),
    graphqlDocuments: graphqlDocuments(join(packageRoot, 'specs/graphql/operations')),
    rules,
    migration: migrationMapData,
    markdown,
  };
}

function graphqlDocuments(dir: string): { file: string; text: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

function order(key: string): number {
  const index = Object.keys(KNOWN_SPECS).indexOf(key);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/** Every *.md under `dir`, sorted, bounded in depth and count. */
export function markdownFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string, depth: number) => {
    if (!existsSync(current)) return;
    if (depth > MAX_DOCS_DEPTH) throw new Error(`docs/ nests deeper than ${MAX_DOCS_DEPTH} directory levels: ${current}`);
    for (const name of readdirSync(current).sort()) {
      if (name.startsWith('.')) continue;
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path, depth + 1);
      else if (name.toLowerCase().endsWith('.md')) {
        if (found.length >= MAX_DOCS_FILES) throw new Error(`docs/ holds more than ${MAX_DOCS_FILES} Markdown files`);
        found.push(path);
      }
    }
  };
  walk(dir, 0);
  return found;
}

/** Site page of a rendered Markdown file: README.md is the home page, the rest keep their path. */
export function markdownPagePath(repoPath: string): string {
  if (repoPath === 'README.md') return 'index.html';
  return repoPath.replace(/\.md$/i, '.html');
}
