// One mock per state file. Two mocks appending to one file interleave their records (the next start
// then refuses it as damaged), and a mock reading a file another one is appending to could take that
// mock's record in flight for a torn tail and cut it off. So the state file is locked before it is
// read: `FILE.lock` is created exclusively and holds the owner's process id. A lock whose process is
// gone (a killed mock) is taken over; a live owner stops the start with a clear error (exit code 2).
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { cannot, StateFileError } from './file.js';

export function lockName(file: string): string {
  return `${file}.lock`;
}

/** Takes the lock of `file`; returns its release. Throws StateFileError when another process holds it. */
export function lockStateFile(file: string): () => void {
  const lock = lockName(file);
  // Two attempts: the second one follows the removal of a stale lock.
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot('write', file, error);
      const owner = ownerOf(lock);
      if (attempt > 0 || (owner !== undefined && isRunning(owner))) {
        const who = owner === undefined ? 'another process' : owner === process.pid ? 'this process (another mock in it)' : `process ${owner}`;
        throw new StateFileError(
          `state file ${file} is in use by ${who} (lock ${lock}); one mock per state file — stop that mock first, or delete the lock file if no mock uses the state file`,
        );
      }
      removeLock(lock, file);
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
    } catch (error) {
      closeSync(fd);
      removeLock(lock, file);
      throw cannot('write', file, error);
    }
    closeSync(fd);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      // Only our own lock: never one another process took over after a failure of ours.
      if (ownerOf(lock) === process.pid) removeLock(lock, file);
    };
  }
}

function ownerOf(lock: string): number | undefined {
  try {
    const text = readFileSync(lock, 'utf8').trim();
    return /^\d{1,10}$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live process (a zombie — killed, not yet reaped by its parent — is not). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Removes the lock file (a stale one, or ours); one already gone is fine. */
function removeLock(lock: string, file: string): void {
  try {
    unlinkSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannot('write', file, error);
  }
}
