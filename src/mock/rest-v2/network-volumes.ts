// REST v2 network volumes over the shared store: dataCenter ⇄ stored dataCenterId (migration map);
// the tier (`type`, v2 only) is stored beside. REST v1 volumes have no tier and read as STANDARD.
import type { NetworkVolumeRecord } from '../types.js';
import { dataCenter } from './catalog-data.js';
import { problem } from './problem.js';
import { fromResult, renameErrorPaths, type Body } from './shared.js';
import { json, noContent, type V2Handler } from './types.js';

/** REST v2 size bounds (NetworkVolume.size); REST v1 allowed 0–4000, so older volumes show clamped. */
export const VOLUME_SIZE_MIN_GB = 10;
export const VOLUME_SIZE_MAX_GB = 4096;

export type VolumeTier = 'STANDARD' | 'HIGH_PERFORMANCE';
export const volumeTier = (v: NetworkVolumeRecord): VolumeTier => ((v as { type?: VolumeTier }).type === 'HIGH_PERFORMANCE' ? 'HIGH_PERFORMANCE' : 'STANDARD');

export function renderNetworkVolumeV2(v: NetworkVolumeRecord): Record<string, unknown> {
  return {
    id: v.id,
    name: v.name,
    size: Math.min(VOLUME_SIZE_MAX_GB, Math.max(VOLUME_SIZE_MIN_GB, v.size)),
    dataCenter: v.dataCenterId,
    type: volumeTier(v),
  };
}

const createNetworkVolume: V2Handler = (core, { body }) => {
  const b = body as Body;
  const dc = dataCenter(String(b['dataCenter']));
  if (!dc) return problem(422, `data center '${String(b['dataCenter'])}' is not in the catalog`, ['/body/dataCenter: unknown data center (see listDataCenters)']);
  // Left out, the tier is the data centre's primary one; a data centre without tiers takes no volume.
  const type = (b['type'] as VolumeTier | undefined) ?? dc.networkVolumeTypes[0];
  if (type === undefined || !dc.networkVolumeTypes.includes(type)) {
    const offered = dc.networkVolumeTypes.length === 0 ? 'no network volumes' : dc.networkVolumeTypes.join(', ');
    return problem(422, `data center ${dc.id} offers ${offered}`, [`/body/${b['type'] === undefined ? 'dataCenter' : 'type'}: ${type ?? 'no tier'} is not offered in ${dc.id}`]);
  }
  const result = core.store.createNetworkVolume({ name: b['name'], size: b['size'], dataCenterId: dc.id });
  if (result.ok) (result.value as NetworkVolumeRecord & { type?: VolumeTier }).type = type;
  return fromResult(result, 201, renderNetworkVolumeV2);
};

const updateNetworkVolume: V2Handler = (core, { params, body }) => {
  const result = core.store.updateNetworkVolume(params['id']!, body as Body);
  return fromResult(result.ok ? result : renameErrorPaths(result, {}), 200, renderNetworkVolumeV2);
};

export const networkVolumeHandlers: Record<string, V2Handler> = {
  listNetworkVolumes: (core) => json(200, { networkVolumes: [...core.store.networkVolumes.values()].map(renderNetworkVolumeV2) }),
  createNetworkVolume,
  getNetworkVolume: (core, { params }) => {
    const volume = core.store.networkVolumes.get(params['id']!);
    return volume ? json(200, renderNetworkVolumeV2(volume)) : problem(404, 'network volume not found');
  },
  updateNetworkVolume,
  deleteNetworkVolume: (core, { params }) => {
    const result = core.store.deleteNetworkVolume(params['id']!);
    if (result.ok) return noContent();
    // Attached to a pod or endpoint: REST v2 documents no 400 on delete; such a state conflict is 409 elsewhere in v2.
    return problem(result.status === 404 ? 404 : 409, result.message);
  },
};
