// Judging off the forwarding path: exchanges are judged on a later turn, in arrival order, the queue is
// bounded (past a bound the waiting ones are judged at once, none dropped), and a report judges what waits.
import { describe, expect, it } from 'vitest';
import { JudgeQueue, MAX_PENDING_BYTES, MAX_PENDING_EXCHANGES } from '../../src/proxy/judge-queue.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('JudgeQueue', () => {
  it('judges after the current turn, in arrival order', async () => {
    const judged: number[] = [];
    const queue = new JudgeQueue<number>((n) => judged.push(n), () => 0);
    queue.push(1);
    queue.push(2);
    expect(judged).toEqual([]);
    expect(queue.pending).toBe(2);
    await nextTurn();
    expect(judged).toEqual([1, 2]);
    expect(queue.pending).toBe(0);
  });
  it('flush() judges every waiting exchange at once (a report or close reads a complete tally)', () => {
    const judged: number[] = [];
    const queue = new JudgeQueue<number>((n) => judged.push(n), () => 0);
    for (let i = 0; i < 5; i++) queue.push(i);
    queue.flush();
    expect(judged).toEqual([0, 1, 2, 3, 4]);
  });
  it(`holds at most ${MAX_PENDING_EXCHANGES} exchanges and ${MAX_PENDING_BYTES} captured bytes: past a bound it judges at once, dropping none`, () => {
    const judged: number[] = [];
    const byCount = new JudgeQueue<number>((n) => judged.push(n), () => 1);
    for (let i = 0; i < MAX_PENDING_EXCHANGES; i++) byCount.push(i);
    expect(judged).toHaveLength(MAX_PENDING_EXCHANGES);
    expect(byCount.pending).toBe(0);
    const sized: number[] = [];
    const byBytes = new JudgeQueue<number>((n) => sized.push(n), () => MAX_PENDING_BYTES / 2);
    byBytes.push(1);
    expect(sized).toEqual([]);
    byBytes.push(2);
    expect(sized).toEqual([1, 2]);
  });
});
