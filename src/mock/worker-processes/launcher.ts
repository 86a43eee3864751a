// Runs one worker as an OS process: the command through /bin/sh in its own process group, its output as
// lines, and a stop that escalates from SIGTERM to SIGKILL after a grace. Knows nothing of any protocol.
import { spawn, type ChildProcess } from 'node:child_process';

import { KILL_GRACE_MS } from '../options.js';
/** A longer output line is cut here (with a marker), so a worker without newlines cannot grow memory. */
export const MAX_LINE_CHARS = 8 * 1024;

export type OutputStream = 'stdout' | 'stderr';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** How long the process ran (real time). */
  uptimeMs: number;
  /** Its last stderr line (start failures are reported with it). */
  lastStderrLine: string | undefined;
  /** Whether the exit followed stop(). */
  stopped: boolean;
}

export interface LaunchSpec {
  command: string;
  /** Added to the mock's own environment (PATH, HOME … stay, so `python3` resolves as in the shell). */
  env: Record<string, string>;
  cwd?: string;
  onLine(stream: OutputStream, line: string): void;
  onExit(info: ExitInfo): void;
}

export interface WorkerProcess {
  readonly pid: number | undefined;
  readonly exited: Promise<ExitInfo>;
  /** SIGTERM to the process group, SIGKILL once `graceMs` has passed; resolves when it has exited. */
  stop(graceMs?: number): Promise<ExitInfo>;
}

export function launchWorkerProcess(spec: LaunchSpec): WorkerProcess {
  const started = Date.now();
  let lastStderrLine: string | undefined;
  let stopped = false;
  const child: ChildProcess = spawn('/bin/sh', ['-c', spec.command], {
    env: { ...process.env, ...spec.env },
    cwd: spec.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: stop() reaches the shell's children too (python3 started by sh).
    detached: true,
  });
  const split = (stream: OutputStream) => {
    let pending = '';
    return (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline: number;
      while ((newline = pending.indexOf('\n')) !== -1) {
        emit(stream, pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
      if (pending.length > MAX_LINE_CHARS) {
        emit(stream, pending);
        pending = '';
      }
    };
  };
  const emit = (stream: OutputStream, raw: string) => {
    const line = raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}… (line cut at ${MAX_LINE_CHARS} characters)` : raw.replace(/\r$/, '');
    if (stream === 'stderr' && line.trim() !== '') lastStderrLine = line;
    spec.onLine(stream, line);
  };
  child.stdout!.on('data', split('stdout'));
  child.stderr!.on('data', split('stderr'));
  const exited = new Promise<ExitInfo>((resolve) => {
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      const info = { code, signal, uptimeMs: Date.now() - started, lastStderrLine, stopped };
      spec.onExit(info);
      resolve(info);
    };
    // 'close' waits for the output pipes, so the last stderr line is known; 'error' = could not spawn /bin/sh.
    child.once('close', done);
    child.once('error', (error) => {
      lastStderrLine = error.message;
      if (child.pid === undefined) done(127, null);
    });
  });
  let stopping: Promise<ExitInfo> | undefined;
  return {
    pid: child.pid,
    exited,
    stop(graceMs = KILL_GRACE_MS) {
      stopping ??= (async () => {
        stopped = true;
        signalGroup(child, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
        timer.unref();
        const info = await exited;
        clearTimeout(timer);
        // The shell may be gone while a child it started still holds the group: make sure nothing stays.
        signalGroup(child, 'SIGKILL');
        return info;
      })();
      return stopping;
    },
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** A process that exits within this time after its start counts as a start failure (back-off). */
export const START_FAILURE_WINDOW_MS = 10_000;
/** Back-off between restarts after start failures: doubling from the first to the last (docs/workers.md). */
export const RESTART_BACKOFF_FIRST_MS = 1_000;
export const RESTART_BACKOFF_MAX_MS = 60_000;

/**
 * Restart delays of one kind of worker (an endpoint's): a process that exits soon after its start doubles the
 * wait before the next start; one that lived past START_FAILURE_WINDOW_MS resets it. Never a tight loop.
 */
export class RestartBackoff {
  private failures = 0;
  private notBefore = 0;

  /** Records an exit; returns true when it was a start failure the caller should report (the first of a run). */
  exited(info: ExitInfo): boolean {
    if (info.stopped) return false;
    if (info.uptimeMs >= START_FAILURE_WINDOW_MS) {
      this.failures = 0;
      this.notBefore = 0;
      return false;
    }
    this.failures++;
    this.notBefore = Date.now() + this.delayMs();
    return this.failures === 1;
  }

  /** A process ran long enough to be healthy (it took a job): back to no delay. */
  healthy(): void {
    this.failures = 0;
    this.notBefore = 0;
  }

  /** Current delay after the last failure. */
  delayMs(): number {
    if (this.failures === 0) return 0;
    return Math.min(RESTART_BACKOFF_MAX_MS, RESTART_BACKOFF_FIRST_MS * 2 ** (this.failures - 1));
  }

  /** Milliseconds until the next start is allowed (0 = now). */
  waitMs(): number {
    return Math.max(0, this.notBefore - Date.now());
  }

  get throttled(): boolean {
    return this.waitMs() > 0;
  }
}
