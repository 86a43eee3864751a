// REST v2 clusters: a cluster record in the shared store plus `compute.podCount` member pods (ordinary
// pods carrying clusterId/clusterRank/clusterRole/clusterIp), created and deleted together. Members
// are hidden from listPods unless includeClusterPods=true and refuse pod update/delete/terminate (409).
import type { MockCore } from '../core.js';
import { resourceId } from '../state/ids.js';
import type { ClusterRecord, PodRecord } from '../types.js';
import { podPhase } from './pod-status.js';
import { place } from './placement.js';
import { renderPodV2 } from './pod-view.js';
import { problem, problemFromFailure } from './problem.js';
import { wordsFromArgs, type Body } from './shared.js';
import { json, noContent, type V2Handler, type V2Reply } from './types.js';

const CLUSTER_CIDR = '10.65.0.0/16';
const VXLAN_PORT = 4789;
const FIRST_VXLAN_ID = 101;
/** The primary's SSH address while RUNNING (REST v1's public IP and first mapped port). */
const PRIMARY_SSH = 'ssh root@100.64.0.10 -p 10341';

const ROLES: Partial<Record<ClusterRecord['type'], [primary: string, other: string]>> = {
  SLURM: ['SLURM_CONTROLLER', 'SLURM_COMPUTE'],
  RAY: ['RAY_HEAD', 'RAY_WORKER'],
};

/** Member pods, by rank. */
export function clusterMembers(core: MockCore, clusterId: string): PodRecord[] {
  return [...core.store.pods.values()]
    .filter((p) => p['clusterId'] === clusterId)
    .sort((a, b) => ((a['clusterRank'] as number) ?? 0) - ((b['clusterRank'] as number) ?? 0));
}

export function renderCluster(core: MockCore, cluster: ClusterRecord): Record<string, unknown> {
  const now = core.clock.now();
  const members = clusterMembers(core, cluster.id);
  const byStatus: Record<string, number> = {};
  for (const pod of members) {
    const status = podPhase(pod, now).status;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }
  const primary = members[0];
  const primaryStatus = primary ? podPhase(primary, now).status : undefined;
  return {
    id: cluster.id,
    name: cluster.name,
    type: cluster.type,
    compute: cluster.compute,
    dataCenterId: cluster.dataCenterId,
    pods: { total: members.length, byStatus },
    network: { cidr: CLUSTER_CIDR, vxlanId: cluster.vxlanId, vxlanPort: VXLAN_PORT },
    ...(primary ? { primary: { podId: primary.id, status: primaryStatus, ...(primaryStatus === 'RUNNING' ? { sshEndpoint: PRIMARY_SSH } : {}) } } : {}),
    createdAt: new Date(cluster.createdAt).toISOString(),
  };
}

type Fields = { ok: true; fields: Body } | { ok: false; reply: V2Reply };
const refuse = (status: number, path: string, message: string): Fields => ({ ok: false, reply: problem(status, message, [`${path}: ${message}`]) });

/** The stored fields every member pod shares, or a refusal (documented statuses of createCluster: 400, 422). */
function memberFields(core: MockCore, body: Body, compute: ClusterRecord['compute']): Fields {
  if (typeof body['image'] !== 'string') return refuse(400, '/body/image', 'image is required: a cluster takes no template, so its pods need an image');
  const mounts = body['mounts'] as { persistent?: { size: number; path: string }; network?: { volumeId: string; path: string }[] } | undefined;
  const network = mounts?.network?.[0];
  if (mounts?.persistent && network) return refuse(400, '/body/mounts', 'persistent and network mounts exclude each other');
  const fields: Body = {
    imageName: body['image'],
    computeType: 'GPU',
    gpuTypeIds: [compute.gpuTypeId],
    gpuCount: compute.gpuCountPerPod,
    cloudType: 'SECURE',
    env: { ...((body['env'] as Record<string, string> | undefined) ?? {}) },
    createdThrough: 'restV2',
  };
  if (typeof body['args'] === 'string') fields['dockerStartCmd'] = wordsFromArgs(body['args']);
  if (body['disk'] !== undefined) fields['containerDiskInGb'] = body['disk'];
  if (body['ports'] !== undefined) fields['ports'] = body['ports'];
  const preferred = Array.isArray(body['dataCenterIds']) ? (body['dataCenterIds'] as string[]) : [];
  if (network) {
    const volume = core.store.networkVolumes.get(network.volumeId);
    // createCluster documents no 404: an unknown reference is unprocessable input.
    if (!volume) return refuse(422, '/body/mounts/network/0/volumeId', `network volume ${network.volumeId} does not exist`);
    if (preferred.length > 0 && !preferred.includes(volume.dataCenterId)) {
      return refuse(400, '/body/dataCenterIds', `network volume ${volume.id} is in ${volume.dataCenterId}, which dataCenterIds excludes`);
    }
    Object.assign(fields, { networkVolumeId: volume.id, volumeMountPath: network.path, volumeInGb: 0 });
  } else {
    Object.assign(fields, mounts?.persistent ? { volumeInGb: mounts.persistent.size, volumeMountPath: mounts.persistent.path } : { volumeInGb: 0 });
  }
  // One data centre for the whole cluster, with stock of its GPU type.
  const placed = place(core, {
    gpu: { id: compute.gpuTypeId, count: compute.gpuCountPerPod }, cloud: 'SECURE', preferred, cluster: true,
    ...(fields['networkVolumeId'] !== undefined ? { fixed: core.store.networkVolumes.get(network!.volumeId)!.dataCenterId } : {}),
    at: { id: '/body/compute/gpuTypeId', count: '/body/compute/gpuCountPerPod', cuda: '/body/compute' },
  });
  if (!placed.ok) return refuse(400, placed.path, placed.message);
  fields['dataCenterId'] = placed.dataCenterId;
  if (placed.cudaVersion !== null) fields['cudaVersion'] = placed.cudaVersion;
  const env = fields['env'] as Record<string, string>;
  if (body['startSsh'] === true && core.store.sshKeys.length > 0 && env['PUBLIC_KEY'] === undefined) env['PUBLIC_KEY'] = core.store.sshKeys.join('\n');
  return { ok: true, fields };
}

const createCluster: V2Handler = (core, { body }) => {
  const input = body as Body;
  const compute = input['compute'] as ClusterRecord['compute'];
  const shared = memberFields(core, input, compute);
  if (!shared.ok) return shared.reply;
  const fields = shared.fields;
  const cluster: ClusterRecord = {
    id: resourceId(),
    name: input['name'] as string,
    type: input['type'] as ClusterRecord['type'],
    compute: { gpuTypeId: compute.gpuTypeId, gpuCountPerPod: compute.gpuCountPerPod, podCount: compute.podCount },
    dataCenterId: fields['dataCenterId'] as string,
    vxlanId: Math.max(FIRST_VXLAN_ID - 1, ...[...core.store.clusters.values()].map((c) => c.vxlanId)) + 1,
    createdAt: core.clock.now(),
  };
  const roles = ROLES[cluster.type];
  const created: string[] = [];
  for (let rank = 0; rank < compute.podCount; rank++) {
    const member = {
      ...fields,
      env: { ...(fields['env'] as Record<string, string>) },
      name: `${cluster.name}-node-${rank}`,
      clusterId: cluster.id,
      clusterRank: rank,
      clusterIp: `10.65.${(rank + 2) >> 8}.${(rank + 2) & 255}`,
      ...(roles ? { clusterRole: rank === 0 ? roles[0] : roles[1] } : {}),
    };
    const result = core.store.createPod(member);
    if (!result.ok) {
      // All or nothing: a refused member (capacity) undoes the members made so far.
      for (const id of created) core.store.deletePod(id);
      return problemFromFailure(result);
    }
    created.push(result.value.id);
  }
  core.store.clusters.set(cluster.id, cluster);
  return json(201, renderCluster(core, cluster));
};

function withCluster(core: MockCore, id: string, then: (cluster: ClusterRecord) => V2Reply): V2Reply {
  const cluster = core.store.clusters.get(id);
  return cluster ? then(cluster) : problem(404, `cluster ${id} not found`);
}

export const clusterHandlers: Record<string, V2Handler> = {
  listClusters: (core) => json(200, { clusters: [...core.store.clusters.values()].map((c) => renderCluster(core, c)) }),
  createCluster,
  getCluster: (core, { params }) => withCluster(core, params['id']!, (c) => json(200, renderCluster(core, c))),
  updateCluster: (core, { params, body }) => withCluster(core, params['id']!, (c) => {
    const name = (body as { name?: string }).name;
    if (name !== undefined) c.name = name;
    return json(200, renderCluster(core, c));
  }),
  deleteCluster: (core, { params }) => withCluster(core, params['id']!, (c) => {
    for (const pod of clusterMembers(core, c.id)) core.store.deletePod(pod.id);
    core.store.clusters.delete(c.id);
    return noContent();
  }),
  listClusterPods: (core, { params }) => withCluster(core, params['id']!, (c) => json(200, { pods: clusterMembers(core, c.id).map((p) => renderPodV2(core, p)) })),
};
