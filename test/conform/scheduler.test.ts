// Concurrent conformance runs (runner.ts → scheduler.ts): bounded, checks sharing target state never
// overlap, a check declaring nothing runs alone, and results come back in catalogue order.
import { describe, expect, test } from 'vitest';
import type { Shared } from '../../src/conform/needs.js';
import { runScheduled, type ScheduledJob } from '../../src/conform/scheduler.js';

/** Jobs that record which others ran at the same time; each finishes after `ticks` event-loop turns. */
function jobs(specs: { shares: Shared[] | 'all'; ticks: number }[]) {
  const running = new Set<number>();
  const overlaps: [number, number][] = [];
  const started: number[] = [];
  let most = 0;
  const list: ScheduledJob<string>[] = specs.map((spec, index) => ({
    shares: spec.shares === 'all' ? 'all' : new Set(spec.shares),
    run: async () => {
      for (const other of running) overlaps.push([other, index]);
      running.add(index);
      started.push(index);
      most = Math.max(most, running.size);
      for (let i = 0; i < spec.ticks; i++) await new Promise((r) => setImmediate(r));
      running.delete(index);
      return `result ${index}`;
    },
  }));
  return { list, overlaps, started, most: () => most };
}

describe('concurrent scheduling of checks', () => {
  test('results and their hand-on follow the jobs\' order whatever order they finish in', async () => {
    const { list } = jobs([{ shares: [], ticks: 5 }, { shares: [], ticks: 1 }, { shares: [], ticks: 3 }]);
    const handed: number[] = [];
    expect(await runScheduled(list, 3, (_, index) => handed.push(index))).toEqual(['result 0', 'result 1', 'result 2']);
    expect(handed).toEqual([0, 1, 2]);
  });

  test('never more than the limit at once; limit 1 runs one after another in order', async () => {
    const wide = jobs(Array.from({ length: 10 }, (_, i) => ({ shares: [], ticks: 1 + (i % 3) })));
    await runScheduled(wide.list, 3);
    expect(wide.most()).toBe(3);
    const one = jobs(Array.from({ length: 6 }, (_, i) => ({ shares: [], ticks: 1 + (i % 3) })));
    await runScheduled(one.list, 1);
    expect([one.most(), one.started]).toEqual([1, [0, 1, 2, 3, 4, 5]]);
  });

  test('checks sharing the clock or the REST v2 quota never overlap; independent ones go past a waiting one', async () => {
    const specs: { shares: Shared[]; ticks: number }[] = [
      { shares: ['clock'], ticks: 6 }, { shares: ['clock', 'restV2-quota'], ticks: 2 }, { shares: [], ticks: 1 },
      { shares: ['restV2-quota'], ticks: 2 }, { shares: [], ticks: 1 }, { shares: ['clock'], ticks: 1 },
    ];
    const run = jobs(specs);
    await runScheduled(run.list, 4);
    const conflicting = run.overlaps.filter(([a, b]) => specs[a]!.shares.some((s) => specs[b]!.shares.includes(s)));
    expect(conflicting).toEqual([]);
    // Job 2 (shares nothing) started while job 0 held the clock and job 1 waited for it.
    expect(run.started.indexOf(2)).toBeLessThan(run.started.indexOf(1));
    expect(run.most()).toBeGreaterThan(1);
  });

  test('a check that declares nothing runs alone, and nothing after it starts before it', async () => {
    const run = jobs([{ shares: [], ticks: 3 }, { shares: 'all', ticks: 2 }, { shares: [], ticks: 1 }, { shares: [], ticks: 1 }]);
    await runScheduled(run.list, 4);
    expect(run.overlaps.filter(([a, b]) => a === 1 || b === 1)).toEqual([]);
    expect(run.started).toEqual([0, 1, 2, 3]);
  });

  test('a crashing job rejects the run instead of hanging it', async () => {
    const list: ScheduledJob<string>[] = [{ shares: new Set(), run: async () => { throw new Error('boom'); } }, { shares: new Set(), run: async () => 'ok' }];
    await expect(runScheduled(list, 2)).rejects.toThrow('boom');
  });
});
