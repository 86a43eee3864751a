// runSandboxCommand: one simulated command (sandbox-commands.ts) in a sandbox whose container has started.
// A command is activity: lastActivityAt moves to its start and again to its end, and the sandbox does not go
// idle while it runs (busyUntil). A command that takes time (`sleep N`) holds the request on the mock clock;
// it ends early with an error when the sandbox terminates first (terminateSandbox, or its lifetime).
import type { MockCore } from '../core.js';
import type { SandboxRecord } from '../types.js';
import { problem } from './problem.js';
import { simulateCommand, type CommandOutcome } from './sandbox-commands.js';
import { isReply, sandboxOr404, sandboxPhase } from './sandbox-lifecycle.js';
import { json, type V2Handler, type V2Reply } from './types.js';

/** Commands waiting on the clock, per sandbox: terminateSandbox wakes them. */
const running = new WeakMap<SandboxRecord, Set<() => void>>();

/** terminateSandbox: every command still running in the sandbox ends now. */
export function commandsInterrupted(record: SandboxRecord): void {
  const waiting = running.get(record);
  if (!waiting) return;
  running.delete(record);
  for (const wake of waiting) wake();
}

/** Resolves at `at` on the mock clock, or earlier when the sandbox is terminated. */
function until(core: MockCore, record: SandboxRecord, at: number): Promise<void> {
  return new Promise((resolve) => {
    let waiting = running.get(record);
    if (!waiting) running.set(record, (waiting = new Set()));
    const wake = () => {
      core.clock.cancel(timer);
      waiting!.delete(wake);
      resolve();
    };
    const timer = core.clock.at(at, wake);
    waiting.add(wake);
  });
}

/** Records activity at `at` (start or end of a command), unless the fault forgets it. */
function activity(core: MockCore, record: SandboxRecord, at: number, busyUntil: number): void {
  if (core.options.faults.has('sandbox-exec-not-activity')) return;
  record.lastActivityAt = Math.max(record.lastActivityAt, at);
  record.busyUntil = busyUntil;
  core.store.sandboxes.touch(record.id);
}

async function finish(core: MockCore, record: SandboxRecord, outcome: CommandOutcome, start: number): Promise<V2Reply> {
  const end = start + outcome.durationMs;
  // The lifetime deadline cannot move: a command running past it is cut off there.
  await until(core, record, Math.min(end, sandboxPhase(record, start).expiresAt));
  const now = core.clock.now();
  const after = sandboxPhase(record, now);
  if (now < end || (after.terminated && after.endsAt < end)) {
    return json(200, { output: outcome.output, error: 'sandbox terminated while the command ran' });
  }
  activity(core, record, end, 0);
  return json(200, { output: outcome.output, error: outcome.error });
}

export const sandboxExecHandlers: Record<string, V2Handler> = {
  runSandboxCommand: (core, ctx) => {
    const record = sandboxOr404(core, ctx.params['id']!);
    if (isReply(record)) return record;
    const now = core.clock.now();
    const phase = sandboxPhase(record, now);
    if (phase.terminated && !core.options.faults.has('sandbox-exec-after-terminate')) {
      return problem(409, `sandbox ${record.id} is terminated (${phase.reason}); create a new one`);
    }
    if (now < phase.readyAt) return problem(409, `sandbox ${record.id}: its container is still starting; retry in ${Math.ceil((phase.readyAt - now) / 1000)} s`);
    const outcome = simulateCommand((ctx.body as { command: string[] }).command, record.env);
    activity(core, record, now, outcome.durationMs > 0 ? now + outcome.durationMs : 0);
    if (outcome.durationMs === 0) return json(200, { output: outcome.output, error: outcome.error });
    return finish(core, record, outcome, now);
  },
};
