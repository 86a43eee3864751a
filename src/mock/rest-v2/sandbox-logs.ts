// getSandboxLogs: a sandbox's simulated log, streamed as getPodLogs streams a pod's (logs.ts). System lines
// at creation, image pull, RUNNING and container start, then one heartbeat line a second from the main
// process, and a last system line when the sandbox terminates. Command output never appears here (as on the
// real service). The log is made from the record when first asked for, so it needs nothing stored.
import type { Clock, TimerHandle } from '../clock.js';
import type { MockCore } from '../core.js';
import type { SandboxRecord } from '../types.js';
import { SimulatedLog, type LogSourceName } from './log-lines.js';
import { cursorOf, logStream } from './logs.js';
import { problem } from './problem.js';
import { isReply, SANDBOX_CONTAINER_START_MS, SANDBOX_CREATING_MS, sandboxOr404, sandboxPhase } from './sandbox-lifecycle.js';
import type { V2Handler } from './types.js';

interface OpenLog {
  log: SimulatedLog;
  ended: boolean;
  timer: TimerHandle | undefined;
}

/** Keyed by record: a record replaced (restore, reset) starts a fresh log from its facts. */
const logs = new WeakMap<SandboxRecord, OpenLog>();

function end(open: OpenLog, at: number, reason: string): void {
  if (open.ended) return;
  open.ended = true;
  open.log.end(at, `sandbox terminated (${reason}); compute released`);
}

/** Ends the log at the sandbox's deadline (which activity can move), checked on the clock. */
function watch(clock: Clock, record: SandboxRecord, open: OpenLog): void {
  const phase = sandboxPhase(record, clock.now());
  if (phase.terminated) return end(open, phase.endsAt, phase.reason);
  open.timer = clock.at(phase.endsAt, () => watch(clock, record, open));
}

function logOf(clock: Clock, record: SandboxRecord): OpenLog {
  let open = logs.get(record);
  if (open) return open;
  const log = new SimulatedLog((n) => `[${n}] main process alive; waiting for commands`);
  open = { log, ended: false, timer: undefined };
  logs.set(record, open);
  const ready = SANDBOX_CREATING_MS + SANDBOX_CONTAINER_START_MS;
  log.begin(record.createdAt, `sandbox ${record.id} created (${record.vcpuCount} vCPU ${record.cpuFlavorId}, image ${record.image})`, [
    { afterMs: 1_000, text: `Pulling image ${record.image}` },
    { afterMs: SANDBOX_CREATING_MS, text: 'compute allocated; sandbox RUNNING' },
    { afterMs: ready, text: 'Container started' },
  ], ready);
  watch(clock, record, open);
  return open;
}

/** terminateSandbox: the log (when one is open) ends now. */
export function endSandboxLog(record: SandboxRecord, at: number): void {
  const open = logs.get(record);
  if (open) end(open, at, 'USER_REQUESTED');
}

export const sandboxLogHandlers: Record<string, V2Handler> = {
  getSandboxLogs: (core: MockCore, ctx) => {
    const record = sandboxOr404(core, ctx.params['id']!);
    if (isReply(record)) return record;
    const now = core.clock.now();
    const phase = sandboxPhase(record, now);
    const afterEnd = phase.terminated && !core.options.faults.has('sandbox-logs-after-terminate');
    if (afterEnd) return problem(409, `sandbox ${record.id} is terminated; its logs are no longer streamed`);
    if (now < phase.readyAt) return problem(409, `sandbox ${record.id} has no container yet; retry in ${Math.ceil((phase.readyAt - now) / 1000)} s`);
    const cursor = cursorOf(ctx);
    if ('status' in cursor) return cursor;
    const { log } = logOf(core.clock, record);
    const alive = () => core.store.sandboxes.peek(record.id) === record && !sandboxPhase(record, core.clock.now()).terminated;
    return logStream(core, log, alive, ctx.query['source'] as LogSourceName | undefined, cursor);
  },
};
