// Endpoint builds (REST v2 listEndpointBuilds / getEndpointBuild / getEndpointBuildLogs): RunPod's GitHub
// integration builds an image on every push. The mock has no GitHub: the control API simulates a push
// (`POST /__control/endpoints/{id}/builds`), and the build walks its lifecycle on the mock clock —
// PENDING → BUILDING → UPLOADING → TESTING → COMPLETED, or FAILED / CANCELLED while building, TEST_FAILED
// while testing. A COMPLETED build becomes a GIT_BUILD release of the endpoint (build-release.ts); each
// transition writes system log lines. Kept in memory (not in a --state file), at most MAX_BUILDS per endpoint.
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
  /** Order of creation across all builds (the list's sort key and cursor anchor). */
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

export class BuildBook {
  private readonly byEndpoint = new Map<string, BuildRecord[]>();
  private readonly timers = new Set<TimerHandle>();
  private seq = 0;

  /** `onCompleted` makes the release of a COMPLETED build (given the store; see build-release.ts). */
  constructor(private readonly clock: Clock, private readonly onCompleted: (build: BuildRecord) => void) {}

  /** Starts a build of `endpointId` for a simulated push; its states follow on the clock. */
  start(endpointId: string, account: string, push: Push, endpointExists: (id: string) => boolean): BuildRecord {
    // Builds of endpoints deleted since are dropped here, so the book stays bounded by live endpoints.
    for (const id of this.byEndpoint.keys()) if (!endpointExists(id)) this.byEndpoint.delete(id);
    const now = this.clock.now();
    const commitHash = push.commitHash ?? randomBytes(4).toString('hex').slice(0, 7);
    const build: BuildRecord = {
      id: `build_${resourceId().slice(0, 12)}`, endpointId, account, seq: ++this.seq, status: 'PENDING', outcome: push.outcome ?? 'COMPLETED',
      commitHash, commitMessage: push.commitMessage ?? 'simulated push', branch: push.branch ?? 'main', commitDate: now,
      imageName: `registry.runpod.net/${endpointId}:${commitHash}`, startedAt: null, completedAt: null, error: null,
      log: new SimulatedLog(noContainerLines),
    };
    const builds = [...(this.byEndpoint.get(endpointId) ?? []), build].slice(-MAX_BUILDS);
    this.byEndpoint.set(endpointId, builds);
    build.log.note(now, `build ${build.id}: PENDING — push ${commitHash} to ${build.branch}: ${build.commitMessage}`);
    this.schedule(build, now);
    return build;
  }

  private at(when: number, run: () => void): void {
    const handle = this.clock.at(when, () => {
      this.timers.delete(handle);
      run();
    });
    this.timers.add(handle);
  }

  private schedule(build: BuildRecord, t0: number): void {
    const to = (status: BuildStatus, lines: string[]) => (at: number) => {
      build.status = status;
      if (status === 'BUILDING') build.startedAt = at;
      for (const line of lines) build.log.note(at, `build ${build.id}: ${line}`);
    };
    const end = (at: number) => {
      build.status = build.outcome;
      build.completedAt = at;
      build.error = FAILURE[build.outcome] ?? null;
      build.log.note(at, `build ${build.id}: ${build.outcome}${build.error ? ` — ${build.error}` : ''}`);
      if (build.outcome === 'COMPLETED') this.onCompleted(build);
    };
    this.at(t0 + BUILD_SCHEDULE.BUILDING, () => to('BUILDING', ['BUILDING', `Step 1/5 : FROM runpod/base:0.6.2`, 'Step 2/5 : COPY . /src'])(t0 + BUILD_SCHEDULE.BUILDING));
    if (build.outcome === 'CANCELLED' || build.outcome === 'FAILED') {
      const at = t0 + (build.outcome === 'CANCELLED' ? BUILD_SCHEDULE.cancelledAt : BUILD_SCHEDULE.failedAt);
      this.at(at, () => end(at));
      return;
    }
    this.at(t0 + BUILD_SCHEDULE.UPLOADING, () => to('UPLOADING', ['Step 5/5 : CMD python -u handler.py', 'UPLOADING', `pushing ${build.imageName}`])(t0 + BUILD_SCHEDULE.UPLOADING));
    this.at(t0 + BUILD_SCHEDULE.TESTING, () => to('TESTING', ['TESTING', 'running .runpod/tests.json'])(t0 + BUILD_SCHEDULE.TESTING));
    this.at(t0 + BUILD_SCHEDULE.done, () => end(t0 + BUILD_SCHEDULE.done));
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
  }
}
