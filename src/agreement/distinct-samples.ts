// The index-th distinct valid value of a schema, for growing arrays and maps past their maximum, exactly as
// the naive form answers it: a list of the distinct values (by JSON text, in order of first appearance) of
// fc.sample(arbitrary, { seed: 1, numRuns: 2 * (index + 8) }), drawn anew whenever an index reaches past
// its end, then list[index % length]. Computed from one draw that grows by doubling:
// fast-check's samples are prefix-stable (draw i depends on the seed and i alone), so the distinct values
// of the first N draws are those first seen before N. The naive form drew anew for every index past the
// list's end, quadratic in a maxItems of hundreds (an eighth of the agreement phase's CPU).
import fc from 'fast-check';

/** Draws per index asked, as in the naive form. */
const drawsFor = (index: number) => 2 * (index + 8);

export class DistinctSamples {
  private drawn = 0;
  private distinct: unknown[] = [];
  /** Position in the draw where each distinct value was first seen (ascending). */
  private firstSeen: number[] = [];
  /** Length of the list the naive form would hold now (it draws anew only for an index past its end). */
  private listLength = 0;

  constructor(private readonly arbitrary: fc.Arbitrary<unknown>) {}

  at(index: number): unknown {
    if (index >= this.listLength) {
      const needed = drawsFor(index);
      if (needed > this.drawn) this.draw(Math.max(needed, 2 * this.drawn));
      this.listLength = this.countSeenBefore(needed);
    }
    return this.distinct[index % this.listLength];
  }

  private draw(numRuns: number): void {
    const values = fc.sample(this.arbitrary, { seed: 1, numRuns });
    const seen = new Set<string>();
    this.distinct = [];
    this.firstSeen = [];
    values.forEach((value, position) => {
      const key = JSON.stringify(value);
      if (seen.has(key)) return;
      seen.add(key);
      this.distinct.push(value);
      this.firstSeen.push(position);
    });
    this.drawn = numRuns;
  }

  /** Distinct values first seen among the first `draws` draws (binary search over firstSeen). */
  private countSeenBefore(draws: number): number {
    let low = 0;
    let high = this.firstSeen.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.firstSeen[mid]! < draws) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
