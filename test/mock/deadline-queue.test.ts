import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/mock/clock.js';
import { DeadlineQueue } from '../../src/mock/jobs/deadline-queue.js';

describe('DeadlineQueue (ttl and result retention of stored jobs)', () => {
  it('calls due for each deadline once the clock reaches it, in deadline order, with one clock timer', () => {
    const clock = createClock('virtual', 0);
    const seen: string[] = [];
    const queue = new DeadlineQueue<string>(clock, (item, at) => seen.push(`${item}@${at}:${clock.now()}`));
    queue.add('a', 10);
    queue.add('b', 10);
    queue.add('c', 25);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(9);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual(['a@10:10', 'b@10:10']);
    clock.advance(100);
    expect(seen).toEqual(['a@10:10', 'b@10:10', 'c@25:25']);
    expect(clock.pendingTimers()).toBe(0);
    expect(queue.size).toBe(0);
  });

  it('an earlier deadline than the last queued (a shorter custom ttl) still fires on time', () => {
    const clock = createClock('virtual', 0);
    const seen: string[] = [];
    const queue = new DeadlineQueue<string>(clock, (item) => seen.push(`${item}:${clock.now()}`));
    queue.add('default-ttl', 1_000);
    queue.add('short-ttl', 50);
    clock.advance(60);
    expect(seen).toEqual(['short-ttl:50']);
    clock.advance(1_000);
    expect(seen).toEqual(['short-ttl:50', 'default-ttl:1000']);
  });

  it('a due callback may queue more deadlines, due ones included', () => {
    const clock = createClock('virtual', 0);
    const seen: string[] = [];
    const queue: DeadlineQueue<string> = new DeadlineQueue<string>(clock, (item, at) => {
      seen.push(`${item}:${clock.now()}`);
      if (item === 'first') queue.add('second', at + 5);
    });
    queue.add('first', 10);
    clock.advance(100);
    expect(seen).toEqual(['first:10', 'second:15']);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('drops stale entries in bulk once more than 1,024 went stale, keeping the live ones and their deadlines', () => {
    const clock = createClock('virtual', 0);
    const live = new Set<number>();
    const seen: number[] = [];
    const queue = new DeadlineQueue<number>(clock, (item) => seen.push(item), (item) => live.has(item));
    for (let i = 0; i < 3_000; i++) {
      queue.add(i, 1_000 + i);
      live.add(i);
    }
    // Every job but each hundredth ends: its entry goes stale.
    for (let i = 0; i < 3_000; i++) {
      if (i % 100 === 0) continue;
      live.delete(i);
      queue.forget();
    }
    expect(queue.size).toBeLessThan(3_000 - 1_024);
    clock.advance(10_000);
    // Every live entry fires, in order; dropped ones never do (those not yet dropped still reach `due`, which judges them).
    expect(seen.filter((item) => item % 100 === 0)).toEqual(Array.from({ length: 30 }, (_, k) => k * 100));
    expect(seen.length).toBeLessThan(3_000 - 1_024);
  });

  it('clear() forgets every deadline and its timer', () => {
    const clock = createClock('virtual', 0);
    const seen: string[] = [];
    const queue = new DeadlineQueue<string>(clock, (item) => seen.push(item));
    queue.add('a', 10);
    queue.clear();
    clock.advance(100);
    expect(seen).toEqual([]);
    expect(clock.pendingTimers()).toBe(0);
  });
});
