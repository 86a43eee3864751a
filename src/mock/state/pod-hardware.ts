// What a pod runs on, fixed when it is created and stored with it, so every surface renders the same
// stored figures (rule RESTV2-CROSS-006): the CPU flavour of a CPU pod and the pod's RAM.
//   CPU pod: the first flavour asked for; RAM = vCPUs × the flavour's RAM per vCPU (catalog), as REST v2's
//            `cpu.memory` is documented.
//   GPU pod: RAM = GPUs × the larger of the RAM per GPU asked for (REST v1 minRAMPerGPU) and the host's
//            allotment per GPU (31 GB, assumed: the figure REST v1 examples show for one GPU); vCPUs likewise
//            GPUs × the larger of minVCPUPerGPU and the host's 8 per GPU (assumed), as REST v2's gpu.vcpuCount.
import { cpuType } from '../rest-v2/catalog-data.js';

/** RAM per GPU a host allots to a pod when nothing higher was asked for (GB, assumed). */
export const HOST_RAM_PER_GPU_GB = 31;
/** vCPUs per GPU a host allots to a pod when nothing higher was asked for (assumed). */
export const HOST_VCPU_PER_GPU = 8;
/** RAM per vCPU of a flavour missing from the catalog (GB, assumed). */
const DEFAULT_RAM_PER_VCPU_GB = 4;
/** REST v1 defaults of createPod (specs/rest-v1 PodCreateInput). */
const DEFAULT_VCPU_COUNT = 2;
const DEFAULT_GPU_COUNT = 1;

type Fields = Record<string, unknown>;

const firstString = (v: unknown): string | undefined => (Array.isArray(v) && typeof v[0] === 'string' && v[0] !== '' ? v[0] : undefined);
const count = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** The CPU flavour a CPU pod runs on (undefined for GPU pods). */
export function podCpuFlavorId(pod: Fields): string | undefined {
  if (pod['computeType'] !== 'CPU') return undefined;
  const stored = pod['cpuFlavorId'];
  return typeof stored === 'string' && stored !== '' ? stored : firstString(pod['cpuFlavorIds']) ?? 'cpu3c';
}

/** The pod's RAM in GB: the stored figure, else (records from before it was stored) derived the same way. */
export function podMemoryGb(pod: Fields): number {
  const stored = pod['memoryInGb'];
  if (typeof stored === 'number') return stored;
  const flavor = podCpuFlavorId(pod);
  if (flavor !== undefined) return count(pod['vcpuCount'], DEFAULT_VCPU_COUNT) * (cpuType(flavor)?.ramGbPerVcpu ?? DEFAULT_RAM_PER_VCPU_GB);
  return count(pod['gpuCount'], DEFAULT_GPU_COUNT) * Math.max(HOST_RAM_PER_GPU_GB, count(pod['minRAMPerGPU'], 0));
}

/** The pod's vCPUs: the stored figure, else (GPU pods) GPUs × the larger of minVCPUPerGPU and the host's allotment. */
export function podVcpuCount(pod: Fields): number {
  const stored = pod['vcpuCount'];
  if (typeof stored === 'number') return stored;
  if (podCpuFlavorId(pod) !== undefined) return DEFAULT_VCPU_COUNT;
  return count(pod['gpuCount'], DEFAULT_GPU_COUNT) * Math.max(HOST_VCPU_PER_GPU, count(pod['minVCPUPerGPU'], 0));
}

/** The hardware fields stored with a new pod. */
export function podHardware(fields: Fields): Fields {
  const flavor = podCpuFlavorId(fields);
  return { ...(flavor !== undefined ? { cpuFlavorId: flavor } : {}), memoryInGb: podMemoryGb(fields), vcpuCount: podVcpuCount(fields) };
}
