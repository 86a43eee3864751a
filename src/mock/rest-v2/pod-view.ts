// A stored (REST v1-shaped) pod rendered as a REST v2 Pod: the migration map's renames read backwards
// (image, args ← dockerStartCmd, disk ← containerDiskInGb, registry ← containerRegistryAuthId, cloud ←
// cloudType, mounts ← volumeInGb/volumeMountPath/networkVolumeId), the status and actions of
// pod-status.ts, and the networking figures REST v1 shows (public IP 100.64.0.10, port 22 → 10341).
import type { MockCore } from '../core.js';
import { podGpuType, podHourlyCost } from '../rest/render.js';
import type { PodRecord } from '../types.js';
import { podCpuFlavorId, podMemoryGb, podVcpuCount } from '../state/pod-hardware.js';
import { podTemplateId } from '../state/pod-template.js';
import { gpuType } from './catalog-data.js';
import { defaultDataCenter } from './placement.js';
import { allowedActions, podPhase } from './pod-status.js';
import { argsFromWords } from './shared.js';
import { PERSISTENT_MOUNT_FLOOR_GB } from './templates.js';

const PUBLIC_IP = '100.64.0.10';
const FIRST_PUBLIC_PORT = 10341;
const SSH_PROXY_HOST = 'ssh.runpod.io';

const iso = (ms: number): string => new Date(ms).toISOString();
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Where the pod runs: as placed at create, else (REST v1 pods) its volume's, its first preferred or the catalog's first with stock. */
export function podDataCenter(core: MockCore, pod: PodRecord): string {
  const volume = str(pod['networkVolumeId']);
  const ids = pod['dataCenterIds'];
  return str(pod['dataCenterId'])
    ?? (volume ? core.store.networkVolumes.get(volume)?.dataCenterId : undefined)
    ?? (Array.isArray(ids) ? str(ids[0]) : undefined)
    ?? defaultDataCenter(core, podGpuType(pod));
}

export function podMounts(pod: PodRecord): Record<string, unknown> {
  const path = str(pod['volumeMountPath']) ?? '/workspace';
  const volume = str(pod['networkVolumeId']);
  if (volume) return { network: [{ volumeId: volume, path }] };
  if (pod['computeType'] === 'CPU') return {};
  // REST v1's default pod volume is 20 GB; v2 reports no persistent mount for 0.
  const size = typeof pod['volumeInGb'] === 'number' ? pod['volumeInGb'] : 20;
  return size > 0 ? { persistent: { size: Math.max(PERSISTENT_MOUNT_FLOOR_GB, size), path } } : {};
}

/** Mapped ports of a running pod: tcp ports get public ports from 10341 up, http ports go through the proxy. */
function runtimePorts(ports: readonly string[], privateNullForHttp: boolean): Record<string, unknown>[] {
  let next = FIRST_PUBLIC_PORT;
  const mapped: Record<string, unknown>[] = [];
  for (const spec of ports) {
    const [port, type = 'http'] = spec.split('/');
    // Only `<port>/<protocol>` entries map to a port (PortSpec); anything else has no private port to show.
    if (!/^[0-9]{1,5}$/.test(port ?? '')) continue;
    const tcp = type === 'tcp';
    // Fault rest-v2-port-private-null: http ports shown without their private port (outside PodRuntimePort).
    mapped.push({ private: privateNullForHttp && !tcp ? null : Number(port), public: tcp ? next++ : null, type, ip: tcp ? PUBLIC_IP : null });
  }
  return mapped;
}

function computeOf(pod: PodRecord): Record<string, unknown> {
  const flavor = podCpuFlavorId(pod);
  if (flavor !== undefined) {
    // The stored flavour and memory (state/pod-hardware.ts), the figures REST v1 renders too.
    return { cpu: { id: flavor, vcpuCount: (pod['vcpuCount'] as number | undefined) ?? 2, memory: podMemoryGb(pod) } };
  }
  // Totals across the GPUs (GpuConfig.vcpuCount / memory), the stored figures REST v1 renders too.
  return { gpu: { id: podGpuType(pod)!, count: (pod['gpuCount'] as number | undefined) ?? 1, vcpuCount: podVcpuCount(pod), memory: podMemoryGb(pod) } };
}

/** As placed at create, else (REST v1 pods) the newest CUDA of the GPU type's hosts the pod accepts. */
function cudaVersionOf(pod: PodRecord): string | null {
  if (pod['computeType'] === 'CPU') return null;
  const stored = str(pod['cudaVersion']);
  if (stored) return stored;
  const allowed = Array.isArray(pod['allowedCudaVersions']) ? (pod['allowedCudaVersions'] as string[]) : undefined;
  const hosts = (gpuType(podGpuType(pod)!)?.cuda ?? []).filter((v) => !allowed || allowed.length === 0 || allowed.includes(v));
  return hosts.at(-1) ?? null;
}

function clusterOf(pod: PodRecord): Record<string, unknown> | undefined {
  const id = str(pod['clusterId']);
  if (!id) return undefined;
  const role = str(pod['clusterRole']);
  return { id, rank: (pod['clusterRank'] as number | undefined) ?? null, ...(role ? { role } : {}), ...(str(pod['clusterIp']) ? { ip: pod['clusterIp'] } : {}) };
}

export function renderPodV2(core: MockCore, pod: PodRecord): Record<string, unknown> {
  const now = core.clock.now();
  const phase = podPhase(pod, now);
  const running = phase.status === 'RUNNING';
  const ports = Array.isArray(pod['ports']) ? (pod['ports'] as string[]) : [];
  const mapped = runtimePorts(ports, core.options.faults.has('rest-v2-port-private-null'));
  const sshPort = mapped.find((p) => p['private'] === 22 && p['type'] === 'tcp');
  const username = `${pod.id}-64411eb2`;
  const cluster = clusterOf(pod);
  const globalNetworking = pod['globalNetworking'] === true;
  return {
    id: pod.id,
    name: pod.name,
    status: phase.status,
    actions: allowedActions(pod, phase.status),
    image: str(pod['image']) ?? '',
    args: argsFromWords(pod['dockerStartCmd']),
    disk: (pod['containerDiskInGb'] as number | undefined) ?? 50,
    mounts: podMounts(pod),
    ports,
    env: (pod['env'] as Record<string, string> | undefined) ?? {},
    registry: str(pod['containerRegistryAuthId']) ?? null,
    ...computeOf(pod),
    cloud: pod['cloudType'] === 'COMMUNITY' ? 'COMMUNITY' : 'SECURE',
    dataCenterId: podDataCenter(core, pod),
    cudaVersion: cudaVersionOf(pod),
    ssh: {
      proxy: running ? { host: SSH_PROXY_HOST, port: 22, username, command: `ssh ${username}@${SSH_PROXY_HOST}` } : null,
      direct: running && sshPort ? { host: PUBLIC_IP, port: sshPort['public'], username: 'root', command: `ssh root@${PUBLIC_IP} -p ${String(sshPort['public'])}` } : null,
    },
    ...(cluster ? { cluster } : {}),
    template: podTemplateId(pod) ?? null,
    cost: phase.status === 'EXITED' || phase.status === 'TERMINATED' ? 0 : podHourlyCost(pod),
    locked: pod['locked'] === true,
    globalNetworking: globalNetworking ? { enabled: true, ip: privateIp(pod.id), internalDns: `${pod.id}.runpod.internal` } : { enabled: false },
    runtime: running ? { uptime: Math.floor((now - phase.runningAt!) / 1000), ports: mapped } : null,
    createdAt: iso(pod.createdAt),
    startedAt: str(pod.lastStartedAt) ?? null,
  };
}

/** A stable private address from the pod id (global networking). */
function privateIp(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `10.66.${(h >>> 8) & 255}.${Math.max(2, h & 255)}`;
}
