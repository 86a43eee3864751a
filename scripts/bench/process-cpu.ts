// CPU time a bench's child process used, read from /proc (Linux): on a shared machine a server's CPU per
// request is a steadier figure than its requests per second, and tells which side of a ratio moved.
import { readFileSync } from 'node:fs';

/** CPU time (user + system, ms) a process has used so far (Linux /proc; undefined elsewhere). */
export function cpuMsOf(pid: number | undefined): number | undefined {
  // utime and stime, fields 14 and 15 of stat.
  return pid === undefined ? undefined : ticksMs(`/proc/${pid}/stat`, 11, 12);
}

/** Two fields of a /proc stat file, counted after the command (field 3 is 0), summed, in ms (ticks of 10 ms). */
function ticksMs(statFile: string, first: number, second: number): number | undefined {
  try {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[first]) + Number(fields[second])) * 10;
  } catch {
    return undefined;
  }
}

/** µs of CPU per request between two cpuMsOf readings (undefined when either is). */
export function cpuUsPerRequest(beforeMs: number | undefined, afterMs: number | undefined, requests: number): number | undefined {
  return beforeMs === undefined || afterMs === undefined || requests <= 0 ? undefined : Math.round((1000 * (afterMs - beforeMs)) / requests);
}

/**
 * CPU time (user + system, ms) of this process's children that have ended and been waited for, with
 * theirs in turn (Linux /proc: cutime and cstime). The difference around a child's run is what the whole
 * process tree it started used; 0 elsewhere.
 */
export function childrenCpuMs(): number {
  // cutime and cstime, fields 16 and 17 of stat.
  return ticksMs('/proc/self/stat', 13, 14) ?? 0;
}

/** CPU (ms) the processes used together so far; a process that has ended counts 0. */
export function cpuMsOfAll(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) total += cpuMsOf(pid) ?? 0;
  return total;
}

/**
 * Waits until `pids` together use at most one clock tick (10 ms) of CPU in a window of `windowMs`, at most
 * `maxMs`: a server idle after a load may still collect its heap (V8's memory reducer), and on 2 cores that
 * takes CPU from the pair measured next. Returns the ms waited and whether the processes went quiet.
 */
export async function untilQuiet(pids: readonly number[], windowMs = 300, maxMs = 10_000): Promise<{ waitedMs: number; quiet: boolean }> {
  const started = Date.now();
  for (;;) {
    const before = cpuMsOfAll(pids);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const waitedMs = Date.now() - started;
    if (cpuMsOfAll(pids) - before <= 10) return { waitedMs, quiet: true };
    if (waitedMs >= maxMs) return { waitedMs, quiet: false };
  }
}
