// REST v2 sandboxes: createSandbox, getSandbox, listSandboxes, terminateSandbox (commands and logs:
// sandbox-exec.ts). Sandboxes live in the caller's account store (kept by --state like every record), so
// another account's sandbox is absent here and answers exactly as an unknown id (404).
import type { MockCore } from '../core.js';
import type { FaultName } from '../options.js';
import { resourceId } from '../state/ids.js';
import type { SandboxRecord } from '../types.js';
import { cpuType, dataCenter, type CpuTypeData } from './catalog-data.js';
import { DEFAULT_CPU_FLAVOR } from './endpoint-shape.js';
import { problem } from './problem.js';
import {
  clampSeconds, IDLE_TIMEOUT, isReply, matchesFilters, MAX_KEPT_TERMINATED, MAX_LIFETIME, MAX_LIVE_SANDBOXES, renderSandbox, sandboxOr404, sandboxPhase,
} from './sandbox-lifecycle.js';
import { commandsInterrupted } from './sandbox-exec.js';
import { endSandboxLog } from './sandbox-logs.js';
import { json, noContent, type V2Handler, type V2Reply } from './types.js';

type Body = Record<string, unknown>;

/** Container disk per vCPU (assumed: the page's example has 10 GB for 2 vCPUs). */
const DISK_GB_PER_VCPU = 5;
/** USD per vCPU-hour of cpu3c (the page's example: 0.026 for 2 vCPUs); other flavors scale by their catalogue price. */
const COST_PER_VCPU_HR = 0.013;
const BASE_FLAVOR_PRICE = cpuType(DEFAULT_CPU_FLAVOR)!.price.securePerVcpu;

const has = (faults: ReadonlySet<FaultName>, fault: FaultName): boolean => faults.size > 0 && faults.has(fault);
const unprocessable = (path: string, message: string): V2Reply => problem(422, `${path.slice('/body/'.length)}: ${message}`, [`${path}: ${message}`]);

function compute(body: Body, flavor: CpuTypeData): { vcpuCount: number; memoryInGb: number } | V2Reply {
  const vcpuCount = typeof body['vcpuCount'] === 'number' ? body['vcpuCount'] : flavor.vcpu.min;
  if (vcpuCount < flavor.vcpu.min || vcpuCount > flavor.vcpu.max) {
    return unprocessable('/body/vcpuCount', `flavor ${flavor.id} offers ${flavor.vcpu.min} to ${flavor.vcpu.max} vCPUs`);
  }
  const most = vcpuCount * flavor.ramGbPerVcpu;
  const memoryInGb = typeof body['memoryInGb'] === 'number' ? body['memoryInGb'] : most;
  if (memoryInGb > most) return unprocessable('/body/memoryInGb', `${vcpuCount} vCPUs of flavor ${flavor.id} come with at most ${most} GB`);
  return { vcpuCount, memoryInGb };
}

/** The record a valid body makes, or the documented refusal (400 both/neither source, 422 unknown names). */
function newSandbox(core: MockCore, body: Body, now: number): SandboxRecord | V2Reply {
  const faults = core.options.faults;
  const templateId = typeof body['templateId'] === 'string' ? body['templateId'] : null;
  const imageName = typeof body['imageName'] === 'string' ? body['imageName'] : null;
  if ((templateId === null) === (imageName === null) && !(templateId !== null && has(faults, 'sandbox-both-sources-accepted'))) {
    const both = templateId !== null;
    const why = both ? 'give templateId or imageName, not both' : 'one of templateId and imageName is required';
    return problem(400, why, [`/body/templateId: ${why}`, `/body/imageName: ${why}`]);
  }
  const template = templateId === null ? undefined : core.store.referenced('templates', templateId);
  if (templateId !== null && !template) return unprocessable('/body/templateId', `unknown template '${templateId}'`);
  const flavorId = typeof body['cpuFlavorId'] === 'string' ? body['cpuFlavorId'] : DEFAULT_CPU_FLAVOR;
  const flavor = cpuType(flavorId);
  if (!flavor) return unprocessable('/body/cpuFlavorId', `unknown CPU flavor '${flavorId}'`);
  const size = compute(body, flavor);
  if ('status' in size) return size;
  const dataCenterId = typeof body['dataCenterId'] === 'string' ? body['dataCenterId'] : null;
  if (dataCenterId !== null && !dataCenter(dataCenterId)) return unprocessable('/body/dataCenterId', `unknown data center '${dataCenterId}'`);
  const id = resourceId();
  const unclamped = has(faults, 'sandbox-timeouts-unclamped');
  const templateEnv = (template?.['env'] ?? {}) as Record<string, string>;
  return {
    id,
    name: typeof body['name'] === 'string' ? body['name'] : `sandbox-${id}`,
    templateId,
    // The fault lets both through: the image wins, as the page's example fields show it.
    imageName,
    image: imageName ?? template!.imageName,
    cpuFlavorId: flavor.id,
    ...size,
    containerDiskInGb: size.vcpuCount * DISK_GB_PER_VCPU,
    costPerHr: Math.round(size.vcpuCount * COST_PER_VCPU_HR * (flavor.price.securePerVcpu / BASE_FLAVOR_PRICE) * 10_000) / 10_000,
    dataCenterId,
    env: { ...templateEnv, ...((body['env'] ?? {}) as Record<string, string>) },
    labels: { ...((body['labels'] ?? {}) as Record<string, string>) },
    idleTimeoutSeconds: clampSeconds(body['idleTimeoutSeconds'], IDLE_TIMEOUT, unclamped),
    maxLifetimeSeconds: clampSeconds(body['maxLifetimeSeconds'], MAX_LIFETIME, unclamped),
    // Fault sandbox-created-running: the sandbox skips CREATING (as if created long ago).
    createdAt: has(faults, 'sandbox-created-running') ? now - 60_000 : now,
    lastActivityAt: now,
    busyUntil: 0,
    terminatedAt: null,
    terminationReason: null,
  };
}

/** Refuses a create past the live bound, and forgets the oldest terminated sandboxes past theirs. */
function roomFor(core: MockCore, now: number): V2Reply | undefined {
  const ended: { id: string; at: number }[] = [];
  let live = 0;
  for (const s of core.store.sandboxes.values()) {
    const phase = sandboxPhase(s, now);
    if (phase.terminated) ended.push({ id: s.id, at: phase.endsAt });
    else live++;
  }
  if (ended.length > MAX_KEPT_TERMINATED) {
    ended.sort((a, b) => a.at - b.at);
    for (const { id } of ended.slice(0, ended.length - MAX_KEPT_TERMINATED)) core.store.sandboxes.delete(id);
  }
  if (live < MAX_LIVE_SANDBOXES) return undefined;
  return problem(503, `no capacity: the account already has ${MAX_LIVE_SANDBOXES} live sandboxes; terminate one or retry later`, undefined, { 'retry-after': '60' });
}

export const sandboxHandlers: Record<string, V2Handler> = {
  createSandbox: (core, ctx) => {
    const now = core.clock.now();
    const record = newSandbox(core, ctx.body as Body, now);
    if (isReply(record)) return record;
    const full = roomFor(core, now);
    if (full) return full;
    core.store.sandboxes.set(record.id, record);
    return json(201, renderSandbox(record, now));
  },
  getSandbox: (core, ctx) => {
    const found = sandboxOr404(core, ctx.params['id']!);
    return isReply(found) ? found : json(200, renderSandbox(found, core.clock.now()));
  },
  listSandboxes: (core, ctx) => {
    const now = core.clock.now();
    const labels = ([] as unknown[]).concat(ctx.query['labels'] ?? []).map(String);
    const anyLabel = has(core.options.faults, 'sandbox-label-filter-any');
    const sandboxes = [...core.store.sandboxes.values()]
      .filter((s) => matchesFilters(s, sandboxPhase(s, now).state, ctx.query['state'], labels, anyLabel))
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((s) => renderSandbox(s, now));
    return json(200, { sandboxes });
  },
  terminateSandbox: (core, ctx) => {
    const found = sandboxOr404(core, ctx.params['id']!);
    if (isReply(found)) return found;
    const now = core.clock.now();
    if (sandboxPhase(found, now).terminated) {
      // Final and safe to retry: a second terminate changes nothing (fault: refuses it).
      return has(core.options.faults, 'sandbox-terminate-not-idempotent') ? problem(409, `sandbox ${found.id} is already terminated`) : noContent();
    }
    found.terminatedAt = now;
    found.terminationReason = 'USER_REQUESTED';
    core.store.sandboxes.touch(found.id);
    endSandboxLog(found, now);
    commandsInterrupted(found);
    return noContent();
  },
};
