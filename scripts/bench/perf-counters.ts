// Instructions a process retires during a load (Linux `perf stat`, when installed and permitted). On a shared
// machine this is the steadiest figure of a server's work per request: its CPU time and requests per second move
// with whatever else runs on the cores (cache, scheduling), the instructions a request takes do not.
import { spawn } from 'node:child_process';

/** perf attaches to a running process in a few ms; the load starts after this. */
const ATTACH_MS = 150;
/** perf prints its counts within this of SIGINT; past it the figure is dropped, not waited for. */
const REPORT_WAIT_MS = 5_000;

/** Runs `load` while counting the instructions of process `pid`; `instructions` is undefined without perf. */
export async function countingInstructions<T>(pid: number | undefined, load: () => Promise<T>): Promise<{ result: T; instructions?: number }> {
  if (pid === undefined || process.platform !== 'linux') return { result: await load() };
  const perf = spawn('perf', ['stat', '-x', ',', '-e', 'instructions', '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let report = '';
  perf.stderr.on('data', (chunk: Buffer) => {
    report = (report + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<boolean>((resolve) => {
    perf.once('error', () => resolve(false));
    perf.once('exit', () => resolve(true));
  });
  await new Promise((resolve) => setTimeout(resolve, ATTACH_MS));
  let result: T;
  try {
    result = await load();
  } finally {
    perf.kill('SIGINT');
  }
  let timer: NodeJS.Timeout | undefined;
  const reported = await Promise.race([exited, new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), REPORT_WAIT_MS); })]);
  clearTimeout(timer);
  if (!reported) perf.kill('SIGKILL');
  // CSV: "<count>,<unit>,instructions[:u],…"; "<not supported>" or "<not counted>" where the counter is unavailable.
  const line = report.split('\n').find((l) => /^\d+,[^,]*,instructions/.test(l));
  return line ? { result, instructions: Number(line.split(',')[0]) } : { result };
}
