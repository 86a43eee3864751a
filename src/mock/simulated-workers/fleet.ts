// Seeded, documented randomness of the simulated fleet (docs/workers.md "Randomness"): the default worker's
// job duration drawn from a log-normal latency distribution given by its p50 and p99, a failure rate, and a
// cold start for a worker's first job. Draws come from one seeded generator in dispatch order, so a given
// seed and (virtual) clock give the same run every time.
import type { MockDirective } from '../jobs/simulate.js';

export interface FleetOptions {
  /** Generator seed (32-bit integer); default 1. */
  seed?: number;
  /** Share of default-worker jobs that fail, 0..1; default 0. */
  failureRate?: number;
  /** Median job duration (ms); default: the job duration (`--job-duration`). */
  latencyP50Ms?: number;
  /** 99th percentile job duration (ms), ≥ p50; default p50 (no spread). */
  latencyP99Ms?: number;
  /** Added before a fresh worker's first job starts (ms; counted in delayTime); default 0. */
  coldStartMs?: number;
}

/** The longest duration a draw may give (24 h) and the largest latency or cold start accepted. */
export const MAX_FLEET_MS = 86_400_000;
/** z of the 99th percentile of the standard normal distribution. */
const Z99 = 2.326_347_874;

export class Fleet {
  private state: number;

  constructor(private readonly options: Readonly<FleetOptions>, private readonly defaultDurationMs: () => number) {
    this.state = (options.seed ?? 1) >>> 0;
  }

  get coldStartMs(): number {
    return this.options.coldStartMs ?? 0;
  }

  /** The default worker's directive for the next job: a drawn duration, and a failure at the failure rate. */
  nextDirective(): MockDirective {
    const p50 = this.options.latencyP50Ms ?? this.defaultDurationMs();
    const p99 = Math.max(p50, this.options.latencyP99Ms ?? p50);
    const sigma = p50 > 0 ? Math.log(p99 / p50) / Z99 : 0;
    const z = this.normal();
    const durationMs = p50 > 0 ? Math.min(MAX_FLEET_MS, Math.round(p50 * Math.exp(sigma * z))) : 0;
    const fails = this.uniform() < (this.options.failureRate ?? 0);
    return fails ? { durationMs, error: 'simulated worker failure (fleet failure rate)' } : { durationMs };
  }

  /** mulberry32: small, fast, and the same sequence on every platform. */
  private uniform(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Standard normal draw (Box–Muller). */
  private normal(): number {
    const u = Math.max(this.uniform(), Number.EPSILON);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.uniform());
  }
}

/** Checks fleet options (startMock, `--fleet`); returns the first problem or undefined. */
export function fleetProblem(options: FleetOptions): string | undefined {
  const { seed, failureRate, latencyP50Ms, latencyP99Ms, coldStartMs } = options;
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)) return 'fleet.seed must be an integer 0..4294967295';
  if (failureRate !== undefined && (typeof failureRate !== 'number' || !(failureRate >= 0 && failureRate <= 1))) return 'fleet.failureRate must be a number 0..1';
  for (const [name, value] of Object.entries({ latencyP50Ms, latencyP99Ms, coldStartMs })) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > MAX_FLEET_MS)) return `fleet.${name} must be an integer 0..${MAX_FLEET_MS}`;
  }
  if (latencyP50Ms !== undefined && latencyP99Ms !== undefined && latencyP99Ms < latencyP50Ms) return 'fleet.latencyP99Ms must be >= fleet.latencyP50Ms';
  return undefined;
}
