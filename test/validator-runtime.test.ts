// The generated validators count string lengths with generated/validators/runtime.js instead of Ajv's helper:
// the same count for every string (lone surrogates included), and the validators use it.
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codePointLength } from '../generated/validators/runtime.js';
import { validateRequest } from '../src/validation/index.js';

const ajvUcs2length = (createRequire(import.meta.url)('ajv/dist/runtime/ucs2length') as { default: (text: string) => number }).default;

/** UTF-16 units chosen to hit surrogate edges: pairs, lone highs and lows, a high at the very end. */
const unit = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0xd7ff }),
  fc.integer({ min: 0xd800, max: 0xdbff }),
  fc.integer({ min: 0xdc00, max: 0xdfff }),
  fc.integer({ min: 0xe000, max: 0xffff }),
);
const utf16 = fc.array(unit, { maxLength: 64 }).map((units) => String.fromCharCode(...units));

describe('generated validators: string length in code points', () => {
  it('counts as Ajv\'s ucs2length for any UTF-16 string', () => {
    fc.assert(fc.property(utf16, (text) => codePointLength(text) === ajvUcs2length(text)), { seed: 37, numRuns: 2000 });
    for (const text of ['', 'a', '😀', '\ud83d', '\ude00', 'a\ud83d', '\ud83d\ud83d\ude00', 'x'.repeat(70_000) + '😀\udc00']) {
      expect(codePointLength(text), JSON.stringify(text.slice(-4))).toBe(ajvUcs2length(text));
    }
  });

  it('every surface\'s validators use it instead of Ajv\'s helper', () => {
    for (const file of ['queue-v2', 'queue-v2.params', 'rest-v1', 'rest-v1.params', 'rest-v2', 'rest-v2.params']) {
      const code = readFileSync(new URL(`../generated/validators/${file}.js`, import.meta.url), 'utf8');
      expect(code, file).not.toContain('ajv/dist/runtime/ucs2length');
      expect(code, file).toContain("import { codePointLength } from './runtime.js'");
    }
  });

  it('maxLength counts an astral character once (REST v1 registry auth name: at most 191)', () => {
    const body = (name: string) => ({ body: { name, username: 'u', password: 'p' }, path: {}, query: {} });
    expect(validateRequest('restV1', 'createContainerRegistryAuth', body('😀'.repeat(191)))).toEqual([]);
    const issues = validateRequest('restV1', 'createContainerRegistryAuth', body('😀'.repeat(192)));
    expect(issues.map((issue) => issue.path)).toEqual(['/body/name']);
  });
});
