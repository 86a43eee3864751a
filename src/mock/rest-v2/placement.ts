// Where a REST v2 pod (or cluster member) can run, from the seeded catalog (catalog-data.ts): the GPU type
// or CPU flavour must exist and be offered in the cloud asked for, within its per-cloud GPU count, with
// stock in a data centre (the preferred ones in order, else the catalog's order) and a host CUDA version
// the request accepts. A request that cannot be placed is a 400 ("this GPU and data center combination
// could not be placed", public createPod description).
import type { MockCore } from '../core.js';
import { cpuType, DATA_CENTERS, dataCenter, gpuType, seededLevel } from './catalog-data.js';

export type PlacementResult =
  | { ok: true; dataCenterId: string; cudaVersion: string | null }
  | { ok: false; path: string; message: string };

export interface PlacementRequest {
  gpu?: { id: string; count: number; allowedCudaVersions?: readonly string[]; minCudaVersion?: string };
  cpu?: { id: string; vcpuCount: number };
  cloud: 'SECURE' | 'COMMUNITY';
  /** dataCenterIds of the request, in order of preference (empty: any). */
  preferred: readonly string[];
  /** The data centre a network volume fixes. */
  fixed?: string;
  /** Members of an Instant Cluster: only GPU types offered for clusters. */
  cluster?: boolean;
  /** globalNetworking asked: only data centres that support global networking (catalog `globalNetwork`). */
  globalNetwork?: boolean;
  /** Path prefix of the compute in the request (`/body/gpu`, `/body/compute`). */
  at: { id: string; count: string; cuda: string };
}

const refuse = (path: string, message: string): PlacementResult => ({ ok: false, path, message });

const versionKey = (v: string): number => {
  const [major = 0, minor = 0] = v.split('.').map(Number);
  return major * 1000 + minor;
};

export function place(core: MockCore, req: PlacementRequest): PlacementResult {
  let resource: string;
  let cudaVersion: string | null = null;
  if (req.gpu) {
    const type = gpuType(req.gpu.id);
    if (!type) return refuse(req.at.id, `GPU type '${req.gpu.id}' is not in the catalog (GET /v2/catalog/gpus)`);
    if (req.cluster && !type.cluster) return refuse(req.at.id, `GPU type '${type.id}' is not offered for clusters`);
    const max = req.cloud === 'SECURE' ? type.maxCount.secure : type.maxCount.community;
    if (max === 0) return refuse(req.at.id, `GPU type '${type.id}' is not offered in ${req.cloud} cloud`);
    if (req.gpu.count > max) return refuse(req.at.count, `at most ${max} GPUs of type '${type.id}' per pod in ${req.cloud} cloud`);
    if (core.unavailableGpuTypes.has(type.id)) return refuse(req.at.id, `no capacity for GPU type '${type.id}' now`);
    const { allowedCudaVersions: allowed, minCudaVersion: min } = req.gpu;
    const hosts = type.cuda.filter((v) => (!allowed || allowed.includes(v)) && (!min || versionKey(v) >= versionKey(min)));
    if ((allowed || min) && hosts.length === 0) return refuse(req.at.cuda, `no '${type.id}' host has an accepted CUDA version (hosts: ${type.cuda.join(', ') || 'none'})`);
    cudaVersion = hosts.length > 0 ? hosts.reduce((a, b) => (versionKey(b) > versionKey(a) ? b : a)) : null;
    resource = type.id;
  } else {
    const flavor = cpuType(req.cpu!.id);
    if (!flavor) return refuse(req.at.id, `CPU flavour '${req.cpu!.id}' is not in the catalog (GET /v2/catalog/cpus)`);
    if (req.cpu!.vcpuCount < flavor.vcpu.min || req.cpu!.vcpuCount > flavor.vcpu.max) {
      return refuse(req.at.count, `CPU flavour '${flavor.id}' takes ${flavor.vcpu.min} to ${flavor.vcpu.max} vCPUs`);
    }
    resource = flavor.id;
  }
  const candidates = req.fixed !== undefined ? [req.fixed] : req.preferred.length > 0 ? req.preferred : DATA_CENTERS.map((d) => d.id);
  const dc = candidates.find((id) => {
    const known = dataCenter(id);
    return known !== undefined && (req.gpu !== undefined || known.cpu) && (!req.globalNetwork || known.globalNetwork) && seededLevel(resource, id) !== 'NONE';
  });
  if (dc === undefined && req.globalNetwork) {
    return refuse('/body/globalNetworking', `'${resource}' could not be placed in a data centre with global networking (GET /v2/catalog/datacenters?globalNetwork=true)`);
  }
  if (dc === undefined) {
    const where = req.fixed !== undefined ? `${req.fixed} (the network volume's data centre)` : req.preferred.length > 0 ? req.preferred.join(', ') : 'any data centre';
    return refuse(req.preferred.length > 0 ? '/body/dataCenterIds' : req.at.id, `'${resource}' could not be placed in ${where}: no stock`);
  }
  return { ok: true, dataCenterId: dc, cudaVersion };
}

/**
 * Why global networking cannot be had (REST v2 createPod / updatePod `globalNetworking`): it needs an NVIDIA
 * GPU and, once the pod is placed, a data centre that supports it. Undefined when it can.
 */
export function globalNetworkRefusal(gpuTypeId: string | undefined, dataCenterId: string | undefined): { path: string; message: string } | undefined {
  const path = '/body/globalNetworking';
  if (gpuTypeId === undefined) return { path, message: 'global networking needs an NVIDIA GPU; a CPU pod cannot have it' };
  if (gpuType(gpuTypeId)?.manufacturer !== 'NVIDIA') return { path, message: `global networking needs an NVIDIA GPU; '${gpuTypeId}' is not one` };
  if (dataCenterId !== undefined && dataCenter(dataCenterId)?.globalNetwork !== true) return { path, message: `data centre ${dataCenterId} does not support global networking` };
  return undefined;
}

/** The catalog's first data centre with stock for a stored pod that names none (REST v1 pods). */
export function defaultDataCenter(core: MockCore, gpuTypeId: string | undefined): string {
  const placed = place(core, {
    ...(gpuTypeId ? { gpu: { id: gpuTypeId, count: 1 } } : { cpu: { id: 'cpu3c', vcpuCount: 2 } }),
    cloud: 'SECURE', preferred: [], at: { id: '', count: '', cuda: '' },
  });
  return placed.ok ? placed.dataCenterId : DATA_CENTERS[0]!.id;
}
