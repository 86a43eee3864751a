// The "no external URL" check: no generated page, stylesheet or script loads a script, style, font or
// anything else from outside the site; and the check itself catches each way a page could.
import { describe, expect, it } from 'vitest';
import { externalRefs, isExternalUrl } from '../../src/docs/external-refs.js';
import { buildSite } from '../../src/docs/site.js';
import { MOCK_TRY_IT } from '../../src/mock/docs-route.js';

const file = (body: string) => ({ body });

describe('docs site: nothing loads from outside', () => {
  it('the static site and the mock-served site reference no external script, style, font or image', () => {
    for (const site of [buildSite(), buildSite({ tryIt: MOCK_TRY_IT })]) {
      expect(site.files.size).toBeGreaterThan(10);
      expect(externalRefs(site.files)).toEqual([]);
    }
  });

  it('every script and stylesheet a page names is a file of the site', () => {
    const site = buildSite({ tryIt: MOCK_TRY_IT });
    for (const [path, { body }] of site.files) {
      if (!path.endsWith('.html')) continue;
      const depth = path.split('/').length - 1;
      for (const [, src] of body.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)) {
        const target = src!.split('/').slice(depth).join('/');
        expect(src!.startsWith('../'.repeat(depth)), `${path}: ${src}`).toBe(true);
        expect(site.files.has(target), `${path}: ${src}`).toBe(true);
      }
    }
  });

  it('catches external scripts, stylesheets, fonts, CSS imports, images and protocol-relative URLs', () => {
    const bad = new Map([
      ['a.html', file('<script src="https://cdn.example.com/redoc.js"></script>')],
      ['b.html', file("<link rel='stylesheet' href='//fonts.example.com/css'>")],
      ['c.css', file('@font-face { font-family: X; src: url(https://fonts.example.com/x.woff2) }')],
      ['d.css', file('@import "http://example.com/more.css";')],
      ['e.html', file('<img src=https://example.com/logo.svg>')],
      ['f.html', file('<style>body { background: url("https://example.com/bg.png") }</style>')],
      ['g.js', file('import("https://esm.example.com/lib.js")')],
      ['h.html', file('<img srcset="a.png 1x, https://example.com/b.png 2x">')],
    ]);
    const found = externalRefs(bad);
    expect(found.map((r) => r.file).sort()).toEqual(['a.html', 'b.html', 'c.css', 'd.css', 'e.html', 'f.html', 'g.js', 'h.html']);
  });

  it('leaves links, relative paths and data URLs alone', () => {
    const fine = new Map([
      ['a.html', file('<a href="https://docs.pact.io">Pact</a><script src="assets/site.js"></script><link rel="stylesheet" href="../assets/site.css">')],
      ['b.css', file('.x { background: url(data:image/png;base64,AAAA) } .y { background: url(img/y.png) }')],
    ]);
    expect(externalRefs(fine)).toEqual([]);
    expect(isExternalUrl('mailto:someone@example.com')).toBe(true);
    expect(isExternalUrl('file:///tmp/x.css')).toBe(false);
    expect(isExternalUrl('assets/site.css')).toBe(false);
  });
});
