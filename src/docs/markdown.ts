// Markdown → HTML for the site (marked, GFM): heading anchors as GitHub makes them (so links written
// for GitHub work on the site too), links between Markdown files rewritten to the rendered pages, raw
// HTML shown as text, and images shown as links (the site never loads anything from outside).
import { posix } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { escapeHtml, schemaAnchor } from './html.js';

export interface Heading {
  depth: number;
  text: string;
  id: string;
}

export interface MarkdownContext {
  /** Repository-relative path of the Markdown file (`docs/mock.md`); relative links resolve against it. */
  sourcePath: string;
  /** Site path of the page being rendered (`docs/mock.html`); rewritten links are relative to it. */
  pagePath: string;
  /** Site path of the page rendering a repository file, when the site renders it. */
  pageOf(repoPath: string): string | undefined;
}

export interface RenderedMarkdown {
  html: string;
  headings: Heading[];
  /** Text of the first level-1 heading, if any. */
  title?: string;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces → dashes. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const stripTags = (html: string) =>
  html.replace(/<[^>]*>/g, '').replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e] as string);

/** Where a link points on the site: unchanged for absolute URLs and anchors, rewritten for repository files. */
export function rewriteHref(href: string, context: MarkdownContext): { href: string } | { repoPath: string } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('//')) return { href };
  const hashAt = href.indexOf('#');
  const target = hashAt === -1 ? href : href.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : href.slice(hashAt);
  const repoPath = target.startsWith('/')
    ? posix.normalize(target.slice(1))
    : posix.normalize(posix.join(posix.dirname(context.sourcePath), decodeURIComponent(target)));
  const page = context.pageOf(repoPath);
  if (page === undefined) return { repoPath };
  const relative = posix.relative(posix.dirname(context.pagePath), page) || posix.basename(page);
  return { href: relative + hash };
}

export function renderMarkdown(source: string, context: MarkdownContext): RenderedMarkdown {
  const headings: Heading[] = [];
  const used = new Map<string, number>();
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const text = stripTags(inner);
        const base = githubSlug(text);
        const seen = used.get(base) ?? 0;
        used.set(base, seen + 1);
        const id = seen === 0 ? base : `${base}-${seen}`;
        headings.push({ depth, text, id });
        return `<h${depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}">#</a>${inner}</h${depth}>\n`;
      },
      link({ href, title, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        const target = rewriteHref(href, context);
        // A repository file the site does not render: keep the words, name the file.
        if ('repoPath' in target) return `<span class="repo-file" title="${escapeHtml(target.repoPath)} (in the repository)">${inner}</span>`;
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
        return `<a href="${escapeHtml(target.href)}"${titleAttr}>${inner}</a>`;
      },
      image({ href, text }: Tokens.Image) {
        return `<span class="image-ref" title="${escapeHtml(href)}">[image: ${escapeHtml(text)}]</span>`;
      },
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(text);
      },
    },
  });
  const html = marked.parse(source) as string;
  return { html, headings, title: headings.find((h) => h.depth === 1)?.text };
}

/** Spec prose (descriptions): GFM without heading anchors; one shared parser, since there are hundreds. */
let descriptionParser: Marked | undefined;

function prose(): Marked {
  if (!descriptionParser) {
    descriptionParser = new Marked({ gfm: true, async: false });
    descriptionParser.use({
      renderer: {
        html({ text: raw }: Tokens.HTML | Tokens.Tag) {
          return escapeHtml(raw);
        },
        image({ href, text: alt }: Tokens.Image) {
          return `<span class="image-ref" title="${escapeHtml(href)}">[image: ${escapeHtml(alt)}]</span>`;
        },
        link({ href, title, tokens }: Tokens.Link) {
          const inner = this.parser.parseInline(tokens);
          // JSON-pointer links of OpenAPI prose (`#/components/schemas/Pod/version`) → the schema's section.
          if (href.startsWith('#/')) {
            const schema = /^#\/components\/schemas?\/([^/]+)/.exec(href)?.[1];
            return schema ? `<a href="#${escapeHtml(schemaAnchor(decodeURIComponent(schema)))}">${inner}</a>` : inner;
          }
          return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
        },
      },
    });
  }
  return descriptionParser;
}

export function renderDescription(text: string | undefined): string {
  if (!text) return '';
  return `<div class="description">${prose().parse(text) as string}</div>`;
}

/** A phrase of spec prose (a note, a server variable) without the surrounding paragraph. */
export function renderInline(text: string | undefined): string {
  return text ? (prose().parseInline(text) as string) : '';
}
