// DistinctSamples answers exactly what the naive form does (a fresh fc.sample per index past the list's
// end), for any order of indexes: the agreement phase's requests stay the same for a seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistinctSamples } from '../../src/agreement/distinct-samples.js';

function naive(arbitrary: fc.Arbitrary<unknown>): (index: number) => unknown {
  let list: unknown[] | undefined;
  return (index) => {
    if (!list || list.length <= index) {
      const drawn = fc.sample(arbitrary, { seed: 1, numRuns: 2 * (index + 8) });
      list = [...new Map(drawn.map((v) => [JSON.stringify(v), v])).values()];
    }
    return list[index % list.length];
  };
}

const ARBITRARIES: [string, fc.Arbitrary<unknown>][] = [
  ['few distinct values (boolean)', fc.boolean()],
  ['a small enum', fc.constantFrom('a', 'b', 'c')],
  ['short strings (many repeats)', fc.string({ maxLength: 2 })],
  ['objects', fc.record({ name: fc.string({ maxLength: 4 }), size: fc.integer({ min: 0, max: 9 }) })],
];

describe('DistinctSamples', () => {
  it.each(ARBITRARIES)('%s: same values as the naive form, indexes rising, falling and jumping', (_name, arbitrary) => {
    const orders = [
      Array.from({ length: 120 }, (_, i) => i),
      Array.from({ length: 60 }, (_, i) => 59 - i),
      [5, 90, 3, 40, 41, 200, 7, 150, 0, 33],
    ];
    for (const order of orders) {
      const expected = naive(arbitrary);
      const drawn = new DistinctSamples(arbitrary);
      expect(order.map((i) => drawn.at(i))).toEqual(order.map((i) => expected(i)));
    }
  });
});
