// Endpoint releases (REST v2 listEndpointReleases): a new release whenever what the workers run changes
// (container from the template, env, hardware, volumes, locations), from any surface, including an
// update of the template the endpoint uses. Worker bounds, scaling, timeout and name make none.
// Kept on the endpoint record (persisted with it), newest last, at most MAX_RELEASES.
import { shellQuote } from '../../migration/index.js';
import type { EndpointRecord, TemplateRecord } from '../types.js';

/** Releases kept per endpoint; older ones are dropped (the version counter keeps counting). */
export const MAX_RELEASES = 20;

export interface ReleaseDiffEntry {
  field: string;
  old: unknown;
  new: unknown;
}

export interface ReleaseRecord {
  version: number;
  /** Epoch ms. */
  createdAt: number;
  diff: ReleaseDiffEntry[];
  /** Image of the release (what its workers run). */
  image: string | null;
}

type Config = Record<string, unknown>;

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** What the workers of the endpoint run, by REST v2 field name. */
export function workerConfig(endpoint: EndpointRecord, template: TemplateRecord | undefined): Config {
  const cpu = endpoint['computeType'] === 'CPU';
  const volumes = [...new Set([...list(endpoint['networkVolumeIds']), ...(typeof endpoint['networkVolumeId'] === 'string' ? [endpoint['networkVolumeId']] : [])])];
  const registry = template?.['containerRegistryAuthId'];
  return {
    image: template?.imageName ?? null,
    args: list(template?.['dockerStartCmd']).map((w) => shellQuote(String(w))).join(' '),
    disk: template?.['containerDiskInGb'] ?? null,
    env: { ...(template?.['env'] as object | undefined), ...(endpoint['env'] as object | undefined) },
    ports: list(template?.['ports']),
    registry: typeof registry === 'string' && registry !== '' ? registry : null,
    'gpu.types': cpu ? null : list(endpoint['gpuTypeIds']),
    'gpu.count': cpu ? null : (endpoint['gpuCount'] ?? 1),
    cpu: cpu ? { ids: list(endpoint['cpuFlavorIds']), vcpuCount: endpoint['vcpuCount'] ?? 2 } : null,
    networkVolumes: volumes,
    dataCenterIds: list(endpoint['dataCenterIds']),
  };
}

export const releasesOf = (endpoint: EndpointRecord): ReleaseRecord[] => list(endpoint['releases']) as ReleaseRecord[];
export const currentRelease = (endpoint: EndpointRecord): number => (typeof endpoint['releaseVersion'] === 'number' ? endpoint['releaseVersion'] : 0);

/** Records a release on the endpoint when its worker configuration changed (the first call: release 1). */
export function noteRelease(endpoint: EndpointRecord, template: TemplateRecord | undefined, now: number): void {
  const config = workerConfig(endpoint, template);
  const previous = endpoint['releaseConfig'] as Config | undefined;
  const diff: ReleaseDiffEntry[] = [];
  if (previous) {
    for (const [field, value] of Object.entries(config)) {
      if (JSON.stringify(previous[field]) !== JSON.stringify(value)) diff.push({ field, old: previous[field] ?? null, new: value });
    }
    if (diff.length === 0) return;
  }
  const version = currentRelease(endpoint) + 1;
  const releases = [...releasesOf(endpoint), { version, createdAt: now, diff, image: config['image'] as string | null }];
  endpoint['releases'] = releases.slice(-MAX_RELEASES);
  endpoint['releaseVersion'] = version;
  endpoint['releaseConfig'] = config;
}
