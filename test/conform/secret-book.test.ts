// The suite's secret scan (SecretBook): every value it was given is found in any answer text, wherever it was
// added (the combined pattern, the values added since, the long ones), with its label and JSON path.
import { describe, expect, it } from 'vitest';
import { SecretBook } from '../../src/conform/http.js';

describe('SecretBook', () => {
  const book = new SecretBook();
  const values = Array.from({ length: 50 }, (_, i) => book.add(`secret-${i}-${(i * 7919).toString(16).padStart(8, '0')}`, `label ${i}`));
  const special = book.add('a.b*c+d?(e)[f]{g}|h^i$j\\k/l', 'special characters');
  const long = book.add(`long-${'z'.repeat(5000)}`, 'long value');
  book.add('short', 'too short to scan');

  it('finds every value, with its label and where it is', () => {
    for (const [i, value] of values.entries()) {
      const body = { items: [{ id: 'x' }, { note: `before ${value} after` }] };
      expect(book.find(JSON.stringify(body), body)).toBe(`label ${i} at /items/1/note`);
    }
    expect(book.find(`raw ${special} text`, undefined)).toBe('special characters at (raw body)');
    expect(book.find(`{"v":"${long}"}`, { v: long })).toBe('long value at /v');
  });

  it('finds nothing in text without a value, nor a value cut short or a pattern look-alike', () => {
    expect(book.find('{"status":"COMPLETED"}', { status: 'COMPLETED' })).toBeUndefined();
    expect(book.find(values[3]!.slice(0, -1), undefined)).toBeUndefined();
    expect(book.find('aXb*c+d?(e)[f]{g}|h^i$j\\k/l short', undefined)).toBeUndefined();
    expect(book.find(long.slice(0, 4000), undefined)).toBeUndefined();
  });

  it('a value added again keeps one entry and takes the new label', () => {
    book.add(values[0]!, 'renamed');
    expect(book.find(values[0]!, undefined)).toBe('renamed at (raw body)');
    expect([...book.entries()].filter(([v]) => v === values[0])).toHaveLength(1);
  });
});
