// Finds references to anything outside the site that a browser would load on its own: scripts,
// stylesheets, fonts, images, frames, CSS imports and url(). Ordinary links (<a href>) are fine: they
// load nothing until followed. The docs command refuses to finish when one is found.

export interface ExternalRef {
  file: string;
  kind: string;
  url: string;
}

/** A URL is external when it names a scheme other than file/data/blob, or is protocol-relative (`//host`). */
export function isExternalUrl(url: string): boolean {
  const trimmed = url.trim().replace(/^['"]|['"]$/g, '');
  if (trimmed.startsWith('//')) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  return scheme !== undefined && !['file', 'data', 'blob', 'javascript', 'about'].includes(scheme);
}

const HTML_PATTERNS: [string, RegExp][] = [
  ['script', /<script\b[^>]*\bsrc\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi],
  ['link', /<link\b[^>]*\bhref\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi],
  ['img', /<(?:img|source|video|audio|iframe|embed|track|input)\b[^>]*\bsrc\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi],
  ['srcset', /\bsrcset\s*=\s*("[^"]*"|'[^']*')/gi],
  ['object', /<object\b[^>]*\bdata\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi],
];
const CSS_PATTERNS: [string, RegExp][] = [
  ['css url()', /url\(\s*("[^"]*"|'[^']*'|[^)]*)\s*\)/gi],
  ['css @import', /@import\s+("[^"]*"|'[^']*')/gi],
];
const JS_PATTERNS: [string, RegExp][] = [
  ['js import', /\bimport\s*\(\s*("[^"]*"|'[^']*')/g],
  ['js import', /\bimport\s+[^'"]*from\s+("[^"]*"|'[^']*')/g],
  ['js fetch', /\bfetch\s*\(\s*("[^"]*"|'[^']*')/g],
];

function scan(file: string, text: string, patterns: [string, RegExp][], out: ExternalRef[]): void {
  for (const [kind, pattern] of patterns) {
    for (const match of text.matchAll(pattern)) {
      const value = (match[1] ?? '').replace(/^['"]|['"]$/g, '');
      const urls = kind === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') : [value];
      for (const url of urls) if (isExternalUrl(url)) out.push({ file, kind, url });
    }
  }
}

/** Every external load in the site's files (HTML pages, stylesheets, scripts). */
export function externalRefs(files: Iterable<[string, { body: string }]>): ExternalRef[] {
  const out: ExternalRef[] = [];
  for (const [file, { body }] of files) {
    if (file.endsWith('.html')) {
      scan(file, body, HTML_PATTERNS, out);
      // Inline <style> blocks and style="" attributes.
      for (const style of body.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>|\bstyle\s*=\s*"([^"]*)"/gi)) scan(file, style[1] ?? style[2] ?? '', CSS_PATTERNS, out);
    } else if (file.endsWith('.css')) {
      scan(file, body, CSS_PATTERNS, out);
    } else if (file.endsWith('.js')) {
      scan(file, body, JS_PATTERNS, out);
    }
  }
  return out;
}
