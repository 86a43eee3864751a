// Seeded randomness of the simulated fleet (docs/workers.md "Randomness"): deterministic per seed and clock.
import { describe, expect, it } from 'vitest';
import { Fleet, fleetProblem } from '../../../src/mock/simulated-workers/fleet.js';
import { parseFleetFlag } from '../../../src/mock/simulated-workers/load.js';
import { Harness } from '../harness.js';

const draws = (fleet: Fleet, n: number) => Array.from({ length: n }, () => fleet.nextDirective());

describe('fleet randomness', () => {
  it('the same seed gives the same draws; another seed others', () => {
    const options = { seed: 7, failureRate: 0.2, latencyP50Ms: 200, latencyP99Ms: 2_000 };
    expect(draws(new Fleet(options, () => 50), 50)).toEqual(draws(new Fleet(options, () => 50), 50));
    expect(draws(new Fleet({ ...options, seed: 8 }, () => 50), 50)).not.toEqual(draws(new Fleet(options, () => 50), 50));
  });

  it('durations follow the asked p50 and p99; failures the asked rate', () => {
    const sample = draws(new Fleet({ seed: 1, failureRate: 0.1, latencyP50Ms: 200, latencyP99Ms: 2_000 }, () => 50), 20_000);
    const sorted = sample.map((d) => d.durationMs).sort((a, b) => a - b);
    expect(sorted[10_000]! / 200).toBeGreaterThan(0.95);
    expect(sorted[10_000]! / 200).toBeLessThan(1.05);
    expect(sorted[19_800]! / 2_000).toBeGreaterThan(0.85);
    expect(sorted[19_800]! / 2_000).toBeLessThan(1.15);
    const failed = sample.filter((d) => d.error !== undefined).length / sample.length;
    expect(Math.abs(failed - 0.1)).toBeLessThan(0.01);
  });

  it('bad options are refused with the reason; --fleet parses KEY=NUMBER pairs', () => {
    expect(fleetProblem({ failureRate: 1.5 })).toBe('fleet.failureRate must be a number 0..1');
    expect(fleetProblem({ latencyP50Ms: 500, latencyP99Ms: 100 })).toBe('fleet.latencyP99Ms must be >= fleet.latencyP50Ms');
    expect(parseFleetFlag('seed=3,failure-rate=0.5,p50=10,p99=20,cold-start=1000')).toEqual({ seed: 3, failureRate: 0.5, latencyP50Ms: 10, latencyP99Ms: 20, coldStartMs: 1_000 });
    expect(() => parseFleetFlag('speed=3')).toThrow(/expected KEY=NUMBER/);
  });

  it('a run on the virtual clock is the same for the same seed: statuses, durations, cold start in delayTime', async () => {
    const runOnce = async () => {
      const h = await Harness.start({ clockStart: 1_000_000, fleet: { seed: 42, failureRate: 0.3, latencyP50Ms: 100, latencyP99Ms: 1_000, coldStartMs: 3_000 } });
      try {
        const ep = await h.endpoint({ workersMax: 1 });
        const ids = [];
        for (let i = 0; i < 6; i++) ids.push(await h.run(ep, { i }));
        await h.advance(60_000);
        return await Promise.all(ids.map(async (id) => {
          const { status, executionTime, delayTime } = (await h.status(ep, id)).body;
          return { status, executionTime, delayTime };
        }));
      } finally {
        await h.close();
      }
    };
    const first = await runOnce();
    expect(await runOnce()).toEqual(first);
    expect(first[0]!.delayTime).toBe(3_000);
    expect(new Set(first.map((r) => r.status))).toEqual(new Set(['COMPLETED', 'FAILED']));
  });
});
