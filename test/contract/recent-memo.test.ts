import { describe, expect, it } from 'vitest';
import { RecentMemo } from '../../src/contract/recent-memo.js';

describe('RecentMemo (the GraphQL hot paths\' per-text memos)', () => {
  it('makes a value once per key and answers it again, null included', () => {
    const memo = new RecentMemo<string, number | null>(4);
    let made = 0;
    const make = (value: number | null) => () => (made++, value);
    expect(memo.get('a', make(1))).toBe(1);
    expect(memo.get('a', make(2))).toBe(1);
    expect(memo.get('n', make(null))).toBeNull();
    expect(memo.get('n', make(3))).toBeNull();
    expect(made).toBe(2);
  });

  it('holds at most `max` keys and drops the least recently used first', () => {
    const memo = new RecentMemo<string, string>(2);
    memo.get('a', () => 'a1');
    memo.get('b', () => 'b1');
    memo.get('a', () => 'a2'); // a is now the most recently used
    memo.get('c', () => 'c1'); // drops b
    expect(memo.size).toBe(2);
    expect(memo.get('a', () => 'a3')).toBe('a1');
    expect(memo.get('b', () => 'b2')).toBe('b2');
  });
});
