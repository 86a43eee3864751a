// Seeded catalog of the mock (REST v2 /v2/catalog/*, endpoint GPU pools, volume tiers, billing prices):
// GPU types with the ids REST v1 uses, their serverless pools, CPU flavours (REST v1 cpuFlavorIds),
// the 26 data centres of REST v1's dataCenterIds, and RunPod's public templates. Deterministic: stock
// per data centre comes from a fixed hash, and only the control API's unavailable GPU types change it.
import type { TemplateRecord } from '../types.js';

export type Level = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';
export const LEVELS: readonly Level[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];

export interface GpuTypeData {
  id: string;
  name: string;
  pool: string | null;
  manufacturer: 'NVIDIA' | 'AMD';
  memory: number;
  secure: boolean;
  community: boolean;
  price: { secure: number; community: number };
  maxCount: { secure: number; community: number };
  /** CUDA versions of the machines with this type (none for AMD). */
  cuda: readonly string[];
  /** Offered for Instant Clusters. */
  cluster: boolean;
}

const CUDA_RECENT = ['12.4', '12.6', '12.8', '12.9', '13.0'];
const CUDA_ALL = ['11.8', '12.1', '12.2', '12.4', '12.6', '12.8'];
const CUDA_BLACKWELL = ['12.8', '12.9', '13.0'];

type Row = [id: string, name: string, pool: string | null, memory: number, secure: number | null, community: number | null, maxCount: number, cuda: readonly string[], cluster?: boolean];
const GPU_ROWS: Row[] = [
  ['NVIDIA GeForce RTX 4090', 'RTX 4090', 'ADA_24', 24, 0.69, 0.34, 8, CUDA_RECENT],
  ['NVIDIA GeForce RTX 5090', 'RTX 5090', null, 32, 0.94, 0.69, 8, CUDA_BLACKWELL],
  ['NVIDIA GeForce RTX 3090', 'RTX 3090', 'AMPERE_24', 24, 0.46, 0.22, 8, CUDA_ALL],
  ['NVIDIA GeForce RTX 3080', 'RTX 3080', null, 10, null, 0.17, 4, CUDA_ALL],
  ['NVIDIA RTX A4000', 'RTX A4000', 'AMPERE_16', 16, 0.25, 0.17, 8, CUDA_ALL],
  ['NVIDIA RTX A4500', 'RTX A4500', 'AMPERE_16', 20, 0.27, 0.19, 8, CUDA_ALL],
  ['NVIDIA RTX 2000 Ada Generation', 'RTX 2000 Ada', 'AMPERE_16', 16, 0.24, 0.15, 8, CUDA_RECENT],
  ['NVIDIA RTX 4000 Ada Generation', 'RTX 4000 Ada', 'AMPERE_16', 20, 0.26, 0.2, 8, CUDA_RECENT],
  ['NVIDIA RTX A5000', 'RTX A5000', 'AMPERE_24', 24, 0.29, 0.16, 8, CUDA_ALL],
  ['NVIDIA L4', 'L4', 'AMPERE_24', 24, 0.43, null, 8, CUDA_RECENT],
  ['NVIDIA RTX A6000', 'RTX A6000', 'AMPERE_48', 48, 0.49, 0.33, 8, CUDA_ALL],
  ['NVIDIA A40', 'A40', 'AMPERE_48', 48, 0.4, null, 8, CUDA_ALL],
  ['NVIDIA L40', 'L40', 'ADA_48_PRO', 48, 0.99, null, 8, CUDA_RECENT],
  ['NVIDIA L40S', 'L40S', 'ADA_48_PRO', 48, 0.86, 0.79, 8, CUDA_RECENT],
  ['NVIDIA RTX 6000 Ada Generation', 'RTX 6000 Ada', 'ADA_48_PRO', 48, 0.77, 0.74, 8, CUDA_RECENT],
  ['NVIDIA A100 80GB PCIe', 'A100 PCIe', 'AMPERE_80', 80, 1.64, 1.19, 8, CUDA_ALL],
  ['NVIDIA A100-SXM4-80GB', 'A100 SXM', 'AMPERE_80', 80, 1.74, 1.39, 8, CUDA_ALL, true],
  ['NVIDIA H100 PCIe', 'H100 PCIe', 'ADA_80_PRO', 80, 2.39, 1.99, 8, CUDA_RECENT],
  ['NVIDIA H100 80GB HBM3', 'H100 SXM', 'ADA_80_PRO', 80, 2.69, 2.69, 8, CUDA_RECENT, true],
  ['NVIDIA H100 NVL', 'H100 NVL', 'ADA_80_PRO', 94, 2.79, 2.59, 8, CUDA_RECENT],
  ['NVIDIA H200', 'H200 SXM', 'HOPPER_141', 141, 3.59, 3.59, 8, CUDA_RECENT, true],
  ['NVIDIA B200', 'B200', 'BLACKWELL_180', 180, 5.99, null, 8, CUDA_BLACKWELL, true],
  ['NVIDIA RTX PRO 6000 Blackwell Server Edition', 'RTX PRO 6000', 'BLACKWELL_96', 96, 1.84, null, 8, CUDA_BLACKWELL],
  ['AMD Instinct MI300X OAM', 'MI300X', null, 192, 2.49, null, 8, []],
];

export const GPU_TYPES: readonly GpuTypeData[] = GPU_ROWS.map(([id, name, pool, memory, secure, community, maxCount, cuda, cluster]) => ({
  id, name, pool, memory, cuda, cluster: cluster === true,
  manufacturer: id.startsWith('AMD') ? 'AMD' : 'NVIDIA',
  secure: secure !== null,
  community: community !== null,
  price: { secure: secure ?? 0, community: community ?? 0 },
  maxCount: { secure: secure === null ? 0 : maxCount, community: community === null ? 0 : Math.min(maxCount, 4) },
}));

/** Serverless price per GPU-hour of each pool (USD). */
export const POOL_PRICES: Readonly<Record<string, number>> = {
  AMPERE_16: 0.58, AMPERE_24: 0.68, ADA_24: 1.12, AMPERE_48: 1.22, ADA_48_PRO: 1.91, AMPERE_80: 2.72,
  ADA_80_PRO: 4.18, HOPPER_141: 5.58, BLACKWELL_96: 3.4, BLACKWELL_180: 8.64,
};

/** Default GPU of the mock (REST v1 billing and endpoints without gpuTypeIds). */
export const DEFAULT_GPU_TYPE = 'NVIDIA GeForce RTX 4090';

export const gpuType = (id: string): GpuTypeData | undefined => GPU_TYPES.find((g) => g.id === id);
export const isGpuPool = (pool: string): boolean => pool in POOL_PRICES;
/** GPU type ids of a serverless pool, in catalog order. */
export const typesOfPool = (pool: string): string[] => GPU_TYPES.filter((g) => g.pool === pool).map((g) => g.id);

export interface CpuTypeData {
  id: string;
  name: string;
  group: string;
  vcpu: { min: number; max: number };
  ramGbPerVcpu: number;
  price: { securePerVcpu: number; serverlessPerVcpu: number };
}

export const CPU_TYPES: readonly CpuTypeData[] = [
  { id: 'cpu3c', name: 'Compute-Optimized', group: 'Gen 3', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 2, price: { securePerVcpu: 0.03, serverlessPerVcpu: 0.04 } },
  { id: 'cpu3g', name: 'General Purpose', group: 'Gen 3', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 4, price: { securePerVcpu: 0.035, serverlessPerVcpu: 0.045 } },
  { id: 'cpu3m', name: 'Memory-Optimized', group: 'Gen 3', vcpu: { min: 2, max: 32 }, ramGbPerVcpu: 8, price: { securePerVcpu: 0.05, serverlessPerVcpu: 0.06 } },
  { id: 'cpu5c', name: 'Compute-Optimized', group: 'Gen 5', vcpu: { min: 2, max: 64 }, ramGbPerVcpu: 2, price: { securePerVcpu: 0.04, serverlessPerVcpu: 0.05 } },
  { id: 'cpu5g', name: 'General Purpose', group: 'Gen 5', vcpu: { min: 2, max: 64 }, ramGbPerVcpu: 4, price: { securePerVcpu: 0.045, serverlessPerVcpu: 0.055 } },
  { id: 'cpu5m', name: 'Memory-Optimized', group: 'Gen 5', vcpu: { min: 2, max: 64 }, ramGbPerVcpu: 8, price: { securePerVcpu: 0.06, serverlessPerVcpu: 0.07 } },
];

export const cpuType = (id: string): CpuTypeData | undefined => CPU_TYPES.find((c) => c.id === id);

export type Region = 'NORTH_AMERICA' | 'EUROPE' | 'ASIA' | 'OCEANIA';
export interface DataCenterData {
  id: string;
  name: string;
  region: Region;
  country: string;
  globalNetwork: boolean;
  /** Network volume tiers, the primary one first (a create without `type` gets it). */
  networkVolumeTypes: readonly ('STANDARD' | 'HIGH_PERFORMANCE')[];
  compliance: readonly string[];
  /** Offers CPU flavours. */
  cpu: boolean;
}

const S = ['STANDARD'] as const;
const SH = ['STANDARD', 'HIGH_PERFORMANCE'] as const;
const HS = ['HIGH_PERFORMANCE', 'STANDARD'] as const;
const EU = ['GDPR', 'ISO_IEC_27001'];
const US = ['SOC_2_TYPE_2', 'ISO_IEC_27001'];
type DcRow = [id: string, name: string, region: Region, country: string, globalNetwork: boolean, volumes: readonly ('STANDARD' | 'HIGH_PERFORMANCE')[], compliance: readonly string[], cpu: boolean];
const DC_ROWS: DcRow[] = [
  ['EU-RO-1', 'EU Romania 1', 'EUROPE', 'RO', true, SH, [...EU, 'SOC_2_TYPE_2'], true],
  ['CA-MTL-1', 'CA Montreal 1', 'NORTH_AMERICA', 'CA', true, S, ['ISO_IEC_27001', 'RENEWABLE'], true],
  ['EU-SE-1', 'EU Sweden 1', 'EUROPE', 'SE', true, S, [...EU, 'RENEWABLE'], true],
  ['US-IL-1', 'US Illinois 1', 'NORTH_AMERICA', 'US', false, S, US, false],
  ['EUR-IS-1', 'EUR Iceland 1', 'EUROPE', 'IS', false, S, [...EU, 'RENEWABLE'], true],
  ['EU-CZ-1', 'EU Czechia 1', 'EUROPE', 'CZ', true, SH, EU, false],
  ['US-TX-3', 'US Texas 3', 'NORTH_AMERICA', 'US', true, S, [...US, 'HIPAA'], true],
  ['EUR-IS-2', 'EUR Iceland 2', 'EUROPE', 'IS', false, S, [...EU, 'RENEWABLE'], false],
  ['US-KS-2', 'US Kansas 2', 'NORTH_AMERICA', 'US', true, SH, [...US, 'HIPAA', 'PCI_DSS'], true],
  ['US-GA-2', 'US Georgia 2', 'NORTH_AMERICA', 'US', true, S, US, true],
  ['US-WA-1', 'US Washington 1', 'NORTH_AMERICA', 'US', false, [], ['SOC_2_TYPE_2'], false],
  ['US-TX-1', 'US Texas 1', 'NORTH_AMERICA', 'US', false, S, US, false],
  ['CA-MTL-3', 'CA Montreal 3', 'NORTH_AMERICA', 'CA', true, SH, ['ISO_IEC_27001', 'RENEWABLE'], true],
  ['EU-NL-1', 'EU Netherlands 1', 'EUROPE', 'NL', true, S, [...EU, 'ISO_14001'], true],
  ['US-TX-4', 'US Texas 4', 'NORTH_AMERICA', 'US', true, HS, [...US, 'SOC_1_TYPE_2'], false],
  ['US-CA-2', 'US California 2', 'NORTH_AMERICA', 'US', true, S, US, true],
  ['US-NC-1', 'US North Carolina 1', 'NORTH_AMERICA', 'US', false, S, ['SOC_2_TYPE_2'], false],
  ['OC-AU-1', 'OC Australia 1', 'OCEANIA', 'AU', false, S, ['ISO_IEC_27001'], false],
  ['US-DE-1', 'US Delaware 1', 'NORTH_AMERICA', 'US', true, S, [...US, 'FISMA_HIGH', 'ITAR'], false],
  ['EUR-IS-3', 'EUR Iceland 3', 'EUROPE', 'IS', false, [], [...EU, 'RENEWABLE'], false],
  ['CA-MTL-2', 'CA Montreal 2', 'NORTH_AMERICA', 'CA', false, S, ['ISO_IEC_27001'], false],
  ['AP-JP-1', 'AP Japan 1', 'ASIA', 'JP', false, S, ['ISO_IEC_27001'], true],
  ['EUR-NO-1', 'EUR Norway 1', 'EUROPE', 'NO', true, S, [...EU, 'RENEWABLE'], false],
  ['EU-FR-1', 'EU France 1', 'EUROPE', 'FR', true, SH, [...EU, 'HIPAA'], true],
  ['US-KS-3', 'US Kansas 3', 'NORTH_AMERICA', 'US', false, S, US, false],
  ['US-GA-1', 'US Georgia 1', 'NORTH_AMERICA', 'US', false, S, US, true],
];

export const DATA_CENTERS: readonly DataCenterData[] = DC_ROWS.map(([id, name, region, country, globalNetwork, networkVolumeTypes, compliance, cpu]) => ({
  id, name, region, country, globalNetwork, networkVolumeTypes, compliance, cpu,
}));

export const dataCenter = (id: string): DataCenterData | undefined => DATA_CENTERS.find((d) => d.id === id);

/** FNV-1a of a string: the fixed "random" behind seeded stock. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Seeded stock of a GPU type or CPU flavour in a data centre; NONE means the data centre does not offer it. */
export function seededLevel(resourceId: string, dataCenterId: string): Level {
  // The mock's default GPU is offered everywhere, so fixtures never depend on the hash.
  const h = hash(`${resourceId}|${dataCenterId}`);
  if (resourceId === DEFAULT_GPU_TYPE) return LEVELS[1 + (h % 3)]!;
  return h % 5 < 2 ? 'NONE' : LEVELS[1 + (h % 3)]!;
}

/** RunPod's public templates (listPublicTemplates), by catalog slice. Never stored: not the caller's. */
export type TemplateSource = 'official' | 'verified' | 'community';
type PublicRow = [source: TemplateSource, id: string, name: string, image: string, serverless: boolean, category: 'NVIDIA' | 'AMD' | 'CPU', ports: string[]];
const PUBLIC_ROWS: PublicRow[] = [
  ['official', 'runpod-torch-v280', 'Runpod Pytorch 2.8.0', 'runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404', false, 'NVIDIA', ['8888/http', '22/tcp']],
  ['official', 'runpod-torch-v240', 'Runpod Pytorch 2.4.0', 'runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04', false, 'NVIDIA', ['8888/http', '22/tcp']],
  ['official', 'runpod-ubuntu', 'Runpod Ubuntu', 'runpod/base:0.6.2-cpu', false, 'CPU', ['22/tcp']],
  ['official', 'runpod-comfyui', 'ComfyUI', 'runpod/comfyui:latest', false, 'NVIDIA', ['8188/http', '22/tcp']],
  ['official', 'runpod-rocm', 'Runpod ROCm PyTorch', 'rocm/pytorch:rocm6.2_ubuntu22.04_py3.10_pytorch_release_2.3.0', false, 'AMD', ['8888/http', '22/tcp']],
  ['official', 'runpod-worker-vllm', 'vLLM worker', 'runpod/worker-v1-vllm:v2.7.0', true, 'NVIDIA', []],
  ['official', 'runpod-worker-comfy', 'ComfyUI worker', 'runpod/worker-comfyui:5.1.0-base', true, 'NVIDIA', []],
  ['verified', 'verified-text-gen-webui', 'Text Generation WebUI', 'valyriantech/text-generation-webui-oneclick:latest', false, 'NVIDIA', ['7860/http', '22/tcp']],
  ['verified', 'verified-ollama', 'Ollama', 'ollama/ollama:latest', false, 'NVIDIA', ['11434/http']],
  ['community', 'community-jupyter-lab', 'Jupyter Lab (community)', 'jupyter/base-notebook:latest', false, 'CPU', ['8888/http']],
  ['community', 'community-whisper-worker', 'Whisper worker (community)', 'community/worker-whisper:1.0', true, 'NVIDIA', []],
];

export const PUBLIC_TEMPLATES: readonly { source: TemplateSource; record: TemplateRecord }[] = PUBLIC_ROWS.map(
  ([source, id, name, image, serverless, category, ports]) => ({
    source,
    record: {
      id, name, imageName: image, isServerless: serverless, isPublic: true, category, ports, env: {},
      containerDiskInGb: serverless ? 10 : 20, volumeInGb: serverless ? 0 : 20, volumeMountPath: '/workspace',
      dockerStartCmd: [], startSsh: !serverless, startJupyter: ports.includes('8888/http'),
    },
  }),
);

/** A public catalog template by id (getTemplate may answer these too: "catalog or owned"). */
export const publicTemplate = (id: string): TemplateRecord | undefined => PUBLIC_TEMPLATES.find((t) => t.record.id === id)?.record;
