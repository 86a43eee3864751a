// Markdown rendering for the site: GitHub-compatible anchors, links between Markdown files rewritten to
// pages, raw HTML shown as text, images never loaded; seed references resolved to SEED headings.
import { describe, expect, it } from 'vitest';
import { githubSlug, renderDescription, renderMarkdown, type MarkdownContext } from '../../src/docs/markdown.js';
import { seedResolver } from '../../src/docs/seed-links.js';
import { markdownPagePath } from '../../src/docs/sources.js';

const context = (sourcePath: string, rendered: Record<string, string> = {}): MarkdownContext => ({
  sourcePath,
  pagePath: markdownPagePath(sourcePath),
  pageOf: (repoPath) => rendered[repoPath],
});

describe('markdown pages', () => {
  it('gives headings the anchors GitHub gives them, numbering repeats', () => {
    expect(githubSlug('The `input.mock` protocol (simulated worker handler)')).toBe('the-inputmock-protocol-simulated-worker-handler');
    expect(githubSlug('Faults (`--fault NAME`)')).toBe('faults---fault-name');
    const { headings, title } = renderMarkdown('# Title\n\n## Same\n\n## Same\n', context('docs/a.md'));
    expect(title).toBe('Title');
    expect(headings.map((h) => h.id)).toEqual(['title', 'same', 'same-1']);
  });

  it('points links at rendered pages relative to the page, and keeps only the words of links to unrendered files', () => {
    const rendered = { 'README.md': 'index.html', 'docs/mock.md': 'docs/mock.html', 'specs/rules.yaml': 'rules.html' };
    const { html } = renderMarkdown(
      '[home](../README.md) [mock](mock.md#faults) [rules](../specs/rules.yaml) [src](../src/index.ts) [web](https://example.com/x) [here](#top)',
      context('docs/guide.md', rendered),
    );
    expect(html).toContain('<a href="../index.html">home</a>');
    expect(html).toContain('<a href="mock.html#faults">mock</a>');
    expect(html).toContain('<a href="../rules.html">rules</a>');
    expect(html).toContain('<span class="repo-file" title="src/index.ts (in the repository)">src</span>');
    expect(html).toContain('<a href="https://example.com/x">web</a>');
    expect(html).toContain('<a href="#top">here</a>');
  });

  it('shows raw HTML as text and images as a reference, so a page never runs or loads anything', () => {
    const { html } = renderMarkdown('<script src="https://x.example/a.js"></script>\n\n![logo](https://x.example/logo.png)', context('docs/a.md'));
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script src=&quot;https://x.example/a.js&quot;&gt;');
    expect(html).toContain('[image: logo]');
    expect(renderDescription('<b>x</b> `code`')).toBe('<div class="description"><p>&lt;b&gt;x&lt;/b&gt; <code>code</code></p>\n</div>');
  });

  it('turns JSON-pointer links of spec prose into links to the schema section', () => {
    expect(renderDescription('See [Pod](#/components/schemas/Pod/version).')).toContain('<a href="#schema-Pod">Pod</a>');
    expect(renderDescription('See [x](#/paths/a).')).not.toContain('<a ');
  });
});

describe('seed references', () => {
  const seed = renderMarkdown(
    '# Seed\n\n## Endpoints\n\n### REST management interface ({base_url})\n\n#### Other operations (names and paths only)\n\n## Errors\n',
    context('specs/SEED.md'),
  );
  const resolve = seedResolver(seed.headings);

  it('resolve to the deepest heading of their path, headings matched without their parenthetical', () => {
    expect(resolve('Endpoints › REST management interface › Other operations › GET /pods')?.anchor).toBe('other-operations-names-and-paths-only');
    expect(resolve('Endpoints › REST management interface')?.anchor).toBe('rest-management-interface-base_url');
    expect(resolve('Errors › 401')?.anchor).toBe('errors');
    expect(resolve('Nowhere › 1')).toBeUndefined();
  });
});
