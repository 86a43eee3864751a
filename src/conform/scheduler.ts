// Runs the planned checks at most `limit` at a time. Two checks run at once only when the target
// state they share (registry.ts, Shared) does not overlap; a check that declares nothing ('all')
// runs alone, and no later check starts before it. Checks start in catalogue order — one waiting
// for a shared resource lets later independent ones go first — and their results are handed on in
// catalogue order, so reports and progress read exactly as in a run one check after another.
import type { Shared } from './needs.js';

export interface ScheduledJob<R> {
  shares: ReadonlySet<Shared> | 'all';
  run: () => Promise<R>;
}

/** Resolves with every result, in the jobs' order; `onResult` sees them in that order too. */
export function runScheduled<R>(jobs: readonly ScheduledJob<R>[], limit: number, onResult: (result: R, index: number) => void = () => {}): Promise<R[]> {
  const results: R[] = new Array<R>(jobs.length);
  const finished: boolean[] = new Array<boolean>(jobs.length).fill(false);
  const pending = jobs.map((_, index) => index);
  const running = new Map<number, ReadonlySet<Shared> | 'all'>();
  let handedOn = 0;

  const fits = (shares: ReadonlySet<Shared> | 'all'): boolean => {
    if (running.size >= limit) return false;
    if (shares === 'all') return running.size === 0;
    for (const other of running.values()) {
      if (other === 'all') return false;
      for (const shared of shares) if (other.has(shared)) return false;
    }
    return true;
  };

  return new Promise<R[]>((resolve, reject) => {
    const launch = (): void => {
      for (let k = 0; k < pending.length && running.size < limit;) {
        const index = pending[k]!;
        const { shares } = jobs[index]!;
        if (fits(shares)) {
          pending.splice(k, 1);
          start(index);
        } else if (shares === 'all') {
          break; // it runs alone once the running checks are done; nothing later overtakes it
        } else {
          k++;
        }
      }
      if (pending.length === 0 && running.size === 0) resolve(results);
    };
    const start = (index: number): void => {
      running.set(index, jobs[index]!.shares);
      jobs[index]!.run().then((result) => {
        results[index] = result;
        finished[index] = true;
        running.delete(index);
        while (handedOn < jobs.length && finished[handedOn]) {
          onResult(results[handedOn]!, handedOn);
          handedOn++;
        }
        launch();
      }).catch(reject); // a failing job or result handler ends the run instead of hanging it
    };
    launch();
  });
}
