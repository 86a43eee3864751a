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
