// REST v2 catalog (/v2/catalog/*): seeded GPU types, CPU flavours, data centres and public templates
// (catalog-data.ts). Stock appears only with include=…AVAILABILITY and follows the query's product,
// cloud, count, countries and CUDA filters; GPU types the control API marks unavailable have none.
import type { MockCore } from '../core.js';
import {
  CPU_TYPES, DATA_CENTERS, GPU_TYPES, LEVELS, PUBLIC_TEMPLATES, POOL_PRICES, cpuType, dataCenter, gpuType, seededLevel,
  type CpuTypeData, type DataCenterData, type GpuTypeData, type Level,
} from './catalog-data.js';
import { problem } from './problem.js';
import { renderTemplateV2 } from './templates.js';
import { json, type V2Handler, type V2Reply } from './types.js';

type Query = Record<string, unknown>;

/** A query list: repeated parameters and comma-separated values alike (style form, explode false). */
export function listParam(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items.flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

const best = (levels: Level[]): Level => levels.reduce<Level>((a, b) => (LEVELS.indexOf(b) > LEVELS.indexOf(a) ? b : a), 'NONE');
const lower = (level: Level): Level => (level === 'NONE' ? 'NONE' : LEVELS[LEVELS.indexOf(level) - 1]!);
const cudaNumber = (v: string): number => {
  const [major, minor] = v.split('.');
  return Number(major) * 1000 + Number(minor ?? 0);
};

/** 400 for filters sent without include, product missing with it, or both CUDA filters; else the filters. */
function availabilityFilters(query: Query, include: string, filterNames: readonly string[]): V2Reply | { wanted: boolean; products: string[] } {
  const wanted = listParam(query['include']).includes(include);
  const products = listParam(query['product']);
  if (!wanted) {
    const stray = ['product', ...filterNames].filter((name) => query[name] !== undefined);
    if (stray.length > 0) return problem(400, `${stray.join(', ')} only together with include=${include}`, stray.map((n) => `/query/${n}: needs include=${include}`));
    return { wanted, products };
  }
  if (products.length === 0) return problem(400, `include=${include} needs product (stock differs per product)`, ['/query/product: is required with include']);
  if (query['cudaVersions'] !== undefined && query['minCudaVersion'] !== undefined) {
    return problem(400, 'cudaVersions and minCudaVersion exclude each other', ['/query/minCudaVersion: not together with cudaVersions']);
  }
  return { wanted, products };
}
const isReply = (v: unknown): v is V2Reply => typeof (v as V2Reply).status === 'number';

// ---- GPU types ------------------------------------------------------------------------------

const GPU_FILTERS = ['count', 'cloud', 'countryCodes', 'cudaVersions', 'minCudaVersion'] as const;

interface GpuAsk {
  products: string[];
  count: number;
  cloud: 'SECURE' | 'COMMUNITY';
  countries: string[];
  cudaVersions: string[];
  minCuda: string | undefined;
}

function gpuAsk(query: Query, products: string[]): GpuAsk {
  return {
    products,
    count: query['count'] === undefined ? 1 : Number(query['count']),
    cloud: query['cloud'] === 'COMMUNITY' ? 'COMMUNITY' : 'SECURE',
    countries: listParam(query['countryCodes']),
    cudaVersions: listParam(query['cudaVersions']),
    minCuda: typeof query['minCudaVersion'] === 'string' ? query['minCudaVersion'] : undefined,
  };
}

/** Data centres in the asked countries (all without countryCodes). */
const dataCentersIn = (countries: string[]): readonly DataCenterData[] =>
  countries.length === 0 ? DATA_CENTERS : DATA_CENTERS.filter((d) => countries.includes(d.country));

function gpuCudaVersions(gpu: GpuTypeData, ask: GpuAsk): string[] {
  let versions = [...gpu.cuda];
  if (ask.cudaVersions.length > 0) versions = versions.filter((v) => ask.cudaVersions.includes(v));
  const minCuda = ask.minCuda;
  if (minCuda !== undefined) {
    // A bare major ("12") means any release of it.
    const floor = minCuda.includes('.') ? cudaNumber(minCuda) : Number(minCuda) * 1000;
    versions = versions.filter((v) => cudaNumber(v) >= floor);
  }
  return versions;
}

/** Whether the GPU type can serve the ask at all (product, cloud, count, CUDA). */
function gpuEligible(core: MockCore, gpu: GpuTypeData, ask: GpuAsk): boolean {
  const forProduct = ask.products.some((p) => (p === 'SERVERLESS' ? gpu.pool !== null : p === 'CLUSTER' ? gpu.cluster : true));
  const offered = ask.cloud === 'SECURE' ? gpu.secure : gpu.community;
  const ceiling = ask.cloud === 'SECURE' ? gpu.maxCount.secure : gpu.maxCount.community;
  const cudaOk = ask.cudaVersions.length === 0 && ask.minCuda === undefined ? true : gpuCudaVersions(gpu, ask).length > 0;
  return forProduct && offered && ask.count <= ceiling && cudaOk && !core.unavailableGpuTypes.has(gpu.id);
}

function gpuStock(core: MockCore, gpu: GpuTypeData, ask: GpuAsk): { id: string; name: string; availability: Level }[] {
  const eligible = gpuEligible(core, gpu, ask);
  const ceiling = ask.cloud === 'SECURE' ? gpu.maxCount.secure : gpu.maxCount.community;
  const stock = [];
  for (const dc of dataCentersIn(ask.countries)) {
    const seeded = seededLevel(gpu.id, dc.id);
    if (seeded === 'NONE') continue;
    // Many GPUs in one machine are scarcer: above half the ceiling, one level less.
    const level = !eligible ? 'NONE' : ask.count > ceiling / 2 ? lower(seeded) : seeded;
    stock.push({ id: dc.id, name: dc.name, availability: level });
  }
  return stock;
}

/**
 * Best stock of a GPU type for pods in one cloud (count GPUs, hosts of the given CUDA versions, any when
 * none given): the availability REST v2 listGpuTypes reports for include=AVAILABILITY&product=POD.
 * GraphQL's lowestPrice reads the same, so both surfaces tell one story.
 */
export function podStockLevel(core: MockCore, gpu: GpuTypeData, ask: { count: number; cloud: 'SECURE' | 'COMMUNITY'; cudaVersions: readonly string[] }): Level {
  const stock = gpuStock(core, gpu, { products: ['POD'], count: ask.count, cloud: ask.cloud, countries: [], cudaVersions: [...ask.cudaVersions], minCuda: undefined });
  return best(stock.map((s) => s.availability));
}

function renderGpu(core: MockCore, gpu: GpuTypeData, ask: GpuAsk | undefined): Record<string, unknown> {
  const price: Record<string, number> = { ...gpu.price };
  if (gpu.pool !== null) price['serverless'] = POOL_PRICES[gpu.pool]!;
  const out: Record<string, unknown> = {
    id: gpu.id, name: gpu.name, pool: gpu.pool, manufacturer: gpu.manufacturer, memory: gpu.memory,
    secure: gpu.secure, community: gpu.community, price, maxCount: { ...gpu.maxCount },
  };
  if (!ask) return out;
  const stock = gpuStock(core, gpu, ask);
  out['availability'] = best(stock.map((s) => s.availability));
  if (stock.length > 0) out['dataCenters'] = stock;
  const cuda = gpuCudaVersions(gpu, ask);
  if (cuda.length > 0) out['cudaVersions'] = cuda.map((version) => ({ version, available: out['availability'] !== 'NONE' }));
  return out;
}

const listGpuTypes: V2Handler = (core, { query }) => {
  const filters = availabilityFilters(query, 'AVAILABILITY', GPU_FILTERS);
  if (isReply(filters)) return filters;
  const ask = filters.wanted ? gpuAsk(query, filters.products) : undefined;
  // countryCodes narrows the list to types offered somewhere in those countries.
  const gpus = GPU_TYPES.filter((g) => !ask || ask.countries.length === 0 || gpuStock(core, g, ask).length > 0);
  return json(200, { gpus: gpus.map((g) => renderGpu(core, g, ask)) });
};

const getGpuType: V2Handler = (core, { params, query }) => {
  const gpu = gpuType(params['id']!);
  if (!gpu) return problem(404, `no GPU type '${params['id']}' in the catalog`);
  const filters = availabilityFilters(query, 'AVAILABILITY', GPU_FILTERS);
  if (isReply(filters)) return filters;
  return json(200, renderGpu(core, gpu, filters.wanted ? gpuAsk(query, filters.products) : undefined));
};

// ---- CPU flavours ---------------------------------------------------------------------------

function cpuStock(cpu: CpuTypeData, vcpuCount: number | undefined): { id: string; name: string; availability: Level }[] {
  const fits = vcpuCount === undefined || (vcpuCount >= cpu.vcpu.min && vcpuCount <= cpu.vcpu.max);
  return DATA_CENTERS.filter((dc) => dc.cpu && seededLevel(cpu.id, dc.id) !== 'NONE')
    .map((dc) => ({ id: dc.id, name: dc.name, availability: fits ? seededLevel(cpu.id, dc.id) : 'NONE' }));
}

function renderCpu(cpu: CpuTypeData, ask: { vcpuCount: number | undefined } | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { id: cpu.id, name: cpu.name, group: cpu.group, vcpu: { ...cpu.vcpu }, ramGbPerVcpu: cpu.ramGbPerVcpu, price: { ...cpu.price } };
  if (!ask) return out;
  const stock = cpuStock(cpu, ask.vcpuCount);
  out['availability'] = best(stock.map((s) => s.availability));
  if (stock.length > 0) out['dataCenters'] = stock;
  return out;
}

function cpuAsk(query: Query): V2Reply | { vcpuCount: number | undefined } | undefined {
  const filters = availabilityFilters(query, 'AVAILABILITY', ['vcpuCount']);
  if (isReply(filters)) return filters;
  if (!filters.wanted) return undefined;
  const vcpuCount = query['vcpuCount'] === undefined ? undefined : Number(query['vcpuCount']);
  if (vcpuCount !== undefined && (vcpuCount & (vcpuCount - 1)) !== 0) return problem(400, `vcpuCount ${vcpuCount} is not a power of two`, ['/query/vcpuCount: must be a power of two']);
  return { vcpuCount };
}

const listCpuTypes: V2Handler = (_core, { query }) => {
  const ask = cpuAsk(query);
  if (ask && isReply(ask)) return ask;
  return json(200, { cpus: CPU_TYPES.map((c) => renderCpu(c, ask)) });
};

const getCpuType: V2Handler = (_core, { params, query }) => {
  const cpu = cpuType(params['id']!);
  if (!cpu) return problem(404, `no CPU flavour '${params['id']}' in the catalog`);
  const ask = cpuAsk(query);
  if (ask && isReply(ask)) return ask;
  return json(200, renderCpu(cpu, ask));
};

// ---- data centres ---------------------------------------------------------------------------

function renderDataCenter(core: MockCore, dc: DataCenterData, include: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: dc.id, name: dc.name, region: dc.region, globalNetwork: dc.globalNetwork,
    networkVolumeTypes: [...dc.networkVolumeTypes], compliance: [...dc.compliance],
  };
  if (include.includes('GPU_AVAILABILITY')) {
    const gpus = GPU_TYPES.filter((g) => seededLevel(g.id, dc.id) !== 'NONE')
      .map((g) => ({ id: g.id, name: g.name, availability: core.unavailableGpuTypes.has(g.id) ? 'NONE' : seededLevel(g.id, dc.id) }));
    if (gpus.length > 0) out['gpuAvailability'] = gpus;
  }
  if (include.includes('CPU_AVAILABILITY') && dc.cpu) {
    const cpus = CPU_TYPES.filter((c) => seededLevel(c.id, dc.id) !== 'NONE').map((c) => ({ id: c.id, name: c.name, availability: seededLevel(c.id, dc.id) }));
    if (cpus.length > 0) out['cpuAvailability'] = cpus;
  }
  return out;
}

function matchesDataCenter(dc: DataCenterData, query: Query): boolean {
  const regions = listParam(query['regions']);
  if (regions.length > 0 && !regions.includes(dc.region)) return false;
  const tiers = listParam(query['networkVolumeTypes']);
  if (!tiers.every((t) => (dc.networkVolumeTypes as readonly string[]).includes(t))) return false;
  const compliance = listParam(query['compliance']);
  if (!compliance.every((c) => dc.compliance.includes(c))) return false;
  const global = query['globalNetwork'];
  if (global !== undefined && String(global) !== String(dc.globalNetwork)) return false;
  return true;
}

const listDataCenters: V2Handler = (core, { query }) => {
  const include = listParam(query['include']);
  return json(200, { dataCenters: DATA_CENTERS.filter((d) => matchesDataCenter(d, query)).map((d) => renderDataCenter(core, d, include)) });
};

const getDataCenter: V2Handler = (core, { params, query }) => {
  const dc = dataCenter(params['id']!);
  return dc ? json(200, renderDataCenter(core, dc, listParam(query['include']))) : problem(404, `no data center '${params['id']}' in the catalog`);
};

// ---- public templates -----------------------------------------------------------------------

/** Most templates one listPublicTemplates answer carries (ListPublicTemplatesResponse maxItems). */
export const PUBLIC_TEMPLATES_MAX = 100;

const listPublicTemplates: V2Handler = (_core, { query }) => {
  const source = typeof query['source'] === 'string' ? query['source'] : 'official';
  const templates = PUBLIC_TEMPLATES.filter((t) => t.source === source).slice(0, PUBLIC_TEMPLATES_MAX).map((t) => renderTemplateV2(t.record));
  return json(200, { templates });
};

export const catalogHandlers: Record<string, V2Handler> = {
  listGpuTypes, getGpuType, listCpuTypes, getCpuType, listDataCenters, getDataCenter, listPublicTemplates,
};
