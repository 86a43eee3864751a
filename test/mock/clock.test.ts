import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/mock/clock.js';

describe('virtual clock', () => {
  it('fires timers in time order, equal times in scheduling order, only when advanced', () => {
    const clock = createClock('virtual', 1_000);
    const fired: string[] = [];
    clock.after(30, () => fired.push('c'));
    clock.after(10, () => fired.push('a'));
    clock.after(10, () => fired.push('b'));
    expect(fired).toEqual([]);
    clock.advance(10);
    expect(fired).toEqual(['a', 'b']);
    clock.advance(100);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(clock.now()).toBe(1_110);
  });

  it('sets now() to each timer time while it runs, and runs timers scheduled by timers', () => {
    const clock = createClock('virtual', 0);
    const seen: number[] = [];
    clock.after(5, () => {
      seen.push(clock.now());
      clock.after(5, () => seen.push(clock.now()));
    });
    clock.advance(20);
    expect(seen).toEqual([5, 10]);
  });

  it('does not fire cancelled timers and counts only live ones', () => {
    const clock = createClock('virtual', 0);
    let fired = false;
    const handle = clock.after(5, () => (fired = true));
    expect(clock.pendingTimers()).toBe(1);
    clock.cancel(handle);
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(10);
    expect(fired).toBe(false);
  });

  it('moves a 7-day span in one step', () => {
    const clock = createClock('virtual', 0);
    let fired = 0;
    clock.after(7 * 24 * 3_600_000, () => fired++);
    clock.advance(7 * 24 * 3_600_000);
    expect(fired).toBe(1);
  });

  it('refuses advance() on the real clock', () => {
    const clock = createClock('real');
    expect(() => clock.advance(1)).toThrow();
    clock.stop();
  });
});
