// Heap of this process after a full garbage collection (for the in-process mock's growth check).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Node's gc(), exposed at run time when the process was not started with --expose-gc. */
function collector(): () => void {
  if (gc) return gc;
  const global = (globalThis as { gc?: () => void }).gc;
  if (global) return (gc = global);
  setFlagsFromString('--expose-gc');
  return (gc = runInNewContext('gc') as () => void);
}

export async function heapAfterGc(): Promise<number> {
  const run = collector();
  for (let i = 0; i < 3; i++) {
    run();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}
