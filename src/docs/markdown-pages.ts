// Every Markdown file the site renders (README.md as the home page, every docs/**/*.md, the spec notes
// and the contributor guide) as a page, with its headings in the search index. Links between the files
// point at the rendered pages; links to spec sources point at their reference pages.
import { posix } from 'node:path';
import { renderMarkdown, type Heading } from './markdown.js';
import type { PageOutput, SearchEntry } from './search-index.js';
import { markdownPagePath, type MarkdownSource } from './sources.js';

export interface MarkdownPage extends PageOutput {
  repoPath: string;
  headings: Heading[];
}

/** Deepest heading level listed in the search index (## and ### of each page). */
const INDEXED_DEPTH = 3;

export function titleOf(source: MarkdownSource, headings: readonly Heading[]): string {
  return headings.find((h) => h.depth === 1)?.text ?? posix.basename(source.repoPath, '.md');
}

/**
 * `sourcePages` maps repository paths of spec sources (specs/rules.yaml …) to the page rendering them;
 * a link to a directory (`specs/rest-v1/`) resolves through any source below it.
 */
export function markdownPages(sources: readonly MarkdownSource[], sourcePages: ReadonlyMap<string, string>): MarkdownPage[] {
  const rendered = new Map(sources.map((s) => [s.repoPath, markdownPagePath(s.repoPath)]));
  const pageOf = (repoPath: string): string | undefined => {
    const clean = repoPath.replace(/\/$/, '');
    if (rendered.has(clean)) return rendered.get(clean);
    if (sourcePages.has(clean)) return sourcePages.get(clean);
    for (const [source, page] of sourcePages) if (source.startsWith(`${clean}/`)) return page;
    return undefined;
  };
  return sources.map((source) => {
    const path = markdownPagePath(source.repoPath);
    const { html, headings } = renderMarkdown(source.text, { sourcePath: source.repoPath, pagePath: path, pageOf });
    const title = titleOf(source, headings);
    const entries: SearchEntry[] = [{ t: title, u: path, k: 'page', d: source.repoPath }];
    for (const h of headings) {
      if (h.depth >= 2 && h.depth <= INDEXED_DEPTH) entries.push({ t: h.text, u: `${path}#${h.id}`, k: `section of ${title}` });
    }
    const body = `<article class="markdown" data-source="${source.repoPath.replace(/"/g, '')}">${html}</article>`;
    return { path, title, body, entries, repoPath: source.repoPath, headings };
  });
}
