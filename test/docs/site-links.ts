// Test helper: every internal link of a built site, resolved to its target file and anchor.
import { posix } from 'node:path';
import type { Site } from '../../src/docs/site.js';

export interface BrokenLink {
  page: string;
  href: string;
  reason: string;
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Ids defined by each HTML page. */
export function idsByPage(site: Site): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const [path, file] of site.files) {
    if (!path.endsWith('.html')) continue;
    ids.set(path, new Set([...file.body.matchAll(/\sid="([^"]*)"/g)].map((m) => unescape(m[1] ?? ''))));
  }
  return ids;
}

/** Links (href) of every page that point inside the site but at a missing file or anchor. */
export function brokenLinks(site: Site): BrokenLink[] {
  const ids = idsByPage(site);
  const broken: BrokenLink[] = [];
  for (const [page, file] of site.files) {
    if (!page.endsWith('.html')) continue;
    for (const match of file.body.matchAll(/\shref="([^"]*)"/g)) {
      const href = unescape(match[1] ?? '');
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
      const [target = '', hash] = href.split('#');
      const resolved = target === '' ? page : posix.normalize(posix.join(posix.dirname(page), target));
      if (!site.files.has(resolved)) {
        broken.push({ page, href, reason: `no file ${resolved}` });
        continue;
      }
      if (hash !== undefined && hash !== '' && resolved.endsWith('.html') && !ids.get(resolved)?.has(decodeURIComponent(hash))) {
        broken.push({ page, href, reason: `no id "${hash}" in ${resolved}` });
      }
    }
  }
  return broken;
}
