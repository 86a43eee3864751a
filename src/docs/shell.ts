// The frame every page shares: head (bundled stylesheet and scripts only, relative paths so the site
// works from file:// and from any sub-path), header with search, navigation, and the page body.
import { posix } from 'node:path';
import { escapeHtml } from './html.js';

export interface NavLink {
  title: string;
  page: string;
}

export interface NavGroup {
  title: string;
  links: NavLink[];
}

export interface ShellInput {
  /** Site path of this page (`docs/mock.html`). */
  pagePath: string;
  title: string;
  body: string;
  nav: readonly NavGroup[];
  /** Adds the try-it script (site served by the mock). */
  tryIt: boolean;
}

export const ASSETS = {
  css: 'assets/site.css',
  js: 'assets/site.js',
  searchIndex: 'assets/search-index.js',
  tryIt: 'assets/try-it.js',
} as const;

export const SITE_NAME = 'compute-contract';

/** Link from `fromPage` to `toPage`, both site paths. */
export function relativeHref(fromPage: string, toPage: string): string {
  const [target = '', hash] = toPage.split('#');
  const rel = target === '' ? '' : posix.relative(posix.dirname(fromPage), target) || posix.basename(target);
  return hash === undefined ? rel : `${rel}#${hash}`;
}

export function pageShell(input: ShellInput): string {
  const href = (to: string) => escapeHtml(relativeHref(input.pagePath, to));
  const nav = input.nav
    .map((group) => {
      const links = group.links
        .map((link) => `<li><a href="${href(link.page)}"${link.page === input.pagePath ? ' aria-current="page"' : ''}>${escapeHtml(link.title)}</a></li>`)
        .join('');
      return `<section><h2>${escapeHtml(group.title)}</h2><ul>${links}</ul></section>`;
    })
    .join('');
  const scripts = [ASSETS.searchIndex, ASSETS.js, ...(input.tryIt ? [ASSETS.tryIt] : [])]
    .map((asset) => `<script src="${href(asset)}" defer></script>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)} · ${SITE_NAME}</title>
<link rel="stylesheet" href="${href(ASSETS.css)}">
${scripts}
</head>
<body data-root="${href('index.html').replace(/index\.html$/, '')}">
<header class="site-header">
<a class="brand" href="${href('index.html')}">${SITE_NAME}</a>
<div class="search" role="search">
<input id="search" type="search" placeholder="Search operations, types, rules, pages…" autocomplete="off" aria-label="Search the documentation">
<ol id="search-results" hidden></ol>
</div>
</header>
<div class="layout">
<nav class="site-nav" aria-label="Site">${nav}</nav>
<main id="content">
${input.body}
</main>
</div>
</body>
</html>
`;
}
