// Endpoint builds (REST v2 listEndpointBuilds / getEndpointBuild / getEndpointBuildLogs): RunPod's GitHub
// integration builds an image on every push. The mock has no GitHub: the control API simulates a push
// (`POST /__control/endpoints/{id}/builds`), and the build walks its lifecycle on the mock clock —
// PENDING → BUILDING → UPLOADING → TESTING → COMPLETED, or FAILED / CANCELLED while building, TEST_FAILED
// while testing. A COMPLETED build becomes a GIT_BUILD release of the endpoint (build-release.ts); each
// transition writes system log lines. At most MAX_BUILDS per endpoint. With --state every change is journaled
// (kind `builds`, the record without its log); a restored build gets its log lines back and goes on from the
// state it was in: transitions due while the mock was down happen at once (a COMPLETED one then releases).
import { randomBytes } from 'node:crypto';
import type { Clock, TimerHandle } from '../clock.js';
import { resourceId } from '../state/ids.js';
import { SimulatedLog } from './log-lines.js';

/** Builds kept per endpoint; the oldest drop first (assumed bound). */
export const MAX_BUILDS = 200;
export const BUILD_OUTCOMES = ['COMPLETED', 'FAILED', 'CANCELLED', 'TEST_FAILED'] as const;
export type BuildOutcome = (typeof BUILD_OUTCOMES)[number];
export type BuildStatus = 'PENDING' | 'BUILDING' | 'UPLOADING' | 'TESTING' | BuildOutcome;

/** When each state begins, in ms after the push (assumed; the spec's BuildState states them). */
export const BUILD_SCHEDULE = { BUILDING: 5_000, UPLOADING: 65_000, TESTING: 80_000, done: 100_000, failedAt: 35_000, cancelledAt: 20_000 } as const;
const FAILURE: Partial<Record<BuildOutcome, string>> = {
  FAILED: 'step 3/5 RUN pip install -r requirements.txt: exit code 1',
  TEST_FAILED: 'test job failed: the handler raised an exception on .runpod/tests.json input 1',
};

export interface Push {
  commitHash?: string;
  commitMessage?: string;
  branch?: string;
  outcome?: BuildOutcome;
}

export interface BuildRecord {
  id: string;
  endpointId: string;
  /** The account owning the endpoint (its release is made in that account's store). */
  account: string;
  /** Order of creation across all builds (the list's sort key). */
  seq: number;
  status: BuildStatus;
  outcome: BuildOutcome;
  commitHash: string;
  commitMessage: string;
  branch: string;
  commitDate: number;
  imageName: string;
  startedAt: number | null;
  completedAt: number | null;
  error: string | null;
  log: SimulatedLog;
}

const noContainerLines = (n: number): string => `line ${n}`;

/** A build as --state stores it: every field but the log (rebuilt on restore). */
export type StoredBuild = Omit<BuildRecord, 'log'>;

/** Where --state journals a changed or removed build (persistence.ts). */
export interface BuildSink {
  changed(kind: string, id: string): void;
  cleared(kind: string): void;
}

export const BUILDS_KIND = 'builds';

/** How far along a build is: PENDING 0 … TESTING 3, any end 4 (the order of its transitions). */
const RANK: Record<BuildStatus, number> = { PENDING: 0, BUILDING: 1, UPLOADING: 2, TESTING: 3, COMPLETED: 4, FAILED: 4, CANCELLED: 4, TEST_FAILED: 4 };

interface Step {
  at: number;
  rank: number;
  /** Sets the step's state and writes its lines; `replay` (restore) writes the lines only. */
  apply(replay: boolean): void;
}

export class BuildBook {
  private readonly byEndpoint = new Map<string, BuildRecord[]>();
  private readonly byId = new Map<string, BuildRecord>();
  private readonly timers = new Set<TimerHandle>();
  private seq = 0;
  /** --state: told of every changed or removed build. */
  sink: BuildSink | undefined;

  /** `onCompleted` makes the release of a COMPLETED build (given the store; see build-release.ts). */
  constructor(private readonly clock: Clock, private readonly onCompleted: (build: BuildRecord) => void) {}

  /** Starts a build of `endpointId` for a simulated push; its states follow on the clock. */
  start(endpointId: string, account: string, push: Push, endpointExists: (id: string) => boolean): BuildRecord {
    // Builds of endpoints deleted since are dropped here, so the book stays bounded by live endpoints.
    for (const [id, builds] of this.byEndpoint) if (!endpointExists(id)) this.drop(id, builds);
    const now = this.clock.now();
    const commitHash = push.commitHash ?? randomBytes(4).toString('hex').slice(0, 7);
    const build: BuildRecord = {
      id: `build_${resourceId().slice(0, 12)}`, endpointId, account, seq: ++this.seq, status: 'PENDING', outcome: push.outcome ?? 'COMPLETED',
      commitHash, commitMessage: push.commitMessage ?? 'simulated push', branch: push.branch ?? 'main', commitDate: now,
      imageName: `registry.runpod.net/${endpointId}:${commitHash}`, startedAt: null, completedAt: null, error: null,
      log: new SimulatedLog(noContainerLines),
    };
    this.add(build);
    build.log.note(now, `build ${build.id}: PENDING — push ${commitHash} to ${build.branch}: ${build.commitMessage}`);
    for (const step of this.steps(build)) this.at(step.at, () => this.advance(build, step));
    return build;
  }

  private add(build: BuildRecord): void {
    const all = [...(this.byEndpoint.get(build.endpointId) ?? []), build];
    const kept = all.slice(-MAX_BUILDS);
    for (const dropped of all.slice(0, all.length - kept.length)) this.forget(dropped);
    this.byEndpoint.set(build.endpointId, kept);
    this.byId.set(build.id, build);
    this.sink?.changed(BUILDS_KIND, build.id);
  }

  private forget(build: BuildRecord): void {
    this.byId.delete(build.id);
    this.sink?.changed(BUILDS_KIND, build.id);
  }

  private drop(endpointId: string, builds: readonly BuildRecord[]): void {
    this.byEndpoint.delete(endpointId);
    for (const build of builds) this.forget(build);
  }

  private at(when: number, run: () => void): void {
    const handle = this.clock.at(when, () => {
      this.timers.delete(handle);
      run();
    });
    this.timers.add(handle);
  }

  /** A step due: applied unless the build was dropped meanwhile; the journal hears of it. */
  private advance(build: BuildRecord, step: Step): void {
    if (this.byId.get(build.id) !== build) return;
    step.apply(false);
    this.sink?.changed(BUILDS_KIND, build.id);
  }

  /** The build's transitions after PENDING, from its push time, in order. */
  private steps(build: BuildRecord): Step[] {
    const t0 = build.commitDate;
    const to = (status: BuildStatus, at: number, lines: string[]): Step => ({
      at, rank: RANK[status],
      apply: (replay) => {
        if (!replay) {
          build.status = status;
          if (status === 'BUILDING') build.startedAt = at;
        }
        for (const line of lines) build.log.note(at, `build ${build.id}: ${line}`);
      },
    });
    const end = (at: number): Step => ({
      at, rank: RANK[build.outcome],
      apply: (replay) => {
        if (!replay) {
          build.status = build.outcome;
          build.completedAt = at;
          build.error = FAILURE[build.outcome] ?? null;
        }
        build.log.note(at, `build ${build.id}: ${build.outcome}${build.error ? ` — ${build.error}` : ''}`);
        if (!replay && build.outcome === 'COMPLETED') this.onCompleted(build);
      },
    });
    const building = to('BUILDING', t0 + BUILD_SCHEDULE.BUILDING, ['BUILDING', `Step 1/5 : FROM runpod/base:0.6.2`, 'Step 2/5 : COPY . /src']);
    if (build.outcome === 'CANCELLED' || build.outcome === 'FAILED') {
      return [building, end(t0 + (build.outcome === 'CANCELLED' ? BUILD_SCHEDULE.cancelledAt : BUILD_SCHEDULE.failedAt))];
    }
    return [
      building,
      to('UPLOADING', t0 + BUILD_SCHEDULE.UPLOADING, ['Step 5/5 : CMD python -u handler.py', 'UPLOADING', `pushing ${build.imageName}`]),
      to('TESTING', t0 + BUILD_SCHEDULE.TESTING, ['TESTING', 'running .runpod/tests.json']),
      end(t0 + BUILD_SCHEDULE.done),
    ];
  }

  /** The stored form of build `id` (--state), undefined when there is none. */
  peek(id: string): StoredBuild | undefined {
    const build = this.byId.get(id);
    if (!build) return undefined;
    const { log: _log, ...stored } = build;
    return stored;
  }

  /** Every build in its stored form (a compaction of the --state file). */
  *entries(): Generator<[string, string, StoredBuild]> {
    for (const id of this.byId.keys()) yield [BUILDS_KIND, id, this.peek(id)!];
  }

  /**
   * Puts stored builds back (--state start): each gets its log lines up to the state it reached, and the
   * transitions still ahead are scheduled; those already due happen at once.
   */
  restore(stored: readonly StoredBuild[]): void {
    for (const record of [...stored].sort((a, b) => a.seq - b.seq)) {
      const build: BuildRecord = { ...record, log: new SimulatedLog(noContainerLines) };
      this.seq = Math.max(this.seq, build.seq);
      const all = this.byEndpoint.get(build.endpointId) ?? [];
      this.byEndpoint.set(build.endpointId, [...all, build].slice(-MAX_BUILDS));
      this.byId.set(build.id, build);
      build.log.note(build.commitDate, `build ${build.id}: PENDING — push ${build.commitHash} to ${build.branch}: ${build.commitMessage}`);
      const reached = RANK[build.status];
      for (const step of this.steps(build)) {
        if (step.rank <= reached) step.apply(true);
        else this.at(step.at, () => this.advance(build, step));
      }
    }
  }

  /** The endpoint's builds, newest first. */
  list(endpointId: string): BuildRecord[] {
    return [...(this.byEndpoint.get(endpointId) ?? [])].reverse();
  }

  /** One build of the endpoint (undefined for an unknown build or one of another endpoint). */
  get(endpointId: string, buildId: string): BuildRecord | undefined {
    return this.byEndpoint.get(endpointId)?.find((b) => b.id === buildId);
  }

  isLive(build: BuildRecord): boolean {
    return build.completedAt === null;
  }

  clear(): void {
    for (const handle of this.timers) this.clock.cancel(handle);
    this.timers.clear();
    this.byEndpoint.clear();
    this.byId.clear();
    this.sink?.cleared(BUILDS_KIND);
  }
}
